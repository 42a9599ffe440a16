"""Hand tags and the clip list: each hand's start and end, as wall times and as offsets into the stream.

The stream (the delayed feed) goes on air at the first hand's start plus the delay and shows the table
``delay`` late, so a hand that starts at table time ``t`` is in the recording at ``t - first_hand``: the
offset does not depend on the delay. A break the dynamic delay skipped before the hand went on air
(:mod:`dealerpi.broadcast.delay`) brings it that much earlier, on the air and in the recording. A tag (the
host's ``POST /tags`` with a note) marks the hand in play (or the last one between hands) at the table's
time.

Exports: CSV, and a CMX3600 edit decision list, the format every editor imports (DaVinci Resolve, Premiere,
Avid). Its layout as the CMX listings show it (e.g. the sample CMX listing in the Videonics Edit Suite manual,
p. 88, https://www.easymanua.ls/videonics/ab-1-edit-suite/manual?p=88): ``TITLE:`` and ``FCM: NON-DROP
FRAME``, then one event a line: number (001...), reel, track (``V``), transition (``C``, cut), source in and
out, record in and out as ``HH:MM:SS:FF``; the record times start at 01:00:00:00 and run on clip after
clip; ``* FROM CLIP NAME:`` and ``* COMMENT:`` lines annotate an event. Frames at 30 fps, non-drop.
No card is named here: the list is the host's, live.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from dealerpi.engine import Table

FPS = 30
REEL = "AX"              # CMX's "other" source: the stream's recording


@dataclass
class Clip:
    number: int
    start_ms: int
    end_ms: int | None = None
    tags: list[str] = field(default_factory=list)
    skipped_ms: int = 0          # the breaks' dead air the delayed feed skipped before this hand went on air


class Clips:
    """The hands of the session and their tags, kept in ``path`` (the state folder) across restarts."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.hands: list[Clip] = []
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            self.hands = [Clip(**item) for item in data]
        except (FileNotFoundError, ValueError, TypeError):
            self.hands = []

    def follow(self, table: Table, ms: int, was_between: bool) -> None:
        """After an accepted input: a hand began or ended. A restart replays the stored inputs: a hand
        already listed (its number and start) is not listed again."""
        if was_between and not table.between_hands:
            if any(clip.number == table.hand_number and clip.start_ms == ms for clip in self.hands):
                return
            self.hands.append(Clip(table.hand_number, ms))
            self._save()
        elif not was_between and table.between_hands and self.hands and self.hands[-1].end_ms is None:
            self.hands[-1].end_ms = ms
            self._save()

    def aired(self, number: int, start_ms: int, skipped_ms: int) -> None:
        """The hand that started at ``start_ms`` went on air with ``skipped_ms`` of breaks skipped before it
        (the dynamic delay): it is that much earlier on the air and in the stream's recording."""
        for clip in self.hands:
            if clip.number == number and clip.start_ms == start_ms and clip.skipped_ms != skipped_ms:
                clip.skipped_ms = skipped_ms
                self._save()

    def tag(self, note: str, ms: int) -> Clip | None:
        """Tag the hand in play, or the last one; None before any hand."""
        if not self.hands:
            return None
        self.hands[-1].tags.append(f"{_clock(ms)} {note}".strip())
        self._save()
        return self.hands[-1]

    def drop(self) -> None:
        self.hands = []
        self.path.unlink(missing_ok=True)

    def _save(self) -> None:
        temporary = self.path.with_name(f".{self.path.name}.new")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        try:
            os.write(fd, json.dumps([asdict(clip) for clip in self.hands]).encode())
        finally:
            os.close(fd)
        os.replace(temporary, self.path)

    # --- exports ---------------------------------------------------------------------------------------

    def rows(self, first_hand_ms: int | None, delay_ms: int) -> list[dict[str, Any]]:
        """One row a finished hand (and the one in play, without an end)."""
        zero = first_hand_ms if first_hand_ms is not None else (self.hands[0].start_ms if self.hands else 0)
        rows = []
        for clip in self.hands:
            end, skip = clip.end_ms, clip.skipped_ms
            rows.append({"hand": clip.number, "start_utc": _utc(clip.start_ms), "end_utc": _utc(end),
                         "on_air_start_utc": _utc(clip.start_ms + delay_ms - skip),
                         "on_air_end_utc": _utc(None if end is None else end + delay_ms - skip),
                         "stream_start": _offset(clip.start_ms - zero - skip),
                         "stream_end": _offset(None if end is None else end - zero - skip),
                         "tags": " | ".join(clip.tags)})
        return rows

    def csv_text(self, first_hand_ms: int | None, delay_ms: int) -> str:
        out = io.StringIO()
        rows = self.rows(first_hand_ms, delay_ms)
        writer = csv.DictWriter(out, fieldnames=["hand", "start_utc", "end_utc", "on_air_start_utc", "on_air_end_utc",
                                                 "stream_start", "stream_end", "tags"], lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return out.getvalue()

    def edl_text(self, first_hand_ms: int | None, title: str, *, tagged_only: bool = False) -> str:
        """CMX3600: one cut per finished hand (or per tagged hand), back to back from 01:00:00:00."""
        zero = first_hand_ms if first_hand_ms is not None else (self.hands[0].start_ms if self.hands else 0)
        lines = [f"TITLE: {title[:70]}", "FCM: NON-DROP FRAME", ""]
        record = 3600 * FPS                         # 01:00:00:00, in frames
        event = 0
        for clip in self.hands:
            if clip.end_ms is None or (tagged_only and not clip.tags):
                continue
            event += 1
            source_in = _frames(clip.start_ms - zero - clip.skipped_ms)
            source_out = max(source_in + 1, _frames(clip.end_ms - zero - clip.skipped_ms))
            length = source_out - source_in
            lines.append(f"{event:03d}  {REEL:<8} V     C        {_tc(source_in)} {_tc(source_out)} "
                         f"{_tc(record)} {_tc(record + length)}")
            lines.append(f"* FROM CLIP NAME: HAND {clip.number}")
            lines += [f"* COMMENT: {_plain(tag)}" for tag in clip.tags]
            lines.append("")
            record += length
        return "\n".join(lines)


def _frames(ms: int) -> int:
    return max(0, ms) * FPS // 1000


def _tc(frames: int) -> str:
    seconds, frame = divmod(frames, FPS)
    minutes, second = divmod(seconds, 60)
    hours, minute = divmod(minutes, 60)
    return f"{hours:02d}:{minute:02d}:{second:02d}:{frame:02d}"


def _offset(ms: int | None) -> str:
    if ms is None:
        return ""
    ms = max(0, ms)
    seconds, milli = divmod(ms, 1000)
    minutes, second = divmod(seconds, 60)
    hours, minute = divmod(minutes, 60)
    return f"{hours:02d}:{minute:02d}:{second:02d}.{milli:03d}"


def _utc(ms: int | None) -> str:
    if ms is None:
        return ""
    moment = datetime.datetime.fromtimestamp(ms / 1000, datetime.UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _clock(ms: int) -> str:
    return datetime.datetime.fromtimestamp(ms / 1000, datetime.UTC).strftime("%H:%M:%S")


def _plain(text: str) -> str:
    """One printable line (an EDL comment ends at the line's end)."""
    return "".join(ch if ch.isprintable() else " " for ch in text)[:200]
