"""The boards to evaluate, as sums of per-card features: every combination (exact) or a seeded sample.

A game describes each card by a few integer features that add up over a board without carries (rank keys,
suit counters, one bit per card), so a board is known by its sums alone. For exact enumeration the sums of
every m-subset of the stub are built the way the subsets themselves are listed in lexicographic order: the
subsets starting with card ``a`` are ``a`` plus the (m-1)-subsets of the cards after it, which are the tail of
the list of all (m-1)-subsets. So each size is n slices and additions of the previous one, and no
(C(n, m), m) index array is ever made (1.7 million rows preflop in hold'em).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from math import comb

import numpy as np
import numpy.typing as npt

_LOGGER = logging.getLogger(__name__)

Features = npt.NDArray[np.int64]
CHUNK = 1 << 17
"""Boards evaluated at once: big enough that numpy's per-call cost vanishes, small enough for the cache."""


def _subset_sums(features: Features, size: int) -> Features:
    """Sums of every ``size``-subset of the rows of ``features``, in lexicographic order of the subsets."""
    n = len(features)
    level = features
    for k in range(2, size + 1):
        # the (k-1)-subsets with first card >= a + 1 start at C(n, k-1) - C(n-a-1, k-1)
        parts = [features[a] + level[comb(n, k - 1) - comb(n - a - 1, k - 1):] for a in range(n - k + 1)]
        level = np.concatenate(parts)
    return level


def exact_sums(features: Features, missing: int) -> Iterator[Features]:
    """The feature sums of every ``missing``-subset of the stub (one row per board), in chunks."""
    n, width = features.shape
    if missing == 0:
        yield np.zeros((1, width), dtype=np.int64)
        return
    if missing == 1:
        yield features
        return
    rest = _subset_sums(features, missing - 1)
    pending: list[Features] = []
    rows = 0
    for first in range(n - missing + 1):
        pending.append(features[first] + rest[comb(n, missing - 1) - comb(n - first - 1, missing - 1):])
        rows += len(pending[-1])
        if rows >= CHUNK:
            yield np.concatenate(pending)
            pending, rows = [], 0
    if pending:
        yield np.concatenate(pending)


def sample_sums(features: Features, missing: int, samples: int, seed: int) -> Iterator[Features]:
    """The feature sums of ``samples`` boards, each ``missing`` stub cards drawn uniformly without
    replacement (NumPy's default generator, PCG64, seeded: the same seed gives the same boards)."""
    n = len(features)
    rng = np.random.default_rng(seed)
    for start in range(0, samples, CHUNK):
        size = min(CHUNK, samples - start)
        keys = rng.random((size, n))
        draws = np.argpartition(keys, missing - 1, axis=1)[:, :missing] if missing else keys[:, :0].astype(int)
        yield features[draws].sum(axis=1)
