"""The pages' CSS, scripts and pictures, for every web face (console, room, simulator): one check of the name."""

from __future__ import annotations

from importlib.resources.abc import Traversable
from pathlib import PurePath

from aiohttp import web

KINDS = {".css": "text/css", ".js": "text/javascript", ".png": "image/png"}


def static_file(folder: Traversable, name: str) -> web.Response:
    """``folder / name`` when ``name`` is a plain file name of a kind in ``KINDS``; anything else (a path, another
    kind, a missing file) is 404. Not cached: a page and its script always come from the same version."""
    suffix = PurePath(name).suffix
    resource = folder / name
    if "/" in name or suffix not in KINDS or not resource.is_file():
        raise web.HTTPNotFound()
    return web.Response(body=resource.read_bytes(), content_type=KINDS[suffix], headers={"Cache-Control": "no-store"})
