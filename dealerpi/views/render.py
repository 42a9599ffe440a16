"""Screens: pure functions from a view model to a 128x64 1-bit image.

The font is PIL's built-in bitmap font (``ImageFont.load_default_imagefont``): 6 px wide cells, so a row
holds 21 characters, and the output is the same on every machine (no FreeType, no anti-aliasing). Big
digits are that font scaled 2x with nearest-neighbour.

Rows are the controller's pages: 8 rows of 8 pixels, each text row drawn so that its digits, capitals
and lower-case letters lie inside one page (only descenders dip one pixel into the next). A changed number
then rewrites a few columns of one page, not of two, and the partial-update driver sends little
(bench/bench_display.py). For the same reason text keeps fixed positions, and a seat's screen changes as
little as possible when the action moves: the inverted YOUR ACTION bar is one page tall.

Hole cards are never drawn: ``SeatView.hole_cards`` is not read here, so no display shows them.
"""

from __future__ import annotations

import functools
import logging
import textwrap
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

from dealerpi.engine import call_words, raise_words
from dealerpi.views.model import Alert, DealerView, SeatView

_LOGGER = logging.getLogger(__name__)

WIDTH, HEIGHT = 128, 64
CHAR_W = 6
ROW_H = 8                     # one controller page
INK_TOP = 2                   # the font's digits and lower case start 2 pixels below the cell top
CELL_H = 11                   # the font's cell height, descenders included
COLUMNS = WIDTH // CHAR_W     # 21
ROWS = HEIGHT // ROW_H        # 8
DEALER_LINES = ROWS - 1       # below the dealer screen's header row


@cache
def _font() -> ImageFont.ImageFont:
    return ImageFont.load_default_imagefont()


def _new() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    return image, ImageDraw.Draw(image)


@lru_cache(maxsize=4096)
def _glyphs(text: str) -> Image.Image:
    """``text`` drawn once in the font's full cell height; later uses paste it through itself as a mask.

    Drawing text is the slow part of a screen (~80 us a call), and a table shows the same few hundred
    strings all evening, so the daemon renders ten seats per action in well under a millisecond each.
    """
    image = Image.new("1", (CHAR_W * len(text), CELL_H), 0)
    ImageDraw.Draw(image).text((0, 0), text, font=_font(), fill=1)
    return image


def _text(draw: ImageDraw.ImageDraw, row: int, text: str, *, x: int = 0, fill: int = 1) -> None:
    if text:
        glyphs = _glyphs(text[:COLUMNS])
        draw.bitmap((x, row * ROW_H - INK_TOP), glyphs, fill=fill)


def _right(draw: ImageDraw.ImageDraw, row: int, text: str, *, fill: int = 1) -> None:
    _text(draw, row, text, x=WIDTH - CHAR_W * len(text), fill=fill)


def _fit(room: int, *forms: str) -> str:
    """The first of ``forms`` (longest first) that fits in ``room`` columns, else the last one: every
    prompt has a short form, so no line is ever cut mid-word (issue 14: "CALL or FOL")."""
    return next((form for form in forms if len(form) <= room), forms[-1])


def _both(draw: ImageDraw.ImageDraw, row: int, left: str, right: str, *, fill: int = 1, cut: bool = False) -> None:
    """Left text, and right text flush right. Only with ``cut`` (a player's name) is the left one cut so the
    two never overlap; any other line is chosen to fit (``_fit``), and tests measure every one."""
    room = COLUMNS - len(right) - (1 if right else 0)
    _text(draw, row, left[:room] if cut else left, fill=fill)
    if right:
        _right(draw, row, right, fill=fill)


def _banner(draw: ImageDraw.ImageDraw, row: int, left: str, right: str = "") -> None:
    """An inverted row: white bar, black text."""
    draw.rectangle((0, row * ROW_H, WIDTH - 1, row * ROW_H + ROW_H - 1), fill=1)
    _both(draw, row, left, right, fill=0)


def _tag(draw: ImageDraw.ImageDraw, row: int, text: str) -> None:
    """Inverted ``text`` centred in a box just wider than it: visible from across the table, and cheaper
    to draw and erase than a full-width bar."""
    width = CHAR_W * len(text) + 4
    left = (WIDTH - width) // 2
    draw.rectangle((left, row * ROW_H, left + width - 1, row * ROW_H + ROW_H - 1), fill=1)
    _text(draw, row, text, x=left + 2, fill=0)


def _big(image: Image.Image, row: int, text: str) -> None:
    """``text`` at twice the font size, centred, in rows ``row`` and ``row + 1`` (two pages)."""
    text = text[:COLUMNS // 2]
    small = Image.new("1", (CHAR_W * len(text), ROW_H), 0)
    ImageDraw.Draw(small).text((0, -INK_TOP), text, font=_font(), fill=1)
    big = small.resize((small.width * 2, small.height * 2), Image.Resampling.NEAREST)
    image.paste(big, ((WIDTH - big.width) // 2, row * ROW_H))


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
        _big(image, 3, "OPEN")
        _text(draw, 7, f"blinds {view.blinds[0]}/{view.blinds[1]}")
        return image

    _both(draw, 0, f"{view.seat} {view.player}", _markers(view), cut=True)
    bet = f"bet {view.bet}" if view.bet else ""
    _both(draw, 1, _fit(COLUMNS - len(bet) - 1, f"stack {view.stack}", f"stk {view.stack}"), bet)

    if view.entry is not None:
        # amount entry (docs/seat-panel.md): the amount big; rows 0-2 and 6 stay as they were, so entering
        # and leaving entry redraw little
        verb = "RAISE TO" if view.to_call or view.bet else "BET"
        _both(draw, 2, f"pot {view.pot}", f"#{view.hand_number}" if view.hand_number else "")
        _big(image, 3, str(view.entry))
        _text(draw, 5, f"{verb} {view.entry_label}".rstrip())
        _text(draw, 6, f"blinds {view.blinds[0]}/{view.blinds[1]}")
        low, high = view.min_raise_to, view.max_raise_to
        span = "" if low is None else str(low) if low == high else f"{low}-{high}"
        _both(draw, 7, _fit(COLUMNS - len(span) - 1, "hold BET=OK", "hold BET", ""), span)
        return image

    _both(draw, 2, f"pot {view.pot}", f"#{view.hand_number}" if view.hand_number else "")
    if view.alert is not None:
        _alert_rows(draw, view.alert, 3)
        return image
    if view.your_action:
        # the amount to call shows on the acting seat only: on the others it would change with every bet
        # and cost bus time on every display for nothing the player can act on yet
        # the buttons' words in this street's structure (expectation.py): a call as the total it makes and
        # the chips it adds, a raise range that ends at all-in (no-limit), the pot (pot-limit), one size (limit)
        call_to = view.bet + view.to_call if view.to_call and not view.can_check else None
        everything = view.bet + view.stack
        _text(draw, 3, _fit(COLUMNS, call_words(call_to, view.bet, everything),
                            call_words(call_to, view.bet, everything, adds=False)))
        words = functools.partial(raise_words, view.structure, view.min_raise_to, view.max_raise_to, bet=view.bet,
                                  facing=bool(view.to_call or view.bet), all_in_to=everything)
        _text(draw, 4, _fit(COLUMNS, words(), words(tag=False)))
    elif view.won:
        _tag(draw, 4, f"WON {view.won}")
    else:
        _text(draw, 4, STATUS_TEXT.get(view.status, view.status))
    _text(draw, 6, f"blinds {view.blinds[0]}/{view.blinds[1]}")
    if view.notice:
        _banner(draw, 7, view.notice)
    elif view.your_action and view.clock_final:        # TRN-2 (TDA 29): the last seconds, seen across the table
        _banner(draw, 7, "TIME!", f"{view.clock} s")
    elif view.your_action and view.clock is not None:
        _tag(draw, 7, f"YOUR ACTION {view.clock} s")
    elif view.your_action:
        _tag(draw, 7, "YOUR ACTION")
    return image


@lru_cache(maxsize=64)
def dealer_lines(view: DealerView) -> tuple[str, ...]:
    """Everything the dealer must read, most urgent first, wrapped to the screen's width (cached: the
    daemon asks for the same view's lines to count pages and to draw them)."""
    items: list[str] = []
    lines: list[str] = ["  " + more for more in _header_parts(view.expect)[1:]]   # the header's rest, first
    for item in view.confirm:               # a pending confirmation: what CONFIRM will do, before anything else
        lines += _wrapped(item) if len(item) > COLUMNS else [item]
    if not view.shoe_online:
        items.append("SHOE OFFLINE: deal by hand, enter cards")
    items += [f"! {alert.rule}: {alert.message}" for alert in view.alerts]
    # payouts after the pots and board they settle: at the end of a hand the lines above stay where they
    # were, and only the payouts are drawn (fewer bytes on the bus, and the eye finds them at the bottom)
    for index, pot in enumerate(view.pots):
        # the amount flush right, so a new amount redraws its own digits, not the whole line
        left, amount = f"{'pot' if index == 0 else f'side{index}'} ({seat_ranges(pot.eligible)})", str(pot.amount)
        items.append(f"{left:<{COLUMNS - len(amount)}}{amount}" if len(left) < COLUMNS - len(amount)
                     else f"{left} {amount}")
    items += [f"board {' '.join(cards)}" for cards in view.board if cards]
    items += [f"push {chips} to seat {seat}" for seat, chips in view.payouts]
    if view.level:
        items.append(view.level)
    items += list(view.notes)
    if view.hand_number:
        items.append(f"hand #{view.hand_number}" + (f" button {view.button}" if view.button else ""))
    for item in items:
        lines += _wrapped(item) if len(item) > COLUMNS else [item]
    return tuple(lines)


@lru_cache(maxsize=1024)
def _wrapped(item: str) -> list[str]:
    """One item wrapped to the screen (cached: alerts stay on the console for many redraws)."""
    return textwrap.wrap(item, COLUMNS, subsequent_indent="  ")


HEADER_ROOM = COLUMNS - 4      # the header's right end keeps room for " 1/2" (the page) or " D10" (the button)


@lru_cache(maxsize=256)
def _header_parts(expect: str) -> list[str]:
    """What the table expects, in header-wide pieces: the first is the header, the rest lead the lines
    ("pick the burn: Ah Kd 2c 3s" is longer than a header)."""
    return textwrap.wrap(expect, HEADER_ROOM, subsequent_indent="") or [""]


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
    _banner(draw, 0, _header_parts(view.expect)[0], right)
    for row, line in enumerate(dealer_lines(view)[page * DEALER_LINES:(page + 1) * DEALER_LINES], start=1):
        _text(draw, row, line)
    return image
