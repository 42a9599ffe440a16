"""The simulator's secrecy and held presses (issue 14, "Defects found"), on the daemon and the console: each
search for a hole card has a positive control that finds the same card where it legitimately is (the journal
on disk, the engine)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
from pathlib import Path

from simkit import Page, Sim, expecting, image_of, running_sim

from dealerpi.engine import Card
from dealerpi.views.render import dealer_lines, render_dealer

# dealt from seat 2 (left of the button, seat 1): seat 2 Kh Kd, seat 3 Qh Qd, seat 1 Ah Ad
HOLES = {2: ["Kh", "Kd"], 3: ["Qh", "Qd"], 1: ["Ah", "Ad"]}
DEAL_ORDER = ["Kh", "Qh", "Ah", "Kd", "Qd", "Ad"]
CARD = re.compile(r"\b[2-9TJQKA][shdc]\b")


async def _start(page: Page) -> None:
    """START, and the hole cards of DEAL_ORDER: seat 1 (the button, three-handed) is to act."""
    await page.click("dealer", "start")
    await page.next(expecting("card to seat 2"))
    await page.deal(*DEAL_ORDER)
    await page.next(expecting("action on seat 1"))


async def _fold_out(page: Page) -> None:
    """Seat 1 folds, seat 2 folds: seat 3 wins the blinds without showing."""
    await page.click(1, "fold")
    await page.next(expecting("action on seat 2"))
    await page.click(2, "fold")
    await page.next(lambda v: v["seats"]["3"]["stack"] == 101)


def test_the_journal_download_is_refused_during_a_hand_and_offered_after_it(tmp_path: Path) -> None:
    """House rules (hole cards are secret): mid-hand the journal's card lines are the live hole cards, so the
    console's download answers 409 without them; the journal on disk (positive control) holds all six. Seat 1
    folds, seat 2 folds: seat 3 wins 1 + 3 = 4 (Cy: 100 - 3 + 4 = 101) and the hand is over; then the
    download is the journal folder's segments, as on disk."""
    async def scenario() -> None:
        async with running_sim(tmp_path) as sim:
            page = await sim.page()
            await _start(page)
            on_disk = sim.journal_text()
            async with sim.session.get(f"{sim.url}/journal.jsonl") as response:
                body = await response.text()
                assert response.status == 409
            assert body == ("409: the journal holds the hole cards of the hand in progress: download it when "
                            "the hand is over\n")
            for card in DEAL_ORDER:
                assert f'"{card}"' in on_disk                      # positive control: the search finds it
                assert card not in body
            await _fold_out(page)
            async with sim.session.get(f"{sim.url}/journal.jsonl") as response:
                assert response.status == 200
                assert await response.text() == sim.journal_text()

    asyncio.run(scenario())


def test_no_message_to_the_panel_names_a_folded_hole_card(tmp_path: Path) -> None:
    """House rules: only tabled cards are public. A hand won by folds (seat 1, then seat 2, fold; seat 3 wins
    without showing): no message the panel page received, during the hand or after it, names a card at all
    (no board was dealt; the frames are images: their text is the renderers', checked in test_sim_panel).
    Positive control: the engine's record has all six hole cards, and the same search finds them in the
    journal."""
    async def scenario() -> None:
        async with running_sim(tmp_path) as sim:
            page = await sim.page()
            texts: list[str] = []
            receive = page.ws.receive

            async def keep() -> object:
                message = await receive()
                texts.append(message.data)
                return message

            page.ws.receive = keep                                  # type: ignore[method-assign,assignment]
            await _start(page)
            await _fold_out(page)
            record = sim.table.records[-1]
            assert {seat: list(cards) for seat, cards in record.hole.items()} == HOLES   # positive control
            assert record.shown == []
            assert sorted(CARD.findall(sim.journal_text())) == sorted(DEAL_ORDER)
            text = "".join(texts)
            frames = re.sub(r'"data:image/png;base64,[^"]*"', '""', text)
            assert len(texts) > 20 and CARD.findall(frames) == []

    asyncio.run(scenario())


def test_a_pending_exposed_does_not_put_a_hole_card_on_the_dealer_display(tmp_path: Path) -> None:
    """House rules + EXP-1: the panel sends the dealer display's frame to a page, so EXPOSED before CONFIRM
    must not name the hole card just dealt (Kh, seat 2's first card): the prompt says what CONFIRM will do
    and the seconds left (issue 14). Positive control: the same view with a line naming Kh draws another frame."""
    async def scenario() -> None:
        async with running_sim(tmp_path) as sim:
            page = await sim.page()
            await page.click("dealer", "start")
            await page.next(expecting("card to seat 2"))
            await page.deal("Kh")
            await page.next(expecting("card to seat 3"))
            await page.click("dealer", "exposed")
            controller = sim.controller
            assert controller.console.pending == Card("exposed", "Kh")
            view = controller.dealer_view()
            assert view.expect.startswith("EXPOSED? ") and view.expect.endswith("s left")
            assert view.confirm[0] == "CONFIRM: the last card read was exposed (EXP-1..4, EXP-7)"
            assert not any("Kh" in line for line in (view.expect, *dealer_lines(view)))
            drawn = render_dealer(view).tobytes()
            shown = await page.next(lambda v: image_of(v["frames"]["dealer"]).convert("1").tobytes() == drawn)
            named = dataclasses.replace(view, confirm=("exposed Kh", *view.confirm))
            assert render_dealer(named).tobytes() != image_of(shown["frames"]["dealer"]).convert("1").tobytes()
            await page.click("dealer", "confirm")                          # EXP-1: now exposed, it is public
            await page.next(lambda v: controller.console.pending is None and any(
                a["rule"] == "EXP-1" for a in v["alerts"]))

    asyncio.run(scenario())


def test_a_pending_exposed_names_no_card_even_a_board_card(tmp_path: Path) -> None:
    """The console's prompt never names a card (dealerpi/input/dealer_buttons.py), a board card neither: the dealer
    sees the card. Seat 1 calls 3, seat 2 completes to 3, seat 3 checks; burn 2s, flop 7d 9s 5c; EXPOSED."""
    async def scenario() -> None:
        async with running_sim(tmp_path) as sim:
            page = await sim.page()
            await _start(page)
            for seat, after in ((1, "action on seat 2"), (2, "action on seat 3"), (3, "burn")):
                await page.click(seat, "call")
                await page.next(expecting(after))
            await page.deal("2s", "7d", "9s", "5c")
            await page.next(expecting("action on seat 2"))
            await page.click("dealer", "exposed")
            view = sim.controller.dealer_view()
            assert view.expect.startswith("EXPOSED? ")
            assert not any("5c" in line for line in (view.expect, *view.confirm))

    asyncio.run(scenario())


async def _level(sim: Sim, pin: object, level: int) -> None:
    """Wait (at most 10 s) for ``pin`` to read ``level`` (0 pressed, 1 released): a press or release out of
    turn changes no view, so no push says so."""
    for _ in range(500):
        if sim.devices.mock_pin(pin).state == level:              # type: ignore[arg-type]
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{pin} is not at level {level}")


def test_closing_the_page_releases_the_buttons_it_held(tmp_path: Path) -> None:
    """A 150 ms BET tap cut off by a closed page opens amount entry and nothing more: after 1.0 s (more than
    the 600 ms long press that confirms a bet) no action is journaled and the pin is high. Positive control:
    a page that stays open holding BET confirms the bet (the table moves on to seat 2)."""
    async def scenario() -> None:
        async with running_sim(tmp_path) as sim:
            page = await sim.page()
            await _start(page)
            bet = sim.config.seats[0].buttons["bet"]
            cut = await sim.page()
            assert (await cut.op(op="press", where=1, button="bet"))["accepted"]
            await asyncio.sleep(0.15)
            assert sim.devices.mock_pin(bet).state == 0           # held low by the cut-off page
            await cut.close()
            await _level(sim, bet, 1)                              # released when the page closed
            await asyncio.sleep(1.0)
            assert sim.table.expectation().words() == "action on seat 1"
            assert "act" not in sim.journal_types()
            assert (await page.op(op="press", where=1, button="bet"))["accepted"]     # held, page open
            await page.next(expecting("action on seat 2"))
            assert sim.journal_types().count("act") == 1
            assert (await page.op(op="release", where=1, button="bet"))["accepted"]
            await _level(sim, bet, 1)

    asyncio.run(scenario())


def test_a_pin_held_by_another_open_page_stays_held(tmp_path: Path) -> None:
    """Two pages press seat 1's BET; the one closed does not release the finger still on the other."""
    async def scenario() -> None:
        async with running_sim(tmp_path) as sim:
            bet = sim.config.seats[0].buttons["bet"]
            stays, goes = await sim.page(), await sim.page()
            for page in (stays, goes):
                assert (await page.op(op="press", where=1, button="bet"))["accepted"]
            await _level(sim, bet, 0)
            await goes.close()
            await asyncio.sleep(0.2)
            assert sim.devices.mock_pin(bet).state == 0
            await stays.close()
            await _level(sim, bet, 1)

    asyncio.run(scenario())


def test_a_restart_mid_hand_keeps_the_dealt_cards_out_of_the_shoe(tmp_path: Path) -> None:
    """MIS-7: restarted on the same --out mid-hand, the virtual deck holds 52 - 6 = 46 cards, none of the six
    hole cards; the burn and flop dealt next are four more (46 - 4 = 42) and no fouled deck comes of them.
    Positive control: before the restart the deck had dealt exactly those six."""
    async def scenario() -> None:
        async with running_sim(tmp_path) as sim:
            page = await sim.page()
            await _start(page)
            assert sim.deck.dealt == DEAL_ORDER
            for seat, after in ((1, "action on seat 2"), (2, "action on seat 3"), (3, "burn")):
                await page.click(seat, "call")
                await page.next(expecting(after))
        async with running_sim(tmp_path) as again:
            deck = again.deck
            assert deck.dealt == DEAL_ORDER
            assert deck.left == 46 and not set(DEAL_ORDER) & set(deck.order)
            page = await again.page()
            assert page.view["expect"] == "burn" and page.view["virtual_shoe"]["left"] == 46
            await page.deal(None, None, None, None)
            view = await page.next(expecting("action on seat 2"))
            assert len(view["board"][0]) == 3 and view["virtual_shoe"]["left"] == 42
            assert [a for a in view["alerts"] if a["rule"] == "MIS-7"] == []
            assert json.loads(again.journal_text().splitlines()[0])["type"] == "table"

    asyncio.run(scenario())
