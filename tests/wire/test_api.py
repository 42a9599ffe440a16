"""Issue 22: the local API's requests parsed once into typed, versioned records (dealerpi/wire/api.py) and
answered by a registry of endpoints; a wrong request is answered with the key named, never a traceback."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from console_kit import make

from dealerpi.table.api.server import _Client
from dealerpi.wire import api

ROOT = Path(__file__).resolve().parents[2]


def ask(server: Any, peer: _Client, message: dict[str, Any]) -> dict[str, Any]:
    reply: dict[str, Any] = server.handle(peer, message)
    return reply


@pytest.mark.parametrize(("message", "error"), [
    ({"id": 1, "method": "hello", "params": {"role": "host"}, "v": 2},
     "protocol version 2 is not spoken here (this daemon speaks 1)"),
    ({"id": 1, "method": "hello", "params": {"role": "host", "x": 1}}, "hello: Object contains unknown field `x`"),
    ({"id": 1, "method": "hello", "params": [1]}, "a request: Expected `object`, got `array` - at `params`"),
    ({"id": 1, "method": "hello", "params": {"role": "host"}, "extra": 1},
     "a request: Object contains unknown field `extra`"),
    ({"id": 1, "method": "nope"}, "unknown method 'nope'"),
])
def test_a_request_that_is_not_its_methods_record_is_refused_naming_the_key(
        tmp_path: Path, message: dict[str, Any], error: str) -> None:
    _config, _controller, server = make(tmp_path)
    peer = _Client(writer=None)  # type: ignore[arg-type]   # handle() never writes
    assert ask(server, peer, message) == {"id": 1, "error": {"message": error}}
    assert peer.role is None


def test_params_are_typed_after_hello_and_hello_says_the_version(tmp_path: Path) -> None:
    config, _controller, server = make(tmp_path)
    peer = _Client(writer=None)  # type: ignore[arg-type]
    hello = ask(server, peer, {"id": 1, "method": "hello", "params": {"role": "host"}})
    assert hello["result"]["version"] == api.VERSION == 1
    lines = config.journal.read_text()
    assert ask(server, peer, {"id": 2, "method": "journal", "params": {"at": [0, -1]}}) == \
        {"id": 2, "error": {"message": "journal: Expected `int` >= 0 - at `at[1]`"}}
    assert ask(server, peer, {"id": 3, "method": "input",
                              "params": {"entry": {"type": "away", "seat": 1}, "rid": "x" * 65}}) == \
        {"id": 3, "error": {"message": "input: Expected `str` of length <= 64 - at `rid`"}}
    assert ask(server, peer, {"id": 4, "method": "show_qr", "params": {"url": "ftp://x", "label": "dealer"}}) == \
        {"id": 4, "error": {"message": "show_qr: Expected `str` matching regex '^https?://' - at `url`"}}
    assert config.journal.read_text() == lines                  # nothing journaled


def test_every_registered_method_is_in_the_docs_table(tmp_path: Path) -> None:
    """docs/console.md's API tables and the registry name the same methods."""
    _config, _controller, server = make(tmp_path)
    documented = set(re.findall(r"^\| `([a-z_]+)`(?:, `([a-z_]+)`)? \|", (ROOT / "docs" / "console.md").read_text(),
                                re.MULTILINE))
    names = {name for pair in documented for name in pair if name}
    assert set(server.endpoints) <= names
    assert {"hello", "input", "change_table", "ledger", "ledger_note", "close_session", "clear_alerts", "show_qr",
            "hide_qr", "announce", "journal", "press", "release", "deal", "shuffle"} == set(server.endpoints)
