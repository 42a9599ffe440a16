"""Suite-wide test settings.

Hypothesis' per-example deadline (200 ms by default) is a timing assertion: on a shared 2-core machine a busy
minute makes an example slow and the test fails for no fault of the code. Speed is checked by the benchmarks
in bench/, never by timed tests, so the deadline is off for every property test.
"""

from hypothesis import settings

settings.register_profile("dealerpi", deadline=None)
settings.load_profile("dealerpi")
