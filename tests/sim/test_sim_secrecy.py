"""The simulator's secrecy and held presses (issue 14, "Defects found"): each search for a hole card has a
positive control that finds the same card where it legitimately is (the journal on disk, the engine)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path

from simkit import click, expecting, image_of, next_state, running_sim

from dealerpi.views.render import dealer_lines, render_dealer

# dealt from seat 2 (left of the button, seat 1): seat 2 Kh Kd, seat 3 Qh Qd, seat 1 Ah Ad
HOLES = {2: ["Kh", "Kd"], 3: ["Qh", "Qd"], 1: ["Ah", "Ad"]}
DEAL_ORDER = ["Kh", "Qh", "Ah", "Kd", "Qd", "Ad"]


async def _deal(ws, cards: list[str], until: str) -> dict:
    for card in cards:
        await ws.send_json({"op": "deal", "card": card})
    return await next_state(ws, expecting(until))


async def _start(ws) -> None:
    """START, and the hole cards of DEAL_ORDER: seat 1 (the button, three-handed) is to act."""
    await click(ws, console="start")
    await next_state(ws, expecting("card to seat 2"))
    await _deal(ws, DEAL_ORDER, "action on seat 1")


async def _fold_out(ws) -> dict:
    """Seat 1 folds, seat 2 folds: seat 3 wins the blinds without showing; the state of the hand's end."""
    await click(ws, seat=1, button="fold")
    await next_state(ws, expecting("action on seat 2"))
    await click(ws, seat=2, button="fold")
    return await next_state(ws, lambda s: s["next"]["what"] == "start a hand" and s["hands"])


def test_the_journal_download_is_refused_during_a_hand_and_offered_after_it(tmp_path: Path) -> None:
    """House rules (hole cards are secret): mid-hand the journal's card lines are the live hole cards, so the
    download answers 409 without them; the journal on disk (positive control) holds all six. Seat 1 folds,
    seat 2 folds: seat 3 wins 1 + 3 = 4 and the hand is over; then the download is the file on disk."""
    async def scenario() -> None:
        async with running_sim(tmp_path) as (sim, _, client):
            ws = await client.ws_connect("/ws")
            await _start(ws)
            on_disk = sim.journal_path.read_text()
            response = await client.get("/download/journal.jsonl")
            body = await response.text()
            assert response.status == 409
            assert body == ("409: the journal holds the hole cards of the hand in progress: download it when "
                            "the hand is over\n")
            for card in DEAL_ORDER:
                assert f'"{card}"' in on_disk                      # positive control: the search finds it
                assert card not in body
            await _fold_out(ws)
            assert sim.table.seats[3].stack == 101                 # Cy: 100 - 3 + 4 (blinds 1 + 3)
            response = await client.get("/download/journal.jsonl")
            assert response.status == 200
            assert await response.text() == sim.journal_path.read_text()

    asyncio.run(scenario())


def test_finished_hands_show_no_folded_or_mucked_cards(tmp_path: Path) -> None:
    """House rules: only tabled cards are public. A hand won by folds (seat 1, then seat 2, fold; seat 3 wins
    without showing) lists no hole card on the page; the engine's record (positive control) has all six."""
    async def scenario() -> None:
        async with running_sim(tmp_path) as (sim, _, client):
            ws = await client.ws_connect("/ws")
            await _start(ws)
            state = await _fold_out(ws)
            record = sim.table.records[-1]
            assert {seat: list(cards) for seat, cards in record.hole.items()} == HOLES   # positive control
            assert record.shown == []
            assert state["hands"][-1]["hole"] == {}
            text = json.dumps({k: v for k, v in state.items() if k != "shoe"})   # the shoe lists its deck
            for card in DEAL_ORDER:
                assert f'"{card}"' not in text

    asyncio.run(scenario())


def test_a_pending_exposed_does_not_put_a_hole_card_on_the_dealer_display(tmp_path: Path) -> None:
    """House rules + EXP-1: the page sends the dealer display to everyone, so EXPOSED before CONFIRM must not
    name the hole card just dealt (Kh, seat 2's first card). Positive control: the daemon's own prompt,
    "exposed Kh? CONFIRM", drawn on the same view, does name it and differs from the page's image."""
    async def scenario() -> None:
        async with running_sim(tmp_path) as (sim, _, client):
            ws = await client.ws_connect("/ws")
            await click(ws, console="start")
            await next_state(ws, expecting("card to seat 2"))
            await _deal(ws, ["Kh"], "card to seat 3")
            await click(ws, console="exposed")
            state = await next_state(ws, lambda s: sim.controller.console.pending is not None)
            view = sim.controller.dealer_view()
            assert view.expect == "exposed? CONFIRM"
            assert not any("Kh" in line for line in (view.expect, *dealer_lines(view)))
            shown = image_of(state["dealer"]["image"]).convert("1").tobytes()
            assert shown == render_dealer(view).tobytes()
            daemon = dataclasses.replace(view, expect="exposed Kh? CONFIRM")
            assert "Kh" in daemon.expect                          # the header row of the dealer display
            assert render_dealer(daemon).tobytes() != shown
            assert sim.controller.console.pending == {"type": "exposed", "card": "Kh"}
            await click(ws, console="confirm")                    # EXP-1: now exposed, it is public
            state = await next_state(ws, lambda s: any(e["text"] == "the dealer: exposed Kh" for e in s["log"]))
            assert sim.controller.console.pending is None

    asyncio.run(scenario())


def test_a_pending_exposed_names_a_board_card(tmp_path: Path) -> None:
    """A card already face up on the board is no secret: the prompt names it as the daemon's does. Seat 1
    calls 3, seat 2 completes to 3, seat 3 checks; burn 2s, flop 7d 9s 5c; EXPOSED names 5c."""
    async def scenario() -> None:
        async with running_sim(tmp_path) as (sim, _, client):
            ws = await client.ws_connect("/ws")
            await _start(ws)
            for seat, after in ((1, "action on seat 2"), (2, "action on seat 3"), (3, "burn")):
                await click(ws, seat=seat, button="call")
                await next_state(ws, expecting(after))
            await _deal(ws, ["2s", "7d", "9s", "5c"], "action on seat 2")
            await click(ws, console="exposed")
            await next_state(ws, lambda s: sim.controller.console.pending is not None)
            assert sim.controller.dealer_view().expect == "exposed 5c? CONFIRM"

    asyncio.run(scenario())


async def _level(sim, pin, level: int) -> None:
    """Wait (at most 2 s) for ``pin`` to read ``level`` (0 pressed, 1 released): a press or release out of
    turn changes no state, so no push says so."""
    for _ in range(100):
        if sim.devices.mock_pin(pin).state == level:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{pin} is not at level {level}")


def test_closing_the_page_releases_the_buttons_it_held(tmp_path: Path) -> None:
    """A 150 ms BET tap cut off by a closed page opens amount entry and nothing more: after 1.0 s (more than
    the 600 ms long press that confirms a bet) no action is journaled and the pin is high. Positive control:
    a page that stays open holding BET confirms the bet (the table moves on to seat 2)."""
    async def scenario() -> None:
        async with running_sim(tmp_path) as (sim, _, client):
            ws = await client.ws_connect("/ws")
            await _start(ws)
            bet = sim.config.seats[0].buttons["bet"]
            cut = await client.ws_connect("/ws")
            await cut.send_json({"op": "press", "seat": 1, "button": "bet"})
            await asyncio.sleep(0.15)
            assert sim.devices.mock_pin(bet).state == 0           # held low by the cut-off page
            await cut.close()
            await asyncio.sleep(1.0)
            assert sim.devices.mock_pin(bet).state == 1         # released when the page closed
            assert sim.table.expectation().words() == "action on seat 1"
            assert [e["type"] for e in sim.table.accepted].count("act") == 0
            await ws.send_json({"op": "press", "seat": 1, "button": "bet"})      # held, page open
            await next_state(ws, expecting("action on seat 2"))
            assert [e["type"] for e in sim.table.accepted].count("act") == 1
            await ws.send_json({"op": "release", "seat": 1, "button": "bet"})
            await _level(sim, bet, 1)

    asyncio.run(scenario())


def test_a_pin_held_by_another_open_page_stays_held(tmp_path: Path) -> None:
    """Two pages press seat 1's BET; the one closed does not release the finger still on the other."""
    async def scenario() -> None:
        async with running_sim(tmp_path) as (sim, _, client):
            bet = sim.config.seats[0].buttons["bet"]
            stays, goes = await client.ws_connect("/ws"), await client.ws_connect("/ws")
            for ws in (stays, goes):
                await ws.send_json({"op": "press", "seat": 1, "button": "bet"})
            await _level(sim, bet, 0)
            await goes.close()
            await asyncio.sleep(0.2)
            assert sim.devices.mock_pin(bet).state == 0
            await stays.close()
            await _level(sim, bet, 1)

    asyncio.run(scenario())


def test_a_restart_mid_hand_keeps_the_dealt_cards_out_of_the_shoe(tmp_path: Path) -> None:
    """MIS-7: restarted on the same journal mid-hand, the virtual deck holds 52 - 6 = 46 cards, none of the six
    hole cards; the burn and flop dealt next are four more (46 - 4 = 42) and no fouled deck comes of them.
    Positive control: before the restart the deck had dealt exactly those six."""
    async def scenario() -> None:
        async with running_sim(tmp_path / "a") as (sim, _, client):
            ws = await client.ws_connect("/ws")
            await _start(ws)
            assert sim.deck.dealt == DEAL_ORDER
            for seat, after in ((1, "action on seat 2"), (2, "action on seat 3"), (3, "burn")):
                await click(ws, seat=seat, button="call")
                await next_state(ws, expecting(after))
            lines = sim.journal_path.read_text().splitlines()
        async with running_sim(tmp_path / "b", lines=lines) as (again, _, client):
            assert again.deck.dealt == DEAL_ORDER
            assert again.deck.left == 46 and not set(DEAL_ORDER) & set(again.deck.order)
            ws = await client.ws_connect("/ws")
            await next_state(ws, expecting("burn"))
            for _ in range(4):
                await ws.send_json({"op": "deal"})
            state = await next_state(ws, expecting("action on seat 2"))
            assert len(state["board"][0]) == 3 and state["shoe"]["left"] == 42
            assert not [e for e in state["log"] if e["rule"] == "MIS-7"]

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    asyncio.run(scenario())
