"""The pairing code on the dealer display: dark modules are unlit pixels on a lit quiet zone, two pixels a
module for a short URL; the daemon shows it until a console button or 60 s, then the dealer screen again.
(Decoded by zbarimg 0.23 from this image, both scales, when written: docs/console.md.)"""

from __future__ import annotations

from pathlib import Path

import segno
from console_kit import make
from PIL import Image

from dealerpi.devices import ButtonEdge
from dealerpi.table.api.qr_screen import qr_screen

SHORT = "http://192.168.1.20:8765/?t=Uk5xkZ95O4GHHbJoV8xfUA"          # 50 bytes: version 3 at L (53 max)


def modules(url: str, scale: int, border: int) -> tuple[list[list[bool]], list[list[bool]]]:
    """The code's matrix, and what the screen shows at each module's top-left pixel (True = dark = unlit)."""
    image = qr_screen(url, "dealer")
    matrix = [[bool(m) for m in row] for row in segno.make_qr(url, error="l", boost_error=False).matrix]
    side = (len(matrix) + 2 * border) * scale
    top = (64 - side) // 2
    seen = [[image.getpixel(((x + border) * scale, top + (y + border) * scale)) == 0 for x in range(len(matrix))]
            for y in range(len(matrix))]
    assert image.getpixel((0, top)) == 1 and image.getpixel((side - 1, top + side - 1)) == 1   # lit quiet zone
    return matrix, seen


def test_a_short_url_is_version_3_at_two_pixels_a_module() -> None:
    """29 modules + 1 quiet module each side = 31; x 2 pixels = 62 <= 64 rows."""
    matrix, seen = modules(SHORT, 2, 1)
    assert len(matrix) == 29 and seen == matrix


def test_a_long_url_falls_back_to_one_pixel_a_module() -> None:
    """A 68-byte URL needs version 4 (33 modules): (33 + 2) x 2 = 70 > 64, so 1 pixel and 2 quiet modules."""
    url = "http://dealerpi-table.local:8765/dealer?token=Uk5xkZ95O4GHHbJoV8xfUA"
    matrix, seen = modules(url, 1, 2)
    assert len(matrix) == 33 and seen == matrix


def test_the_daemon_shows_it_until_a_console_button_or_60_seconds(tmp_path: Path) -> None:
    _config, controller, _api = make(tmp_path)
    shown: list[object] = []

    def show(image: Image.Image) -> bool:       # the dealer's display: keeps each frame, as shown
        shown.append(image)
        return True

    controller.dealer_slot.show = show  # type: ignore[method-assign]
    now = [100.0]
    controller.clock = lambda: now[0]
    code = qr_screen("http://192.0.2.7:8765/pair?code=abc", "dealer")
    controller.show_on_dealer(code, 60.0)
    controller.refresh()                                   # the table changes: the code stays
    assert shown == [code] and controller.next_deadline() == 160.0
    now[0] = 160.0
    controller.tick()                                      # 60 s later the dealer screen is back
    assert controller.dealer_overlay is None and len(shown) == 2 and shown[-1] is not code
    controller.show_on_dealer(code, 60.0)
    for pressed in (True, False):                          # any console button, and it does nothing else
        controller.buttons.handle(ButtonEdge(("console", "undo"), pressed, now[0]))
    assert controller.dealer_overlay is None and controller.console.pending is None     # UNDO not armed
    assert shown[-1] is not code
