"""The session ledger (issue 14): buy-ins, top-ups (BET-16), cash-outs, the in = out check, the fewest
transfers, CSV; events follow undo. The arithmetic is in each docstring."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from console_kit import start

from dealerpi.books.ledger import Ledger, csv_text, settle
from dealerpi.engine import Table
from dealerpi.table.api.server import _Client


def run(inputs: list[dict[str, Any]]) -> tuple[Table, Ledger]:
    table, ledger = Table(), Ledger(now=lambda: "2026-11-23T22:00:00Z")
    for entry in inputs:
        ledger.before(entry, table)
        ledger.after(table.apply(entry).accepted, table)
    return table, ledger


TABLE = {"type": "table", "game": "nlhe", "rules": "home", "seats": 3, "blinds": [1, 3]}


def test_fewest_transfers_beats_largest_debt_to_largest_credit() -> None:
    """Nets Ann +4, Bob +3, Cy +3, Dee -6, Eve -4 (sum 0). Largest debt to largest credit takes 4 transfers
    (Dee 4 to Ann, Eve 3 to Bob, Dee 2 to Cy, Eve 1 to Cy); the groups {Ann, Eve} (4 - 4 = 0) and
    {Bob, Cy, Dee} (3 + 3 - 6 = 0) settle in (2 - 1) + (3 - 1) = 3."""
    transfers = settle({"Ann": 4, "Bob": 3, "Cy": 3, "Dee": -6, "Eve": -4})
    assert sorted(transfers) == [("Dee", "Bob", 3), ("Dee", "Cy", 3), ("Eve", "Ann", 4)]


def test_settle_nothing_when_even_or_when_nets_do_not_add_up() -> None:
    assert settle({"Ann": 0, "Bob": 0}) == []
    assert settle({"Ann": 5, "Bob": -4}) == []          # 5 - 4 = 1: not settleable, the check shows it


def test_buy_in_top_up_cash_out_and_in_equals_out() -> None:
    """Ann and Bob buy in 250 each; Bob tops up 50 (BET-16, 250 + 50 = 300 = 100 big blinds of 3, the home
    maximum); Ann cashes out her 250. In: 250 + 250 + 50 = 550; out: 250; on the table: Bob's 300;
    300 + 250 = 550 = in. Nets: Ann 250 - 250 = 0, Bob 300 - 300 = 0: no transfers."""
    table, ledger = run([TABLE, {"type": "sit", "seat": 1, "player": "Ann", "stack": 250},
                         {"type": "sit", "seat": 2, "player": "Bob", "stack": 250},
                         {"type": "chips", "seat": 2, "amount": 50}, {"type": "leave", "seat": 1}])
    summary = ledger.summary(table)
    assert [(e["kind"], e["player"], e["amount"]) for e in summary["events"]] == [
        ("buy-in", "Ann", 250), ("buy-in", "Bob", 250), ("top-up", "Bob", 50), ("cash-out", "Ann", 250)]
    assert (summary["in"], summary["out"], summary["on_table"], summary["balanced"]) == (550, 250, 300, True)
    assert summary["players"] == [{"player": "Ann", "in": 250, "out": 250, "on_table": 0, "net": 0},
                                  {"player": "Bob", "in": 300, "out": 0, "on_table": 300, "net": 0}]
    assert summary["transfers"] == []


def test_refused_and_undone_inputs_leave_no_event() -> None:
    """A top-up of 100 on 250 would be 350 > 300 (BET-16, home maximum 100 x 3): refused, no event. The sit
    undone: its buy-in goes too."""
    table, ledger = run([TABLE, {"type": "sit", "seat": 1, "player": "Ann", "stack": 250},
                         {"type": "chips", "seat": 1, "amount": 100},
                         {"type": "sit", "seat": 2, "player": "Bob", "stack": 200}, {"type": "undo"}])
    assert [(e.kind, e.player, e.amount) for e in ledger.events] == [("buy-in", "Ann", 250)]
    assert ledger.summary(table)["in"] == 250


def test_a_played_hand_moves_chips_and_the_loser_pays_the_winner() -> None:
    """Ann (button, seat 1), Bob (SB 1), Cy (BB 3), blinds 1/3, stacks 250. Pre-flop Ann raises to 250
    (all-in), Bob folds, Cy calls. Dealt from seat 2: Bob Ah Ad (folded), Cy 7c 2d, Ann Ks Kc; burns 4c 5c 6c,
    board 3s 8h 9c Jd Kh: Ann's three kings win.
    Ann wins 250 + 250 + 1 = 501; Bob has 249, Cy 0. Nets: Ann 501 - 250 = +251, Bob 249 - 250 = -1,
    Cy 0 - 250 = -250; in 750 = on the table 501 + 249 + 0. Cy pays Ann 250, Bob pays Ann 1."""
    cards = ["Ah", "7c", "Ks", "Ad", "2d", "Kc", "4c", "3s", "8h", "9c", "5c", "Jd", "6c", "Kh"]
    inputs: list[dict[str, Any]] = [TABLE, *({"type": "sit", "seat": s, "player": n, "stack": 250}
                                             for s, n in ((1, "Ann"), (2, "Bob"), (3, "Cy"))),
                                    {"type": "button", "seat": 1}, {"type": "start"}]
    inputs += [{"type": "card", "card": c} for c in cards[:6]]
    inputs += [{"type": "act", "seat": 1, "action": "raise", "to": 250}, {"type": "act", "seat": 2, "action": "fold"},
               {"type": "act", "seat": 3, "action": "call"}]
    inputs += [{"type": "card", "card": c} for c in cards[6:]]
    table, ledger = run(inputs)
    assert {s: i.stack for s, i in table.seats.items()} == {1: 501, 2: 249, 3: 0}
    summary = ledger.summary(table)
    assert [(p["player"], p["net"]) for p in summary["players"]] == [("Ann", 251), ("Bob", -1), ("Cy", -250)]
    assert summary["balanced"] is True and summary["in"] == 750 == summary["on_table"]
    assert sorted(summary["transfers"], key=lambda t: t["amount"]) == [
        {"from": "Bob", "to": "Ann", "amount": 1}, {"from": "Cy", "to": "Ann", "amount": 250}]
    assert csv_text(summary).splitlines() == [
        "time (UTC),kind,player,seat,amount",
        "2026-11-23T22:00:00Z,buy-in,Ann,1,250", "2026-11-23T22:00:00Z,buy-in,Bob,2,250",
        "2026-11-23T22:00:00Z,buy-in,Cy,3,250", "",
        "player,in,out,on table,net", "Ann,250,0,501,251", "Bob,250,0,249,-1", "Cy,250,0,0,-250", "",
        "pays,to,amount", "Cy,Ann,250", "Bob,Ann,1"]


def test_a_tournaments_ledger_is_its_entries_not_its_chips() -> None:
    """Issue 19: a tournament's ledger is the buy-ins into the prize pool (TRN-4), never its chips: Ann's
    1000 chips are no money on the table, her entry is 20."""
    table, ledger = run([{**TABLE, "rules": "tournament", "buy_in": 20},
                         {"type": "sit", "seat": 1, "player": "Ann", "stack": 1000}])
    summary = ledger.summary(table)
    assert 1 in table.seats and [(e.kind, e.amount) for e in ledger.events] == [("entry", 20)]
    assert (summary["in"], summary["on_table"], summary["balanced"]) == (20, 0, False)


def test_csv_cells_that_a_spreadsheet_would_run_are_quoted_as_text() -> None:
    """A player named "=1+1" must not become a formula when the host opens the CSV."""
    summary = {"events": [{"at": None, "kind": "buy-in", "player": "=1+1", "seat": 1, "amount": 5}],
               "players": [], "transfers": []}
    assert csv_text(summary).splitlines()[1] == ",buy-in,'=1+1,1,5"


def test_the_ledger_and_request_ids_survive_a_restart_from_a_checkpoint(tmp_path: Path) -> None:
    """The daemon starts from the newest checkpoint (written when a hand starts) and replays only what came
    after it, so the ledger's events and the request ids before it live in the checkpoint. Ann 250, Bob 250
    and Cy 200 buy in, Cy tops up 50 (200 + 50 = 250 <= 300, BET-16); a hand starts (a checkpoint); after a
    restart the ledger is the same (in 250 + 250 + 200 + 50 = 750) and a resent sit is applied once."""
    _config, controller, api = start(tmp_path)
    peer = _Client(writer=None)  # type: ignore[arg-type]
    api.handle(peer, {"id": 1, "method": "hello", "params": {"role": "host"}})
    for k, entry in enumerate([{"type": "sit", "seat": 1, "player": "Ann", "stack": 250},
                               {"type": "sit", "seat": 2, "player": "Bob", "stack": 250},
                               {"type": "sit", "seat": 3, "player": "Cy", "stack": 200},
                               {"type": "chips", "seat": 3, "amount": 50}, {"type": "start"}]):
        reply = api.handle(peer, {"id": 2, "method": "input", "params": {"entry": entry, "rid": f"r{k}"}})
        assert reply["result"]["accepted"], reply
    before = api.ledger_summary()
    assert before["in"] == 750 and len(before["events"]) == 4
    controller.journal.close()
    _config, controller, api = start(tmp_path)
    assert api.ledger_summary()["events"] == before["events"] and api.ledger_summary()["in"] == 750
    peer = _Client(writer=None)  # type: ignore[arg-type]
    api.handle(peer, {"id": 1, "method": "hello", "params": {"role": "host"}})
    resent = {"entry": {"type": "sit", "seat": 1, "player": "Ann", "stack": 250}, "rid": "r0"}
    assert api.handle(peer, {"id": 3, "method": "input", "params": resent})["result"] == \
        {"accepted": True, "reason": None, "alerts": [], "duplicate": True}


def test_a_checkpoint_without_the_ledger_says_so_on_the_dealer_display(tmp_path: Path) -> None:
    _config, controller, api = start(tmp_path)
    api.restore(None)
    assert [(a.rule, a.message) for a in controller.alerts][-1] == \
        ("LEDGER", "Session ledger: buy-ins before this restart are missing; note them by hand")


def test_a_pko_tournaments_ledger_pays_the_prizes_and_the_bounties() -> None:
    """tests/engine/test_reentry_rebuy_pko.py's PKO tournament to its end: buy-in 30 of which 10 is the bounty,
    three entries: in 90; the pool 3 x 20 = 60 paid 50/30/20 (the default, seed 001): 30, 18, 12. Ann busts
    3rd (12), Bob 2nd (18), Cy wins 30 and every bounty, 30 in cash (5 + 5 + his own head of 20). Out: 60 +
    30 = 90 = in. Nets: Ann 12 - 30 = -18, Bob 18 - 30 = -12, Cy 30 + 30 - 30 = +30: Ann pays Cy 18, Bob 12."""
    levels = [{"blinds": [50, 100], "minutes": 20}, {"blinds": [100, 200], "minutes": 20},
              {"break": True, "minutes": 10}, {"blinds": [200, 400], "minutes": 20}]
    hand_1: list[dict[str, Any]]
    hand_1 = [{"type": "button", "seat": 1}, {"type": "start"},
              *({"type": "card", "card": c} for c in ("2c", "Ah", "7d", "3c", "As", "2d")),
              {"type": "act", "seat": 1, "action": "all_in"}, {"type": "act", "seat": 2, "action": "fold"},
              {"type": "act", "seat": 3, "action": "call"},
              *({"type": "card", "card": c} for c in ("Kh", "9s", "8c", "4h", "Jd", "Qc", "5s", "6h"))]
    hand_2: list[dict[str, Any]]
    hand_2 = [{"type": "start"}, *({"type": "card", "card": c} for c in ("Kd", "7c", "Ks", "2h")),
              {"type": "act", "seat": 3, "action": "all_in"}, {"type": "act", "seat": 2, "action": "call"},
              *({"type": "card", "card": c} for c in ("Qs", "7s", "7h", "2s", "Jc", "3d", "Th", "4s"))]
    table, ledger = run([{**TABLE, "seats": 4, "rules": "tournament", "levels": levels, "buy_in": 30,
                          "starting_stack": 1000, "late_entry_levels": 2, "bounty": 10},
                         *({"type": "sit", "seat": s, "player": n, "stack": 1000}
                           for s, n in ((1, "Ann"), (2, "Bob"), (3, "Cy"))), *hand_1, *hand_2])
    summary = ledger.summary(table)
    assert [(e["kind"], e["player"], e["amount"]) for e in summary["events"]] == [
        ("entry", "Ann", 30), ("entry", "Bob", 30), ("entry", "Cy", 30)]
    assert [(p["player"], p["in"], p["out"], p["net"]) for p in summary["players"]] == [
        ("Ann", 30, 12, -18), ("Bob", 30, 18, -12), ("Cy", 30, 60, 30)]
    assert (summary["in"], summary["out"], summary["balanced"]) == (90, 90, True)
    assert summary["transfers"] == [{"from": "Ann", "to": "Cy", "amount": 18},
                                    {"from": "Bob", "to": "Cy", "amount": 12}]
