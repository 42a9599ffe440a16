"""The virtual-hardware panel on ``dealerpi sim``: a click presses a mock pin, the frames are the devices'
output, "Deal next card" deals one card per click, a void four-card flop goes back into the virtual deck,
and each update is a change, not the whole state (issue 14)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from simkit import expecting, image_of, running_sim

from dealerpi.views.model import SeatView
from dealerpi.views.render import render_seat


def test_a_click_on_a_seat_button_calls_and_the_seat_display_shows_it(tmp_path: Path) -> None:
    """BLD-1: seat 1 has the button, 2 and 3 post 1 and 3; three-handed the button acts first and calls 3.
    The six seats of the start journal's table each have a panel; the frame of seat 1 after the call is the
    renderer's drawing of the seat's view, and the LEDs follow the action."""
    async def scenario() -> None:
        async with running_sim(tmp_path) as sim:
            page = await sim.page()
            assert page.view["hardware"]["seats"] == [1, 2, 3, 4, 5, 6]
            assert page.view["hardware"]["seat_buttons"] == ["fold", "call", "bet"]
            assert page.view["expect"] == "start"
            await page.click("dealer", "start")
            await page.next(expecting("card to seat 2"))
            await page.deal(*[None] * 6)
            view = await page.next(expecting("action on seat 1"))
            assert view["leds"]["1"] == ["action", "dealer"]
            assert view["pots"][0]["amount"] == 4                                  # the blinds, 1 + 3
            await page.click(1, "call")
            # pot: 1 + 3 + 3 = 7; Ann 300 - 3 = 297, her bet 3, the button's marker, no longer her action
            expected = SeatView(seat=1, player="Ann", stack=297, status="in", pot=7, bet=3, is_button=True,
                                blinds=(1, 3), hand_number=1)
            drawn = render_seat(expected).tobytes()
            view = await page.next(lambda v: image_of(v["frames"]["1"]).convert("1").tobytes() == drawn)
            device = sim.devices.image(sim.config.seats[0].display)
            assert device is not None and device.tobytes() == drawn
            assert view["expect"] == "action on seat 2"
            assert view["leds"]["1"] == ["dealer"] and view["leds"]["2"] == ["action"]
            assert view["seats"]["1"]["stack"] == 297

    asyncio.run(scenario())


def test_a_double_click_on_deal_next_card_deals_one_card(tmp_path: Path) -> None:
    """Two clicks on "Deal next card" sent before the first card's view came back both say "after 0 cards":
    the second is refused on the server, so one card is read (seat 2's first). Positive control: a click
    after the page saw that card (after 1) deals the next one, to seat 3."""
    async def scenario() -> None:
        async with running_sim(tmp_path) as sim:
            page = await sim.page()
            await page.click("dealer", "start")
            await page.next(expecting("card to seat 2"))
            await page.ws.send_json({"op": "deal", "after": 0})
            await page.ws.send_json({"op": "deal", "after": 0})
            first, second = await page.result(), await page.result()
            assert first == {"type": "result", "op": "deal", "accepted": True, "reason": None}
            assert second == {"type": "result", "op": "deal", "accepted": False,
                              "reason": "not dealt: the page saw 0 cards dealt and the shoe has dealt 1 (a second "
                                        "click while a card was on its way?)"}
            await page.next(expecting("card to seat 3"))
            await asyncio.sleep(0.3)
            assert sim.journal_types().count("card") == 1 and page.view["virtual_shoe"]["dealt"] == 1
            assert (await page.op(op="deal", after=1))["accepted"]
            await page.next(expecting("card to seat 1"))
            assert sim.journal_types().count("card") == 2

    asyncio.run(scenario())


def test_a_void_four_card_flop_goes_back_into_the_virtual_deck(tmp_path: Path) -> None:
    """BRD-1, seed 002 B2 (home rules): a fourth flop card voids the flop; the four go back into the deck, the
    burn stays out, reshuffle, burn again, new flop. The deck: 52 - 6 hole cards - burn 2s = 45 in the shoe,
    7d 9s 5c Jc among them; the new burn and flop are 4 more (41) with no fouled deck (MIS-7)."""
    async def scenario() -> None:
        async with running_sim(tmp_path) as sim:
            page = await sim.page()
            await page.click("dealer", "start")
            await page.next(expecting("card to seat 2"))
            await page.deal("Kh", "Qh", "Ah", "Kd", "Qd", "Ad")
            await page.next(expecting("action on seat 1"))
            for seat, after in ((1, "action on seat 2"), (2, "action on seat 3"), (3, "burn")):
                await page.click(seat, "call")
                await page.next(expecting(after))
            await page.deal("2s", "7d", "9s", "5c")
            await page.next(expecting("action on seat 2"))
            assert page.view["virtual_shoe"]["left"] == 42                      # 52 - 6 - 2s - 3 flop cards
            await page.deal("Jc")
            view = await page.next(lambda v: any(a["rule"] == "BRD-1" for a in v["alerts"]))
            deck = sim.deck
            assert {"7d", "9s", "5c", "Jc"} <= set(deck.order) and "2s" not in deck.order
            view = await page.next(lambda v: v["virtual_shoe"]["left"] == 45)
            assert view["expect"] == "burn" and view["board"] == [[]]
            await page.deal(None, None, None, None)
            view = await page.next(expecting("action on seat 2"))
            assert len(view["board"][0]) == 3 and view["virtual_shoe"]["left"] == 41
            assert [a for a in view["alerts"] if a["rule"] == "MIS-7"] == []

    asyncio.run(scenario())


def test_an_update_is_the_change_not_the_whole_state(tmp_path: Path) -> None:
    """Views are sent as changes (issue 14: the old page got ~37 KB every time): a short BET tap on seat 1's
    turn opens amount entry on seat 1's display and changes no other display, so its updates carry seat 1's
    frame only (under 1 KB) and the status panel's count of the bank's presses, each message under a third of
    the whole view (six seat frames, the dealer's, the status), which is sent once."""
    async def scenario() -> None:
        async with running_sim(tmp_path) as sim:
            page = await sim.page()
            whole = page.sizes[0]
            await page.click("dealer", "start")
            await page.next(expecting("card to seat 2"))
            await page.deal(*[None] * 6)
            await page.next(expecting("action on seat 1"))
            before = dict(page.view["frames"])
            await asyncio.sleep(0.3)
            start = len(page.sizes)
            raw: list[dict[str, Any]] = []
            receive = page.ws.receive

            async def keep() -> object:
                message = await receive()
                raw.append(json.loads(message.data))
                return message

            page.ws.receive = keep                                   # type: ignore[method-assign,assignment]
            await page.click(1, "bet")
            await page.next(lambda v: v["frames"]["1"] != before["1"])
            changes = [m["changes"] for m in raw if m["type"] == "changes"]
            # the frames that changed: seat 1's only; besides, the host's status panel counts the bank's presses
            assert {key for c in changes for key in c} <= {"frames", "status"}
            assert {where for c in changes for where in c.get("frames", {})} == {"1"}
            sizes = page.sizes[start:]
            frame = max(len(json.dumps(c["frames"])) for c in changes if "frames" in c)
            print(f"whole view {whole} B; the tap's messages {sizes} B, of which seat 1's frame {frame} B")
            assert frame < 1000 and max(sizes) < whole / 3

    asyncio.run(scenario())
