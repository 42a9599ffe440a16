"""Issue 14 ("the limit line cut to 'CALL or FOL'"): every line a seat or the dealer display draws fits the
128-pixel OLED, measured with the font the renderer uses, for every screen the views can produce in every game.

Hands are generated: each game of ``GAMES`` (no-limit, pot-limit, fixed-limit, File 'em's Hexadec deck, the double
board), blinds from 1/2 to 25000/50000, up to 999,999 chips on the table (six digits: the widest amounts a seat's
line is designed for, whoever wins them all), random folds, calls, raises (minimum, maximum or between),
irregularities. At every input, every seat's screen is drawn as the engine's view makes it, and again as the seat
panel shows it: in amount entry at each quick size, and with each notice; the dealer's screen is drawn on every page
with the alerts of that input, and with each console confirmation (EXPOSED, MISDEAL, UNDO) and its lapse. Each text
the renderer draws is measured (``ImageFont.getlength``): it must end inside the screen, and two texts on one row
must not overlap.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import ImageDraw

from dealerpi.engine import GAMES, Structure, Table
from dealerpi.input.dealer_buttons import DealerConsole
from dealerpi.input.seat import NOTICES, presets
from dealerpi.views import render
from dealerpi.views.build import dealer_view, seat_view
from dealerpi.views.model import Alert

SCALES = (1, 5, 25, 1000, 25000)


DRAW_TEXT = render._text        # the renderer's own, taken before any test stands in for it


class Ruler:
    """Stands in for ``render._text``: measures every text, then draws it as the renderer would."""

    def __init__(self) -> None:
        self.font = render._font()
        self.rows: dict[int, list[tuple[float, float, str]]] = {}
        self.bad: list[str] = []

    def __call__(self, draw: ImageDraw.ImageDraw, row: int, text: str, *, x: int = 0, fill: int = 1) -> None:
        if text:
            end = x + self.font.getlength(text)
            if x < 0 or end > render.WIDTH:
                self.bad.append(f"row {row}: {text!r} spans {x}..{end:.0f} px of {render.WIDTH}")
            for left, right, other in self.rows.get(row, []):
                if x < right and left < end:
                    self.bad.append(f"row {row}: {text!r} overlaps {other!r}")
            self.rows.setdefault(row, []).append((x, end, text))
        DRAW_TEXT(draw, row, text, x=x, fill=fill)

    def screen(self, image_of: Any, *args: Any) -> None:
        self.rows = {}
        image_of(*args)


def play(seed: int, game: str, scale: int, ruler: Ruler) -> int:
    """One generated evening; returns how many different screens were measured."""
    rng = random.Random(seed)
    table = Table()
    config = GAMES[game]
    extra: dict[str, Any] = {"limits": [2 * scale, 4 * scale]} if config.structure is Structure.FIXED_LIMIT else {}
    seen: set[object] = set()         # a screen already measured is not measured again

    def screens(alerts: tuple[Alert, ...]) -> None:
        for seat in range(1, seats + 1):
            view = seat_view(table, seat)
            if view in seen:
                continue
            seen.add(view)
            variants = [view, *(dataclasses.replace(view, notice=n) for n in NOTICES)]
            variants += [dataclasses.replace(view, entry=p.amount, entry_label=p.label) for p in presets(view)]
            for variant in variants:
                ruler.screen(render.render_seat, variant)
        dealer = dealer_view(table, alerts, shoe_online=rng.random() < 0.9)
        dealers = [dealer]
        for button in ("exposed", "misdeal", "undo"):        # the console's confirmations and their lapse
            console = DealerConsole()
            console.set_state(dealer.waiting, "Ah")
            console.press(button, 0.0, table.last_input())
            asking = console.confirm_lines(0.0)
            if asking:
                dealers.append(dataclasses.replace(dealer, expect=asking[0], confirm=asking[1:]))
            console.tick(10.0)
            dealers += [dataclasses.replace(dealer, expect=n) for n in (console.notice_now(10.0),) if n]
        for shown in dealers:
            if shown in seen:
                continue
            seen.add(shown)
            for page in range(render.dealer_pages(shown)):
                ruler.screen(render.render_dealer, shown, page)

    def feed(entry: dict[str, Any]) -> None:
        outcome = table.apply(entry)
        screens(outcome.alerts if outcome.accepted else (Alert("REFUSED", str(outcome.reason)),))

    seats = rng.choice([2, 6, 10]) if config.hole_cards < 4 else rng.choice([2, 6, 9])
    feed({"type": "table", "game": game, "rules": "casino", "seats": seats, "blinds": [scale, 2 * scale], **extra})
    for seat in range(1, seats + 1):
        if rng.random() < 0.85 or seat <= 2:
            name = rng.choice(["Al", "Bea", "Maximilian-Alexander", f"P{seat}"])
            most = 999_999 // seats           # all the chips on the table fit six digits, so any stack does
            feed({"type": "sit", "seat": seat, "player": name, "stack": rng.randint(min(20 * scale, most), most)})
    feed({"type": "button", "seat": 1})
    for _ in range(2):
        feed({"type": "start"})
        deck = list(config.deck.cards)
        rng.shuffle(deck)
        for _step in range(300):
            nxt = table.expectation()
            kind = nxt.waiting.value
            if kind == "start":
                break
            roll = rng.random()
            if roll < 0.02 and table.cards_read():
                feed({"type": "exposed", "card": rng.choice(table.cards_read())})
            elif kind in ("card", "burn"):
                if not deck:
                    break
                feed({"type": "card", "card": deck.pop()})
            elif kind == "burn choice":
                feed({"type": "burn", "card": rng.choice(nxt.cards)})
            elif kind == "action" and nxt.legal is not None:
                span = nxt.legal.raise_span
                if span and roll < 0.35:
                    to = rng.choice([span[0], span[1], rng.randint(*span)])
                    feed({"type": "act", "seat": nxt.seat, "action": "raise", "to": to})
                elif nxt.legal.call_to is not None and roll < 0.5:
                    feed({"type": "act", "seat": nxt.seat, "action": "fold"})
                else:
                    feed({"type": "act", "seat": nxt.seat, "action": "call"})
            elif kind == "showdown":
                feed({"type": "show" if roll < 0.7 else "muck", "seat": nxt.seats[0]})
            else:
                break
    return len(seen)


@pytest.mark.slow   # 30 generated evenings, every screen drawn: 11 s
@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(sorted(GAMES)), scale=st.sampled_from(SCALES))
def test_every_line_of_every_screen_fits_the_128_px_display(seed: int, game: str, scale: int,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    ruler = Ruler()
    monkeypatch.setattr(render, "_text", ruler)
    drawn = play(seed, game, scale, ruler)
    assert drawn > 20
    assert ruler.bad == []


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_is_drawn_within_the_screen(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game at least once at the widest stakes (25000/50000, 999,999 chips on the table), whatever hypothesis
    picks above."""
    ruler = Ruler()
    monkeypatch.setattr(render, "_text", ruler)
    for seed in range(4):
        play(seed, game, 25000, ruler)
    assert ruler.bad == []
