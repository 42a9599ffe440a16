"""Following the deal card by card (rules digest sections 1-3): what each read is for, and the irregularities.

The shoe reports every card that leaves it. The follower knows the expected sequence (hole cards one at a time
from the first seat left of the button, a burn before every street and every board, runs one after another),
assigns each read, and applies the book's procedure when the dealer flags an exposed or boxed card, when a card
comes while betting is open, or when the flop has four cards. Player indices are the hand's (0 = first seat
left of the button); the table translates them to seats.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from dealerpi.engine.betting import IllegalAction
from dealerpi.engine.hand import Hand, Phase
from dealerpi.engine.policies import ExposedFirstCards, FirstCard, FourCardFlop, Policies, RuleSource
from dealerpi.engine.records import Alert


@dataclass(frozen=True, slots=True)
class Slot:
    """Where a read goes: a player's hole card, a burn before a street, or a board card."""

    kind: str                  # "hole", "burn", "board", "premature"
    player: int = -1
    board: int = -1
    street: int = -1


@dataclass(slots=True)
class DealResult:
    """What came of one input: alerts for the dealer, and whether the deal must be redone or voided."""

    alerts: list[Alert] = field(default_factory=list)
    misdeal: bool = False      # MIS-6: redeal with the same button, blinds and straddles
    fouled: bool = False       # MIS-7: stop the hand and return every bet


class DealFollower:
    """The expected reads of one deal, and the procedures that change them."""

    def __init__(self, hand: Hand, policies: Policies) -> None:
        self.hand = hand
        self.policies = policies
        n = hand.n
        order = list(range(n))
        if n == 2 and policies.heads_up_first_card is FirstCard.BUTTON:     # DEAL-2, seed 003
            order = [1, 0]
        self.hole_slots: deque[int] = deque(p for _ in range(hand.game.hole_cards) for p in order)
        self.buffer: list[list[str]] = [[] for _ in range(n)]
        self.delivered = False
        self.replacements: list[tuple[int, str]] = []     # (player, card to replace) after the hole round
        self.boxed_hole: set[str] = set()                  # replaced hole cards that were boxed (EXP-6), not exposed
        self.seen: dict[str, Slot] = {}
        self.read_order: list[str] = []
        self.reusable: set[str] = set()                    # back in the stub by a procedure: may come again
        self.set_aside: list[str] = []                     # BRD-3 (RRoP): back in the stub before the river
        self.dead: set[str] = set()                        # boxed cards found in the stub: out of play
        self.exposures: list[str] = []
        self.boxed_count = 0
        self.preburn: str | None = None                    # EXP-1: the exposed card is the next burn
        self.board_slots: deque[Slot] = deque()
        self.skip_burn: set[int] = set()                   # streets whose burn was taken already
        self.premature: list[str] = []
        self.premature_street = -1
        self.pending_choice: list[str] | None = None       # BRD-1 (TDA 39-A): four cards, one to be the burn

    # --- what comes next -----------------------------------------------------------------------------

    def expected(self) -> Slot | None:
        """The slot the next read fills, or None when no card is due (betting, showdown, a choice)."""
        if self.pending_choice is not None:
            return None
        if self.hole_slots:
            return Slot("hole", self.hole_slots[0])
        if self.replacements:
            return Slot("hole", self.replacements[0][0])
        self.sync()
        slots = self.board_slots
        if len(slots) > 1 and slots[0].kind == "burn" and self.preburn is not None:
            return slots[1]        # EXP-1: the exposed card is this burn; the next card off the deck is the board's
        return slots[0] if slots else None

    def blocks_action(self) -> str | None:
        """Why betting must wait (a replacement card is due, a four-card flop choice), or None."""
        if self.replacements and self.delivered:
            player, old = self.replacements[0]
            return f"a replacement card is due to player {player} first ({self._replacing(old)})"
        if self.pending_choice is not None:
            return "the four-card flop is being fixed: flag the card chosen as the burn (BRD-1)"
        return None

    def cards_left(self) -> int:
        """Cards still in the stub."""
        out = len(self.seen) - len(self.reusable) + len(self.dead - self.seen.keys())
        return len(self.hand.game.deck) - out

    def substantial_action(self) -> bool:
        """MIS-5: TDA 36 (two actions with chips, or three) or RRoP (two players acted)."""
        hand = self.hand
        if self.policies.substantial_action is RuleSource.RROP:
            return hand.actions >= 2
        return hand.actions >= 3 or (hand.actions >= 2 and hand.chip_actions >= 1)

    def sync(self) -> None:
        """Lay out the board reads once the hand asks for board cards."""
        hand = self.hand
        if self.board_slots or hand.phase is not Phase.DEAL_BOARD or not any(hand.cards_due()):
            return
        self.premature, self.premature_street = [], -1
        streets = hand.game.streets
        per_run = hand.board_count
        for run in range(hand.runs):
            for s, street in enumerate(streets):
                for b in range(per_run):
                    index = run * per_run + b
                    start = sum(x.board_cards for x in streets[:s])
                    end = start + street.board_cards
                    have = len(hand.boards[index])
                    if not street.board_cards or end <= have or end > hand.board_target():
                        continue
                    if s == len(streets) - 1 and self.set_aside:       # BRD-3 (RRoP): reshuffle before the river
                        self.reusable.update(self.set_aside)
                        self.set_aside.clear()
                    if s in self.skip_burn:
                        self.skip_burn.discard(s)
                    else:
                        self.board_slots.append(Slot("burn", street=s))
                    self.board_slots.extend(Slot("board", board=index, street=s) for _ in range(max(have, start), end))

    # --- reads ---------------------------------------------------------------------------------------

    def read(self, card: str) -> DealResult:
        """One card read by the shoe."""
        result = DealResult()
        deck = self.hand.game.deck
        if card not in deck:
            result.fouled = True
            result.alerts.append(Alert("MIS-7", f"{card} is not a card of the {deck.name} deck: fouled deck, "
                                                "stop the hand and return all bets"))
            return result
        if card in self.dead:
            result.alerts.append(Alert("EXP-6", f"{card} was boxed: set it aside, it is not in play"))
            return result
        rereading_burn = card == self.preburn and self.seen.get(card, Slot("")).kind == "hole"
        if card in self.seen and card not in self.reusable and not rereading_burn:
            result.fouled = True
            result.alerts.append(Alert("MIS-7", f"{card} was already dealt in this hand: fouled deck, stop the "
                                                "hand and return all bets"))
            return result
        if self.pending_choice is not None:
            raise IllegalAction("no card is due: flag which of the four flop cards is the burn first (BRD-1)")
        self.reusable.discard(card)
        slot = self._place(card, result)          # may put the card straight back into the stub
        self.seen[card] = slot
        self.read_order.append(card)
        return result

    def _place(self, card: str, result: DealResult) -> Slot:
        hand = self.hand
        if self.hole_slots or (self.replacements and not self.delivered):
            return self._hole_read(card, result)
        if self.replacements:                                   # EXP-1/6 after the hole cards went to the hand
            player, old = self.replacements.pop(0)
            hand.swap_hole(player, old, card)
            # the replacement is a hole card: it is never named (hole cards are secret)
            result.alerts.append(self._replaced(player, old))
            return Slot("hole", player)
        self.sync()
        if hand.phase is Phase.BETTING:
            return self._early_read(card, result)
        if not self.board_slots:
            raise IllegalAction(f"no card is due now ({hand.phase.value}): put {card} back")
        slot = self.board_slots[0]
        if slot.kind == "burn" and self.preburn is not None:
            burned, self.preburn = self.preburn, None
            if card == burned:                                  # EXP-1: the exposed card read again as the burn
                self.board_slots.popleft()
                return Slot("burn", street=slot.street)
            self.board_slots.popleft()                         # the exposed card was the burn: this is a board card
            slot = self.board_slots[0]
        self.board_slots.popleft()
        if slot.kind == "board":
            hand.deal_board([card], slot.board)
            if hand.at(Phase.BETTING):
                self.board_slots.clear()
        return slot

    def _hole_read(self, card: str, result: DealResult) -> Slot:
        if self.hole_slots:
            player = self.hole_slots.popleft()
            self.buffer[player].append(card)
        else:
            player, old = self.replacements.pop(0)
            self.buffer[player][self.buffer[player].index(old)] = card
            result.alerts.append(self._replaced(player, old))
        if not self.hole_slots and not self.replacements:
            self.delivered = True
            for p, cards in enumerate(self.buffer):
                self.hand.deal_hole(p, cards)
        return Slot("hole", player)

    def _replacing(self, old: str) -> str:
        """The rule a replacement for ``old`` follows: a boxed card (EXP-6) or an exposed one (EXP-1)."""
        return "EXP-6" if old in self.boxed_hole else "EXP-1"

    def _replaced(self, player: int, old: str) -> Alert:
        """The alert for a replacement card dealt to ``player``; ``old`` was face up, the new card is never
        named (hole cards are secret)."""
        if old in self.boxed_hole:      # EXP-6 (RRoP, TDA 35-D): replaced after all other cards of the round
            return Alert("EXP-6", f"Player {player} has the replacement for the boxed {old}, dealt after the round")
        return Alert("EXP-1", f"Player {player} has the replacement for the exposed {old}")

    def _early_read(self, card: str, result: DealResult) -> Slot:
        """A read while betting is open: one card too many with the street (BRD-1, BRD-6) or premature (BRD-2..4)."""
        hand = self.hand
        street = hand.street
        if street > 0 and hand.street_actions == 0 and not self.premature:
            if street == 1 and hand.board_count == 1:
                return self._four_card_flop(card, result)
            self.reusable.add(card)                              # BRD-6
            result.alerts.append(Alert("BRD-6", f"Too many cards turned: {card} goes back into the stub; "
                                                "reshuffle it; the next street is dealt as usual"))
            return Slot("premature", street=street)
        self.premature.append(card)
        count = len(self.premature)
        next_street = street + 1
        if street >= len(hand.game.streets) - 1:
            self.reusable.add(card)
            result.alerts.append(Alert("DEAL-8", f"No card is due: put {card} back into the stub"))
        elif count == 1:
            self.skip_burn.add(next_street)
            rule = {1: "BRD-2", 2: "BRD-3", 3: "BRD-4"}[next_street]
            # the burn is face down: not named
            name = hand.game.streets[next_street].name
            result.alerts.append(Alert(rule, f"Premature {name}: the first card out stays out as the burn; "
                                             f"finish the betting; the {name} comes with no other burn"))
        elif next_street == 2 and self.policies.premature_turn is RuleSource.RROP:
            # BRD-3 (RRoP): set the card aside; burn and turn the would-be river; reshuffle it in for the river.
            self.skip_burn.discard(2)
            self.skip_burn.add(3)
            self.set_aside.append(card)
            result.alerts.append(Alert("BRD-3", f"Premature turn (RRoP): set {card} aside; after the betting burn "
                                                "and turn; it is shuffled back before a river dealt with no burn"))
        else:
            self.reusable.add(card)
            rule = {1: "BRD-2", 2: "BRD-3", 3: "BRD-4"}[next_street]
            result.alerts.append(Alert(rule, f"Premature card {card}: it goes back into the stub; reshuffle "
                                             "face down after the betting"))
        return Slot("premature", street=street)

    def _four_card_flop(self, card: str, result: DealResult) -> Slot:
        taken = self.hand.retract_street()
        four = [*taken, card]
        policy = self.policies.four_card_flop
        if policy is FourCardFlop.TDA:
            self.pending_choice = four
            result.alerts.append(Alert("BRD-1", "Four-card flop (TDA 39-A): scramble the four cards face down, "
                                                "the floor picks one as the next burn; flag it; the rest is the flop"))
            return Slot("premature", street=1)
        self.reusable.update(four)
        self.board_slots.clear()
        if policy is FourCardFlop.RROP:
            self.skip_burn.add(1)
            text = "Four-card flop (RRoP): the flop is void; reshuffle the four cards into the stub, cut, and deal " \
                   "a new flop with no burn"
        else:
            text = "Four-card flop (seed 002 B2): the flop is void; the burn stays out; reshuffle the four cards " \
                   "into the stub, cut, burn and deal a new flop"
        result.alerts.append(Alert("BRD-1", text))
        self.sync()
        return Slot("premature", street=1)

    # --- dealer declarations -------------------------------------------------------------------------

    def choose_burn(self, card: str) -> DealResult:
        """BRD-1 (TDA 39-A): the card picked from the four as the next burn; the other three are the flop."""
        if self.pending_choice is None or card not in self.pending_choice:
            raise IllegalAction("no four-card flop is waiting for a burn choice" if self.pending_choice is None
                                else f"{card} is not one of the four flop cards")
        flop = [c for c in self.pending_choice if c != card]
        self.pending_choice = None
        self.seen[card] = Slot("burn", street=2)
        self.skip_burn.add(2)
        self.board_slots.clear()
        self.hand.deal_board(flop, 0)
        for c in flop:
            self.seen[c] = Slot("board", board=0, street=1)
        return DealResult([Alert("BRD-1", f"{card} is the turn burn; the flop is {' '.join(flop)}")])

    def _held(self, slot: Slot, card: str) -> bool:
        """Whether ``card`` is still in the hand it was dealt to, and not already being replaced."""
        held = self.hand.hole[slot.player] if self.delivered else self.buffer[slot.player]
        return card in held and all(old != card for _, old in self.replacements)

    def exposed(self, card: str) -> DealResult:
        """The dealer saw ``card`` face up (EXP-1..4, EXP-7)."""
        slot = self.seen.get(card)
        if slot is None:
            raise IllegalAction(f"{card} has not been dealt; a face-up card in the stub is boxed (EXP-6)")
        if slot.kind == "burn":
            return DealResult([Alert("EXP-7", f"The burn card {card} was exposed: it stays the burn; "
                                              "announce it to the table")])
        if slot.kind != "hole":
            raise IllegalAction(f"{card} is a board card: it is face up anyway")
        if not self._held(slot, card):
            raise IllegalAction(f"{card} is no longer in a hand: it was replaced")
        if self.hand.actions:
            return DealResult([Alert("EXP-4", f"{card} was exposed after the action began: the card plays")])
        self.exposures.append(card)
        if len(self.exposures) >= 2:
            return DealResult([Alert("EXP-3", "Two cards exposed during the deal: misdeal; reshuffle and redeal")],
                              misdeal=True)
        if self.read_order.index(card) < 2 and self.policies.exposed_first_cards is ExposedFirstCards.MISDEAL:
            return DealResult([Alert("EXP-2", f"{card} was the first or second card off the deck and was exposed: "
                                              "misdeal; reshuffle and redeal")], misdeal=True)
        self.replacements.append((slot.player, card))
        self.preburn = card
        return DealResult([Alert("EXP-1", f"{card} was exposed: finish the deal, give player {slot.player} the "
                                          f"next card, and {card} becomes the burn")])

    def boxed(self, card: str) -> DealResult:
        """A card found face up in the deck (EXP-6): it is a scrap of paper and is replaced."""
        result = DealResult()
        slot = self.seen.get(card)
        if slot is None:
            self.dead.add(card)
        elif slot.kind == "hole" and not self.hand.actions and self._held(slot, card):
            self.replacements.append((slot.player, card))
            self.boxed_hole.add(card)
        elif slot.kind == "burn" and self.read_order and self.read_order[-1] == card:
            self.board_slots.appendleft(Slot("burn", street=slot.street))
        else:
            raise IllegalAction(f"{card} cannot be boxed now: only an unread card, a hole card before any action, "
                                "or the burn just read")
        self.boxed_count += 1
        if self.boxed_count >= 2 and not self.hand.actions:
            result.alerts.append(Alert("EXP-6", "Two boxed cards on the deal: misdeal; reshuffle and redeal"))
            result.misdeal = True
            return result
        if slot is None:
            where = "it is out of play"
        elif slot.kind == "hole":
            where = f"player {slot.player} gets its replacement after the round"
        else:
            where = "the next card is the burn"
        result.alerts.append(Alert("EXP-6", f"{card} was boxed: {where}"))
        return result

    def misdeal(self) -> DealResult:
        """The dealer calls a misdeal (MIS-1): refused after substantial action (MIS-5)."""
        if self.substantial_action():
            raise IllegalAction("no misdeal after substantial action (MIS-5): the hand must be played")
        return DealResult([Alert("MIS-6", "Misdeal: collect the cards, reshuffle and redeal; the button, blinds "
                                          "and straddles stay")], misdeal=True)

    def extra(self, count: int) -> DealResult:
        """Extra cards dealt after the starting hands (MIS-2)."""
        if count <= 1:
            return DealResult([Alert("MIS-2", "One extra card after the starting hands: it becomes the burn")])
        result = self.misdeal()
        result.alerts.insert(0, Alert("MIS-2", f"{count} extra cards dealt: misdeal"))
        return result

    def stub_can_serve(self, times: int) -> bool:
        """POT-11: whether the stub holds every burn and card of ``times`` runs."""
        hand = self.hand
        per_board = [hand.game.board_size - len(board) for board in hand.boards]
        streets_left = sum(1 for s in hand.game.streets[hand.street + 1:] if s.board_cards) if any(per_board) else 0
        need = times * sum(n + streets_left for n in per_board)
        return need <= self.cards_left()
