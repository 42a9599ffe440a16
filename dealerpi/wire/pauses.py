"""The reasons a card room holds a table (the reason of its ``pause`` input, docs/room.md) and what the
dealer's display says for each: one place, read by the room's director (dealerpi/room/director/mtt.py), which sends
them, and by the table's views (dealerpi/views/build.py), which show them. The table daemon stays off the
network: this module is plain data, no room code."""

from __future__ import annotations

H4H = "hand-for-hand"                      # TRN-5: held after each hand of the bubble, one hand a round
BREAK = "break"                            # TRN-1: the schedule's break
MOVES = "the room moves players"           # TRN-8, breaking a table, the final-table redraw
HALT = "TRN-8: three players short"        # TRN-8: a table halts until it is balanced

# each wraps as header "PAUSED: TRN-5", then the why, then the one thing to do
DEALER_WORDS = {
    H4H: "PAUSED: TRN-5 hand-for-hand: wait for the room",
    BREAK: "BREAK (TRN-1): wait for the room",
    MOVES: "PAUSED: TRN-8 moving players: wait for the room",
    HALT: "PAUSED: TRN-8 table 3 short: wait for the room",
}
