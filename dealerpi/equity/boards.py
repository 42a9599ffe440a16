"""The boards to evaluate, as sums of per-card features: every combination (exact) or a seeded sample.

A game describes each card by a few integer features that add up over a board without carries (rank keys,
suit counters, one bit per card), so a board is known by its sums alone: an (F, n) array of features of the
n stub cards gives (F, B) sums for B boards. For exact enumeration the sums of every m-subset are built the
way the subsets themselves are listed in lexicographic order: the subsets starting with card ``a`` are ``a``
plus the (m-1)-subsets of the cards after it, which are a tail of the list of all (m-1)-subsets. So each size
is n slices and additions of the previous one, and no (C(n, m), m) index array is ever made (1.7 million
rows preflop in hold'em).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from math import comb

import numpy as np
import numpy.typing as npt

_LOGGER = logging.getLogger(__name__)

Features = npt.NDArray[np.int64]
CHUNK = 1 << 16
"""Boards evaluated at once: big enough that numpy's per-call cost vanishes, small enough for the cache."""
SAMPLE_CHUNK = 1 << 14
"""Sampled boards at once: File 'em's (boards, 16) rank arrays are big, and the broadcast's memory is capped."""


def _subset_sums(features: Features, size: int, base: Features) -> Features:
    """``base`` plus the sums of every ``size``-subset of the columns of ``features``, in lexicographic order."""
    n = features.shape[1]
    level = features + base[:, None]
    for k in range(2, size + 1):
        # the (k-1)-subsets whose first card is a + 1 or later start at C(n, k-1) - C(n-a-1, k-1)
        parts = [features[:, a:a + 1] + level[:, comb(n, k - 1) - comb(n - a - 1, k - 1):]
                 for a in range(n - k + 1)]
        level = np.concatenate(parts, axis=1)
    return level


def exact_sums(features: Features, missing: int, base: Features) -> Iterator[Features]:
    """``base`` plus the feature sums of every ``missing``-subset of the stub, (F, B) chunks of boards.

    A chunk is a view of one buffer that the next chunk overwrites: use it before asking for the next.
    """
    width, n = features.shape
    if missing <= 1:
        yield base[:, None] + (features if missing else np.zeros((width, 1), dtype=np.int64))
        return
    rest = _subset_sums(features, missing - 1, base)
    buffer = np.empty((width, max(CHUNK, comb(n - 1, missing - 1))), dtype=np.int64)
    filled = 0
    for first in range(n - missing + 1):
        tail = rest[:, comb(n, missing - 1) - comb(n - first - 1, missing - 1):]
        if filled + tail.shape[1] > buffer.shape[1]:
            yield buffer[:, :filled]
            filled = 0
        np.add(features[:, first:first + 1], tail, out=buffer[:, filled:filled + tail.shape[1]])
        filled += tail.shape[1]
    yield buffer[:, :filled]


def sample_sums(features: Features, missing: int, samples: int, seed: int, base: Features) -> Iterator[Features]:
    """``base`` plus the feature sums of ``samples`` boards, each ``missing`` stub cards drawn uniformly
    without replacement (NumPy's default generator, PCG64, seeded: the same seed gives the same boards).

    Each board draws ``missing`` indices with replacement and draws again while two coincide: given that they
    are all different, every ordered choice of distinct cards is equally likely, so every subset is too.
    """
    n = features.shape[1]
    rng = np.random.default_rng(seed)
    for start in range(0, samples, SAMPLE_CHUNK):
        size = min(SAMPLE_CHUNK, samples - start)
        draws = rng.integers(0, n, (size, missing))
        redo = np.arange(size)
        while len(redo):
            ordered = np.sort(draws[redo], axis=1)
            redo = redo[(ordered[:, 1:] == ordered[:, :-1]).any(axis=1)]
            draws[redo] = rng.integers(0, n, (len(redo), missing))
        yield base[:, None] + features[:, draws].sum(axis=2)
