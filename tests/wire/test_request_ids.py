"""Issue 22, fault probe 4: a request id is kept with the answer it got; a duplicate gets that answer.

Before the fix a refused input sent again with the same request id was answered ``{"accepted": true,
"duplicate": true}``, so a room whose first answer was lost recorded a refused ``sit`` as accepted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from console_kit import journal_lines, make, start

from dealerpi.engine import Outcome
from dealerpi.table.api.server import RIDS_KEPT, _Client

SIT = [{"type": "sit", "seat": s, "player": n, "stack": 250} for s, n in ((1, "Ann"), (2, "Bob"), (3, "Cy"))]
SEAT_TAKEN = {"type": "sit", "seat": 1, "player": "Dee", "stack": 250}


def hello(api: Any, role: str) -> _Client:
    peer = _Client(writer=None)  # type: ignore[arg-type]   # handle() never writes
    assert "result" in api.handle(peer, {"id": 1, "method": "hello", "params": {"role": role}})
    return peer


def send(api: Any, peer: _Client, entry: dict[str, Any], **params: Any) -> dict[str, Any]:
    reply = api.handle(peer, {"id": 2, "method": "input", "params": {"entry": entry, **params}})
    assert "result" in reply, reply
    result: dict[str, Any] = reply["result"]
    return result


def test_a_refused_input_resent_gets_its_refusal_again_across_a_restart(tmp_path: Path) -> None:
    """The room's ``sit`` on a taken seat (rid ``room:c7``) is refused; the room, its answer lost, sends it
    again: refused again, marked duplicate, and journaled once; after a restart (the journal replayed) too."""
    config, controller, api = make(tmp_path)
    host = hello(api, "host")
    assert send(api, host, SIT[0])["accepted"]
    first = send(api, host, SEAT_TAKEN, rid="room:c7")
    assert first == {"accepted": False, "reason": "seat 1 is taken by Ann", "alerts": []}
    assert send(api, host, SEAT_TAKEN, rid="room:c7") == {**first, "duplicate": True}
    accepted = send(api, host, SIT[1], rid="room:c8")
    assert send(api, host, SIT[1], rid="room:c8") == {**accepted, "duplicate": True}
    controller.journal.close()
    _config, _controller, api = make(tmp_path)
    host = hello(api, "host")
    assert send(api, host, SEAT_TAKEN, rid="room:c7") == {**first, "duplicate": True}
    assert send(api, host, SIT[1], rid="room:c8") == {**accepted, "duplicate": True}
    assert [e.get("rid") for e in journal_lines(config)].count("room:c7") == 1


def test_the_answers_survive_a_checkpoint_and_stay_bounded(tmp_path: Path) -> None:
    """The journal folder: a checkpoint at each start keeps the last RIDS_KEPT ids with their answers."""
    _config, controller, api = start(tmp_path)
    host = hello(api, "host")
    for entry in SIT:
        assert send(api, host, entry)["accepted"]
    first = send(api, host, SEAT_TAKEN, rid="r-taken")
    assert first["accepted"] is False
    assert send(api, host, {"type": "start"}, rid="r-start")["accepted"]   # a checkpoint: rids with answers
    controller.journal.close()
    _config, controller, api = start(tmp_path)
    host = hello(api, "host")
    assert send(api, host, SEAT_TAKEN, rid="r-taken") == {**first, "duplicate": True}
    for number in range(RIDS_KEPT * 2):
        api.before({"type": "clock", "rid": f"x{number}"}, controller.table)
        api.after({"type": "clock", "rid": f"x{number}"}, Outcome(False, "refused"), controller.table)
    assert len(api.rids) <= 2 * RIDS_KEPT and "x0" not in api.rids
