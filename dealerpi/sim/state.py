"""What the page is sent: the devices' images and LEDs, the public table, the log, the finished hands.

One function builds one JSON-ready state for one viewer. Hole cards are secret (house rules): the state
carries them only where the viewer ticked "show all hole cards (training)", and for finished hands only the
cards tabled at the showdown (folded and mucked hands stay secret). Everything else a seat's display shows
is the seat's own image, which the renderer draws without hole cards.
"""

from __future__ import annotations

import base64
import io
import logging
from typing import Any

from PIL import Image

from dealerpi.config import RULE_PRESETS
from dealerpi.engine.expectation import Waiting
from dealerpi.engine.games import GAMES, Structure
from dealerpi.sim.host import SimTable

_LOGGER = logging.getLogger(__name__)

_CHOICES = {
    "games": [{"key": g.key, "title": g.title, "limit": g.structure is Structure.FIXED_LIMIT} for g in GAMES.values()],
    "presets": list(RULE_PRESETS),
}


def png_data_url(image: Image.Image | None) -> str | None:
    """A display frame as a PNG data URL (a 128x64 1-bit frame is a few hundred bytes)."""
    if image is None:
        return None
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


class ImageCache:
    """PNG data URLs by frame content: a display that did not change is not encoded again."""

    def __init__(self) -> None:
        self._cache: dict[object, tuple[bytes, str | None]] = {}

    def url(self, key: object, image: Image.Image | None) -> str | None:
        raw = b"" if image is None else image.tobytes()
        hit = self._cache.get(key)
        if hit is not None and hit[0] == raw:
            return hit[1]
        url = png_data_url(image)
        self._cache[key] = (raw, url)
        return url


def _hole_cards(sim: SimTable) -> dict[int, list[str]]:
    """Every seat's hole cards in the hand now being played (training view only)."""
    table = sim.table
    return {seat: list(table.hole_cards(seat)) for seat in table.dealt_seats()}


def _next_step(sim: SimTable) -> dict[str, Any]:
    """What the table waits for, and how to give it that on this page: a newcomer needs nothing else."""
    table = sim.table
    nxt = table.expectation()
    kind = nxt.waiting
    what = nxt.words()
    if kind is Waiting.TABLE:
        how = "Choose a game and house rules in the Table panel and press Set table."
    elif kind is Waiting.START:
        seated = [s for s in sim.seats_in_play() if s in table.seats]
        if len(seated) < 2:
            how = "Sit at least two players down in the Table panel (seat, name, stack, Sit down)."
        else:
            how = "Press START on the dealer console to start a hand: the blinds go in."
        what = "start a hand"
    elif kind in (Waiting.CARD, Waiting.BURN):
        how = "Press Deal next card in the Shoe panel: the shoe reads the card and the table follows it."
    elif kind is Waiting.BURN_CHOICE:
        how = "Too many cards came on the board (BRD-1): pick the card that becomes the burn."
    elif kind is Waiting.ACTION and nxt.legal is not None:
        seat, legal = nxt.seat, nxt.legal
        moves = ["FOLD"]
        moves.append("CALL to check" if legal.check else f"CALL to call {legal.call_to}")
        if legal.raise_span is not None:
            low, high = legal.raise_span
            moves.append(f"BET then hold BET to raise ({low} to {high}; short BET presses: MIN, 1/2 POT, POT, "
                         "ALL-IN; CALL/FOLD change the amount)")
        how = f"Seat {seat} acts with its buttons: " + ", ".join(moves) + "."
    elif kind is Waiting.SHOWDOWN:
        how = "Each seat named shows its hand with CALL or mucks it with FOLD."
    else:
        how = ""
    return {"what": what, "how": how, "burn": list(nxt.cards)}


def _pots(sim: SimTable) -> list[dict[str, Any]]:
    return [{"name": "main pot" if index == 0 else f"side pot {index}", "amount": pot.amount,
             "eligible": sorted(pot.eligible)} for index, pot in enumerate(sim.table.pots())]


def _payouts(sim: SimTable) -> list[dict[str, int]]:
    """At the end of a hand, the chips the dealer pushes to each winner (the dealer display's list)."""
    return [{"seat": seat, "chips": chips} for seat, chips in sim.table.payouts()]


def _board(sim: SimTable) -> list[list[str]]:
    return [list(board) for board in sim.table.board()]


def _hands(sim: SimTable) -> list[dict[str, Any]]:
    """Finished deals with the hole cards that were tabled at the showdown. Every page sees this list, so a
    folded or mucked hand stays secret (house rules): only shown cards are public."""
    out = []
    for record in sim.table.records[-20:]:
        data = record.as_json()
        data["hole"] = {str(seat): cards for seat, cards in record.hole.items() if seat in record.shown}
        data["shown"] = list(record.shown)
        data["players"] = {str(seat): sim.table.seats[seat].player for seat in record.seats if seat in sim.table.seats}
        out.append(data)
    return out


def build_state(sim: SimTable, images: ImageCache, *, training: bool, clock_text: str = "") -> dict[str, Any]:
    """The page's whole state for one viewer; hole cards of a live hand only if ``training``."""
    table = sim.table
    config = table.config
    holes = _hole_cards(sim) if training else {}
    seats = []
    for seat in sim.seats_in_play():
        leds = {name: lit for name in ("action", "dealer") if (lit := sim.led(seat, name)) is not None}
        info = table.seats.get(seat)
        seats.append({"seat": seat, "player": info.player if info else None, "stack": info.stack if info else 0,
                      "image": images.url(seat, sim.image(seat)), "leds": leds, "hole": holes.get(seat, [])})
    game = config.game if config else GAMES[str(sim.config.table.get("game", "nlhe"))]
    shoe = {"deck": sim.deck.deck.name, "left": sim.deck.left, "total": len(sim.deck.deck),
            "dealt": len(sim.deck.dealt), "online": sim.shoe_online, "cards": list(sim.deck.deck.cards)}
    if training:
        shoe["cards_dealt"] = list(sim.deck.dealt)
    return {
        "type": "state",
        "table": {"game": game.key, "title": game.title, "rules": config.preset if config else "home",
                  "seats": len(sim.seats_in_play()),
                  "blinds": [config.small_blind, config.big_blind] if config else [0, 0],
                  "hand": table.hand_number},
        "next": _next_step(sim),
        "seats": seats,
        "dealer": {"image": images.url("dealer", sim.image("dealer")),
                   "buttons": list(sim.config.dealer.buttons)},
        "pots": _pots(sim),
        "payouts": _payouts(sim),
        "board": _board(sim),
        "shoe": shoe,
        "log": [entry.as_json() for entry in sim.log],
        "hands": _hands(sim),
        "clock": clock_text,
        "choices": _CHOICES,
        "training": training,
    }
