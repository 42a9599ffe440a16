"""Where the table in force came from, and whether the host edited the config's ``[table]`` since the daemon
last applied it (issue 14, deciding issue 12's rule again).

Issue 12 made the config's ``[table]`` win over the journal's table at every start-up, so a change made from
the console was undone by the next restart. Now the daemon remembers the config's ``[table]`` it last applied
(the last ``table`` line it journaled with ``"by": "config"``, kept across checkpoints) and at start-up:

- the config's ``[table]`` is the one it last applied (the host did not edit it): the journal's table stands,
  with every change made from the console since;
- it differs (the host edited the file), or the journal has no such line yet (a journal from before this rule,
  or the first start): the config wins, as issue 12 says, and that line is journaled.

The comparison is of the ``table`` input's keys and values (so comments, spacing and key order in the file
do not count as an edit). Each ``table`` line's sender (``by``: ``config``, ``host``; none in older journals)
and time (``at``, for the console's) say where the values in force came from; the console shows it.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

_LOGGER = logging.getLogger(__name__)

# keys of a journal line that are not the table's settings: the sender's tags (docs/console.md)
META_KEYS = frozenset({"type", "by", "at", "rid", "source", "after_hand", "journal"})   # journal: a new one's id


def settings(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A ``table`` input's settings, without its type and the sender's tags."""
    return {key: value for key, value in entry.items() if key not in META_KEYS}


@dataclass
class TableSource:
    """The sender and time of the ``table`` line in force, and the config's ``[table]`` last applied."""

    by: str = "journal"                     # "config", "host", or "journal" (a line without a sender)
    at: str | None = None
    config_seen: dict[str, Any] | None = None

    def note(self, entry: Mapping[str, Any], accepted: bool) -> None:
        """Called for every input the table applied (replayed or live)."""
        if entry.get("type") != "table" or not accepted:
            return
        self.by = str(entry.get("by") or "journal")
        self.at = entry["at"] if isinstance(entry.get("at"), str) else None
        if self.by == "config":
            self.config_seen = settings(entry)

    def config_edited(self, config_table: Mapping[str, Any]) -> bool:
        """True when the config's ``[table]`` is not the one the daemon last applied (or none is known)."""
        return self.config_seen != settings(config_table)

    def snapshot(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def restore(cls, data: object) -> TableSource:
        """From a checkpoint's ``table_source``; a checkpoint without it (older) knows no config: the config
        wins at this start-up, as before."""
        if not isinstance(data, Mapping):
            return cls()
        seen = data.get("config_seen")
        at = data.get("at")
        return cls(str(data.get("by") or "journal"), at if isinstance(at, str) else None,
                   dict(seen) if isinstance(seen, Mapping) else None)

    def words(self) -> str:
        """Where the values in force came from, for the host's page."""
        if self.by == "config":
            return "the config file's [table]"
        if self.by == "host":
            return f"the console (host{', ' + self.at if self.at else ''})"
        return "the journal"
