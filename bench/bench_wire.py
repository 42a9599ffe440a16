"""What a typed, versioned wire costs per view (issue 22): today's dicts against msgspec, pydantic v2 and a
TypedDict checked by hand, on the real views of a 10-seat table in a hand.

    .venv/bin/python bench/bench_wire.py [--rounds 2000]

The views come from the daemon's own code (``ApiServer.view``: the board's, the dealer's and the host's,
the host's with the session ledger and the status panel) at hardware/example.toml's 10-seat table on fake
devices, ten players seated, hand 1 dealt, seat 4 to act; and the change frame one action sends (``changes``,
what goes out on every button press). Each is timed ``--rounds`` times per way, best of 5 (the least
disturbed by the machine's load), in microseconds, with the ratio to today's ``json``:

- encode: today ``json.dumps(view).encode()``; msgspec ``msgspec.json.encode`` of the dict and of the
  typed record (``msgspec.Struct``: what the daemon would build instead of the dict); pydantic
  ``TypeAdapter(TypedDict).dump_json``.
- decode: today ``json.loads``; msgspec ``msgspec.json.decode(data, type=Record)`` (parsed and checked in
  one pass); pydantic ``TypeAdapter.validate_json``; ``json.loads`` then a hand-written check of the
  TypedDict's fields.

The three schemas describe the same view: the seats, pots, action, alerts and ledger key by key; the
tournament, the status panel and the game form (``setup``) as objects of any content in all three (they
are typed in a later step). Built for this benchmark only: the view records move into ``dealerpi/wire``
when the views are built as records.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import tempfile
import time
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pydantic
from typing_extensions import TypedDict  # pydantic needs it on Python < 3.12

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bench_latency  # noqa: E402  (beside this script)

from dealerpi.config import load  # noqa: E402
from dealerpi.devices import FakeDevices  # noqa: E402
from dealerpi.journal.file import Journal  # noqa: E402
from dealerpi.table.api.server import ApiServer  # noqa: E402
from dealerpi.table.controller import Controller  # noqa: E402
from dealerpi.wire.protocol import changes  # noqa: E402

Object = dict[str, Any]


# --- msgspec: records --------------------------------------------------------------------------------------

class SeatLine(msgspec.Struct, forbid_unknown_fields=True):
    player: str | None
    stack: int
    status: str
    bet: int
    blind: str | None
    button: bool
    turn: bool
    won: int
    cards: list[str]


class Pot(msgspec.Struct, forbid_unknown_fields=True):
    amount: int
    eligible: list[int]


class Action(msgspec.Struct, forbid_unknown_fields=True):
    seat: int
    words: list[str]


class AlertLine(msgspec.Struct, forbid_unknown_fields=True):
    rule: str
    message: str


class LedgerEvent(msgspec.Struct, forbid_unknown_fields=True):
    at: str | None
    kind: str
    player: str
    seat: int
    amount: int


class LedgerPlayer(msgspec.Struct, forbid_unknown_fields=True, rename={"in_": "in"}):
    player: str
    in_: int
    out: int
    on_table: int
    net: int


class Transfer(msgspec.Struct, forbid_unknown_fields=True, rename={"from_": "from"}):
    from_: str
    to: str
    amount: int


class Ledger(msgspec.Struct, forbid_unknown_fields=True, rename={"in_": "in"}):
    events: list[LedgerEvent]
    players: list[LedgerPlayer]
    in_: int
    out: int
    on_table: int
    balanced: bool
    transfers: list[Transfer]


class BoardView(msgspec.Struct, forbid_unknown_fields=True):
    hand: int
    game: str | None
    blinds: list[int] | None
    board: list[list[str]]
    pots: list[Pot]
    payouts: list[list[int]]
    seats: dict[str, SeatLine]
    in_hand: bool
    paused: str | None
    pausing: Object | None
    last_blinds: list[int]
    next_hand: Object | None
    starting_stacks: list[list[int]]
    tournament: Object | None
    action: Action | None


class DealerView(BoardView, forbid_unknown_fields=True):
    expect: str
    alerts: list[AlertLine]
    shoe: bool


class HostView(DealerView, forbid_unknown_fields=True):
    status: Object
    ledger: Ledger
    setup: Object


# --- pydantic v2 and the hand-checked variant: TypedDicts ------------------------------------------------

class SeatLineTD(TypedDict):
    player: str | None
    stack: int
    status: str
    bet: int
    blind: str | None
    button: bool
    turn: bool
    won: int
    cards: list[str]


class PotTD(TypedDict):
    amount: int
    eligible: list[int]


class ActionTD(TypedDict):
    seat: int
    words: list[str]


class AlertTD(TypedDict):
    rule: str
    message: str


class LedgerEventTD(TypedDict):
    at: str | None
    kind: str
    player: str
    seat: int
    amount: int


LedgerPlayerTD = TypedDict("LedgerPlayerTD", {"player": str, "in": int, "out": int, "on_table": int, "net": int})
TransferTD = TypedDict("TransferTD", {"from": str, "to": str, "amount": int})
LedgerTD = TypedDict("LedgerTD", {"events": list[LedgerEventTD], "players": list[LedgerPlayerTD], "in": int,
                                  "out": int, "on_table": int, "balanced": bool, "transfers": list[TransferTD]})


class BoardTD(TypedDict):
    hand: int
    game: str | None
    blinds: list[int] | None
    board: list[list[str]]
    pots: list[PotTD]
    payouts: list[list[int]]
    seats: dict[str, SeatLineTD]
    in_hand: bool
    paused: str | None
    pausing: Object | None
    last_blinds: list[int]
    next_hand: Object | None
    starting_stacks: list[list[int]]
    tournament: Object | None
    action: ActionTD | None


class DealerTD(BoardTD):
    expect: str
    alerts: list[AlertTD]
    shoe: bool


class HostTD(DealerTD):
    status: Object
    ledger: LedgerTD
    setup: Object


_STRICT = pydantic.ConfigDict(strict=True, extra="forbid")
for _td in (SeatLineTD, PotTD, ActionTD, AlertTD, LedgerEventTD, LedgerPlayerTD, TransferTD, LedgerTD, BoardTD,
            DealerTD, HostTD):
    _td.__pydantic_config__ = _STRICT  # type: ignore[attr-defined]


@functools.cache
def _hints(shape: Any) -> dict[str, Any]:
    return typing.get_type_hints(shape)


def _check(value: object, shape: object, where: str) -> None:
    """A hand-written check of a TypedDict's value (the third way: no library)."""
    origin = getattr(shape, "__origin__", None)
    if shape is Any:
        return
    if hasattr(shape, "__total__"):                                                 # a TypedDict
        hints = _hints(shape)
        if not isinstance(value, dict) or value.keys() != hints.keys():
            raise ValueError(f"{where}: keys")
        for key, inner in hints.items():
            _check(value[key], inner, f"{where}.{key}")
    elif origin is list:
        if not isinstance(value, list):
            raise ValueError(where)
        for item in value:
            _check(item, shape.__args__[0], where)  # type: ignore[attr-defined]
    elif origin is dict:
        if not isinstance(value, dict):
            raise ValueError(where)
        for item in value.values():
            _check(item, shape.__args__[1], where)  # type: ignore[attr-defined]
    elif getattr(shape, "__args__", None) is not None:                               # X | None
        if value is not None:
            _check(value, next(a for a in shape.__args__ if a is not type(None)), where)  # type: ignore[attr-defined]
    elif shape is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(where)
    elif not isinstance(value, shape):  # type: ignore[arg-type]
        raise ValueError(where)


# --- the views -----------------------------------------------------------------------------------------------

def table_views(folder: Path) -> tuple[dict[str, Object], Object]:
    """The board's, dealer's and host's views at a 10-seat table in hand 1 (seat 4 to act), and the change
    the host's view gets when seat 4 calls."""
    path = bench_latency.write_config(folder)
    with path.open("a") as handle:
        handle.write(f'\n[console]\nsocket = "{folder / "api.sock"}"\nstate = "{folder / "console"}"\n')
    config = load(path)
    assert config.console is not None
    journal, entries = Journal.open(config.journal)
    controller = Controller(config, FakeDevices(config), journal, decks=bench_latency.ShuffledDecks())
    api = ApiServer(controller, config.console.socket)
    controller.api = api
    controller.replay(entries)
    for seat in range(1, 11):
        assert controller.submit({"type": "sit", "seat": seat, "player": f"Player {seat}", "stack": 200,
                                  "by": "host", "at": "2026-11-26T20:00:00Z"}).accepted
    assert controller.submit({"type": "start"}).accepted
    read = 0
    while controller.table.expectation().as_json()["expect"] in ("card", "burn"):
        controller.on_card(f"C{read}")
        read += 1
    views = {role: api.view(role) for role in ("board", "dealer", "host")}
    assert controller.submit({"type": "act", "seat": 4, "action": "call"}).accepted
    change = changes(views["host"], api.view("host"))
    journal.close()
    return views, change


def best(rounds: int, action: Callable[[], object]) -> float:
    """Microseconds per call, the best of 5 runs of ``rounds`` calls."""
    times = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(rounds):
            action()
        times.append((time.perf_counter() - start) / rounds * 1e6)
    return min(times)


def measure(rounds: int) -> list[tuple[str, str, float, float]]:
    with tempfile.TemporaryDirectory() as folder:
        views, change = table_views(Path(folder))
    rows: list[tuple[str, str, float, float]] = []
    kinds: dict[str, tuple[type[msgspec.Struct], Any]] = {
        "board": (BoardView, BoardTD), "dealer": (DealerView, DealerTD), "host": (HostView, HostTD)}
    for role, view in views.items():
        record_type, typed_dict = kinds[role]
        data = json.dumps(view, separators=(",", ":"), ensure_ascii=False).encode()
        record = msgspec.convert(view, record_type)
        adapter = pydantic.TypeAdapter(typed_dict)
        assert msgspec.json.decode(data, type=record_type) == record
        assert adapter.validate_json(data) == view
        _check(json.loads(data), typed_dict, role)
        name = f"{role} view ({len(data)} bytes)"
        base_encode = best(rounds, lambda v=view: json.dumps(v, separators=(",", ":"), ensure_ascii=False).encode())
        base_decode = best(rounds, lambda d=data: json.loads(d))
        rows += [
            (name, "encode: json.dumps (today)", base_encode, 1.0),
            (name, "encode: msgspec, the dict", e := best(rounds, lambda v=view: msgspec.json.encode(v)),
             e / base_encode),
            (name, "encode: msgspec, the record", e := best(rounds, lambda r=record: msgspec.json.encode(r)),
             e / base_encode),
            (name, "encode: pydantic dump_json", e := best(rounds, lambda v=view, a=adapter: a.dump_json(v)),
             e / base_encode),
            (name, "decode: json.loads (today, unchecked)", base_decode, 1.0),
            (name, "decode: msgspec into the record (checked)",
             d := best(rounds, lambda d=data, t=record_type: msgspec.json.decode(d, type=t)), d / base_decode),
            (name, "decode: pydantic validate_json (checked)",
             d := best(rounds, lambda d=data, a=adapter: a.validate_json(d)), d / base_decode),
            (name, "decode: json.loads + hand check (checked)",
             d := best(rounds, lambda d=data, t=typed_dict, r=role: _check(json.loads(d), t, r)), d / base_decode),
        ]
    data = json.dumps(change, separators=(",", ":")).encode()
    name = f"host change, seat 4 calls ({len(data)} bytes)"
    base = best(rounds, lambda: json.dumps(change, separators=(",", ":")).encode())
    rows += [(name, "encode: json.dumps (today)", base, 1.0),
             (name, "encode: msgspec, the dict", e := best(rounds, lambda: msgspec.json.encode(change)), e / base)]
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    args = parser.parse_args()
    print(f"msgspec {msgspec.__version__}, pydantic {pydantic.VERSION}, Python {sys.version.split()[0]}")
    print(f"{'view':40} {'way':44} {'us':>8} {'x json':>7}")
    for view, way, micros, ratio in measure(args.rounds):
        print(f"{view:40} {way:44} {micros:8.1f} {ratio:7.2f}")


if __name__ == "__main__":
    main()
