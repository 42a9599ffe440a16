"""Replaying many PHH files on every core, with results streamed in file order.

A research corpus can hold millions of hands, so nothing here keeps a result longer than it takes to hand it
on: workers (processes: the replay is pure Python, so threads would share one core) read and replay a batch
of files each and send back one small :class:`HandLine` per hand, not the record; the caller consumes them as
they come. At most a few batches per worker are in flight, so memory does not grow with the number of hands
(only with the largest single file, which one worker reads whole, and the longest folder listing). Batches
are sent in order and collected in order, so the output is the same whatever the number of workers.
"""

from __future__ import annotations

import functools
import itertools
import multiprocessing
import os
from collections import deque
from collections.abc import Iterator, Sequence
from multiprocessing.pool import AsyncResult
from pathlib import Path
from typing import Any, NamedTuple

from dealerpi.evaluation.high import start_tables
from dealerpi.history.phh import Amount, PHHError, find_files, load_file
from dealerpi.history.replay import ReplayResult, replay

BATCH_FILES = 128
"""A batch of files for a worker closes at this many files (about 85 KB of the shared corpus's PHH, so its
1,835 files are 15 batches, 7 or 8 for each of two workers): enough batches that the workers finish together
(with 5 batches of 256 KB, one worker replayed 54 % of the hands), few enough that handing them over costs
little (the pool's threads spend about 0.5 ms of CPU a batch, a hand costs about 0.3 ms). Counting files
needs no ``stat`` of each file. A batch bounds how many files are in flight, not their hands: a large
``.phhs`` file is read whole by one worker either way."""

BATCHES_PER_WORKER = 4
"""Batches in flight per worker: keeps each worker busy while the parent prints, and bounds the memory."""


class HandLine(NamedTuple):
    """What the caller needs of one replayed hand. ``json`` is the hand's ``--json`` object, when asked."""

    name: str
    status: str
    reason: str
    json: dict[str, Any] | None


class FileReport(NamedTuple):
    """One file's hands, or why the file (or a path given) could not be read."""

    file: str
    unreadable: str | None
    hands: list[HandLine]


def default_jobs() -> int:
    """The cores this process may run on (a cpuset or ``taskset`` may allow fewer than the machine has)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:      # not on Linux
        return os.cpu_count() or 1


def replay_stream(paths: Sequence[str | Path], *, jobs: int = 1, with_json: bool = False) -> Iterator[FileReport]:
    """Replay every hand under ``paths`` with ``jobs`` processes; yield one report per file, in file order.

    A path that names nothing is reported as unreadable where it stands in ``paths``."""
    batches = _batches(paths)
    work = functools.partial(_replay_batch, with_json=with_json)
    ahead: list[tuple[str, ...] | list[FileReport]] = []    # read until a second batch to replay shows up
    for batch in batches:
        ahead.append(batch)
        if sum(isinstance(b, tuple) for b in ahead) > 1:
            break
    if jobs <= 1 or sum(isinstance(b, tuple) for b in ahead) <= 1:    # a pool would only add its start-up
        for batch in itertools.chain(ahead, batches):
            yield from batch if isinstance(batch, list) else work(batch)
        return
    # fork: the workers start with the modules already imported (spawn would import them again, ~0.1 s each)
    # and with the evaluation tables built here once, not once in each worker (docs/replay.md, "Speed").
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    if method == "fork":
        start_tables()
    with multiprocessing.get_context(method).Pool(jobs) as pool:
        pending: deque[AsyncResult[list[FileReport]] | list[FileReport]] = deque()
        for batch in itertools.chain(ahead, batches):
            pending.append(batch if isinstance(batch, list) else pool.apply_async(work, (batch,)))
            while len(pending) > jobs * BATCHES_PER_WORKER:
                yield from _get(pending.popleft())
        while pending:
            yield from _get(pending.popleft())


def _get(item: AsyncResult[list[FileReport]] | list[FileReport]) -> list[FileReport]:
    return item if isinstance(item, list) else item.get()


def _batches(paths: Sequence[str | Path]) -> Iterator[tuple[str, ...] | list[FileReport]]:
    """Batches of files to replay, and (as a ready list of reports) each path that names no file."""
    for path in paths:
        try:
            files = find_files(path)
        except PHHError as exc:
            yield [FileReport(str(path), str(exc), [])]
            continue
        batch: list[str] = []
        failure = None
        try:
            for file in files:
                batch.append(str(file))       # a str pickles smaller than a Path
                if len(batch) >= BATCH_FILES:
                    yield tuple(batch)
                    batch = []
        except PHHError as exc:     # a folder that cannot be listed: said, and the rest of this path skipped
            failure = [FileReport(str(path), str(exc), [])]
        if batch:
            yield tuple(batch)
        if failure:
            yield failure


def _replay_batch(files: tuple[str, ...], *, with_json: bool) -> list[FileReport]:
    """Runs in a worker: read and replay each file; a file that cannot be read is reported, not raised."""
    reports = []
    for file in files:
        try:
            records = load_file(Path(file))
        except PHHError as exc:
            reports.append(FileReport(file, str(exc), []))
            continue
        hands = []
        for record in records:
            result = replay(record)
            hands.append(HandLine(record.name, result.status.value, result.reason,
                                  hand_json(result) if with_json else None))
        reports.append(FileReport(file, None, hands))
    return reports


def hand_json(result: ReplayResult) -> dict[str, Any]:
    """One hand of ``dealerpi replay --json`` (docs/replay.md)."""
    record = result.record
    out: dict[str, Any] = {
        "file": record.source, "index": record.index, "variant": record.variant, "status": result.status.value,
        "finishing_stacks": _amounts(result.finishing_stacks), "recorded": _amounts(result.recorded),
    }
    if result.reason:
        out["reason"] = result.reason
    return out


def _amounts(values: Sequence[Amount] | None) -> list[int | float] | None:
    if values is None:
        return None
    return [int(v) if isinstance(v, int) or v == v.to_integral_value() else float(v) for v in values]
