"""A real full disk (issue 12, item 2): the journal folder on a 64 KiB tmpfs, filled to the last byte.

The child runs in its own user and mount namespace (``unshare --user --map-root-user --mount``), so it may
mount a tmpfs without being root and the mount vanishes with it. There the daemon's Controller (fake devices,
the real journal folder) sits three players and then takes inputs until the kernel says ENOSPC; it prints
what it saw as JSON. Expected: the failing input is refused and not applied, the alert is on the dealer's
and every seat's display, the daemon carries on; once space is freed the timer's probe resumes inputs; and
what the journal holds (read back cold) is exactly the inputs that were accepted: nothing lost, no phantom.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from daemon_kit import CONFIG

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import json, sys
from pathlib import Path
from daemon_kit import FakeDecks
from dealerpi.config import load
from dealerpi.table.controller import Controller
from dealerpi.table.durable import PROBE_EVERY
from dealerpi.devices import FakeDevices
from dealerpi.engine import Table
from dealerpi.journal.folder import JournalFolder, entries_from, folder_for, segments_of

disk = Path(sys.argv[1])
config = load(disk / "table.toml")
journal, recovered = JournalFolder.open(config.journal, Table.from_snapshot)
now = [100.0]
controller = Controller(config, FakeDevices(config), journal, clock=lambda: now[0], decks=FakeDecks())
controller.replay(recovered.entries, recovered)
accepted = []
def submit(entry):
    if controller.submit(entry).accepted:
        accepted.append(entry)
for seat in (1, 2, 3):
    submit({"type": "sit", "seat": seat, "player": f"P{seat}", "stack": 300})
filler = disk / "filler"
with filler.open("wb") as out:             # everything the tmpfs has left, but for a few KiB
    free = __import__("os").statvfs(disk).f_bavail * __import__("os").statvfs(disk).f_frsize
    out.write(b"x" * max(0, free - 3 * 4096))
n = 0
while controller.journal_fault is None and n < 2000:
    submit({"type": "chips", "seat": 1 + n % 3, "amount": 0, "pad": "x" * 200})   # refused by the engine, journaled
    n += 1
fault = controller.journal_fault
dealer = [a.message for a in controller.dealer_view().alerts]
seats = [controller.engine_views[s].alert.message for s in (1, 2, 3)]
refused = controller.submit({"type": "button", "seat": 2})
filler.unlink()
now[0] += PROBE_EVERY
controller.tick()
resumed = controller.journal_fault is None
submit({"type": "button", "seat": 2})
journal.close()
cold = list(entries_from(folder_for(config.journal), segments_of(folder_for(config.journal))))
print(json.dumps({"fault": fault, "dealer": dealer, "seats": seats, "refused": refused.reason,
                  "resumed": resumed, "tries": n, "cold": cold, "accepted_count": len(accepted),
                  "still_fine": controller.journal_fault is None}))
"""


def test_a_real_full_tmpfs_pauses_inputs_loses_nothing_and_resumes(tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    shell = f'mount -t tmpfs -o size=64k tmpfs "{disk}" && cp "{tmp_path}/table.toml" "{disk}/" && ' \
            f'exec "{sys.executable}" "{script}" "{disk}"'
    (tmp_path / "table.toml").write_text(CONFIG)
    env = {**os.environ, "PYTHONPATH": f"{ROOT}:{ROOT / 'tests'}"}
    done = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", shell],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.splitlines()[-1])
    # the kernel wrote what fit (a short write, cut back) or nothing (ENOSPC): either way the same fault
    fault = seen["fault"]
    assert fault == "No space left on device (ENOSPC)" or (
        fault.startswith("short write (") and fault.endswith(" bytes); disk full? (ENOSPC)")), fault
    alert = f"journal failing: inputs paused: {fault}. Free space or replace the SD card"
    assert seen["dealer"][0] == alert
    assert seen["seats"] == [alert] * 3
    assert seen["refused"] == f"journal failing: inputs paused ({fault})"
    assert seen["resumed"] is True
    assert seen["still_fine"] is True                                  # the input after the pause journaled
    cold = seen["cold"]
    # nothing phantom, nothing lost: the config's table, the three players, every chips input that was
    # journaled before the disk filled (each refused by the engine: it was journaled, so it counts), the button
    assert cold[0]["type"] == "table" and [e["type"] for e in cold[1:4]] == ["sit"] * 3
    assert [e["type"] for e in cold[4:-1]] == ["chips"] * (seen["tries"] - 1)
    assert cold[-1] == {"type": "button", "seat": 2}
