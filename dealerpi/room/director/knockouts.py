"""PKO across the room's tables: who busted whom, read from the table's hand record (engine/bounties.py pays).

The engine's own rule at one table (engine/between.py ``_bust_by``): a busted player was busted by the winners
of the last pot he was in (the awards run from the main pot up, the last one he is eligible for stands), named
clockwise from the button. The room has no engine hand of another table, so it steps the stored PHH record
through the engine (dealerpi.history.replay, as ``dealerpi replay`` does) and reads the same awards: one rule,
not a copy of it. The last hand of a table is read from its view until its record is final (room/director/books.py):
the view's ``bust_by`` is the table engine's own answer (``Table.bust_by``); the record, when it comes, is
checked against it (``check_knocked``: a difference, after an UNDO, is a fault for the page).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dealerpi.engine import Phase
from dealerpi.history.phh import HandRecord
from dealerpi.history.replay import apply_actions, start_hand
from dealerpi.room.director.table_view import View, view_seats


def from_record(record: HandRecord, busted: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """Each of ``busted``'s eliminators in the hand ``record``; {} for a record that does not step to its end
    (PHHError for one the engine refuses)."""
    if not busted or record.players is None:
        return {}
    hand = start_hand(record)
    apply_actions(hand, record.actions)
    if hand.phase is Phase.SHOWDOWN:
        hand.settle()
    if hand.phase is not Phase.COMPLETE:          # a record that does not say how the hand ended: unknown
        return {}
    players = record.players
    by: dict[str, tuple[str, ...]] = {}
    for award in hand.awards:                       # from the main pot up: the last pot he was in stands
        winners = tuple(players[i] for i in sorted(award.won) if award.won[i] > 0)
        for index in award.eligible:
            by[players[index]] = winners
    return {name: by.get(name, ()) for name in busted}


def from_view(view: View, busted: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """Each of ``busted``'s eliminators as the table's view shows its last hand (``bust_by``: the engine's
    own answer, seat numbers); a view without it (an older console) names nobody: the record will."""
    seats = view_seats(view)
    by = view.get("bust_by")
    if not isinstance(by, dict):
        return {}
    out: dict[str, tuple[str, ...]] = {}
    for name in busted:
        seat = next((n for n, v in seats.items() if v.get("player") == name), None)
        winners = by.get(seat) if seat is not None else None
        if isinstance(winners, list):
            out[name] = tuple(seats[str(w)]["player"] for w in winners if (seats.get(str(w)) or {}).get("player"))
    return out


def check_knocked(viewed: Mapping[str, Sequence[str]], final: Mapping[str, Sequence[str]]) -> str | None:
    """The record's eliminators against those read from the view: None, or what differs (for the page)."""
    diff = [f"{p}: {', '.join(final.get(p, ())) or 'nobody'}, not {', '.join(viewed[p]) or 'nobody'}"
            for p in viewed if tuple(final.get(p, ())) != tuple(viewed[p])]
    return "PKO: the hand record's eliminators differ: " + "; ".join(diff) if diff else None
