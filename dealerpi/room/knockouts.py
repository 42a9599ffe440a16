"""PKO across the room's tables: who busted whom, read from the table's hand record (engine/bounties.py pays).

The engine's own rule at one table (engine/between.py ``_bust_by``): a busted player was busted by the winners
of the last pot he was in (the awards run from the main pot up, the last one he is eligible for stands), named
clockwise from the button. The room has no engine hand of another table, so it steps the stored PHH record
through the engine (dealerpi.history.replay, as ``dealerpi replay`` does) and reads the same awards: one rule,
not a copy of it. The last hand of a table is read from its view until its record is final (room/books.py):
there the pots' eligible seats and each seat's ``won`` give the same answer except when a side pot's winner
did not win the pot below it, which the record then settles (``check_knocked``: a fault for the page).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dealerpi.engine.hand import Phase
from dealerpi.history.phh import HandRecord
from dealerpi.history.replay import apply_actions, start_hand
from dealerpi.room.table_view import View, view_seats


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
    """Each of ``busted``'s eliminators as the table's view shows its last hand: the seats of the last pot
    the busted player was eligible for that won chips in the hand, clockwise from the button."""
    seats = view_seats(view)
    order = [int(seat) for seat, _ in view.get("starting_stacks") or []]
    pots = [pot for pot in view.get("pots") or [] if isinstance(pot, dict)]
    out: dict[str, tuple[str, ...]] = {}
    for name in busted:
        seat = next((int(n) for n, v in seats.items() if v.get("player") == name), None)
        last = next((pot for pot in reversed(pots) if seat in pot.get("eligible", [])), None)
        eligible = set(last.get("eligible", [])) if last else {int(n) for n in seats}
        out[name] = tuple(seats[str(s)]["player"] for s in order if s in eligible and s != seat
                          and (seats.get(str(s)) or {}).get("won", 0) > 0 and seats[str(s)].get("player"))
    return out


def check_knocked(viewed: Mapping[str, Sequence[str]], final: Mapping[str, Sequence[str]]) -> str | None:
    """The record's eliminators against those read from the view: None, or what differs (for the page)."""
    diff = [f"{p}: {', '.join(final.get(p, ())) or 'nobody'}, not {', '.join(viewed[p]) or 'nobody'}"
            for p in viewed if tuple(final.get(p, ())) != tuple(viewed[p])]
    return "PKO: the hand record's eliminators differ: " + "; ".join(diff) if diff else None
