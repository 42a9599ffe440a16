"""Issue 22: what the room page posts (dealerpi/wire/room_pages.py) is read once, at the room, as its record:
every body room.html, money.js and ``dealerpi room desk`` send reads as its record and reaches the director as
the same keys; a wrong type or an unknown key is refused naming the key (the same body without the fault
read, the positive control); an unknown op is refused; and through the room's page a malformed control or
money command is a 400 with the reason that changes nothing, the well-formed one then applied (TRN-1)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from dealerpi.room.director.mtt_config import parse_tournament
from dealerpi.room.service import RoomService
from dealerpi.room.settings import RoomSettings
from dealerpi.room.store import Store
from dealerpi.room.web import RoomPage
from dealerpi.wire import room_pages as rp
from dealerpi.wire.broker import MqttSettings
from dealerpi.wire.pages import PageOpError

ID = "m3k2x9abqz1f"            # what room.html's newId() makes

# (sender, the route, the body as the page's JavaScript writes it, its record)
SENT: list[tuple[str, str, dict[str, Any], Any]] = [
    ("room.html add", "/waiting", {"op": "add", "game": "nlhe-1-3", "player": "Zed"},
     rp.AddWaiting(game="nlhe-1-3", player="Zed")),
    ("room.html remove", "/waiting", {"op": "remove", "id": 4}, rp.RemoveWaiting(id=4)),
    ("room.html seat next", "/waiting", {"op": "seat", "game": "nlhe-1-3"}, rp.SeatNext(game="nlhe-1-3")),
    ("room.html and desk.py register", "/tournament", {"op": "register", "player": "Ann"}, rp.Register(player="Ann")),
    ("room.html and desk.py start", "/tournament", {"op": "start"}, rp.Start()),
    ("money.js rebuy", "/tournament", {"op": "rebuy", "player": "Dee"}, rp.Rebuy(player="Dee")),
    ("money.js add-on", "/tournament", {"op": "addon", "player": "Dee"}, rp.Addon(player="Dee")),
    ("money.js race winners", "/tournament", {"op": "race", "table": "t1", "won": [2, 5]},
     rp.Race(table="t1", won=[2, 5])),
    ("money.js ICM deal", "/tournament", {"op": "deal", "amounts": {"Ann": 155, "Bob": 245}, "agreed": ["Ann", "Bob"]},
     rp.Deal(amounts={"Ann": 155, "Bob": 245}, agreed=["Ann", "Bob"])),
    ("room.html pause", "/director", {"op": "pause", "id": ID}, rp.Pause(id=ID)),
    ("room.html resume", "/director", {"op": "resume", "id": ID}, rp.Resume(id=ID)),
    ("room.html set clock", "/director", {"op": "clock", "step": 3, "seconds": 90, "id": ID},
     rp.Clock(id=ID, step=3, seconds=90)),
    ("room.html time", "/director", {"op": "time", "seconds": -300, "id": ID}, rp.Time(id=ID, seconds=-300)),
    ("room.html move", "/director", {"op": "move", "player": "Bob", "table": "t2", "seat": 5, "id": ID},
     rp.Move(id=ID, player="Bob", table="t2", seat=5)),
    ("room.html unregister", "/director", {"op": "unregister", "player": "Ann", "id": ID},
     rp.Unregister(id=ID, player="Ann")),
    ("room.html place", "/director", {"op": "place", "player": "Cy", "place": 2, "id": ID},
     rp.Place(id=ID, player="Cy", place=2)),
    ("room.html undo", "/director", {"op": "undo", "id": ID}, rp.Undo(id=ID)),
    ("room.html announce", "/director", {"op": "announce", "text": "Redraw at 9", "id": ID},
     rp.Announce(id=ID, text="Redraw at 9")),
    ("room.html clear the announcement", "/director", {"op": "announce", "text": "", "id": ID},
     rp.Announce(id=ID, text="")),
]
READERS = {"/waiting": rp.read_waiting, "/tournament": rp.read_tournament, "/director": rp.read_control}


@pytest.mark.parametrize(("sender", "route", "sent", "record"), SENT, ids=[s[0] for s in SENT])
def test_every_body_the_room_page_posts_reads_as_its_record(sender: str, route: str, sent: dict[str, Any],
                                                             record: Any) -> None:
    read = READERS[route](sent)
    assert read == record
    assert rp.body(read) == sent             # the director's pure code gets the page's keys, as before


def test_every_op_of_each_union_is_sent_by_a_page() -> None:
    for route, names in (("/waiting", rp.WAITING), ("/tournament", rp.TOURNAMENT), ("/director", rp.CONTROLS)):
        assert sorted({sent["op"] for _, r, sent, _ in SENT if r == route}) == sorted(names), route


WRONG_TYPES: list[tuple[str, dict[str, Any], str, object, str]] = [
    ("/waiting", {"op": "add", "game": "nlhe-1-3", "player": "Zed"}, "player", 7,
     "add: Expected `str`, got `int` - at `player`"),
    ("/waiting", {"op": "remove", "id": 4}, "id", "4", "remove: Expected `int`, got `str` - at `id`"),
    ("/tournament", {"op": "race", "table": "t1", "won": [2, 5]}, "won", [2, "5"],
     "race: Expected `int`, got `str` - at `won[1]`"),
    ("/tournament", {"op": "deal", "amounts": {"Ann": 155}, "agreed": ["Ann"]}, "amounts", {"Ann": 155.5},
     "deal: Expected `int`, got `float` - at `amounts[...]`"),
    ("/director", {"op": "clock", "step": 3, "seconds": 90, "id": ID}, "step", True,
     "clock: Expected `int`, got `bool` - at `step`"),
    ("/director", {"op": "pause", "id": ID}, "id", "x" * 41, "pause: Expected `str` of length <= 40 - at `id`"),
]


@pytest.mark.parametrize(("route", "good", "key", "bad", "reason"), WRONG_TYPES,
                         ids=[f"{g['op']}.{k}" for _, g, k, _, _ in WRONG_TYPES])
def test_a_wrong_type_is_refused_naming_the_key(route: str, good: dict[str, Any], key: str, bad: object,
                                                reason: str) -> None:
    READERS[route](good)                                   # the positive control
    with pytest.raises(PageOpError) as refused:
        READERS[route]({**good, key: bad})
    assert str(refused.value) == reason


@pytest.mark.parametrize(("route", "good"), [(r, s) for _, r, s, _ in SENT], ids=[s[0] for s in SENT])
def test_an_unknown_key_is_refused_naming_it(route: str, good: dict[str, Any]) -> None:
    READERS[route](good)                                   # the positive control
    with pytest.raises(PageOpError) as refused:
        READERS[route]({**good, "table_id": "t1"})
    assert str(refused.value) == f"{good['op']}: Object contains unknown field `table_id`"


def test_an_op_of_another_route_or_none_is_refused() -> None:
    """A control posted to /tournament, a desk op to /director: each route reads its own union only."""
    for route, body, reason in (
            ("/tournament", {"op": "pause", "id": ID}, "op: one of register, start, rebuy, addon, race, deal, not "
                                                       "'pause'"),
            ("/director", {"op": "start", "id": ID}, "op: one of pause, resume, clock, time, move, unregister, "
                                                     "place, undo, announce, not 'start'"),
            ("/waiting", {"game": "nlhe-1-3"}, "op: one of add, remove, seat, not None"),
            ("/waiting", ["add"], 'an operation is a JSON object: {"op": "add", ...}')):
        with pytest.raises(PageOpError) as refused:
            READERS[route](body)
        assert str(refused.value) == reason, body


def test_through_the_room_page_a_malformed_body_is_a_400_that_changes_nothing(tmp_path: Path) -> None:
    """The host's page posts a clock with a step written as text, a time with a key no control takes and a
    rebuy whose player is a number: each is a 400 naming the key, and the director's state (kept in the
    room's database) is as before; the pause that follows is applied (TRN-1: the clock stops)."""
    levels = [{"blinds": [50, 100], "minutes": 10}, {"blinds": [100, 200], "minutes": 10}]
    tournament, errors = parse_tournament({"tables": ["t1"], "seats": 6, "buy_in": 100, "starting_stack": 5000,
                                           "payouts": [100], "levels": levels}, "room.toml")
    assert tournament is not None, errors
    room = RoomSettings(tmp_path / "room.sqlite", "127.0.0.1:0", tmp_path / "state",
                        MqttSettings("room", "127.0.0.1", 1, "dealerpi", tmp_path / "pw"), (), tournament)

    async def run() -> tuple[list[tuple[int, str]], str, str, list[str]]:
        service = RoomService(room, Store(room.database), clock=lambda: 1000.0, seed=lambda: 7)
        for name in ("Ann", "Bob"):
            service.register(name)
        await service.start_tournament()
        assert service.director is not None
        before = json.dumps(service.director.state, sort_keys=True)
        answers = []
        async with TestClient(TestServer(RoomPage(service, {}, token_required=False).app())) as client:
            origin = {"Origin": str(client.make_url("")).rstrip("/")}
            for route, body in (("/director", {"id": "c1", "op": "clock", "step": "2", "seconds": 60}),
                                ("/director", {"id": "c2", "op": "time", "seconds": 60, "minutes": 1}),
                                ("/tournament", {"op": "rebuy", "player": 7})):
                answer = await client.post(route, json=body, headers=origin)
                answers.append((answer.status, await answer.text()))
            after = json.dumps(service.director.state, sort_keys=True)
            answer = await client.post("/director", json={"id": "c3", "op": "pause"}, headers=origin)
            answers.append((answer.status, await answer.text()))
        service.store.close()
        kept = RoomService(room, Store(room.database), clock=lambda: 1000.0)     # the room started again
        assert kept.director is not None
        log = [c["id"] for c in kept.director.state.get("controls", [])]
        kept.store.close()
        return answers, before, after, log

    answers, before, after, log = asyncio.run(run())
    assert answers == [(400, "400: clock: Expected `int`, got `str` - at `step`\n"),
                       (400, "400: time: Object contains unknown field `minutes`\n"),
                       (400, "400: rebuy: Expected `str`, got `int` - at `player`\n"),
                       (200, '{"answer": "clock paused at step 1 (50/100), 10:00 left"}')]
    assert after == before                   # the three refusals changed nothing
    assert log == ["c3"]                     # the pause alone is in the controls' log, kept in the database
