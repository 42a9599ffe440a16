"""The view models: plain, frozen data that renderers draw and devices push.

A view is computed from the engine's state by a pure function. A ``SeatView`` is built for one seat and has a
field for that seat's own hole cards only, so it cannot carry another seat's cards: secrecy by construction.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dealerpi.engine import Alert, Structure, Waiting

__all__ = ["Alert", "DealerView", "PotView", "SeatView"]


@dataclass(frozen=True)
class PotView:
    """One pot: its amount and the seats that can win it."""

    amount: int
    eligible: tuple[int, ...]


@dataclass(frozen=True)
class SeatView:
    """What one seat's display may show. Amounts are in the table's smallest chip unit.

    ``hole_cards`` is this seat's own cards, and stays empty unless the config lets a seat show its own cards.
    ``min_raise_to`` / ``max_raise_to`` are total bets on this street (to-amounts), None when no raise is legal.
    """

    seat: int
    player: str | None
    stack: int
    status: str = "empty"              # empty, waiting, in, folded, all-in, away, out
    hole_cards: tuple[str, ...] = ()
    board: tuple[tuple[str, ...], ...] = ()
    pot: int = 0                       # all chips in the middle, including this street's bets
    bet: int = 0                       # this seat's bet on this street
    to_call: int = 0                   # chips this seat must add to call
    min_raise_to: int | None = None
    max_raise_to: int | None = None
    can_check: bool = False
    your_action: bool = False
    is_button: bool = False
    blind: str | None = None           # "SB", "BB", "STR" (straddle) or None
    blinds: tuple[int, int] = (0, 0)   # the table's small and big blind
    hand_number: int = 0
    alert: Alert | None = None         # shown when this seat's last action was refused
    won: int = 0                       # chips won in the hand just finished
    structure: Structure = Structure.NO_LIMIT   # this street's betting structure: the words differ (BET-1, -5, -8)
    clock: int | None = None           # TRN-2: seconds left on this seat's clock (shot clock or called), if any
    clock_final: bool = False          # TRN-2: in the final countdown (TDA 29: the last 5 seconds)
    # The seat panel's own state (dealerpi/input), merged in by the daemon, not by the engine's views:
    entry: int | None = None           # the to-amount being entered, before it is confirmed
    entry_label: str = ""              # which preset it is: "MIN", "1/2 POT", "POT", "ALL-IN" or ""
    notice: str | None = None          # a panel hint, e.g. "FOLD again to fold"


@dataclass(frozen=True)
class DealerView:
    """What the dealer's console shows: pots, what the table expects next, alerts, and the payouts."""

    hand_number: int
    expect: str                        # e.g. "burn", "card to seat 4", "action on seat 5", "start"
    waiting: Waiting = Waiting.START   # what ``expect`` says, as the enum the console compares
    pots: tuple[PotView, ...] = ()
    board: tuple[tuple[str, ...], ...] = ()
    button: int | None = None
    alerts: tuple[Alert, ...] = ()
    payouts: tuple[tuple[int, int], ...] = ()   # (seat, chips to push) at the end of a hand
    shoe_online: bool = True
    level: str = ""                    # tournament level line, e.g. "L3 100/200 ante 200 12:31"
    notes: tuple[str, ...] = field(default_factory=tuple)
    confirm: tuple[str, ...] = ()      # a pending EXPOSED / MISDEAL / UNDO: what CONFIRM will do (``expect`` asks)
