"""Hand histories in the console (issue 14): the list with the winning hand's name and the players' names,
the replay step by step, PHH per hand and per session; every hole card for the host, only tabled ones
(POT-5, POT-7) for the dealer and the board, and nothing of the hand in play for anyone. Each secrecy check
has its positive control: the host's answer (or the journal) holds the cards the others' must not."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer
from console_kit import cards_in, make
from daemon_kit import JOURNAL_TIME

from dealerpi.console.histories import HandHistories
from dealerpi.console.server import Console
from dealerpi.engine import DealRecord, PotPaid
from dealerpi.history.phh import loads, loads_all
from dealerpi.history.replay import Status, replay
from dealerpi.views.hand_words import summary, winning_hands

TOKENS = {"host": "h" * 22, "dealer": "d" * 22, "board": "b" * 22}
# hand 1, dealt from seat 2 (left of the button, seat 1) round twice (DEAL-4): Bob (2) Kd Qc, Cy (3) 8c 9c,
# Ann (1) 5d 4s; Ann folds, Cy mucks at the showdown, Bob shows
HAND_1 = ["Kd", "8c", "5d", "Qc", "9c", "4s"]
FOLDED_OR_MUCKED = {"8c", "9c", "5d", "4s"}
# hand 2 is in play: button seat 2, dealt from seat 3: Cy As Js, Ann Ks Ts, Bob Qs 9s
HAND_2 = ["As", "Ks", "Qs", "Js", "Ts", "9s"]
def record(boards: list[list[str]], pots: list[PotPaid], hole: dict[int, list[str]],
           shown: list[int]) -> DealRecord:
    return DealRecord(7, 1, tuple(sorted(hole)), boards=boards, pots=pots, hole=hole, shown=shown)


def test_seed_000_fileem_a_straight_beats_three_pair_and_is_named_so() -> None:
    """File 'em (seed 000): board Cd 9s 9h 2d 5c 7h 3s. Seat 1 Fs Fh Cs: F F C C 9 9 7, three pair; seat 2
    1s 4h 6s: 1-2-3-4-5-6-7, a straight, 7 high. Over the 64-card deck a straight (180,180 hands) is rarer
    than three pair (6,289,920), so it ranks higher (docs/fileem-rankings.md) and wins the 40."""
    deal = record([["Cd", "9s", "9h", "2d", "5c", "7h", "3s"]], [PotPaid(40, (1, 2), ((2, 40),))],
                  {1: ["Fs", "Fh", "Cs"], 2: ["1s", "4h", "6s"]}, [1, 2])
    assert winning_hands(deal, ["fileem"]) == {2: "a straight, 7 high"}
    assert [w["text"] for w in summary(deal, {1: "Ann", 2: "Bob"}, ["fileem"])["winners"]] == \
        ["Bob wins 40 with a straight, 7 high"]


def test_pot4_omaha_hi_lo_names_the_high_and_the_low_winner() -> None:
    """Omaha 8-or-better, board 3c 5d 7s Qh Jd, a pot of 101. Seat 1 As 2h Kd Kc: high Kd Kc Q J 7, a pair
    of kings; low A 2 + 3 5 7, 7-5-3-2-A. Seat 2 Qs Qd 9d 8c: high three queens; no low (only the 8 is
    eight or under, a low needs two). POT-4: high 51 (the odd chip goes high), low 50."""
    deal = record([["3c", "5d", "7s", "Qh", "Jd"]], [PotPaid(101, (1, 2), ((1, 50), (2, 51)))],
                  {1: ["As", "2h", "Kd", "Kc"], 2: ["Qs", "Qd", "9d", "8c"]}, [1, 2])
    words = summary(deal, {1: "Ann", 2: "Bob"}, ["omaha_high", "omaha_low8"])
    assert [w["text"] for w in words["winners"]] == ["Ann wins 50 with a 7-5-3-2-A low",
                                                     "Bob wins 51 with three of a kind, queens"]
    assert words["pot"] == 101


def test_pot8_a_pot_nobody_contested_names_no_hand() -> None:
    """Everyone else folded: the winner showed nothing, so the list names no hand (and looks at no card)."""
    deal = record([["3c", "5d", "7s"]], [PotPaid(9, (2,), ((2, 9),))],
                  {1: ["As", "2h"], 2: ["Qs", "Qd"]}, [])
    assert winning_hands(deal, ["high"]) == {}
    assert summary(deal, {2: "Bob"}, ["high"])["winners"] == [
        {"seat": 2, "player": "Bob", "chips": 9, "hand": None, "text": "Bob wins 9"}]


def play_two_hands(controller: Any) -> None:
    """Hand 1 to its showdown (as test_tabled_cards), then hand 2 started and dealt, still in play."""
    entries: list[dict[str, Any]] = [
        *({"type": "sit", "seat": s, "player": n, "stack": 250} for s, n in ((1, "Ann"), (2, "Bob"), (3, "Cy"))),
        {"type": "start"}, *({"type": "card", "card": c} for c in HAND_1),
        *({"type": "act", "seat": s, "action": a} for s, a in ((1, "fold"), (2, "call"), (3, "check")))]
    for street in (["Jh", "2d", "3c", "7d"], ["6h", "Td"], ["Ac", "2c"]):
        entries += [*({"type": "card", "card": c} for c in street),
                    {"type": "act", "seat": 2, "action": "check"}, {"type": "act", "seat": 3, "action": "check"}]
    entries += [{"type": "muck", "seat": 3}, {"type": "show", "seat": 2}, {"type": "start"},
                *({"type": "card", "card": c} for c in HAND_2)]
    for entry in entries:
        assert controller.submit(entry).accepted, entry
    assert controller.table.hole_cards(3) == ("As", "Js")          # hand 2 is dealt and in play


def serve(tmp_path: Path, body: Callable[[TestClient[Any, Any], Any], Awaitable[None]]) -> None:
    config, controller, _api = make(tmp_path)
    play_two_hands(controller)

    async def main() -> None:
        console = Console(tmp_path / "no.sock", TOKENS, False, urls={}, histories=HandHistories(config.journal))
        client: TestClient[Any, Any] = TestClient(TestServer(console.app()))
        await client.start_server()
        try:
            await body(client, config)
        finally:
            await client.close()

    asyncio.run(main())


def test_the_list_names_players_and_hands_host_sees_folded_cards_others_only_tabled(tmp_path: Path) -> None:
    """Hand 1 (pot 6: blinds 1 + 3, Bob's call of 2) is listed once hand 2 starts: "Bob wins 6 with one pair,
    twos" (Kd Qc on 2d 3c 7d Td 2c). The host's list has Ann's folded 5d 4s and Cy's mucked 8c 9c (the
    positive control); the dealer's and the board's have Bob's tabled Kd Qc only. Hand 2, in play, is in no
    answer, the host's included."""
    answers: dict[str, str] = {}

    async def body(client: TestClient[Any, Any], config: Any) -> None:
        for role, token in TOKENS.items():
            cookie = {"Cookie": f"dealerpi_console={token}"}
            for path in ("/hands.json", "/hands/1.json", "/hands/1.phh", "/hands.phhs"):
                response = await client.get(path, headers=cookie)
                assert response.status == 200, (role, path, await response.text())
                answers[f"{role} {path}"] = await response.text()
        host = {"Cookie": f"dealerpi_console={TOKENS['host']}"}
        dealer_view = await client.get("/hands.json?view=dealer", headers=host)   # the host on the dealer's page
        answers["host as dealer"] = await dealer_view.text()
        refused = await client.get("/hands.json?view=host", headers={"Cookie": f"dealerpi_console={TOKENS['board']}"})
        assert refused.status == 403
        assert (await client.get("/hands/2.json", headers=host)).status == 404            # hand 2 is in play
        journal = "".join(path.read_text() for path in sorted(config.journal.parent.rglob("*.jsonl")))
        assert cards_in(journal, HAND_2) == sorted(HAND_2)                                # the positive control

    serve(tmp_path, body)
    hands = json.loads(answers["host /hands.json"])["hands"]
    assert [(h["number"], h["pot"], [w["text"] for w in h["winners"]]) for h in hands] == [
        (1, 6, ["Bob wins 6 with one pair, twos"])]
    assert JOURNAL_TIME.fullmatch(hands[0]["at"])                  # the start's time, journaled by the daemon
    assert {s: v["cards"] for s, v in hands[0]["seats"].items()} == {"1": ["5d", "4s"], "2": ["Kd", "Qc"],
                                                                     "3": ["8c", "9c"]}
    for name, text in answers.items():
        assert cards_in(text, HAND_2) == [], name
        if name.startswith("host /"):
            assert cards_in(text, FOLDED_OR_MUCKED) == ["4s", "5d", "8c", "9c"], name
        else:
            assert cards_in(text, FOLDED_OR_MUCKED) == [], name
            assert "Kd" in text, name                                                    # tabled: public
    assert {s: v["cards"] for s, v in json.loads(answers["board /hands.json"])["hands"][0]["seats"].items()} == \
        {"1": [], "2": ["Kd", "Qc"], "3": []}


def test_phh_downloads_replay_to_the_same_stacks_with_unshown_hands_unknown(tmp_path: Path) -> None:
    """The host's PHH has every hole card; the board's writes the unshown hands ????; both replay to the
    table's finishing stacks (Bob 253 = 250 - 3 + 6, Cy 247, Ann 250)."""
    texts: dict[str, str] = {}

    async def body(client: TestClient[Any, Any], _config: Any) -> None:
        for role, token in TOKENS.items():
            response = await client.get("/hands/1.phh", headers={"Cookie": f"dealerpi_console={token}"})
            texts[role] = await response.text()
            assert response.headers["Content-Disposition"] == f'attachment; filename="hand-1-{role}.phh"'
        session = await client.get("/hands.phhs", headers={"Cookie": f"dealerpi_console={TOKENS['dealer']}"})
        texts["session"] = await session.text()

    serve(tmp_path, body)
    host, board = loads(texts["host"]), loads(texts["board"])
    assert host.actions[:3] == ("d dh p1 KdQc", "d dh p2 8c9c", "d dh p3 5d4s")
    assert board.actions[:3] == ("d dh p1 KdQc", "d dh p2 ????", "d dh p3 ????")
    assert host.players == board.players == ("Bob", "Cy", "Ann")
    for phh in (host, board):
        assert phh.finishing_stacks == (253, 247, 250)
        assert replay(phh).status is Status.MATCH
    assert [r.actions for r in loads_all(texts["session"])] == [board.actions]


def test_the_replay_steps_through_the_hand_action_by_action(tmp_path: Path) -> None:
    """Hand 1's inputs, one step each: the start, 6 hole cards, 3 actions (10); the flop's burn, 3 cards and
    2 checks (6); the turn's and the river's burn, card and 2 checks (4 + 4); the muck and the show (2):
    26 steps. The host reads "Kd to seat 2 (Bob)"; the dealer "a hole card to seat 2 (Bob)" and "burn"."""
    answers: dict[str, Any] = {}

    async def body(client: TestClient[Any, Any], _config: Any) -> None:
        for role in ("host", "dealer"):
            response = await client.get("/hands/1.json", headers={"Cookie": f"dealerpi_console={TOKENS[role]}"})
            answers[role] = await response.json()

    serve(tmp_path, body)
    host, dealer = answers["host"]["steps"], answers["dealer"]["steps"]
    assert len(host) == len(dealer) == 26
    assert [s["what"] for s in host[:2]] == ["hand #1: button seat 1", "Kd to seat 2 (Bob)"]
    assert [s["what"] for s in dealer[1:3]] == ["a hole card to seat 2 (Bob)", "a hole card to seat 3 (Cy)"]
    assert [s["what"] for s in dealer[7:14]] == ["seat 1 (Ann) folds", "seat 2 (Bob) calls", "seat 3 (Cy) checks",
                                                  "burn", "board: 2d", "board: 3c", "board: 7d"]
    assert host[10]["what"] == "burn Jh"
    assert host[8]["seats"]["2"] == {"player": "Bob", "stack": 247, "bet": 3, "status": "in",
                                     "cards": ["Kd", "Qc"], "shown": False}             # 250 - 3 after the call
    assert dealer[8]["seats"]["2"]["cards"] == [] and dealer[8]["pots"] == [6]
    assert [s["what"] for s in dealer[-2:]] == ["seat 3 (Cy) mucks", "seat 2 (Bob) shows Kd Qc"]
    assert dealer[-1]["payouts"] == [[2, 6]] and dealer[-1]["seats"]["2"]["cards"] == ["Kd", "Qc"]
    assert all(step["seats"]["3"]["cards"] == [] for step in dealer)
