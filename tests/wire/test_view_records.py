"""Issue 22: the views the daemon sends the console are typed, versioned records (dealerpi/wire/views.py),
checked where they cross: the daemon checks its own view at the hello, the console reads the hello's view
and every change merged into it as the role's record. A wrong type, an unknown key or another version is
refused with the key named; the positive controls are the daemon's real views, mid-hand, read whole."""

from __future__ import annotations

import asyncio
import copy
import json
import logging
from pathlib import Path
from typing import Any

import msgspec
import pytest
from console_kit import make

from dealerpi.console.server import DaemonLink
from dealerpi.table.api.server import ApiServer, _Client
from dealerpi.table.controller import Controller
from dealerpi.wire.views import VERSION, BoardView, DealerView, HostView, ViewError, read_view

SIT = [{"type": "sit", "seat": s, "player": n, "stack": 250, "by": "host", "at": "2026-11-26T20:00:00Z"}
       for s, n in ((1, "Ann"), (2, "Bob"), (3, "Cy"))]


def mid_hand(tmp_path: Path) -> tuple[Controller, ApiServer]:
    """Three players, hand 1 dealt (daemon_kit's three-seat table, 1/2 blinds), the first to act waiting."""
    _config, controller, api = make(tmp_path)
    for entry in SIT:
        assert controller.submit(dict(entry)).accepted
    assert controller.submit({"type": "start", "by": "host"}).accepted
    tag = 0
    while controller.table.expectation().as_json()["expect"] in ("card", "burn"):
        controller.on_card(f"T{tag:02d}")
        tag += 1
    assert tag == 6                                    # two hole cards for each of three seats
    return controller, api


def as_json(view: dict[str, Any]) -> dict[str, Any]:
    """The view as the console receives it (through JSON: tuples are lists)."""
    said: dict[str, Any] = json.loads(json.dumps(view))
    return said


def test_each_roles_real_view_mid_hand_is_its_record_whole(tmp_path: Path) -> None:
    """Positive control: the board's, dealer's and host's views of a hand in play read as their records,
    and the record written back is the same JSON: no key dropped, none added."""
    _controller, api = mid_hand(tmp_path)
    for role, record in (("board", BoardView), ("dealer", DealerView), ("host", HostView)):
        view = as_json(api.view(role))
        read = read_view(role, view)
        assert type(read) is record and read.v == VERSION == 1
        assert msgspec.json.decode(msgspec.json.encode(read)) == view
    host = read_view("host", as_json(api.view("host")))
    assert isinstance(host, HostView)
    assert host.hand == 1 and host.in_hand and host.action is not None
    assert [host.seats[s].player for s in ("1", "2", "3")] == ["Ann", "Bob", "Cy"]
    assert [p.player for p in host.ledger.players] == ["Ann", "Bob", "Cy"]          # three buy-ins of 250
    assert (host.ledger.in_, host.ledger.on_table) == (750, 750)


# one place per record a mid-hand host view holds: where it is, a key of it, and msgspec's words for the path
PLACES = [((), "hand", "hand"), (("seats", "1"), "stack", "seats[...].stack"),
          (("pots", 0), "amount", "pots[0].amount"),
          (("action",), "seat", "action.seat"), (("next",), "expect", "next.expect"),
          (("next", "legal"), "fold", "next.legal.fold"), (("alerts", 0), "rule", "alerts[0].rule"),
          (("status",), "shoe_online", "status.shoe_online"), (("status", "shoe"), "restarts", "status.shoe.restarts"),
          (("status", "journal"), "inputs", "status.journal.inputs"),
          (("status", "displays", 0), "ok", "status.displays[0].ok"),
          (("status", "banks", 0), "presses", "status.banks[0].presses"), (("ledger",), "balanced", "ledger.balanced"),
          (("ledger", "session"), "number", "ledger.session.number"),
          (("ledger", "events", 0), "amount", "ledger.events[0].amount"),
          (("ledger", "players", 0), "net", "ledger.players[0].net"), (("setup",), "from", "setup.from"),
          (("setup", "values"), "seats", "setup.values.seats"), (("setup", "choices"), "games", "setup.choices.games")]


def _inner(view: dict[str, Any], where: tuple[str | int, ...]) -> dict[str, Any]:
    inner: Any = view
    for step in where:
        inner = inner[step]
    assert isinstance(inner, dict)
    return inner


@pytest.mark.parametrize(("where", "key", "path"), PLACES, ids=[p for _, _, p in PLACES])
def test_a_wrong_type_or_an_unknown_key_anywhere_in_the_host_view_is_named(
        tmp_path: Path, where: tuple[str | int, ...], key: str, path: str) -> None:
    _controller, api = mid_hand(tmp_path)
    view = as_json(api.view("host"))
    read_view("host", view)                                      # the positive control: as it is, it reads
    wrong = copy.deepcopy(view)
    inner = _inner(wrong, where)
    inner[key] = [inner[key]]                                    # a list where a number, text or flag is
    with pytest.raises(ViewError) as caught:
        read_view("host", wrong)
    assert str(caught.value).startswith("the host's view: Expected `")
    assert str(caught.value).endswith(f", got `array` - at `{path}`")
    extra = copy.deepcopy(view)
    _inner(extra, where)["colour"] = "red"
    with pytest.raises(ViewError) as caught:
        read_view("host", extra)
    place = f" - at `{path.rpartition('.')[0]}`" if where else ""
    assert str(caught.value) == f"the host's view: Object contains unknown field `colour`{place}"


def test_a_view_of_another_version_or_a_missing_key_is_refused(tmp_path: Path) -> None:
    _controller, api = mid_hand(tmp_path)
    view = as_json(api.view("board"))
    with pytest.raises(ViewError) as caught:
        read_view("board", {**view, "v": 2})
    assert str(caught.value) == "the board's view: version 2 is not spoken here (this console speaks 1)"
    del view["bust_by"]
    with pytest.raises(ViewError) as caught:
        read_view("board", view)
    assert str(caught.value) == "the board's view: Object missing required field `bust_by`"
    with pytest.raises(ViewError) as caught:
        read_view("banker", view)
    assert str(caught.value) == "no view for the role 'banker'"


def test_the_board_view_carries_no_dealer_key(tmp_path: Path) -> None:
    """The board's record has no alerts and no ``next``: a dealer's view sent as the board's is refused (the
    board is a public TV: issue 14), naming the first key it may not have."""
    _controller, api = mid_hand(tmp_path)
    dealer = as_json(api.view("dealer"))
    read_view("dealer", dealer)                                  # positive control
    with pytest.raises(ViewError) as caught:
        read_view("board", dealer)
    assert str(caught.value) == "the board's view: Object contains unknown field `expect`"


def test_the_console_reads_the_daemons_real_view_and_each_change_as_the_record(tmp_path: Path) -> None:
    """End to end over the Unix socket: the console's link to a real daemon holds the host's view as a
    ``HostView`` after the hello, and after a pushed change (seat 2 folds; the action moves to seat 3)."""
    controller, api = mid_hand(tmp_path)
    pushed: list[str] = []

    async def on_push(message: dict[str, Any]) -> None:
        pushed.append(message["type"])

    async def run() -> tuple[object, object]:
        await api.start()
        link = await DaemonLink.open(api.path, on_push)
        try:
            answer = await link.request("hello", {"role": "host"})
            assert answer["result"]["version"] == 1
            first = link.record
            acting = controller.table.expectation().seat
            assert controller.submit({"type": "act", "seat": acting, "action": "fold"}).accepted
            api.changed()
            for _ in range(200):
                if len(pushed) == 2:
                    break
                await asyncio.sleep(0.01)
            return first, link.record
        finally:
            await link.close()
            await api.stop()

    first, after = asyncio.run(run())
    assert pushed == ["view", "changes"]
    assert isinstance(first, HostView) and isinstance(after, HostView)
    assert first.action is not None and after.action is not None
    assert first.seats[str(first.action.seat)].status == "in"
    assert after.seats[str(first.action.seat)].status == "folded"
    assert after.action.seat != first.action.seat
    assert after == read_view("host", as_json(api.view("host")))      # the merged view is the daemon's


def test_a_change_that_breaks_the_record_closes_the_link_and_names_the_key(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A daemon that pushes a view of another version (a newer daemon, say) or a key the console does not
    know: the console says which and drops the link (the page says offline), never shows it unchecked."""
    controller, api = mid_hand(tmp_path)
    built = api.view

    async def run(bad: dict[str, Any]) -> bool:
        await api.start()
        link = await DaemonLink.open(api.path, _ignore)
        try:
            await link.request("hello", {"role": "board"})
            api.view = lambda role: {**built(role), **bad}  # type: ignore[method-assign]
            api.changed()
            await asyncio.wait_for(link.closed.wait(), 5)
            return link.closed.is_set()
        finally:
            api.view = built  # type: ignore[method-assign]
            await link.close()
            await api.stop()

    with caplog.at_level(logging.ERROR):
        assert asyncio.run(run({"v": 2}))
        assert asyncio.run(run({"hole_cards": {"1": ["Kd", "Qc"]}}))
    assert [r.getMessage() for r in caplog.records if r.name == "dealerpi.console.server"] == [
        "the daemon's socket: a view refused, the link closed: the board's view: version 2 is not spoken here "
        "(this console speaks 1)",
        "the daemon's socket: a view refused, the link closed: the board's view: Object contains unknown field "
        "`hole_cards`"]
    assert controller.table.hand_number == 1


def test_the_daemon_refuses_to_send_a_view_that_is_not_its_record(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The sender's check: a view the daemon builds wrong is said in its log and answered as an error to
    the hello, never sent."""
    _controller, api = mid_hand(tmp_path)
    built = api.view
    api.view = lambda role: {**built(role), "stack": "250"}  # type: ignore[method-assign]
    with caplog.at_level(logging.ERROR):
        answer = api.handle(_Client(writer=None), {"id": 1, "method": "hello",  # type: ignore[arg-type]
                                                   "params": {"role": "dealer"}})
    assert answer == {"id": 1, "error": {"message": "the daemon's view is not what the console reads: the "
                                                    "dealer's view: Object contains unknown field `stack`"}}
    assert [r.getMessage() for r in caplog.records] == [
        "local API: the dealer's view is not its record: the dealer's view: Object contains unknown field `stack`"]


async def _ignore(message: dict[str, Any]) -> None:
    return None


def test_the_virtual_panels_view_is_its_record(tmp_path: Path) -> None:
    """A daemon on fake devices (dealerpi sim): the panel's view is the host's and the virtual hardware's;
    its hello is answered with it, checked, and a frame key the record lacks is refused."""
    from dealerpi.sim.panel import make_panel
    from dealerpi.wire.views import PanelView

    controller, api = mid_hand(tmp_path)
    api.panel = make_panel(controller.config, controller.devices, lambda: controller.table)
    assert api.panel is not None
    answer = api.handle(_Client(writer=None), {"id": 1, "method": "hello",  # type: ignore[arg-type]
                                               "params": {"role": "panel"}})
    view = as_json(answer["result"]["view"])
    panel = read_view("panel", view)
    assert isinstance(panel, PanelView)
    assert panel.hardware.seats == [1, 2, 3] and set(panel.frames) == {"1", "2", "3", "dealer"}
    assert panel.virtual_shoe.deck is None                  # no virtual shoe was given to this one
    with pytest.raises(ViewError) as caught:
        read_view("panel", {**view, "virtual_shoe": {"deck": None, "cards": ["Kd"]}})
    assert str(caught.value) == "the panel's view: Object contains unknown field `cards` - at `virtual_shoe`"


def test_a_change_is_checked_by_the_sections_it_changed(tmp_path: Path) -> None:
    """The console reads again only the sections a change touched (``read_changed``): the record it keeps
    equals the whole view read afresh (positive control), and a bad value inside a changed section, a key the
    record lacks or another version is named with its path."""
    from dealerpi.wire.protocol import changes, merge
    from dealerpi.wire.views import read_changed

    controller, api = mid_hand(tmp_path)
    before = as_json(api.view("host"))
    record = read_view("host", before)
    assert controller.submit({"type": "act", "seat": controller.table.expectation().seat, "action": "call"}).accepted
    after = as_json(api.view("host"))
    diff = changes(before, after)
    assert {"pots", "seats", "action", "expect", "next"} <= set(diff) and "ledger" not in diff
    view = merge(copy.deepcopy(before), copy.deepcopy(diff))
    assert read_changed("host", record, view, diff) == read_view("host", after)
    for bad, why in (({"seats": {"2": {**after["seats"]["2"], "stack": "197"}}},
                      "Expected `int`, got `str` - at `seats[...].stack`"),
                     ({"status": {"colour": "red"}}, "Object contains unknown field `colour` - at `status`"),
                     ({"hole_cards": {"1": ["Kd"]}}, "Object contains unknown field `hole_cards`"),
                     ({"v": 2}, "version 2 is not spoken here (this console speaks 1)")):
        with pytest.raises(ViewError) as caught:
            read_changed("host", record, merge(copy.deepcopy(before), copy.deepcopy(bad)), bad)
        assert str(caught.value) == f"the host's view: {why}"
