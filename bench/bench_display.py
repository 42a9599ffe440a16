"""Display bus traffic over a replayed evening: our partial-update driver against luma's full frames.

    .venv/bin/python bench/bench_display.py [--hands 60] [--driver ssd1306|sh1106]

A seeded script plays hands at a 10-seat table (blinds, pre-flop to river, calls, raises with amount entry
stepping through presets, folds, payouts). After every step each seat's screen is rendered
(dealerpi.views.render) and shown on a PartialSSD1306 over a capturing serial interface; the dealer
screen likewise. Bytes are counted on the wire (address and control bytes included) and turned into bus
time at 400 kHz with START/STOP and the TCA9548A select/deselect writes (dealerpi.devices.i2c_capture).
Baseline: luma.oled's own driver, which sends a full frame for every display whose image changed.
Goals (issue 5): ours <= 10 % of the full-frame bytes; <= 30 ms of bus time per action, 10 seats.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field

from dealerpi.devices.i2c_capture import CapturingSerial, DisplayRam, bus_seconds, full_frame_wire_bytes
from dealerpi.devices.oled import DRIVERS
from dealerpi.views.model import DealerView, PotView, SeatView
from dealerpi.views.render import render_dealer, render_seat

SEATS = 10
BLINDS = (1, 3)


@dataclass
class _Seat:
    number: int
    name: str
    stack: int
    bet: int = 0
    folded: bool = False
    won: int = 0


@dataclass
class Evening:
    """A scripted table that yields one (seat views, dealer view) snapshot per step."""

    seed: int = 7
    seats: list[_Seat] = field(default_factory=list)
    rnd: random.Random = field(default_factory=random.Random)

    def __post_init__(self) -> None:
        self.rnd.seed(self.seed)
        names = ["Ann", "Bob", "Carmen", "Dmitri", "Eve", "Fatima", "Gus", "Hana", "Ivo", "Jo"]
        self.seats = [_Seat(n + 1, names[n], 300) for n in range(SEATS)]

    def views(self, hand: int, pot: int, acting: int | None, button: int, expect: str,
              entry: tuple[int, str] | None = None, payouts: tuple[tuple[int, int], ...] = ()) \
            -> tuple[dict[int, SeatView], DealerView]:
        high = max(s.bet for s in self.seats)
        out = {}
        for s in self.seats:
            to_call = max(0, min(high - s.bet, s.stack))
            mine = s.number == acting
            min_to = min(high + max(BLINDS[1], high), s.bet + s.stack) if mine and s.stack > to_call else None
            out[s.number] = SeatView(
                seat=s.number, player=s.name, stack=s.stack, status="folded" if s.folded else "in",
                pot=pot, bet=s.bet, to_call=to_call, can_check=mine and to_call == 0, min_raise_to=min_to,
                max_raise_to=s.bet + s.stack if min_to is not None else None, your_action=mine,
                is_button=s.number == button, blinds=BLINDS, hand_number=hand, won=s.won,
                entry=entry[0] if mine and entry else None, entry_label=entry[1] if mine and entry else "")
        dealer = DealerView(hand_number=hand, expect=expect, button=button,
                            pots=(PotView(pot, tuple(s.number for s in self.seats if not s.folded)),),
                            payouts=payouts)
        return out, dealer

    def steps(self, hands: int) -> Iterator[tuple[str, dict[int, SeatView], DealerView]]:
        """Yield (kind, seat views, dealer view); kind is "action" for a confirmed button action (the
        unit of the per-action bus-time goal), "entry" for a BET press during amount entry, "deal"."""
        for hand in range(1, hands + 1):
            button = (hand - 1) % SEATS + 1
            for s in self.seats:
                s.bet, s.folded, s.won = 0, False, 0
                if s.stack < BLINDS[1]:
                    s.stack = 300          # rebuy between hands
            order = [(button + i) % SEATS + 1 for i in range(SEATS)]
            pot = 0
            for seat_no, blind in zip(order[:2], BLINDS, strict=True):
                seat = self.seats[seat_no - 1]
                seat.bet, seat.stack, pot = blind, seat.stack - blind, pot + blind
            for card in range(2 * SEATS):
                yield "deal", *self.views(hand, pot, None, button, f"card to seat {order[card % SEATS]}")
            for street in range(4):
                if street:
                    for s in self.seats:
                        s.bet = 0
                    yield "deal", *self.views(hand, pot, None, button, "burn")
                live = [n for n in (order[2:] + order[:2] if street == 0 else order) if not self.seats[n - 1].folded]
                pot = yield from self._betting_round(hand, pot, button, live)
                if sum(not s.folded for s in self.seats) == 1:
                    break
            winner = self.rnd.choice([s for s in self.seats if not s.folded])
            winner.won, winner.stack = pot, winner.stack + pot
            yield "action", *self.views(hand, 0, None, button, "start", payouts=((winner.number, pot),))

    def _betting_round(self, hand: int, pot: int, button: int, live: list[int]) \
            -> Iterator[tuple[str, dict[int, SeatView], DealerView]]:
        to_act = list(live)
        while to_act and sum(not s.folded for s in self.seats) > 1:
            seat = self.seats[to_act.pop(0) - 1]
            if seat.folded or seat.stack == 0:
                continue
            yield "action", *self.views(hand, pot, seat.number, button, f"action on seat {seat.number}")
            high = max(s.bet for s in self.seats)
            roll = self.rnd.random()
            if roll < 0.35 and high > seat.bet:
                seat.folded = True
            elif roll < 0.85 or seat.stack <= high - seat.bet:
                add = min(high - seat.bet, seat.stack)
                seat.bet, seat.stack, pot = seat.bet + add, seat.stack - add, pot + add
            else:
                # amount entry: BET opens at the minimum, one or two more BET presses step the presets
                minimum = min(high + max(BLINDS[1], high), seat.bet + seat.stack)
                to = minimum
                yield "entry", *self.views(hand, pot, seat.number, button, f"action on seat {seat.number}",
                                           entry=(to, "MIN"))
                for label, size in (("1/2 POT", 0.5), ("POT", 1.0))[: self.rnd.randrange(0, 3)]:
                    to = min(seat.bet + seat.stack, max(minimum, high + int((pot + high - seat.bet) * size)))
                    yield "entry", *self.views(hand, pot, seat.number, button, f"action on seat {seat.number}",
                                               entry=(to, label))
                add = to - seat.bet
                seat.bet, seat.stack, pot = to, seat.stack - add, pot + add
                to_act = [n for n in live if n != seat.number and not self.seats[n - 1].folded]
        return pot


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--driver", choices=sorted(DRIVERS), default="ssd1306")
    args = parser.parse_args(argv)

    serials = {key: CapturingSerial() for key in [*range(1, SEATS + 1), "dealer"]}
    devices = {key: DRIVERS[args.driver](serial) for key, serial in serials.items()}
    rams = {key: DisplayRam(args.driver) for key in serials}
    last: dict[object, bytes] = {}
    full_writes, full_wire = full_frame_wire_bytes(args.driver)
    ours_total = luma_total = 0
    per_action_ms: list[float] = []
    luma_action_ms: list[float] = []
    steps = 0
    for serial, ram in zip(serials.values(), rams.values(), strict=True):
        ram.feed(serial.transactions)
        serial.clear()
    for kind, seat_views, dealer_view in Evening().steps(args.hands):
        steps += 1
        images = {key: render_seat(view) for key, view in seat_views.items()}
        images["dealer"] = render_dealer(dealer_view)
        seconds = luma_seconds = 0.0
        for key, image in images.items():
            devices[key].display(image)
            serial = serials[key]
            wire = serial.wire_bytes()
            ours_total += wire
            seconds += serial.bus_seconds()
            rams[key].feed(serial.transactions)
            serial.clear()
            if last.get(key) != image.tobytes():     # luma would send this display a full frame
                luma_total += full_wire
                luma_seconds += bus_seconds(full_writes, full_writes, full_wire)
                last[key] = image.tobytes()
        if kind == "action":
            per_action_ms.append(seconds * 1000)
            luma_action_ms.append(luma_seconds * 1000)
    for key, ram in rams.items():   # what reached each panel is what was rendered last
        assert ram.image().tobytes() == devices[key].image.tobytes(), key

    def pct(values: list[float], q: float) -> float:
        return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if q < 100 else max(values)

    ratio = ours_total / luma_total
    print(f"driver {args.driver}, {args.hands} hands, {steps} steps, {len(per_action_ms)} actions, "
          f"{SEATS} seats + dealer")
    print(f"bytes on the wire: ours {ours_total:,}  luma full frames {luma_total:,}  ratio {ratio:.1%}  "
          f"(goal <= 10%)")
    print(f"bus time per action at 400 kHz (ms): ours p50 {pct(per_action_ms, 50):.2f}  "
          f"p99 {pct(per_action_ms, 99):.2f}  max {max(per_action_ms):.2f}  (goal <= 30)")
    print(f"                                     luma p50 {pct(luma_action_ms, 50):.2f}  "
          f"p99 {pct(luma_action_ms, 99):.2f}  max {max(luma_action_ms):.2f}")
    ok = ratio <= 0.10 and max(per_action_ms) <= 30
    print("goals met" if ok else "GOALS NOT MET")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
