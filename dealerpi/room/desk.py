"""``dealerpi room desk --config room.toml register NAME...`` / ``start`` / ``show``: the tournament desk
from a shell. It goes through the running room's page (the ``POST /tournament`` the host's page sends, with
the host's token from the room's state folder), so the room's one copy of the tournament is what changes.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from dealerpi.room.settings import RoomConfigError, RoomSettings, load_room
from dealerpi.room.web import COOKIE
from dealerpi.webkit.pairing import load_tokens


def _base(settings: RoomSettings) -> str:
    host, port = settings.listen_address()
    host = "127.0.0.1" if host in ("", "0.0.0.0") else "::1" if host == "::" else host   # the room's own machine
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _request(settings: RoomSettings, path: str, body: dict[str, Any] | None = None) -> Any:
    base = _base(settings)
    headers = {"Origin": base, "Content-Type": "application/json"}
    if (settings.state / "tokens.json").exists():
        headers["Cookie"] = f"{COOKIE}={load_tokens(settings.state)['host']}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, headers=headers, method="GET" if data is None else "POST")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def show(tournament: dict[str, Any] | None) -> str:
    """The desk's view in a few lines."""
    if tournament is None:
        return "this room has no [tournament]"
    t = tournament
    clock = "Break" if t["break"] else f"Level {t['level']} {t['blinds'][0]}/{t['blinds'][1]}"
    if t["seconds_left"] is not None:
        clock += f", {t['seconds_left'] // 60}:{t['seconds_left'] % 60:02d} left"
    lines = [f"{t['phase']}: {clock}; {t['remaining']} of {t['entrants']} left, average {t['average']}, "
             f"pool {t['pool']}, {t['paid']} paid"]
    if t["phase"] == "registering":
        lines.append("registered: " + (", ".join(t["registered"]) or "nobody"))
    elif t["registration_open"]:
        lines.append("late registration open (TRN-9)")
    if t["alternates"]:
        lines.append("waiting for a seat: " + ", ".join(t["alternates"]))
    lines += [f"{name}: " + ", ".join(f"{seat}. {player} {stack}" for seat, player, stack in seats)
              for name, seats in t["tables"].items()]
    lines += [f"{place}. {player} {prize}" for player, place, prize in t["finishes"]]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="dealerpi room desk", description="The tournament desk (docs/room.md).")
    parser.add_argument("--config", type=Path, required=True)
    parser.add_argument("op", choices=("register", "start", "show"))
    parser.add_argument("players", nargs="*")
    args = parser.parse_args(argv)
    try:
        settings = load_room(args.config)
    except RoomConfigError as exc:
        print("\n".join(exc.errors), file=sys.stderr)
        return 2
    if args.op == "register" and not args.players:
        print("dealerpi room desk: register needs the players' names", file=sys.stderr)
        return 2
    try:
        for player in args.players if args.op == "register" else []:
            _request(settings, "/tournament", {"op": "register", "player": player})
            print(f"registered {player}")
        if args.op == "start":
            _request(settings, "/tournament", {"op": "start"})
        print(show(_request(settings, "/summary.json")["tournament"]))
    except urllib.error.HTTPError as exc:
        print(f"dealerpi room desk: {exc.read().decode(errors='replace').strip()}", file=sys.stderr)
        return 1
    except (urllib.error.URLError, OSError) as exc:
        print(f"dealerpi room desk: the room does not answer at {_base(settings)} ({exc}): is "
              f"`dealerpi room --config {args.config}` running?", file=sys.stderr)
        return 1
    return 0
