"""The simulator's server: the page's clicks press mock pins, its state is the devices' output, secrets stay."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from simkit import click, expecting, image_of, next_state, running_sim

from dealerpi.sim.server import COOKIE, START_JOURNAL
from dealerpi.views.model import SeatView
from dealerpi.views.render import render_seat


async def _deal_hole_cards(ws, count: int = 6) -> dict:
    await next_state(ws, expecting("card to seat 2"))
    for _ in range(count):
        await ws.send_json({"op": "deal"})
    return await next_state(ws, expecting("action on seat 1"))


def test_a_click_on_a_seat_button_calls_and_the_seat_display_shows_it(tmp_path: Path) -> None:
    """BLD-1: seat 1 has the button, 2 and 3 post 1 and 3; three-handed the button acts first and calls 3."""
    async def scenario() -> None:
        async with running_sim(tmp_path) as (sim, _, client):
            ws = await client.ws_connect("/ws")
            first = await next_state(ws)
            assert [s["seat"] for s in first["seats"]] == [1, 2, 3, 4, 5, 6]
            assert first["next"]["what"] == "start a hand"
            await click(ws, console="start")
            state = await _deal_hole_cards(ws)
            assert state["seats"][0]["leds"] == {"action": True, "dealer": True}
            assert [p["name"] for p in state["pots"]] == ["main pot"]
            assert state["pots"][0]["amount"] == 4                  # the blinds, 1 + 3
            await click(ws, seat=1, button="call")
            state = await next_state(ws, expecting("action on seat 2"))
            # pot: 1 + 3 + 3 = 7; Ann 300 - 3 = 297, her bet 3, the button's marker, no longer her action
            expected = SeatView(seat=1, player="Ann", stack=297, status="in", pot=7, bet=3, is_button=True,
                                blinds=(1, 3), hand_number=1)
            shown = image_of(state["seats"][0]["image"])
            assert shown.convert("1").tobytes() == render_seat(expected).tobytes()
            assert shown.convert("1").tobytes() == sim.image(1).tobytes()
            assert state["seats"][0]["leds"] == {"action": False, "dealer": True}
            assert state["seats"][1]["leds"] == {"action": True, "dealer": False}
            assert sim.table.seats[1].stack == 300 and sim.table.seat(1).stack == 297
            await ws.close()

    asyncio.run(scenario())


def test_hole_cards_reach_only_a_viewer_who_ticked_training(tmp_path: Path) -> None:
    """House rules: hole cards are on no network interface before the showdown, unless asked for training."""
    async def scenario() -> None:
        async with running_sim(tmp_path) as (sim, _, client):
            plain = await client.ws_connect("/ws")
            trainee = await client.ws_connect("/ws")
            await trainee.send_json({"op": "training", "on": True})
            await click(plain, console="start")
            state = await _deal_hole_cards(plain)
            holes = {seat: list(sim.table.play.hand.hole[i]) for i, seat in enumerate(sim.table.play.plan.order)}
            assert all(len(cards) == 2 for cards in holes.values())
            text = json.dumps({k: v for k, v in state.items() if k != "shoe"} | {"shoe": {
                k: v for k, v in state["shoe"].items() if k != "cards"}})
            for cards in holes.values():
                for card in cards:
                    assert f'"{card}"' not in text
            assert all(seat["hole"] == [] for seat in state["seats"])
            assert "cards_dealt" not in state["shoe"]
            seen = await next_state(trainee, lambda s: s["training"] and s["next"]["what"] == "action on seat 1")
            assert {s["seat"]: s["hole"] for s in seen["seats"] if s["hole"]} == holes
            assert sorted(seen["shoe"]["cards_dealt"]) == sorted(c for cards in holes.values() for c in cards)

    asyncio.run(scenario())


def test_with_a_token_a_viewer_without_it_sees_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_sim(tmp_path, token="s3cret") as (_, _, client):
            for path in ("/", "/static/app.js", "/download/journal.jsonl", "/download/hands.phhs", "/ws"):
                response = await client.get(path)
                assert response.status == 401, path
                assert "Ann" not in await response.text()
            wrong = await client.get("/?token=guess")
            assert wrong.status == 401
            page = await client.get("/?token=s3cret")
            assert page.status == 200 and "DealerPi" in await page.text()
            assert page.cookies[COOKIE].value == "s3cret"
            assert (await client.get("/static/app.js")).status == 200       # the cookie carries the token
            ws = await client.ws_connect("/ws")
            assert (await next_state(ws))["seats"][0]["player"] == "Ann"

    asyncio.run(scenario())


def test_a_page_of_another_origin_cannot_open_the_socket(tmp_path: Path) -> None:
    """A web site in the same browser must not drive the table: not by its own origin, not by DNS rebinding
    (its name resolving to 127.0.0.1, so that the browser sends its name as the Host)."""
    async def scenario() -> None:
        async with running_sim(tmp_path) as (_, _, client):
            port = client.port
            rebound = await client.get("/", headers={"Host": f"evil.example:{port}"})
            assert rebound.status == 403
            assert (await client.get("/", headers={"Host": f"localhost:{port}"})).status == 200
            response = await client.get("/ws", headers={"Origin": "http://evil.example", "Connection": "Upgrade",
                                                        "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
                                                        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
            assert response.status == 403

    asyncio.run(scenario())


def test_the_journal_download_replays_to_the_same_table(tmp_path: Path) -> None:
    """The journal is the table (DESIGN.md): loading the evening's journal gives the same hand, mid-way."""
    async def scenario() -> None:
        async with running_sim(tmp_path / "a") as (sim, _, client):
            ws = await client.ws_connect("/ws")
            await click(ws, console="start")
            await _deal_hole_cards(ws)
            await click(ws, seat=1, button="call")
            await next_state(ws, expecting("action on seat 2"))
            # mid-hand the download is refused (test_sim_secrecy): the file on disk is the journal
            lines = (tmp_path / "a" / "journal.jsonl").read_text().splitlines()
            assert lines[:5] == START_JOURNAL.read_text().splitlines()
            assert [json.loads(line)["type"] for line in lines[5:]] == ["start"] + ["card"] * 6 + ["act"]
            before = sim.table.expectation().as_json(), sim.table.play.hand.stacks[:], sim.table.play.hand.hole[:]
        async with running_sim(tmp_path / "b", lines=lines) as (again, _, client):
            state = await next_state(await client.ws_connect("/ws"))
            assert state["next"]["what"] == "action on seat 2"
            hand = again.table.play.hand
            assert (again.table.expectation().as_json(), hand.stacks, hand.hole) == before

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    asyncio.run(scenario())


def test_irregularities_reach_the_log_with_their_rule_ids(tmp_path: Path) -> None:
    """Tournament preset: the first card exposed is a misdeal (EXP-2, TDA 35-A-7); a four-card flop has its
    burn picked by the dealer on the page (BRD-1, TDA 39-A)."""
    lines = START_JOURNAL.read_text().splitlines()
    lines[0] = lines[0].replace('"home"', '"tournament"')

    async def scenario() -> None:
        async with running_sim(tmp_path, lines=lines) as (_, _, client):
            ws = await client.ws_connect("/ws")
            await click(ws, console="start")
            await next_state(ws, expecting("card to seat 2"))
            await ws.send_json({"op": "deal", "card": "Kh"})
            await next_state(ws, expecting("card to seat 3"))
            await ws.send_json({"op": "flag", "kind": "exposed"})
            state = await next_state(ws, lambda s: any(e["rule"] == "EXP-2" for e in s["log"]))
            assert state["next"]["what"] == "card to seat 2"                    # the redeal
            texts = [(e["kind"], e["rule"], e["text"]) for e in state["log"]][-3:]
            assert texts[0] == ("input", None, "the shoe read a card")          # never which card
            assert texts[1] == ("input", None, "the dealer: exposed Kh")        # exposed: seen by all
            assert texts[2][:2] == ("alert", "EXP-2") and "misdeal" in texts[2][2]
            assert state["shoe"]["left"] == 52                                   # reshuffled for the redeal
            for card in ["Kh", "Qh", "Ah", "Kd", "Qd", "Ad"]:
                await ws.send_json({"op": "deal", "card": card})
            await next_state(ws, expecting("action on seat 1"))
            for seat, after in ((1, "action on seat 2"), (2, "action on seat 3"), (3, "burn")):
                await click(ws, seat=seat, button="call")                        # call, complete, check
                await next_state(ws, expecting(after))
            for card in ["2s", "2c", "7d", "9s", "5d"]:                          # a burn and four flop cards
                await ws.send_json({"op": "deal", "card": card})
            state = await next_state(ws, lambda s: s["next"]["burn"] == ["2c", "7d", "9s", "5d"])
            assert [e["rule"] for e in state["log"] if e["kind"] == "alert"][-1] == "BRD-1"
            await ws.send_json({"op": "input", "entry": {"type": "burn", "card": "2c"}})
            state = await next_state(ws, expecting("action on seat 2"))
            assert state["board"] == [["7d", "9s", "5d"]]
            await ws.send_json({"op": "input", "entry": {"type": "act", "seat": 2, "action": "fold"}})
            refusal = await ws.receive_json()
            assert refusal == {"type": "error", "message": "input: one of sit, leave, chips, button, away, back, burn"}

    asyncio.run(scenario())
