"""The boards to evaluate, as index arrays into the stub: every combination (exact) or a seeded sample."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from functools import lru_cache

import numpy as np
import numpy.typing as npt

_LOGGER = logging.getLogger(__name__)

Draws = npt.NDArray[np.intp]
CHUNK = 1 << 17
"""Boards evaluated at once: big enough that numpy's per-call cost vanishes, small enough for the cache."""


@lru_cache(maxsize=32)
def combinations(n: int, m: int) -> Draws:
    """Every m-subset of range(n), one per row in lexicographic order (read-only; cached per size).

    The m-subsets starting with ``a`` are ``a`` followed by ``a + 1 +`` the (m-1)-subsets of range(n - a - 1),
    so each size is a few concatenations of the smaller ones rather than a Python loop per row.
    """
    if m == 0:
        result = np.zeros((1, 0), dtype=np.intp)
    elif m > n:
        result = np.zeros((0, m), dtype=np.intp)
    else:
        parts = []
        for first in range(n - m + 1):
            rest = combinations(n - first - 1, m - 1) + (first + 1)
            column = np.full((len(rest), 1), first, dtype=np.intp)
            parts.append(np.hstack((column, rest)))
        result = np.vstack(parts)
    result.setflags(write=False)
    return result


def exact_chunks(n: int, m: int) -> Iterator[Draws]:
    """Every board's unseen cards, as row chunks of indices into a stub of n cards."""
    every = combinations(n, m)
    for start in range(0, len(every), CHUNK):
        yield every[start:start + CHUNK]


def sample_chunks(n: int, m: int, samples: int, seed: int) -> Iterator[Draws]:
    """``samples`` boards drawn uniformly without replacement from the stub (NumPy's PCG64, seeded)."""
    rng = np.random.default_rng(seed)
    for start in range(0, samples, CHUNK):
        size = min(CHUNK, samples - start)
        keys = rng.random((size, n))
        yield np.argpartition(keys, m - 1, axis=1)[:, :m] if m < n else np.argsort(keys, axis=1)
