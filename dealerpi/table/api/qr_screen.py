"""A pairing URL as a QR code on the 128x64 dealer display (segno draws the code, Pillow the screen).

A QR code must be dark modules on a light ground with a quiet zone: on an OLED a lit pixel is light, so the
ground and the quiet zone are lit and the dark modules are off. Two pixels a module make a code a phone
reads from the table (a 0.96" 128x64 panel has ~0.17 mm pixels); that fits version 3 (29 modules, 53 bytes
at error correction L), which is why the dealer display shows the short ``/?t=TOKEN`` form of the URL.
A longer URL falls back to one pixel a module.
"""

from __future__ import annotations

import segno
from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 128, 64


def qr_screen(url: str, label: str) -> Image.Image:
    """The dealer display's image: the code at the left, ``label`` and "any button: back" at the right."""
    code = segno.make_qr(url, error="l", boost_error=False)
    size = code.symbol_size(scale=1, border=0)[0]
    scale, border = (2, 1) if (size + 2) * 2 <= HEIGHT else (1, 2)
    side = (size + 2 * border) * scale
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    top = (HEIGHT - side) // 2
    draw.rectangle((0, top, side - 1, top + side - 1), fill=1)          # the lit ground and quiet zone
    for y, modules in enumerate(code.matrix):
        for x, module in enumerate(modules):
            if module:                                                   # a dark module: pixels off
                left, upper = (x + border) * scale, top + (y + border) * scale
                draw.rectangle((left, upper, left + scale - 1, upper + scale - 1), fill=0)
    font = ImageFont.load_default_imagefont()
    for line, text in enumerate(("scan to", "pair the", f"{label}:", "", "any button:", "back")):
        draw.text((side + 4, 2 + line * 10), text, font=font, fill=1)
    return image
