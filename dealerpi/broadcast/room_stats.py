"""VPIP/PFR on the overlay from the card room's statistics (issue 21), where the table is in a room.

How the broadcast gets them: the room page's own read-only route, ``GET /summary.json`` (docs/room.md
"Statistics": every player's overall counts, ``players``), with the room's board token (a role that only
looks), every :data:`POLL_SECONDS`. Why this way: the request carries nothing but the token (no name, no
card: the room learns nothing from the broadcast, least of all a hole card), the room needs no change, and
the room's statistics come from finished hands only. The MQTT route was not taken: the room publishes no
statistics topic, and a table's broker user may not read the room's topics (dealerpi/room/acl.py).

The figures fetched at a moment go into the delay line with that moment (``BroadcastSession.add_stats``),
so the overlay shows the counts of the hands aired, not of hands still to come on the air. A room that
does not answer is a WARNING once (the overlay goes on without the figures), never a traceback.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import aiohttp

from dealerpi.broadcast.session import BroadcastSession

_LOGGER = logging.getLogger(__name__)

POLL_SECONDS = 30.0
COOKIE = "dealerpi_room"          # the room's page cookie (dealerpi/room/web.py COOKIE): its token guard reads it


def players_of(summary: Any) -> dict[str, dict[str, int]]:
    """``players`` of the room's summary: name -> integer counts; anything else in it is ignored."""
    players = summary.get("players") if isinstance(summary, dict) else None
    if not isinstance(players, dict):
        raise ValueError("no 'players' object in the room's /summary.json")
    return {str(name): {key: value for key, value in counts.items() if isinstance(value, int)}
            for name, counts in players.items() if isinstance(counts, dict)}


async def fetch(http: aiohttp.ClientSession, url: str, token: str) -> dict[str, dict[str, int]]:
    async with http.get(f"{url}/summary.json", cookies={COOKIE: token},
                        timeout=aiohttp.ClientTimeout(total=10)) as answer:
        if answer.status != 200:
            raise ValueError(f"the room answered {answer.status} to /summary.json (is room_token_file the room's "
                             "board token?)")
        return players_of(await answer.json())


async def poll(url: str, token: str, session: BroadcastSession) -> None:
    """Fetch the room's statistics every :data:`POLL_SECONDS` until cancelled."""
    failing = False
    async with aiohttp.ClientSession() as http:
        while True:
            try:
                session.add_stats(await fetch(http, url, token))
                if failing:
                    _LOGGER.info("the room's statistics at %s answer again", url)
                failing = False
            except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
                if not failing:
                    _LOGGER.warning("the room's statistics at %s: %s; VPIP/PFR are not on the overlay until it "
                                    "answers", url, exc)
                failing = True
            await asyncio.sleep(POLL_SECONDS)
