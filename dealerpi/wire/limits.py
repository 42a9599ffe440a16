"""Size and depth limits, checked before any parser runs, at every process boundary (issue 22, probe 2).

Python's ``json`` and ``tomllib`` parsers recurse once per nested array or object: a 100,000-deep array, a
few hundred kilobytes, raises ``RecursionError`` inside the parser, which ended the console's MQTT bridge
task and dropped socket connections. So every boundary (the daemon's socket, the console's WebSocket, the
MQTT bridge, the config files) measures a message first: its length, then its nesting, counted by a scan
that skips string contents (and TOML comments), and refuses it with a sentence before ``json.loads`` or
``tomllib.loads`` sees it. The scan is a regex and ``bytes.translate`` in C plus a loop over the brackets
only, so a normal message costs microseconds.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

import msgspec

MAX_DEPTH = 32                 # no message or config of ours nests deeper than 6
MAX_REQUEST = 64 * 1024        # a request to the daemon, a page's operation (none is near this)
MAX_COMMAND = 16 * 1024        # a room's command on P/T/set

_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_TOML_SKIP = re.compile(r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*',
                        re.DOTALL)
_BRACKETS = bytes(range(256)).translate(None, b"[]{}")    # every byte that is not a bracket: deleted
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-.\"' ]+?)\s*=")
_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")


class LimitError(ValueError):
    """A message refused before parsing (too long, too deep, or not JSON): the sentence says which."""


def _too_deep(brackets: bytes, max_depth: int) -> int | None:
    """The offset (in ``brackets``) where the nesting first passes ``max_depth``; None if it never does."""
    depth = 0
    for index, byte in enumerate(brackets):
        depth += 1 if byte in b"[{" else -1
        if depth > max_depth:
            return index
    return None


def check_json(data: bytes | str, what: str, max_bytes: int = MAX_REQUEST, max_depth: int = MAX_DEPTH) -> None:
    """Raise :class:`LimitError` if ``data`` is longer than ``max_bytes`` or nests deeper than ``max_depth``."""
    raw = data.encode() if isinstance(data, str) else data
    if len(raw) > max_bytes:
        raise LimitError(f"{what}: {len(raw)} bytes, more than {max_bytes}; nothing read")
    if raw.count(b"[") + raw.count(b"{") <= max_depth:
        return                                    # the usual case: cannot be too deep, no scan needed
    if _too_deep(_JSON_STRING.sub(b"", raw).translate(None, _BRACKETS), max_depth) is not None:
        raise LimitError(f"{what}: nested deeper than {max_depth} arrays and objects; nothing read")


def read_json(data: bytes | str, what: str, max_bytes: int = MAX_REQUEST, max_depth: int = MAX_DEPTH) -> Any:
    """A message from another process, decoded within the limits; :class:`LimitError` otherwise (a message
    that is not JSON too, with the decoder's reason). msgspec's decoder: 5 to 15 times ``json.loads``'s
    speed on our views (bench/bench_wire.py), and strict JSON (no NaN, no 1e400 read as infinity)."""
    check_json(data, what, max_bytes, max_depth)
    try:
        return msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        raise LimitError(f"{what}: not JSON: {exc}") from None


def read_toml(text: str, max_depth: int = MAX_DEPTH) -> dict[str, Any]:
    """``tomllib.loads`` of a config file, within the depth limit. :class:`LimitError` says ``line N: KEY:
    ...`` (the key written on that line, under its ``[section]``) for a value nested too deep; a syntax
    error is ``tomllib.TOMLDecodeError`` as before."""
    if text.count("[") + text.count("{") > max_depth:
        _check_toml_depth(text, max_depth)
    return tomllib.loads(text)


def _check_toml_depth(text: str, max_depth: int) -> None:
    """One pass over the lines, strings and comments left out: the value that nests too deep is named by
    the line its key is on and the ``[section]`` above it."""
    bare = _TOML_SKIP.sub(lambda m: "\n" * m.group().count("\n"), text)   # strings and comments out, lines kept
    section, depth, opened = "", 0, (0, "")
    for number, line in enumerate(bare.splitlines(), start=1):
        if depth == 0 and (header := _HEADER.match(line)) is not None:
            section = header.group(1).replace(" ", "")   # a [table] or [[array]] header: no value on its line
            continue
        for byte in line.encode().translate(None, _BRACKETS):
            if depth == 0:                               # a value starts here: remember whose it is
                key = _KEY.match(line)
                opened = (number, ".".join(p for p in (section, key.group(1).strip() if key else "") if p))
            depth += 1 if byte in b"[{" else -1
            if depth > max_depth:
                raise LimitError(f"line {opened[0]}: {opened[1] or 'a value'}: nested deeper than {max_depth} "
                                 "arrays and tables")
