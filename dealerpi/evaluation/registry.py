"""The evaluators the engine names in its game definitions, and their words for the dealer display.

Every evaluator takes ``(hole, board)`` card strings and returns an int, bigger = better, comparable only
with the same evaluator's results; ``omaha_low8`` returns None when the hand has no qualifying low.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from dealerpi.evaluation import fileem, high, low, omaha

_LOGGER = logging.getLogger(__name__)

Evaluator = Callable[[Sequence[str], Sequence[str]], int | None]

EVALUATORS: dict[str, Evaluator] = {
    "high": high.evaluate,
    "omaha_high": omaha.evaluate_high,
    "omaha_low8": low.evaluate_omaha_low8,
    "fileem": fileem.evaluate,
}

_DESCRIBERS: dict[str, Callable[[int], str]] = {
    "high": high.describe,
    "omaha_high": omaha.describe_high,
    "omaha_low8": low.describe_low,
    "fileem": fileem.describe,
}


def describe(evaluator: str, strength: int) -> str:
    """Words for a strength from the named evaluator, e.g. "flush, ace high", "7-5-4-2-A low"."""
    try:
        describer = _DESCRIBERS[evaluator]
    except KeyError:
        raise ValueError(f"unknown evaluator {evaluator!r}; known: {', '.join(_DESCRIBERS)}") from None
    return describer(strength)
