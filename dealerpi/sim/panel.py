"""The virtual-hardware panel: the fake table's buttons, displays, LEDs and shoe, driven from the daemon's socket.

Only a daemon on fake devices (``dealerpi run --fake``) has one (:func:`make_panel`); on real devices the
``panel`` role does not exist (docs/console.md). Everything the panel does goes in as the world would do it:
a press drives a gpiozero ``MockFactory`` pin low, so it passes the same debouncer, seat panel and journal
as a finger on real hardware; "deal" slides a tag past the virtual shoe's reader (a :class:`FakeShoe` on a
pty, read by the daemon's own ``ShoeLink``). What the panel shows comes out of the devices: the luma dummy
displays' frames (PNG data URLs, re-encoded only when a frame changed) and the LED pins' levels.

The virtual deck follows the table, as a dealer's hands would: it is shuffled before each deal and redeal,
the cards a procedure puts back into the stub (a void four-card flop, BRD-1 seed 002 B2; a premature card,
BRD-2/3) go back in and the stub is shuffled, and after a restart mid-hand the cards the journal says were
dealt stay out of it (MIS-7).
"""

from __future__ import annotations

import base64
import io
import logging
import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from PIL import Image

from dealerpi.config import Config, Pin
from dealerpi.devices import Devices, FakeDevices
from dealerpi.engine import GAMES, Table
from dealerpi.input import Key
from dealerpi.input.dealer_buttons import DealerConsole
from dealerpi.sim.deck import VirtualDeck
from dealerpi.sim.fake_shoe import FakeShoe

_LOGGER = logging.getLogger(__name__)

SEAT_BUTTONS = tuple(key.value for key in Key)


def png_data_url(image: Image.Image | None) -> str | None:
    """A display frame as a PNG data URL (a 128x64 1-bit frame is a few hundred bytes)."""
    if image is None:
        return None
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


class FrameCache:
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


def cards_of_this_deal(entries: Iterable[Mapping[str, Any]]) -> list[str]:
    """The cards read since the deal began (the last START or misdeal), in order: on a restart mid-hand the
    virtual deck must not hold them again (MIS-7)."""
    cards: list[str] = []
    for entry in reversed(list(entries)):
        if entry.get("type") in ("start", "misdeal"):
            break
        if entry.get("type") == "card" and isinstance(entry.get("card"), str):
            cards.append(entry["card"])
    return cards[::-1]


class PanelConsole(DealerConsole):
    """The daemon's dealer console on the panel. The panel sends the dealer display's frame to a page, so a
    hole card named there before CONFIRM would show it to whoever watches the page (house rules: hole cards
    are secret); the console's words never name a card now (dealerpi/input/dealer_buttons.py), so nothing differs
    here any more. ``is_public`` is kept for the daemon's call."""

    def __init__(self, is_public: Callable[[str], bool]) -> None:
        super().__init__()
        self._is_public = is_public


class VirtualPanel:
    """See the module docstring. ``controller`` is the daemon's (its ``table``, ``buttons`` and views)."""

    def __init__(self, config: Config, devices: FakeDevices, table: Callable[[], Table], *,
                 shoe: FakeShoe | None = None, deck_rng: random.Random | None = None) -> None:
        self.config = config
        self.devices = devices
        self._table = table
        self.shoe = shoe
        self._rng = deck_rng or random.Random()
        game = GAMES[str(config.table.get("game", "nlhe"))]
        self.deck: VirtualDeck | None = VirtualDeck(game.deck, self._rng) if shoe is not None else None
        self.frames = FrameCache()
        self._back: set[str] = set()              # cards put back into the stub, not read again since
        self.on_change: Callable[[], None] = lambda: None

    # --- the table's side ----------------------------------------------------------------------------

    def resume(self, entries: Iterable[Mapping[str, Any]]) -> None:
        """After the journal's replay at start-up: the cards of a deal in progress stay out of the deck."""
        self.follow()
        table = self._table()
        if self.deck is not None and not table.between_hands and not table.awaiting_first_card:
            self.deck.take_out(cards_of_this_deal(entries))

    def follow(self) -> None:
        """After every input the table applied: the deck of the game in play; a shuffle before each deal and
        redeal, as the dealer does; the cards a procedure put back into the stub back in, the stub shuffled
        (BRD-1 seed 002 B2, BRD-2, BRD-3: the engine's ``reusable`` cards)."""
        deck = self.deck
        if deck is None:
            return
        table = self._table()
        config = table.config
        if config is not None and config.game.deck is not deck.deck:
            self.deck = deck = VirtualDeck(config.game.deck, self._rng)
        if table.awaiting_first_card and deck.dealt:
            deck.shuffle()
            self._back.clear()
            return
        reusable = table.returned_cards()
        self._back &= reusable                    # read again since: it may go back again later
        back = [card for card in deck.dealt if card in reusable and card not in self._back]
        if back:                                  # once: dealt again, it is on its way until it is read
            deck.put_back(back)
            self._back.update(back)

    # --- what a page sees ----------------------------------------------------------------------------

    def seats_in_play(self) -> list[int]:
        config = self._table().config
        count = config.seats if config is not None else int(self.config.table.get("seats", 10))
        return [panel.seat for panel in self.config.seats if panel.seat <= count]

    def view(self) -> dict[str, Any]:
        """The panel's part of the view: frames and LEDs by seat (``"dealer"`` for the dealer's display), the
        buttons there are, and the virtual shoe. Sections are objects, so a change sends only what changed."""
        seats = self.seats_in_play()
        panels = {p.seat: p for p in self.config.seats}
        frames = {str(s): self.frames.url(s, self.devices.image(panels[s].display)) for s in seats}
        frames["dealer"] = self.frames.url("dealer", self.devices.image(self.config.dealer.display))
        leds = {str(s): sorted(name for name, pin in panels[s].leds.items() if self.devices.led_lit(pin))
                for s in seats}
        view: dict[str, Any] = {
            "hardware": {"seats": seats, "seat_buttons": [b for b in SEAT_BUTTONS if b in panels[seats[0]].buttons]
                         if seats else [], "dealer_buttons": list(self.config.dealer.buttons),
                         "leds": sorted({name for p in panels.values() for name in p.leds})},
            "frames": frames,
            "leds": leds,
        }
        deck = self.deck
        view["virtual_shoe"] = {"deck": deck.deck.name, "left": deck.left, "dealt": len(deck.dealt),
                                "total": len(deck.deck)} if deck is not None else {"deck": None}
        return view

    # --- what a page does ----------------------------------------------------------------------------

    def pin(self, where: object, name: object) -> Pin | None:
        """The pin of a seat's button (``where`` a seat number) or a console button (``"dealer"``)."""
        if where == "dealer":
            return self.config.dealer.buttons.get(str(name))
        if name not in SEAT_BUTTONS:
            return None
        panel = next((p for p in self.config.seats if p.seat == where), None)
        return None if panel is None else panel.buttons.get(str(name))

    def press(self, pin: Pin) -> None:
        """Close a button's contact on its mock pin (drive it low), as a finger would."""
        self.devices.press(pin)

    def release(self, pin: Pin) -> None:
        self.devices.release(pin)

    def deal(self, card: str | None, after: object) -> str | None:
        """Slide the next card (or the named one) past the shoe's reader; an error for the page, or None.

        ``after`` is how many cards the page saw dealt when it was clicked: a second click sent before the
        first card's view came back names the same count and is refused, so a double click deals one card."""
        if self.shoe is None or self.deck is None:
            return "no virtual shoe: this daemon reads the shoe on its --shoe port"
        if not isinstance(after, int) or isinstance(after, bool):
            return "deal: say after how many dealt cards (the page's count)"
        if after != len(self.deck.dealt):
            return (f"not dealt: the page saw {after} cards dealt and the shoe has dealt {len(self.deck.dealt)}"
                    " (a second click while a card was on its way?)")
        if card is None:
            uid = self.deck.deal()
            if uid is None:
                return "the deck is empty: press Shuffle"
        else:
            try:
                uid = self.deck.pick(card)
            except ValueError as exc:
                return str(exc)
        self.shoe.deal(uid)
        self.on_change()
        return None

    def shuffle(self) -> str | None:
        if self.deck is None:
            return "no virtual shoe: this daemon reads the shoe on its --shoe port"
        self.deck.shuffle()
        self.on_change()
        return None


def make_panel(config: Config, devices: Devices, table: Callable[[], Table], *, shoe: FakeShoe | None = None,
               deck_rng: random.Random | None = None) -> VirtualPanel | None:
    """The panel of a daemon on fake devices; None on real devices (the role must not exist there)."""
    if not isinstance(devices, FakeDevices):
        return None
    return VirtualPanel(config, devices, table, shoe=shoe, deck_rng=deck_rng)
