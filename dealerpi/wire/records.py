"""How every seam reads a decoded message into its record (issue 22): msgspec's ``convert``, a refusal whose
words name the key as the sender wrote it, and the version check. Each seam wraps the words in its own error
and prefix (a view's, a payload's, a page's); the sentences are made here once."""

from __future__ import annotations

from typing import TypeVar

import msgspec

_R = TypeVar("_R")


class RecordError(ValueError):
    """Decoded JSON that is not its record; the text is msgspec's sentence, naming the key and where."""


def words(error: msgspec.ValidationError) -> str:
    """msgspec's sentence with the path as the sender wrote it: ``at `$.seats.3``` becomes ``at `seats.3```."""
    return str(error).replace("`$.", "`")


def convert(data: object, record: type[_R]) -> _R:
    """``data`` as ``record`` (a record type, a union of records or a generic alias of one);
    :class:`RecordError` naming the key otherwise."""
    try:
        value: _R = msgspec.convert(data, record)
    except msgspec.ValidationError as error:
        raise RecordError(words(error)) from None
    return value


def unspoken(version: object, spoken: int, speaker: str) -> str | None:
    """None when ``version`` is ``spoken``; else the refusal, ``speaker`` being who refuses it ("this table")."""
    return None if version == spoken else f"version {version} is not spoken here ({speaker} speaks {spoken})"
