"""Fuzzing the journal's edge (issue 12, "Bad input never a traceback").

``dealerpi replay --journal`` reads with the daemon's reader, so for any bytes it answers exactly as the daemon's
start-up would: a journal the daemon reads (a torn last line dropped) replays with status 0, and one the daemon
refuses is refused with status 2 and the same message naming the file and line. No bytes make it raise. Every
journal line, however malformed its values, is accepted or refused by the engine, never raised: a line the
engine raised on stopped the daemon from starting.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from journal_kit import act, cards, sit, table

from dealerpi.engine import Table
from dealerpi.history.journal_replay import main as replay_journal
from dealerpi.journal.file import JournalError, read

HAND = [table(seats=4), sit(1), sit(2), sit(3, 250, "Cé"), {"type": "button", "seat": 1}, {"type": "start"},
        *cards("Ah", "Kd", "7c", "2s", "9h", "Qc"), act(1, "raise", 9), act(2, "fold")]
RAW = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in HAND).encode()

TYPES = ("table", "sit", "leave", "move", "away", "back", "chips", "button", "start", "straddle", "card", "act",
         "exposed", "boxed", "burn", "extra", "dead", "misdeal", "run", "show", "muck", "clock", "tick", "undo",
         "nonsense")
KEYS = ("seat", "to", "player", "stack", "amount", "card", "action", "times", "count", "seconds", "post", "wait",
        "reserved", "bomb", "game", "seats", "blinds", "rules", "levels", "ante", "minutes", "policies", "limits")
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 400) | st.floats(allow_nan=False)
    | st.sampled_from(["Ah", "As", "nlhe", "raise", "fold", "call", "home", "", "x"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=3),
    max_leaves=5)
inputs = st.builds(lambda kind, rest: {**rest, "type": kind}, st.sampled_from(TYPES),
                   st.dictionaries(st.sampled_from(KEYS), json_values, max_size=4))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, len(RAW)), st.binary(min_size=1, max_size=3)), min_size=1, max_size=3))
def test_replay_answers_as_the_daemon_reads(tmp_path: Path, edits: list[tuple[int, bytes]]) -> None:
    raw = bytearray(RAW)
    for at, chunk in edits:
        raw[at:at + len(chunk)] = chunk
    path = tmp_path / "journal.jsonl"
    path.write_bytes(bytes(raw))
    refusal: str | None = None
    try:
        read(path)
    except JournalError as error:
        refusal = str(error)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = replay_journal(["--journal", str(path), "--json"])
    if refusal is None:
        assert status == 0, err.getvalue()
        assert set(json.loads(out.getvalue())) >= {"seats", "hands", "rejected", "alerts", "next"}
    else:
        assert refusal.startswith(f"{path}: line ")
        assert status == 2 and out.getvalue() == ""
        assert err.getvalue() == f"dealerpi replay: {refusal}; the daemon would not start from this journal\n"


@settings(max_examples=300, deadline=None)
@given(st.lists(inputs, min_size=1, max_size=4))
def test_malformed_inputs_are_refused_never_raised(extra: list[dict[str, Any]]) -> None:
    """After the start of a hand (seat 1 to act), any input is an outcome; a refused one changes nothing."""
    played = Table()
    for entry in HAND[:12]:
        assert played.apply(entry).accepted
    for entry in extra:
        before = played.snapshot()
        outcome = played.apply(entry)
        if not outcome.accepted:
            assert outcome.reason
            assert played.snapshot() == before
