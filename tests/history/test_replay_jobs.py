"""``dealerpi replay --jobs N`` (dealerpi.history.replay_jobs): the same output from any number of processes, in
file order, streamed (files are read only as the output gets to them), and the JSON laid out as before."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from dealerpi.history import phh, replay_jobs
from dealerpi.history.replay_cli import main

FOLD_OUT = ("variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n"
            "starting_stacks = [100, 100, 100]\nactions = ['d dh p1 AsAd', 'd dh p2 7c2d', 'd dh p3 8h3s', "
            "'p3 cbr 6', 'p1 f', 'p2 f']\n")
# p3 raises to 6 and both blinds fold: p1 100 - 1 = 99, p2 100 - 2 = 98, p3 100 + 1 + 2 = 103 (POT-8).
MATCHING = FOLD_OUT + "finishing_stacks = [99, 98, 103]\n"
WRONG = FOLD_OUT + "finishing_stacks = [100, 98, 102]\n"
WRONG_REASON = "mismatch: final stacks differ: p1 99 (recorded 100), p3 103 (recorded 102)"


def _corpus(folder: Path, count: int, wrong: set[int]) -> list[Path]:
    folder.mkdir(exist_ok=True)
    files = [folder / f"h{number:02}.phh" for number in range(count)]
    for number, file in enumerate(files):
        file.write_text(WRONG if number in wrong else MATCHING)
    return files


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_any_number_of_jobs_prints_the_same_lines_in_file_order(
        tmp_path: Path, jobs: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """30 one-hand files, a batch each (so --jobs 2 shares them between two processes); the hands of files 7
    and 23 record a wrong result: 28 match, 2 mismatch, in file order, exit 1."""
    monkeypatch.setattr(replay_jobs, "BATCH_FILES", 1)
    _corpus(tmp_path, 30, {7, 23})
    assert main(["--jobs", jobs, str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == [f"{tmp_path}/h07.phh: {WRONG_REASON}", f"{tmp_path}/h23.phh: {WRONG_REASON}"]
    assert out[2].startswith("30 hands: 28 match, 2 mismatch; 0 unreadable files; ")
    assert len(out) == 3


@pytest.mark.parametrize("jobs", [1, 2])
def test_files_are_read_only_as_the_output_gets_to_them(tmp_path: Path, jobs: int,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory flat in the number of hands: with one file a batch and one batch in flight per worker, exactly
    jobs x 1 + 1 files are taken from the folder's listing when the first report comes out (2 for one job,
    3 for two). The last of 12 files, removed then, is found missing: it had not been read."""
    monkeypatch.setattr(replay_jobs, "BATCH_FILES", 1)
    monkeypatch.setattr(replay_jobs, "BATCHES_PER_WORKER", 1)
    files = _corpus(tmp_path, 12, set())
    taken: list[Path] = []

    def find_files(path: str | Path) -> Iterator[Path]:
        for file in phh.find_files(path):
            taken.append(file)
            yield file

    monkeypatch.setattr(replay_jobs, "find_files", find_files)
    reports = replay_jobs.replay_stream([tmp_path], jobs=jobs)
    first = next(reports)
    assert len(taken) == jobs + 1
    files[-1].unlink()
    rest = list(reports)
    assert [first.file] + [r.file for r in rest] == [str(f) for f in files]
    assert all(r.unreadable is None and [h.status for h in r.hands] == ["match"] for r in [first, *rest[:-1]])
    assert rest[-1].hands == [] and rest[-1].unreadable is not None
    assert rest[-1].unreadable.startswith(f"{files[-1]}: cannot read: ")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_json_is_streamed_in_the_layout_of_json_dumps(tmp_path: Path, jobs: str, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """The streamed object reads back to itself and prints as ``json.dumps(indent=1)`` prints it, byte for
    byte: hands (with their nested lists), an unreadable path, the summary."""
    monkeypatch.setattr(replay_jobs, "BATCH_FILES", 1)
    _corpus(tmp_path / "c", 3, {1})
    assert main(["--json", "--jobs", jobs, str(tmp_path / "c"), str(tmp_path / "missing")]) == 1
    out = capsys.readouterr().out
    report = json.loads(out)
    assert out == json.dumps(report, indent=1) + "\n"
    assert [hand["status"] for hand in report["hands"]] == ["match", "mismatch", "match"]
    assert report["hands"][1]["finishing_stacks"] == [99, 98, 103]
    assert report["unreadable"] == [{"file": str(tmp_path / "missing"),
                                     "reason": f"{tmp_path}/missing: no such file or folder"}]
    assert report["summary"]["statuses"] == {"match": 2, "mismatch": 1}


def test_json_with_no_hand_at_all(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--json", str(tmp_path / "missing")]) == 1
    out = capsys.readouterr().out
    report = json.loads(out)
    assert out == json.dumps(report, indent=1) + "\n"
    assert report["hands"] == [] and report["summary"]["hands"] == 0


@pytest.mark.parametrize("value", ["0", "-2", "two"])
def test_jobs_must_be_a_whole_number_of_at_least_one(value: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--jobs", value, str(tmp_path)])
    assert info.value.code == 2
    assert f"--jobs takes a whole number of processes, at least 1 (got '{value}')" in capsys.readouterr().err


def test_a_folder_that_cannot_be_listed_is_reported_and_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """a/ is replayed, b/ cannot be listed (said, exit 1), and what comes after it in that path (c/) is not
    replayed: 1 hand, 1 unreadable."""
    for name in "abc":
        _corpus(tmp_path / name, 1, set())
    real_scandir = os.scandir

    def scandir(path: Path) -> Iterator[os.DirEntry[str]]:
        if Path(path).name == "b":
            raise PermissionError(13, "Permission denied")
        return real_scandir(path)

    monkeypatch.setattr("dealerpi.history.phh.os.scandir", scandir)
    assert main(["--jobs", "1", str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{tmp_path}: invalid: {tmp_path}/b: cannot list the folder: [Errno 13] Permission denied"
    assert out[1].startswith("1 hands: 1 match; 1 unreadable files; ")


def test_files_come_in_the_order_of_sorted_paths(tmp_path: Path) -> None:
    """A folder's files come before those of a folder named after them only if they sort first by name:
    ``a/x.phh`` (part ``a``) before ``a.phh``, ``a.phh`` before ``a0/y.phh`` ('.' < '0'); other names and
    a bare ``.phh`` (no suffix, as Path.suffix says) are left out."""
    for name in ("a.phh", "a/x.phh", "a0/y.phh", "a/z.phhs", "b/.phh", "b/notes.txt"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("")
    expected = [tmp_path / name for name in ("a/x.phh", "a/z.phhs", "a.phh", "a0/y.phh")]
    assert list(phh.find_files(tmp_path)) == expected
    assert sorted(p for p in tmp_path.rglob("*") if p.suffix in phh.SUFFIXES and p.is_file()) == expected


def test_a_reader_that_stops_early_gets_no_traceback(tmp_path: Path) -> None:
    """``dealerpi replay --json DIR | head``: the pipe closes before the output is written; exit 1, nothing
    on stderr."""
    _corpus(tmp_path, 3, set())
    proc = subprocess.Popen([sys.executable, "-m", "dealerpi", "replay", "--json", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 1
    assert err == b""
