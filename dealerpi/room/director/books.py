"""The tournament's books: each table's finished hands, one at a time in order, for the director (TRN-4).

Pure. What a hand did to the field (who busted, in the hand's order, and the stacks they started it with) is
read from the room's stored hand record (its PHH: ``players``, ``starting_stacks``, ``finishing_stacks``),
never from the difference between two views: the room may miss a view (restarted, the broker down, a
retained state that moved on twice), and busts of two hands read as one would finish by the wrong stacks.
The records come in ``seq`` order (the bridge numbers a session's hands 1, 2, ...); a record the room lacks
while the table says it has more (its state's ``hands``) is waited for: the service asks the table to send
it again (``resend``); one it can no longer send (the store's ``lost``) is skipped with a fault. A hand
becomes final, and its record is sent, when the engine says so (``HandFinal``, engine/events.py): once the
table accepts an input after it, and the room's own ``leave`` for a bust is one. So the room reads the
table's last hand from its view while it waits between hands (it must, to send those leaves): the seats at 0
and the stacks the hand started with (``starting_stacks``), the same numbers its record will carry; its
record, when it comes, is then skipped by its hand number, after a check: an UNDO at the table that lands
before the room's leave may still change a hand the room read from its view. If its record busts other
players, the cursor says so (``fault``) and the room page shows it (a fault is never hidden).

A table's place in its hands (``cursor``, JSON in the director's state): ``session`` (its journal), ``seq``
(the records read), ``hand`` (the table's hand number done) and ``viewed`` (the last hand read from the view
and whom it busted, until its record comes).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from dealerpi.history.phh import loads
from dealerpi.room.director import knockouts
from dealerpi.room.director.table_view import View, view_seats

Lost = Literal["lost"]
LOST: Lost = "lost"     # a record the table could no longer send (older than its journal keeps: store.mark_lost)
Hands = Callable[[str, str, int], "tuple[int, str] | Lost | None"]   # (table, session, seq) -> (number, PHH)
WAIT: Literal["wait"] = "wait"


def no_hands(table: str, session: str, seq: int) -> tuple[int, str] | None:
    """A room without stored hands: the director reads each hand from the views alone."""
    return None


@dataclass(frozen=True)
class HandOver:
    """One finished hand: who busted (in the hand's order, first left of the button: POT-3's order for odd
    chips) and every dealt player's stack at its start (TRN-4)."""

    number: int
    busted: tuple[str, ...]
    stacks: Mapping[str, int]
    knocked_by: Mapping[str, tuple[str, ...]] = field(default_factory=dict)   # PKO: room/director/knockouts.py


def new_cursor() -> dict[str, Any]:
    return {"session": None, "seq": 0, "hand": 0}


def upgrade(done: Any) -> dict[str, Any]:
    """A cursor from a state stored before the books read hand records (``done`` was the hand number): its
    session is taken from the next view, and the stored records up to that hand are skipped."""
    return done if isinstance(done, dict) else {"session": None, "seq": None, "hand": int(done)}


def adopt(cursor: dict[str, Any], view: View) -> None:
    """A new tournament's table, first seen: its hands so far are not the tournament's."""
    session = _session(view)
    if session is not None and cursor == new_cursor():
        hands = view.get("hands")
        cursor.update(session=session, seq=hands if isinstance(hands, int) else 0, hand=int(view.get("hand") or 0))


def next_hand(cursor: dict[str, Any], table: str, view: View, hands: Hands) -> HandOver | Literal["wait"] | None:
    """The table's next hand after ``cursor`` (which moves past it), ``WAIT`` while a record the table has is
    not stored yet, or None: nothing new. A lost record is skipped, not waited for forever, and the cursor
    says so (``fault``: whom it busted is unknown, TRN-4)."""
    lost: list[int] = []
    hand = _next_hand(cursor, table, view, hands, lost)
    if lost:
        records = f"record {lost[0]} is" if len(lost) == 1 else f"records {lost[0]}-{lost[-1]} are"
        cursor["fault"] = "; ".join(filter(None, (
            f"TRN-4: hand {records} lost (older than the table's journal keeps): check the places",
            cursor.get("fault"))))
    return hand


def _next_hand(cursor: dict[str, Any], table: str, view: View, hands: Hands,
               lost: list[int]) -> HandOver | Literal["wait"] | None:
    session = _session(view)
    if session is not None:
        if cursor["session"] != session:
            fresh = cursor["session"] is not None      # a new journal numbers its hands from 1 again
            cursor.update(session=session, seq=0 if fresh else cursor["seq"] or 0, hand=0 if fresh else cursor["hand"])
        final = view.get("hands")                       # how many the table has: none asked for beyond
        known = final if isinstance(final, int) else None
        while known is None or known > cursor["seq"]:
            got = hands(table, session, cursor["seq"] + 1)
            if got is None:
                if known is not None:
                    return WAIT
                break
            if isinstance(got, str):                    # LOST
                cursor["seq"] += 1
                lost.append(cursor["seq"])
                continue
            number, phh = got
            cursor["seq"] += 1
            source = f"{table}/{session}/{cursor['seq']}"
            if number > cursor["hand"]:                 # else: read from the view already (or before the start)
                cursor["hand"] = number
                return from_record(number, phh, source)
            _check_viewed(cursor, number, from_record(number, phh, source))
    last = view.get("hand")
    if view.get("in_hand") or not isinstance(last, int) or last <= cursor["hand"]:
        return None
    if not isinstance(view.get("starting_stacks"), list):
        return None                                     # a table that does not say them: its record will
    cursor["hand"] = last
    hand = from_view(last, view)
    cursor["viewed"] = [last, list(hand.busted), {p: list(w) for p, w in hand.knocked_by.items()}]
    return hand


def _check_viewed(cursor: dict[str, Any], number: int, final: HandOver) -> None:
    """The final record of the hand read from the view: the same busts, or a ``fault`` for the page."""
    viewed = cursor.get("viewed")
    if not viewed or viewed[0] != number:
        return
    del cursor["viewed"]
    if sorted(final.busted) != sorted(viewed[1]):
        cursor["fault"] = (f"TRN-4: hand #{number} was changed at the table (UNDO) after the room read "
                           f"it: it busts {', '.join(final.busted) or 'nobody'}, not "
                           f"{', '.join(viewed[1]) or 'nobody'}: the places need the floor's correction")
    elif len(viewed) > 2 and (why := knockouts.check_knocked(viewed[2], final.knocked_by)):
        cursor["fault"] = f"hand #{number}: {why}: the bounties need the floor's correction"


def waiting_words(table: str, cursor: Mapping[str, Any], view: View) -> str | None:
    """What the room page says while the director waits for one of ``table``'s hand records (a fault is
    never hidden: one that never comes stops the tournament)."""
    hands = view.get("hands")
    if _session(view) != cursor["session"] or not isinstance(hands, int) or hands <= (cursor["seq"] or 0):
        return None
    return (f"{table}: waiting for its hand record {(cursor['seq'] or 0) + 1} of {hands}, asked from the table "
            "again; if it does not come, check that table's console")


def from_record(number: int, phh: str, source: str) -> HandOver:
    """A stored hand: the players with nothing left at its end busted; ``PHHError`` if it does not parse."""
    record = loads(phh, source)
    players, finishing = record.players, record.finishing_stacks
    if players is None or finishing is None:
        raise ValueError(f"{source}: the hand record has no players or no finishing stacks")
    busted = tuple(p for p, chips in zip(players, finishing, strict=True) if chips == 0)
    return HandOver(number, busted, {p: int(chips) for p, chips in zip(players, record.starting_stacks, strict=True)},
                    knockouts.from_record(record, busted))


def from_view(number: int, view: View) -> HandOver:
    """The table's last hand as its view shows it between hands: the dealt seats (``starting_stacks``, in the
    hand's order) now at 0 busted."""
    seats = view_seats(view)
    dealt = [(seats.get(str(seat)) or {}, int(chips)) for seat, chips in view["starting_stacks"]]
    dealt = [(info, chips) for info, chips in dealt if info.get("player")]
    busted = tuple(info["player"] for info, _ in dealt if info.get("stack") == 0)
    return HandOver(number, busted, {info["player"]: chips for info, chips in dealt}, knockouts.from_view(view, busted))


def _session(view: View) -> str | None:
    session = view.get("session")
    return session if isinstance(session, str) and session else None
