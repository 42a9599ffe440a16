"""Home money as hosts keep it (issue 19): expenses split among chosen players, the house's charge where the
preset's house takes one, "paid" marks on the transfers, and the ledger in PokerNow's CSV columns.

These are money outside the chips, so they are no table inputs: the daemon keeps them as notes in
``ledger-notes.jsonl`` beside the journal, each line written and fsynced before it counts (like a journaled
input), and read back at start-up. A note names its session by number; the sessions themselves come from
the journal (ledger.py), so the numbers are the same after a restart. A new journal (a new evening) puts
the file aside (``ledger-notes-TIME.jsonl``): its numbers were the last evening's.

- ``expense``: ``{"what": "pizza", "amount": 60, "paid_by": "Ann", "split": ["Ann", "Bob", "Cy"]}``: Ann
  paid 60 for the three; each owes a third (20), the units left over one each in the order named. Ann's
  net gains 60, each one's loses his share.
- ``charge``: ``{"what": "time", "amount": 10, "players": ["Ann", "Bob"]}``: the house takes 10 from each
  (a time charge in a card room, the casino preset; the rake of an online room, seed 003). The home
  preset's house takes none (seed 001: "There is no tipping, no rake"), nor a tournament's (its fee is
  outside the pool). The house is a payee of the transfers.
- ``paid``: ``{"from": "Bob", "to": "Ann", "amount": 200, "paid": true}``: the host ticks a transfer off.
- ``remove``: ``{"id": "n3"}``: an expense or charge entered by mistake is taken back.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dealerpi.books.ledger import settle

HOUSE = "the house"
CHARGING_PRESETS = ("casino", "online")      # the presets whose house takes a time charge or a rake
# PokerNow's ledger export, as the tools hosts use read it: their readers check this exact first line (e.g.
# github.com/eluo28/headwins-poker, src/discordbot/helpers/validation_helpers.py); newer exports add a
# nit_escrow column before net, which these readers accept too
POKERNOW_COLUMNS = ["player_nickname", "player_id", "session_start_at", "session_end_at", "buy_in", "buy_out",
                    "stack", "net"]


class Notes:
    """The notes file: appended and fsynced one line per note; ``path`` None keeps them in memory."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.notes: list[dict[str, Any]] = []
        if path is not None and path.exists():
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                try:
                    note = json.loads(line)
                except ValueError:
                    if number == len(path.read_text(encoding="utf-8").splitlines()):
                        break                        # a torn last line (a power cut mid-write): dropped
                    raise ValueError(f"{path}: line {number} is not JSON") from None
                self.notes.append(note)

    def put_aside(self, stamp: str) -> Path | None:
        """A new journal (a new evening): the notes so far go to ``ledger-notes-STAMP.jsonl`` beside it (kept
        for the host, never counted again: their session numbers are the last evening's)."""
        self.notes = []
        if self.path is None or not self.path.exists():
            return None
        kept = self.path.with_name(f"{self.path.stem}-{stamp}{self.path.suffix}")
        os.replace(self.path, kept)
        return kept

    def add(self, note: dict[str, Any]) -> dict[str, Any]:
        note = {**note, "id": f"n{len(self.notes) + 1}"}
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o640)
            try:
                os.write(fd, (json.dumps(note, separators=(",", ":")) + "\n").encode())
                os.fsync(fd)
            finally:
                os.close(fd)
        self.notes.append(note)
        return note


def check(note: Mapping[str, Any], session: Mapping[str, Any]) -> str | None:
    """Why ``note`` cannot be taken for ``session`` (a ledger.session_summary), or None."""
    kind, players = note.get("note"), {row["player"] for row in session["players"]}
    amount = note.get("amount")
    if kind in ("expense", "charge", "paid") and not (isinstance(amount, int) and amount > 0):
        return f"{kind}: amount must be a whole positive number"
    if kind == "expense":
        split = note.get("split")
        if not isinstance(note.get("what"), str) or not note["what"].strip():
            return "expense: say what it was for (what)"
        if note.get("paid_by") not in players:
            return f"expense: paid_by must be a player of this session: {', '.join(sorted(players))}"
        if not (isinstance(split, list) and split and all(name in players for name in split)
                and len(set(split)) == len(split)):
            return "expense: split it among players of this session, each named once"
        return None
    if kind == "charge":
        preset = session["session"].get("rules")
        if session["session"]["kind"] != "cash" or preset not in CHARGING_PRESETS:
            return (f"charge: the {preset or 'this'} game's house takes no rake or time charge (only "
                    f"{' and '.join(CHARGING_PRESETS)} games; seed 001: a home game has no rake)")
        names = note.get("players")
        if not (isinstance(names, list) and names and all(name in players for name in names)):
            return "charge: name the players it is taken from (players of this session)"
        return None
    if kind == "paid":
        if not any(t["from"] == note.get("from") and t["to"] == note.get("to") and t["amount"] == amount
                   for t in session["transfers"]):
            return "paid: no such transfer in this session"
        return None
    if kind == "remove":
        return None
    return 'a ledger note is one of "expense", "charge", "paid", "remove"'


def with_notes(session: dict[str, Any], notes: list[dict[str, Any]]) -> dict[str, Any]:
    """``session`` (a ledger.session_summary) with its expenses and charges in the nets and transfers, and
    the paid marks on the transfers."""
    number = session["session"]["number"]
    removed = {note.get("id") for note in notes if note.get("note") == "remove"}
    mine = [note for note in notes if note.get("session") == number and note.get("id") not in removed]
    expenses = [n for n in mine if n["note"] == "expense"]
    charges = [n for n in mine if n["note"] == "charge"]
    if not expenses and not charges and not any(n["note"] == "paid" for n in mine):
        return {**session, "expenses": [], "charges": []}
    nets = {row["player"]: row["net"] for row in session["players"]}
    for expense in expenses:
        nets[expense["paid_by"]] += expense["amount"]
        share, extra = divmod(expense["amount"], len(expense["split"]))
        for k, name in enumerate(expense["split"]):
            nets[name] -= share + (1 if k < extra else 0)
    for charge in charges:
        for name in charge["players"]:
            nets[name] -= charge["amount"]
        nets[HOUSE] = nets.get(HOUSE, 0) + charge["amount"] * len(charge["players"])
    transfers = [{"from": a, "to": b, "amount": amount} for a, b, amount in settle(nets)] \
        if session["balanced"] or session["session"]["kind"] == "cash" else []
    marks: dict[tuple[object, object, object], bool] = {}
    for note in mine:
        if note["note"] == "paid":
            marks[(note["from"], note["to"], note["amount"])] = bool(note.get("paid", True))
    for transfer in transfers:
        transfer["paid"] = marks.get((transfer["from"], transfer["to"], transfer["amount"]), False)
    keep = ("id", "what", "amount", "paid_by", "split", "players")
    return {**session, "nets": nets, "transfers": transfers,
            "expenses": [{k: n[k] for k in keep if k in n} for n in expenses],
            "charges": [{k: n[k] for k in keep if k in n} for n in charges]}


def pokernow_csv(sessions: list[Mapping[str, Any]]) -> str:
    """The ledger in PokerNow's columns: a row per player and session (a tool adds a player's rows up, as
    it does PokerNow's rows per stint). buy_in: buy-ins and top-ups (a tournament's entries); buy_out:
    cash-outs (a tournament's prize); stack: chips still on the table; net = buy_out + stack - buy_in, in
    chips (expenses and charges are not PokerNow columns). player_id is the name: the table knows no other."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(POKERNOW_COLUMNS)
    for session in sessions:
        for row in session["players"]:
            times = [e["at"] for e in session["events"] if e["player"] == row["player"] and e["at"]]
            ended = not session["session"]["open"] or row["on_table"] == 0
            name = f"'{row['player']}" if row["player"][:1] in ("=", "+", "-", "@") else row["player"]
            writer.writerow([name, name, times[0] if times else "", times[-1] if times and ended else "",
                             row["in"], row["out"], row["on_table"], row["net"]])
    return out.getvalue()
