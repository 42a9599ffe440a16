"""Issue 19: the evening's sessions through the daemon's API (items 3, 4 and 11, the finished tournament):
a cash game and a tournament each with its own ledger and settlement, the way back to a cash game, a
tournament sit with another stack than the starting stack, and a tournament that ends. The arithmetic is
in each docstring (TRN-4 prizes, TRN-9 full stacks)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from console_kit import journal_lines, make, start

from dealerpi.table.api.server import _Client
from dealerpi.views.tournament import tournament_view

# heads-up, the button on seat 1: the big blind (seat 2) gets the first card (DEAL-2, BLD-4)
ACES_OVER_SEVEN_DEUCE = ["7h", "Ah", "2d", "Ad"]
# burn, flop, burn, turn, burn, river: board Kc 9d 4h Js 3s (docs/tournaments.md's example)
BOARD = ["Qs", "Kc", "9d", "4h", "Qc", "Js", "Qd", "3s"]
TOURNAMENT = {"rules": "tournament", "buy_in": 30, "payouts": [100], "starting_stack": 1000,
              "levels": [{"blinds": [50, 100], "minutes": 20}]}


def client(api: Any, role: str) -> _Client:
    peer = _Client(writer=None)  # type: ignore[arg-type]   # handle() never writes
    api.handle(peer, {"id": 1, "method": "hello", "params": {"role": role}})
    return peer


def send(api: Any, peer: _Client, entry: dict[str, Any], **params: Any) -> dict[str, Any]:
    result: dict[str, Any] = api.handle(peer, {"id": 2, "method": "input", "params": {"entry": entry, **params}})[
        "result"]
    return result


def change(api: Any, peer: _Client, changes: dict[str, Any], **params: Any) -> dict[str, Any]:
    result: dict[str, Any] = api.handle(peer, {"id": 3, "method": "change_table",
                                               "params": {"changes": changes, **params}})["result"]
    return result


def heads_up_hand(api: Any, controller: Any, host: _Client) -> None:
    """Ann (button, seat 1) moves all in, Bob (seat 2) calls: Ann's aces beat Bob's 7-2 on Kc 9d 4h Js 3s."""
    assert send(api, host, {"type": "button", "seat": 1})["accepted"]
    assert send(api, host, {"type": "start"})["accepted"]
    for card in ACES_OVER_SEVEN_DEUCE:
        assert send(api, host, {"type": "card", "card": card})["accepted"]
    assert controller.submit({"type": "act", "seat": 1, "action": "all_in"}).accepted      # a seat button
    assert controller.submit({"type": "act", "seat": 2, "action": "call"}).accepted
    for card in BOARD:
        assert send(api, host, {"type": "card", "card": card})["accepted"], card


def cash_game(api: Any, controller: Any, host: _Client) -> None:
    """Blinds 1/3 (tests/daemon_kit.py): Ann and Bob buy in 250 and 200; Ann all in for 250, Bob calls his
    200: Ann wins 400 and keeps her 50 (POT-2): Ann 450, Bob 0. Both cash out: in 450 = out 450."""
    for seat, name, stack in ((1, "Ann", 250), (2, "Bob", 200)):
        assert send(api, host, {"type": "sit", "seat": seat, "player": name, "stack": stack})["accepted"]
    heads_up_hand(api, controller, host)
    assert {s: i.stack for s, i in controller.table.seats.items()} == {1: 450, 2: 0}
    for seat in (1, 2):
        assert send(api, host, {"type": "leave", "seat": seat})["accepted"]


def test_item3_a_tournament_after_a_cash_game_leaves_its_settlement_alone(tmp_path: Path) -> None:
    """The issue's worked example: everyone cashed out (balanced), the tournament set up, three sit at 1000.
    The cash game's ledger stays in 450 = out 450, Bob pays Ann 200 (Ann +200, Bob -200); the tournament is
    a session of its own: three entries of 30 into the pool, 90, no cash-out, no chips counted as money."""
    _config, controller, api = make(tmp_path)
    host = client(api, "host")
    cash_game(api, controller, host)
    assert change(api, host, TOURNAMENT)["accepted"]
    for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        assert send(api, host, {"type": "sit", "seat": seat, "player": name, "stack": 1000})["accepted"]
    ledger = api.ledger_summary()
    cash, tournament = ledger["sessions"]
    assert cash["session"]["kind"] == "cash" and cash["session"]["open"] is False
    assert (cash["in"], cash["out"], cash["on_table"], cash["balanced"]) == (450, 450, 0, True)
    assert [(p["player"], p["net"]) for p in cash["players"]] == [("Ann", 200), ("Bob", -200)]
    assert cash["transfers"] == [{"from": "Bob", "to": "Ann", "amount": 200}]
    assert tournament["session"] == {"number": 2, "kind": "tournament", "at": tournament["session"]["at"],
                                     "rules": "tournament", "open": True, "closed": False, "finished": False}
    assert [(e["kind"], e["player"], e["amount"]) for e in tournament["events"]] == [
        ("entry", "Ann", 30), ("entry", "Bob", 30), ("entry", "Cy", 30)]
    assert (tournament["in"], tournament["out"], tournament["on_table"]) == (90, 0, 0)
    assert ledger["session"]["number"] == 2                       # the page's top level: the session in force


def test_item11_a_tournament_sit_with_another_stack_needs_confirmation(tmp_path: Path) -> None:
    """TRN-9: every entrant buys the full starting stack. 500 where it is 1000 is refused with the reason
    and nothing is journaled; confirmed, it is seated (a host's deliberate choice, e.g. a short-stacked late
    entry); 1000 needs no confirmation."""
    config, _controller, api = make(tmp_path)
    host = client(api, "host")
    assert change(api, host, TOURNAMENT)["accepted"]
    lines = len(journal_lines(config))
    short = {"type": "sit", "seat": 1, "player": "Ann", "stack": 500}
    assert send(api, host, short) == {
        "accepted": False, "confirm": True,
        "reason": "seat 1: Ann would start with 500, not the starting stack 1000 (TRN-9: every entrant gets "
                  "the full stack): confirm to seat Ann with 500"}
    assert len(journal_lines(config)) == lines
    assert send(api, host, short, confirm=True)["accepted"]
    assert send(api, host, {"type": "sit", "seat": 2, "player": "Bob", "stack": 1000})["accepted"]


def test_item4_back_to_a_cash_game_restores_its_settings_and_drops_the_clock(tmp_path: Path) -> None:
    """A cash game at blinds 1/3 (tests/daemon_kit.py), then the tournament (blinds by level 50/100,
    starting stack 1000, buy-in 30) with Ann seated. The host picks the home rules: the tournament has no
    winner, so it asks to confirm ending it (Ann's stack stays in play, TRN-4: she could not cash out);
    confirmed, Ann leaves the table with it (no cash-out: those chips were never money), and the table is
    the cash game's again: blinds 1/3, no level schedule, no starting stack, no buy-in, and the pages get
    no tournament view (the TV's clock goes). A fresh 200 buy-in is taken (at 100/200 it would have been
    all in on the big blind). Back to the tournament with Ann seated at the cash game is refused: she cashes
    out first."""
    config_file, controller, api = make(tmp_path)
    host = client(api, "host")
    assert send(api, host, {"type": "sit", "seat": 2, "player": "Bob", "stack": 100})["accepted"]
    assert send(api, host, {"type": "leave", "seat": 2})["accepted"]
    assert change(api, host, TOURNAMENT)["accepted"]
    assert send(api, host, {"type": "sit", "seat": 1, "player": "Ann", "stack": 1000})["accepted"]
    assert change(api, host, {"rules": "home"}) == {
        "accepted": False, "confirm": True,
        "reason": "the tournament is still on: seat 1 (Ann, 1000); confirm to end it: its players leave the table "
                  "and no prize is paid (their chips were never money)"}
    assert change(api, host, {"rules": "home"}, confirm=True)["accepted"]
    config = controller.table.config
    assert config is not None
    assert (config.small_blind, config.big_blind, config.levels, config.starting_stack, config.buy_in) == \
        (1, 3, (), 0, 0)
    assert controller.table.seats == {} and controller.table.levels is None
    assert tournament_view(controller.table) is None
    assert {k: v for k, v in journal_lines(config_file)[-1].items() if k != "at"} == \
        {"type": "leave", "seat": 1, "ends": "tournament", "by": "host"}
    assert send(api, host, {"type": "sit", "seat": 1, "player": "Ann", "stack": 200})["accepted"]
    ledger = api.ledger_summary()
    assert [s["session"]["kind"] for s in ledger["sessions"]] == ["cash", "tournament", "cash"]
    assert [(e["kind"], e["amount"]) for e in ledger["events"]] == [("buy-in", 200)]
    assert change(api, host, TOURNAMENT) == {
        "accepted": False, "reason": "seat 1 (Ann, 200) is still seated: a switch between a cash game and a "
                                     "tournament needs an empty table (chips are money in one and not in the other)"}


def test_a_tournament_finishes_with_its_winner_places_and_prizes(tmp_path: Path) -> None:
    """Ann and Bob enter at 30 (pool 60, one place paid: 100 % = 60). Ann's aces bust Bob: Bob 2nd, Ann
    wins 60 (TRN-4). The view says finished with the winner and the places, no level clock nor next
    step (not "Players 0 of 2", not "Next: Break"); the ledger: in 60 = out 60, Bob pays Ann 30. The
    winner leaves the table (her chips were never money), and the evening goes back to a cash game."""
    _config, controller, api = make(tmp_path)
    host = client(api, "host")
    assert change(api, host, TOURNAMENT)["accepted"]
    for seat, name in ((1, "Ann"), (2, "Bob")):
        assert send(api, host, {"type": "sit", "seat": seat, "player": name, "stack": 1000})["accepted"]
    heads_up_hand(api, controller, host)
    view = tournament_view(controller.table)
    assert view is not None
    assert view["finished"] == {"winner": "Ann", "prize": 60,
                                "places": [{"player": "Ann", "place": 1, "prize": 60},
                                           {"player": "Bob", "place": 2, "prize": 0}]}
    assert "remaining" not in view and "next" not in view and "players_left" not in view
    ledger = api.ledger_summary()
    assert (ledger["in"], ledger["out"], ledger["balanced"]) == (60, 60, True)
    assert ledger["transfers"] == [{"from": "Bob", "to": "Ann", "amount": 30}]
    assert send(api, host, {"type": "leave", "seat": 1})["accepted"]
    assert change(api, host, {"rules": "home"})["accepted"]          # it has its winner: no confirmation
    assert [s["session"]["kind"] for s in api.ledger_summary()["sessions"]] == ["cash", "tournament", "cash"]


def test_a_re_entry_pays_the_buy_in_again(tmp_path: Path) -> None:
    """docs/tournaments.md's first hand: Ann (button), Bob (50), Cy (100) at 1000 each; dealt from Bob:
    Bob 4c 5d, Cy 7h 2d, Ann Ah Ad. Ann moves all in, Bob folds, Cy calls all in; Ann's aces win on Kc 9d
    4h Js 3s: Cy is out, 3rd (TRN-4). Cy sits again (one re-entry allowed, late entry open: no limit set):
    a re-entry of 30, as the engine records it (engine/tournament_money.py). Pool: 30 x 3 + 30 = 120."""
    _config, controller, api = make(tmp_path)
    host = client(api, "host")
    assert change(api, host, {**TOURNAMENT, "reentries": 1})["accepted"]
    for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        assert send(api, host, {"type": "sit", "seat": seat, "player": name, "stack": 1000})["accepted"]
    assert send(api, host, {"type": "button", "seat": 1})["accepted"]
    assert send(api, host, {"type": "start"})["accepted"]
    for card in ("4c", "7h", "Ah", "5d", "2d", "Ad"):
        assert send(api, host, {"type": "card", "card": card})["accepted"]
    for seat, action in ((1, "all_in"), (2, "fold"), (3, "call")):
        assert controller.submit({"type": "act", "seat": seat, "action": action}).accepted
    for card in BOARD:
        assert send(api, host, {"type": "card", "card": card})["accepted"], card
    assert 3 not in controller.table.seats
    assert send(api, host, {"type": "sit", "seat": 3, "player": "Cy", "stack": 1000})["accepted"]
    ledger = api.ledger_summary()
    assert [(e["kind"], e["player"], e["amount"]) for e in ledger["events"]] == [
        ("entry", "Ann", 30), ("entry", "Bob", 30), ("entry", "Cy", 30), ("re-entry", "Cy", 30)]
    assert controller.table.standings is not None
    assert ledger["in"] == 120 == controller.table.standings.pool


def test_the_sessions_survive_a_restart_from_a_checkpoint(tmp_path: Path) -> None:
    """The daemon starts from the newest checkpoint (written at each hand's start) and replays what came
    after: the cash game (ended, Bob pays Ann 200) and the tournament (two entries) come back the same."""
    _config, controller, api = start(tmp_path)
    host = client(api, "host")
    cash_game(api, controller, host)
    assert change(api, host, TOURNAMENT)["accepted"]
    for seat, name in ((1, "Ann"), (2, "Bob")):
        assert send(api, host, {"type": "sit", "seat": seat, "player": name, "stack": 1000})["accepted"]
    assert send(api, host, {"type": "start"})["accepted"]                   # a checkpoint
    before = api.ledger_summary()
    controller.journal.close()
    _config, controller, api = start(tmp_path)
    after = api.ledger_summary()
    assert after["sessions"] == before["sessions"]
    assert after["sessions"][0]["transfers"] == [{"from": "Bob", "to": "Ann", "amount": 200}]
