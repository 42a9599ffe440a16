"""Screens: pure functions from a view model to a 128x64 1-bit image.

The font is PIL's built-in bitmap font (``ImageFont.load_default_imagefont``): 6 px wide cells, ink in 10
rows, so a screen has 6 text rows of 21 characters, and the output is the same on every machine (no
FreeType, no anti-aliasing). Big digits are that font scaled 2x with nearest-neighbour.

Hole cards are never drawn: ``SeatView.hole_cards`` is not read here, so no display shows them. Text keeps
fixed positions (labels left, numbers after them), so a changed amount redraws a few columns of one page
and the partial-update driver sends little (bench/bench_display.py).
"""

from __future__ import annotations

import logging
import textwrap
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from dealerpi.views.model import Alert, DealerView, SeatView

_LOGGER = logging.getLogger(__name__)

WIDTH, HEIGHT = 128, 64
CHAR_W = 6
ROW_H = 10
COLUMNS = WIDTH // CHAR_W     # 21
ROWS = HEIGHT // ROW_H        # 6
DEALER_LINES = ROWS - 1       # below the dealer screen's header row


@cache
def _font() -> ImageFont.ImageFont:
    return ImageFont.load_default_imagefont()


def _new() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    return image, ImageDraw.Draw(image)


def _text(draw: ImageDraw.ImageDraw, row: int, text: str, *, x: int = 0, fill: int = 1) -> None:
    # the font's ink sits one pixel below the cell top: row r's ink is pixel rows 10r .. 10r+9
    draw.text((x, row * ROW_H - 1), text[:COLUMNS], font=_font(), fill=fill)


def _right(draw: ImageDraw.ImageDraw, row: int, text: str, *, fill: int = 1) -> None:
    _text(draw, row, text, x=WIDTH - CHAR_W * len(text), fill=fill)


def _both(draw: ImageDraw.ImageDraw, row: int, left: str, right: str, *, fill: int = 1) -> None:
    """Left text, and right text flush right; the left one is cut so the two never overlap."""
    room = COLUMNS - len(right) - (1 if right else 0)
    _text(draw, row, left[:room], fill=fill)
    if right:
        _right(draw, row, right, fill=fill)


def _banner(draw: ImageDraw.ImageDraw, row: int, left: str, right: str = "") -> None:
    """An inverted row: white bar, black text."""
    draw.rectangle((0, row * ROW_H, WIDTH - 1, row * ROW_H + ROW_H - 1), fill=1)
    _both(draw, row, left, right, fill=0)


def _big(image: Image.Image, top: int, text: str) -> None:
    """``text`` at twice the font size, centred, its ink from pixel row ``top`` (20 rows high)."""
    text = text[:COLUMNS // 2]
    small = Image.new("1", (CHAR_W * len(text), ROW_H), 0)
    ImageDraw.Draw(small).text((0, -1), text, font=_font(), fill=1)
    big = small.resize((small.width * 2, small.height * 2), Image.Resampling.NEAREST)
    image.paste(big, ((WIDTH - big.width) // 2, top))


def _markers(view: SeatView) -> str:
    marks = [view.blind] if view.blind else []
    if view.is_button:
        marks.append("(D)")
    return " ".join(marks)


def _alert_rows(draw: ImageDraw.ImageDraw, alert: Alert, first_row: int) -> None:
    _banner(draw, first_row, f"! {alert.rule}")
    lines = textwrap.wrap(alert.message, COLUMNS) or [""]
    for offset, line in enumerate(lines[: ROWS - first_row - 1]):
        _text(draw, first_row + 1 + offset, line)


STATUS_TEXT = {"waiting": "waiting for a hand", "folded": "folded", "all-in": "ALL-IN", "away": "away",
               "out": "out", "in": ""}


def render_seat(view: SeatView) -> Image.Image:
    """A seat's screen: name, stack, markers, pot, amount to call, raise range, whose action, the amount
    being entered, the last refusal; never hole cards."""
    image, draw = _new()
    if view.player is None:
        _both(draw, 0, f"SEAT {view.seat}", "open")
        _big(image, 20, "OPEN")
        _text(draw, 5, f"blinds {view.blinds[0]}/{view.blinds[1]}")
        return image

    _both(draw, 0, f"{view.seat} {view.player}", _markers(view))
    _both(draw, 1, f"stack {view.stack}", f"bet {view.bet}" if view.bet else "")

    if view.entry is not None:
        # amount entry (docs/seat-panel.md): rows 2-5, the amount big, nothing else competing for the eye
        verb = "RAISE TO" if view.to_call or view.bet else "BET"
        _both(draw, 2, verb, view.entry_label)
        _big(image, 31, str(view.entry))
        low, high = view.min_raise_to, view.max_raise_to
        _both(draw, 5, "hold BET=OK", f"{low}-{high}" if low is not None else "")
        return image

    if view.alert is not None:
        _alert_rows(draw, view.alert, 2)
        return image
    _both(draw, 2, f"pot {view.pot}", f"#{view.hand_number}" if view.hand_number else "")
    if view.won:
        _big(image, 31, f"WON {view.won}")
        return image
    if view.your_action:
        _text(draw, 3, "check" if view.can_check else f"call {view.to_call}")
        if view.min_raise_to is not None:
            _text(draw, 4, f"raise {view.min_raise_to}-{view.max_raise_to}")
        else:
            _text(draw, 4, "no raise")
        if view.notice:
            _banner(draw, 5, view.notice)
        else:
            _banner(draw, 5, "  YOUR ACTION", ">>>")
        return image
    _text(draw, 3, STATUS_TEXT.get(view.status, view.status))
    _text(draw, 4, f"blinds {view.blinds[0]}/{view.blinds[1]}")
    if view.notice:
        _text(draw, 5, view.notice)
    return image


def dealer_lines(view: DealerView) -> list[str]:
    """Everything the dealer must read, most urgent first, wrapped to the screen's width."""
    items: list[str] = []
    if not view.shoe_online:
        items.append("SHOE OFFLINE: deal by hand, enter cards")
    items += [f"! {alert.rule}: {alert.message}" for alert in view.alerts]
    items += [f"push {chips} to seat {seat}" for seat, chips in view.payouts]
    for index, pot in enumerate(view.pots):
        name = "pot" if index == 0 else f"side{index}"
        items.append(f"{name} {pot.amount} ({seat_ranges(pot.eligible)})")
    items += [f"board {' '.join(cards)}" for cards in view.board if cards]
    if view.level:
        items.append(view.level)
    items += list(view.notes)
    if view.hand_number:
        items.append(f"hand #{view.hand_number}" + (f" button {view.button}" if view.button else ""))
    lines: list[str] = []
    for item in items:
        lines += textwrap.wrap(item, COLUMNS, subsequent_indent="  ") or [""]
    return lines


def seat_ranges(seats: tuple[int, ...]) -> str:
    """Seats, runs of three or more as ranges: (1, 2, 3, 5, 6, 8, 9, 10) -> "1-3,5,6,8-10"."""
    runs: list[list[int]] = []
    for seat in sorted(seats):
        if runs and runs[-1][-1] == seat - 1:
            runs[-1].append(seat)
        else:
            runs.append([seat])
    parts = [f"{run[0]}-{run[-1]}" if len(run) >= 3 else ",".join(map(str, run)) for run in runs]
    return ",".join(parts)


def dealer_pages(view: DealerView) -> int:
    """How many screens the dealer view needs (the daemon turns pages)."""
    return max(1, -(-len(dealer_lines(view)) // DEALER_LINES))


def render_dealer(view: DealerView, page: int = 0) -> Image.Image:
    """The dealer console: what the table expects next, then alerts (rule id and procedure), payouts,
    pots and board, ``DEALER_LINES`` lines per page."""
    image, draw = _new()
    pages = dealer_pages(view)
    page %= pages
    # what the table expects next is the most important line: it gets the header, whole
    right = f"{page + 1}/{pages}" if pages > 1 else (f"D{view.button}" if view.button else "")
    _banner(draw, 0, view.expect, right)
    for row, line in enumerate(dealer_lines(view)[page * DEALER_LINES:(page + 1) * DEALER_LINES], start=1):
        _text(draw, row, line)
    return image
