"""Size and depth limits, checked before any parser runs, at every process boundary (issue 22, probe 2).

Python's ``json`` and ``tomllib`` parsers recurse once per nested array or object: a 100,000-deep array, a
few hundred kilobytes, raises ``RecursionError`` inside the parser, which ended the console's MQTT bridge
task and dropped socket connections. So every boundary (the daemon's socket, the console's WebSocket, the
MQTT bridge, the config files) measures a message first: its length, then its nesting, counted by a scan
that skips string contents (and TOML comments), and refuses it with a sentence before ``json.loads`` or
``tomllib.loads`` sees it. The JSON scan is C loops only (``bytes.translate``, ``split``, ``replace``): a
message with fewer brackets than the limit costs two counts, the host's 7 KB view tens of microseconds.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

import msgspec

MAX_DEPTH = 32                 # no message or config of ours nests deeper than 6
MAX_REQUEST = 64 * 1024        # a request to the daemon, a page's operation (none is near this)
MAX_COMMAND = 16 * 1024        # a room's command on P/T/set

_TOML_SKIP = re.compile(r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*',
                        re.DOTALL)
_BRACKETS = bytes(range(256)).translate(None, b"[]{}")    # every byte that is not a bracket: deleted
_PAIRS = bytes.maketrans(b"[{]}", b"(())")                   # arrays and objects alike: depth is depth
_NOT_JSON_SYNTAX = bytes(range(256)).translate(None, b'[]{}"')  # all but brackets and quotes: deleted
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-.\"' ]+?)\s*=")
_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")


class LimitError(ValueError):
    """A message refused before parsing (too long, too deep, or not JSON): the sentence says which."""


def _deeper_than(brackets: bytes, max_depth: int) -> str | None:
    """Why ``brackets`` (the brackets of a message, strings taken out) cannot be read, or None. Each pass
    of ``bytes.replace`` takes out every innermost pair at once (a C loop, no Python per bracket): after
    ``max_depth`` passes a message no deeper than that is empty. A residue that still balances nested
    deeper; one that does not balance is not JSON, and a parser would recurse on its opening brackets too."""
    pairs = brackets.translate(_PAIRS)
    for _ in range(max_depth):
        if not pairs:
            return None
        pairs = pairs.replace(b"()", b"")
    if not pairs:
        return None
    if pairs.count(b"(") == pairs.count(b")"):
        return f"nested deeper than {max_depth} arrays and objects"
    return "its brackets do not balance (not JSON)"


def check_json(data: bytes | str, what: str, max_bytes: int = MAX_REQUEST, max_depth: int = MAX_DEPTH) -> None:
    """Raise :class:`LimitError` if ``data`` is longer than ``max_bytes`` or nests deeper than ``max_depth``."""
    raw = data.encode() if isinstance(data, str) else data
    if len(raw) > max_bytes:
        raise LimitError(f"{what}: {len(raw)} bytes, more than {max_bytes}; nothing read")
    if raw.count(b"[") + raw.count(b"{") <= max_depth:
        return                                    # the usual case: cannot be too deep, no scan needed
    if (why := _deeper_than(_json_brackets(raw), max_depth)) is not None:
        raise LimitError(f"{what}: {why}; nothing read")


def _json_brackets(raw: bytes) -> bytes:
    """The brackets of a JSON text outside its strings. Escapes go first (``\\\\`` pairs, then ``\\"``,
    left to right as JSON pairs them), so every quote left opens or closes a string; then only brackets and
    quotes are kept (``bytes.translate``) and what lies between quotes dropped. All C loops: a 176 KB
    ledger view takes a tenth of its decoding time, where a regex over the strings took 10 times it."""
    if b"\\" in raw:
        raw = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    # two adjacent quotes have nothing between them and leave every other quote's parity as it was: taking
    # them out first leaves only strings that hold a bracket (usually none) for the split
    kept = raw.translate(None, _NOT_JSON_SYNTAX).replace(b'""', b"")
    return b"".join(kept.split(b'"')[0::2]) if b'"' in kept else kept


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
