"""The room's multi-table tournament: a director that turns what the tables show into commands (issue 15).

Pure: no I/O, no clock, no randomness of its own. ``step(views, answer, now, hands)`` reads each table's
public state (the bridge's retained ``P/T``: seats, hand number, ``in_hand``, ``paused``, the last hand's
blinds and starting stacks, the next hand's blind seats, ``session`` and ``hands``), the room's stored hand
records (``hands(table, session, seq)``), the answers to the commands it sent and the room's clock, and
returns the next commands. Its whole state is
the JSON-able ``state`` dict, which the room stores with the commands in one transaction (store.py), so a
room restarted from it decides the same things under the same command ids: each is journaled by its table
once (rid ``room:ID``), never twice.

One batch of commands is in flight at a time; the next waits for every answer. A refusal drops the rest of
its plan, which is decided again from what the tables then show. Seats move only on a held table (a room's
``pause`` names the hand the table is in, ``after_hand``: the table's own journal holds it when that hand is
over, so no START can slip in before it), and a moved stack is read when it can no longer change.

The rules (digest section 7, ``dealerpi.room.director.tournament``):
- TRN-9: the draws from the room's seed (``random.Random(f"{seed}-{n}")``). A late entrant waits until a seat
  is open (never the SB nor before it, TDA 8) and enters when his ``sit`` is taken; late registration ends at
  its level or the bubble, and one not seated by then is not entered (the page says: refund him).
- TRN-1: one level clock: level k starts at ``started + 60 * sum(minutes of the steps before k)``; each table
  gets the level as a ``table`` input between hands (a break: ``pause`` "break", then ``resume``).
- TRN-4: a player with nothing left after a hand is out: its table's busts on one hand finish by their
  stacks at the start of the hand (more chips, the better place; equal stacks share). Each table's hands are
  read one at a time, in order, from their records (``dealerpi.room.director.books``; the last one from the view while
  its record is not final yet), waiting for a record the room lacks, so the places do not depend on which
  views the room happened to see.
- TRN-8 (TDA 11, RP-6; who and where: dealerpi.room.director.seating): when the fullest and emptiest tables differ by
  two, both are held between hands, then the player due the big blind moves to the worst position; a table
  three short halts at once (R11-D); a broken table's players are seated by a two-step draw (R10-B); when the
  field fits one table, everyone is redrawn to the final table (the first). Nothing more is decided until
  each table's view shows what it accepted (issue 20: one command per intent).
- TRN-5 (dealerpi.room.director.hand_for_hand): on the bubble (one player from the money) hand-for-hand: every table
  is held once its hand is over; each round is one ``resume`` with ``pause_after`` (the table's hand + 1) per
  table, so every table plays exactly one hand and is held again by its own journal (TDA RP-8); a table found
  beyond the round's hand is a fault on the page. That round's busts at several tables share the places at
  stake (TDA RP-8-A; at one table, TRN-4 by their starting stacks); a round takes at most the tables' own
  cap (the engine's ``hand_for_hand_seconds``, two minutes) off the level clock.
- The director's controls (dealerpi.room.director.controls): the clock paused, set or given time, a player moved.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from dealerpi.room.director.books import WAIT, HandOver, Hands, adopt, new_cursor, next_hand, no_hands, upgrade
from dealerpi.room.director.controls import announce_to_tables, clock_now, director_moves, unregistered_leave
from dealerpi.room.director.hand_for_hand import pauses, round_over
from dealerpi.room.director.money import OPS, Money, MoneyError
from dealerpi.room.director.mtt_config import TournamentSettings
from dealerpi.room.director.mtt_summary import standings_json, standings_of, summary
from dealerpi.room.director.seating import due_big_blind, entry_seats, present, shows, two_step_draw, worst_seat
from dealerpi.room.director.table_view import View, asked_to_pause, held, open_seats, view_seats
from dealerpi.room.director.tournament import Layout, draw_seats, halted, hand_for_hand_cap
from dealerpi.wire.pauses import BREAK, H4H, HALT, MOVES

Command = tuple[str, str, dict[str, Any]]          # (id, table, the journal input)
SHOWN_SECONDS = 30.0     # how long the room waits for a table's view to show a command it accepted


class TournamentError(ValueError):
    """A registration or a start the tournament refuses; the message says why."""


def new_state(tid: str) -> dict[str, Any]:
    """A tournament open for registration. ``id`` prefixes its command ids (a table's rids stay apart from
    another tournament's)."""
    return {"id": tid, "phase": "registering", "players": [], "seed": None, "started": None, "seq": 0,
            "standings": None, "active": [], "done": {}, "level": {}, "h4h": None, "offset": 0.0,
            "final": False, "pending": {}, "plan": [], "carry": {}, "events": [], "refused": [], "alternates": []}


class Director:
    """See the module docstring. ``state`` is everything; ``Director(settings, state)`` goes on from it."""

    def __init__(self, settings: TournamentSettings, state: dict[str, Any]) -> None:
        self.settings, self.state = settings, state
        self.cap = hand_for_hand_cap(settings)        # TRN-5: the tables' own hand-for-hand cap
        state.pop("stacks", None)            # a state stored before the books read hand records (books.upgrade)
        state["done"] = {t: upgrade(done) for t, done in state.get("done", {}).items()}
        self._waiting = False

    # --- registration and the start ----------------------------------------------------------------

    def register(self, player: str, now: float) -> None:
        """Before the start: an entrant. After it, while late registration is open (TRN-9): an alternate,
        seated and entered by :meth:`_late_entries`."""
        s, name = self.state, player.strip()
        late = s["phase"] == "running" and self.settings.late_entry_open(self.level_at(now)[0])
        if late and (bubble := self._bubble()):
            raise TournamentError(f"TRN-9: late registration closed at the bubble: {bubble}")
        if s["phase"] != "registering" and not late:
            if s["phase"] == "running" and self.settings.late_entry_levels is not None:
                raise TournamentError("TRN-9: late registration closed at the end of level "
                                      f"{self.settings.late_entry_levels}")
            raise TournamentError("registration is closed: the tournament has started")
        if not 0 < len(name) <= 24:
            raise TournamentError("a player's name is 1 to 24 characters")
        try:                                                # TRN-9: a re-entry, by the engine's limit (money.py)
            again = late and name in s["players"] and self.money.reentry(name, self.level_at(now)[0])
        except MoneyError as error:
            raise TournamentError(str(error)) from None
        if name in s.setdefault("alternates", []) or (name in s["players"] and not again):
            raise TournamentError(f"{name} is registered already")
        if late:
            s["alternates"].append(name)
            s["events"].append({"kind": "late registration", "player": name})
            return
        if len(s["players"]) >= len(self.settings.tables) * self.settings.seats:
            raise TournamentError("the tournament is full")
        s["players"].append(name)

    @property
    def money(self) -> Money:
        return Money(self.settings, self.state)

    def start(self, seed: int, now: float) -> None:
        """TRN-9: the seats drawn from ``seed`` (drawn by the caller, stored here: a restart redraws nothing);
        the level clock starts at ``now``."""
        s, settings = self.state, self.settings
        if s["phase"] != "registering":
            raise TournamentError("the tournament has started already")
        if len(s["players"]) < 2:
            raise TournamentError("a tournament needs at least two players")
        field, percents = len(s["players"]), settings.percents(len(s["players"]))
        if len(percents) > field:               # a prize nobody could win: refused, the key named (TRN-4)
            raise TournamentError(f"tournament.payouts in room.toml: {len(percents)} places paid for {field} "
                                  f"players; register {len(percents) - field} more or pay fewer places (TRN-4)")
        s.update(phase="running", seed=seed, started=now, done={t: new_cursor() for t in settings.tables},
                 standings=_standings_json(self.money.opening(s["players"])))
        drawn = draw_seats(s["players"], dict.fromkeys(settings.tables, settings.seats), self._rng())
        seated = {t: sorted(seat for tt, seat in drawn.values() if tt == t) for t in settings.tables}
        rng = self._rng()
        s["plan"] = [[{"op": "table", "table": t, "level": 0} for t in settings.tables],
                     [{"op": "sit", "table": t, "seat": seat, "player": p} for p, (t, seat) in sorted(drawn.items())],
                     [{"op": "button", "table": t, "seat": rng.choice(seated[t])} for t in settings.tables
                      if seated[t]]]
        s["active"] = [t for t in settings.tables if seated[t]]
        s["events"].append({"kind": "draw", "seats": {p: list(ts) for p, ts in sorted(drawn.items())}})

    def _bubble(self) -> str | None:
        """TRN-9, TRN-5: late registration ends at the bubble (one player from the money), so that nobody in
        the money is pushed back out of it by a late entrant (issue 20); None before it."""
        standings = self.state["standings"]
        if standings is None:
            return None
        paid = len(standings["percents"])
        left = standings["remaining"]
        return f"{left} players left, {paid} paid" if left <= paid + 1 else None

    def _rng(self) -> random.Random:
        self.state["seq"] += 1
        return random.Random(f"{self.state['seed']}-{self.state['seq']}")

    # --- the step ----------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """Commands in flight or planned."""
        return bool(self.state["pending"] or self.state["plan"])

    def step(self, views: Mapping[str, View], answer: Callable[[str], dict[str, Any] | None],
             now: float, hands: Hands = no_hands) -> list[Command]:
        """The next commands. ``answer(id)``: a command's answer, None while unanswered; ``hands(table,
        session, seq)``: a stored hand record (dealerpi.room.director.books)."""
        s = self.state
        if s["phase"] not in ("running", "finished"):
            return []
        self._close_late_entry(now)
        for table, cursor in s["done"].items():
            if views.get(table):
                adopt(cursor, views[table])
        if s["pending"]:
            answers = {cid: answer(cid) for cid in s["pending"]}
            if any(a is None for a in answers.values()):
                return []
            for cid, got in answers.items():
                assert got is not None
                item = s["pending"][cid]
                if got.get("accepted") and "payload" in item and (item["op"] != "sit" or item.get("hold")):
                    # the view must show it before more is decided (not the draw's sits, before any hand)
                    s.setdefault("expect", []).append({**item["payload"], "table": item["table"], "at": now,
                                                       **({"player": item["player"]} if "player" in item else {})})
                if item["op"] in OPS:                         # room/director/money.py: a buy, a colour-up
                    s["standings"] = _standings_json(self.money.answered(
                        item, bool(got.get("accepted")), str(got.get("reason")), _standings(s["standings"])))
                if got.get("accepted"):
                    if item["op"] == "table":
                        s["level"][item["table"]] = item["level"]
                    elif item["op"] == "sit":
                        s["carry"].pop(item["player"], None)      # seated: the carried stack is on a table
                        if item.get("entry"):                     # TRN-9: a late entrant is in the field
                            self._enter(item["player"], now)
                else:
                    reason = str(got.get("reason"))
                    if "during a hand" not in reason:       # a hand began first: tried again when it ends
                        s["refused"].append({"id": cid, **item, "reason": reason})
                        if item.get("entry"):                  # not seated, not entered: the page says why
                            s["alternates"].remove(item["player"])
                    s["plan"] = []
                    if item["op"] == "leave":                  # he is still at his table with his chips
                        s["carry"].pop(item["player"], None)
            s["pending"] = {}
        if not self._shown(views, now):
            return []
        for _ in range(20):
            if s["plan"]:
                return self._send(views)
            if not self._decide(views, now, hands):
                return []
        return []

    def _shown(self, views: Mapping[str, View], now: float) -> bool:
        """Issue 20: a table answers before its new view comes; deciding on the old view sent a second
        ``leave``, ``pause`` or ``resume`` for one intent (refused). So nothing more is decided until every
        table's view shows what it accepted; one that never does is a fault on the page after SHOWN_SECONDS."""
        s = self.state
        waiting = []
        for done in s.get("expect", []):
            if done["table"] not in views:                    # offline: its state comes when it is back
                waiting.append(done)
            elif shows(views[done["table"]], done):
                continue
            elif now - done["at"] < SHOWN_SECONDS:
                waiting.append(done)
            else:
                s["refused"].append({"op": str(done.get("type")), "table": done["table"], "player": done.get("player"),
                                     "reason": f"accepted, but its view did not show it in {SHOWN_SECONDS:.0f} s"})
        s["expect"] = waiting
        return not waiting

    def _send(self, views: Mapping[str, View]) -> list[Command]:
        """The next planned batch, each item read against the tables now; [] while one must wait."""
        s = self.state
        while s["plan"]:
            batch = s["plan"][0]
            for item in batch:
                view = views.get(item["table"]) or {}
                if item["op"] in ("leave", "sit") and item.get("hold", item["op"] == "leave") and not held(view):
                    return []             # RP-6, TDA 11: a seat changes only on a held table, between hands
            s["plan"].pop(0)
            commands = []
            for item in batch:
                payload = self._payload(item, views.get(item["table"]) or {})
                if payload is not None:
                    s["seq"] += 1
                    cid = f"{s['id']}-{s['seq']}"
                    s["pending"][cid] = {**item, "payload": payload}
                    commands.append((cid, item["table"], payload))
            if commands:
                return commands
        return []

    def _payload(self, item: dict[str, Any], view: View) -> dict[str, Any] | None:
        op, s = item["op"], self.state
        if op in OPS:
            return self.money.payload(item)
        if op == "table":
            return self.settings.table_input(item["level"])
        if op == "pause":
            if asked_to_pause(view):
                return None
            hand = item.get("after_hand", view.get("hand", 0))         # the hand it is in or last played
            return {"type": "pause", "reason": item["reason"], **({"after_hand": hand} if hand else {})}
        if op == "resume":
            round_ = {"pause_after": item["pause_after"], "reason": H4H} if "pause_after" in item else {}
            return {"type": "resume", **round_} if asked_to_pause(view) else None
        if op == "button":
            return {"type": "button", "seat": item["seat"]}
        if op == "announce":                                    # the director's (controls.py)
            return {"type": "announce", "text": item["text"]}
        if op == "sit":
            stack = s["carry"].get(item["player"], self.settings.starting_stack)
            return {"type": "sit", "seat": item["seat"], "player": item["player"], "stack": stack}
        seat = next((int(n) for n, v in view_seats(view).items() if v.get("player") == item["player"]), None)
        if seat is None:
            return None
        if op == "leave":
            s["carry"][item["player"]] = view_seats(view)[str(seat)]["stack"]
        return {"type": "leave", "seat": seat}              # "leave" (a move) or "drop" (a bust)

    # --- decisions: one at a time; True if the state changed ------------------------------------------

    def _decide(self, views: Mapping[str, View], now: float, hands: Hands) -> bool:
        s = self.state
        if s["phase"] != "running":
            return False
        live = {t: views[t] for t in s["active"] if views.get(t)}
        waiting = False
        for table, view in live.items():               # TRN-4: each table's hands, one at a time, in order
            cursor = s["done"].setdefault(table, new_cursor())
            hand = next_hand(cursor, table, view, hands)
            if "fault" in cursor:                           # a fault is never hidden (books.py)
                s["refused"].append({"op": "hand", "table": table, "reason": cursor.pop("fault")})
            if isinstance(hand, HandOver):
                self._hand_over(table, hand)
                return True
            waiting = waiting or hand == WAIT
        if waiting:
            return False                                    # a hand the room lacks: the service asks for it
        standings = _standings(s["standings"])
        if standings.remaining == 1:
            winner = next(p for p in s["players"] if all(f.player != p for f in standings.finishes))
            s["standings"] = _standings_json(standings.win(winner))
            self.money.win(winner)                          # PKO: he takes his own head
            s["phase"] = "finished"
            s["events"].append({"kind": "winner", "player": winner})
            self._drops(live)                               # the last one out leaves the table too
            return True
        if len(live) < len(s["active"]):
            return False                                    # a table not heard from yet: wait for it
        self._waiting = False                               # a move waits for a table to finish its hand
        return (self._drops(live) or round_over(self, live, now) or self._unseated(live)
                or director_moves(self, live) or unregistered_leave(self, live) or announce_to_tables(self, live)
                or self._late_entries(live, now) or self._money(live, now) or self._final_table(live)
                or self._break_table(live) or self._balance(live) or pauses(self, live, now)
                or self._levels(live, now) or self._release(live))

    def _unseated(self, live: Mapping[str, View]) -> bool:
        """A player who left a table and whose ``sit`` was refused keeps his chips here (``carry``); he is
        seated again at the emptiest table, held, in its worst position (TDA 11: never a random open seat)."""
        seated = {v["player"] for view in live.values() for v in view_seats(view).values() if v.get("player")}
        finished = {f.player for f in _standings(self.state["standings"]).finishes}
        lost = [p for p in self.state["carry"] if p not in seated and p not in finished]
        if not lost:
            return False
        table = min(live, key=lambda t: (len(present(live[t])), t))
        seat = worst_seat(live[table], self.settings.seats)
        if seat is None and not live[table].get("in_hand"):
            return False                                    # no seat he may take now: after a hand
        if not self.hold({table: live[table]}):
            return bool(self.state["plan"])
        if seat is None:
            return False
        self.state["plan"] = [[{"op": "sit", "table": table, "seat": seat, "player": lost[0], "hold": True}]]
        return True

    def _money(self, live: Mapping[str, View], now: float) -> bool:
        """Rebuys, add-ons and colour-ups at tables between hands (room/director/money.py)."""
        batch = self.money.plan(live, self.level_at(now)[0], _standings(self.state["standings"]))
        self.state["plan"] = [batch] if batch else []
        return bool(batch)

    def _late_entries(self, live: Mapping[str, View], now: float) -> bool:
        """TRN-9: the first alternate is drawn into an open seat at the emptiest table (not during a
        hand-for-hand round); when late registration has ended, those still waiting are not entered."""
        s = self.state
        alternates = s.get("alternates") or []
        if not alternates:
            return False
        free = {t: seats for t, v in live.items() if (seats := entry_seats(v, self.settings.seats))}
        if not free or s["h4h"] is not None:
            return False
        table = min(free, key=lambda t: (len(present(live[t])), t))     # the emptiest table, held
        if not self.hold({table: live[table]}):
            return bool(s["plan"])
        seats = entry_seats(live[table], self.settings.seats)           # TDA 8: never the SB nor before it
        if not seats:
            return False
        seat = self._rng().choice(seats)
        s["plan"] = [[{"op": "sit", "table": table, "seat": seat, "player": alternates[0], "entry": True,
                       "hold": True}]]
        return True

    def _close_late_entry(self, now: float) -> None:
        """TRN-9: when late registration has ended (its last level, or the bubble), the alternates still
        waiting for a seat are not entered; the page says to refund them."""
        s = self.state
        alternates = s.get("alternates") or []
        if not alternates or s["phase"] != "running":
            return
        if self._bubble():
            why = "late registration closed at the bubble"
        elif not self.settings.late_entry_open(self.level_at(now)[0]):
            why = "late registration ended"
        else:
            return
        s["events"].append({"kind": "not seated", "players": list(alternates)})
        s["refused"] += [{"op": "late registration", "table": "room", "player": p,
                          "reason": f"TRN-9: {why} before a seat opened: not entered, refund the buy-in"}
                         for p in alternates]
        s["alternates"] = []

    def _enter(self, player: str, now: float) -> None:
        """TRN-9: an entry or a re-entry (room/director/money.py: the pool, the field's payout row, his head)."""
        s = self.state
        s["alternates"].remove(player)
        again = player in s["players"]
        s["players"] += [] if again else [player]
        s["standings"] = _standings_json(self.money.enter(player, self.level_at(now)[0], _standings(s["standings"])))
        s["events"].append({"kind": "re-entry" if again else "late entry", "player": player})

    def _release(self, live: Mapping[str, View]) -> bool:
        """Resume the tables the room paused to move players, or for hand-for-hand once it is over (during
        hand-for-hand only a round resumes a table: a plain resume would let it play more than one hand)."""
        if self._waiting or self.state["h4h"] is not None:
            return False
        reasons = {MOVES, HALT, H4H}
        short = set(halted([Layout(t, self.settings.seats, present(v), 0, 0) for t, v in live.items()]))
        ours = [t for t, v in live.items() if v.get("paused") in reasons and not (v["paused"] == HALT and t in short)]
        if ours:
            self.state["plan"] = [[{"op": "resume", "table": t} for t in ours]]
        return bool(ours)

    def _hand_over(self, table: str, hand: HandOver) -> None:
        """TRN-4: the tournament's players the hand busted are out, ranked by the stacks they started it with
        (in a hand-for-hand round, when the round is over)."""
        s = self.state
        finished = {f.player for f in _standings(s["standings"]).finishes}
        busted = [p for p in hand.busted if p in s["players"] and p not in finished]
        if not busted:
            return
        s["events"] += [{"kind": "bounty", "words": w} for w in self.money.knock_out(hand, busted)]     # PKO
        stacks = {p: hand.stacks[p] for p in busted}
        h4h = s["h4h"]
        if h4h is not None and h4h["round"] is not None:
            h4h["busts"].append({"table": table, "hand": hand.number, "players": busted, "stacks": stacks})
            return
        s["standings"] = _standings_json(_standings(s["standings"]).bust(busted, stacks))
        s["events"].append({"kind": "bust", "table": table, "hand": hand.number, "players": busted,
                            "stacks": stacks})

    def _drops(self, live: Mapping[str, View]) -> bool:
        """A player out sits at 0 until the room takes him off his table, between hands (once: a refusal is
        on the page)."""
        s = self.state
        out = {f.player for f in _standings(s["standings"]).finishes} - {r.get("player") for r in s["refused"]
                                                                        if r.get("op") == "drop"}
        drops = [{"op": "drop", "table": t, "player": v["player"]} for t, view in live.items()
                 if not view.get("in_hand") for v in view_seats(view).values()
                 if v.get("player") in out and v["stack"] == 0]
        s["plan"] = [drops] if drops else []
        return bool(drops)

    def _final_table(self, live: Mapping[str, View]) -> bool:
        """When the field fits one table: everyone leaves and is redrawn to the final table (TRN-9)."""
        s, settings = self.state, self.settings
        remaining = _standings(s["standings"]).remaining
        in_round = s["h4h"] is not None and s["h4h"]["round"] is not None     # a hand-for-hand round ends first
        if len(live) < 2 or remaining > settings.seats or in_round:
            return False
        if not self.hold(live):
            return bool(self.state["plan"])
        final = settings.tables[0] if settings.tables[0] in live else next(iter(live))
        players = [v["player"] for view in live.values() for v in view_seats(view).values()
                   if v.get("player") and v["stack"] > 0]
        rng = self._rng()
        seats = rng.sample(range(1, settings.seats + 1), len(players))
        drawn = dict(zip(sorted(players), seats, strict=True))
        s["plan"] = [[{"op": "leave", "table": t, "player": v["player"]} for t, view in live.items()
                      for v in view_seats(view).values() if v.get("player")],
                     [{"op": "sit", "table": final, "seat": seat, "player": p, "hold": True}
                      for p, seat in drawn.items()],
                     [{"op": "button", "table": final, "seat": rng.choice(seats)}],
                     [{"op": "resume", "table": t} for t in live if t != final]]     # emptied: not "wait for the room"
        s["active"], s["final"], s["h4h"] = [final], True, None
        s["events"].append({"kind": "final", "table": final, "seats": drawn})
        return True

    def _break_table(self, live: Mapping[str, View]) -> bool:
        """The field fits one fewer table: the last table still running is broken, its players drawn into
        the others' open seats (TDA 7)."""
        s, settings = self.state, self.settings
        remaining = _standings(s["standings"]).remaining
        if len(live) < 3 or remaining > settings.seats * (len(live) - 1):
            return False
        broken = next(t for t in reversed(settings.tables) if t in live)
        if not self.hold(live):                   # RP-6: every table involved between hands
            return bool(self.state["plan"])
        players = [v["player"] for v in view_seats(live[broken]).values() if v.get("player") and v["stack"] > 0]
        others = {t: v for t, v in live.items() if t != broken}
        drawn = two_step_draw(players, {t: open_seats(v) for t, v in others.items()},
                              {t: len(present(v)) for t, v in others.items()}, self._rng())
        s["plan"] = [[{"op": "leave", "table": broken, "player": v["player"]}
                      for v in view_seats(live[broken]).values() if v.get("player")],
                     [{"op": "sit", "table": t, "seat": seat, "player": p, "hold": True}
                      for p, (t, seat) in sorted(drawn.items())],
                     [{"op": "resume", "table": broken}]]                # its display no longer says to wait
        s["active"] = [t for t in s["active"] if t != broken]
        s["events"].append({"kind": "break", "table": broken, "seats": {p: list(ts) for p, ts in drawn.items()}})
        return True

    def _balance(self, live: Mapping[str, View]) -> bool:
        """TRN-8 (TDA 11): one move from the fullest table to the emptiest when they differ by two. A player
        all in is still in (RP-6: nobody moves during a hand); both tables are held between hands, then the
        player due the big blind at the fullest goes to the worst position at the emptiest (seating.py)."""
        count = {t: len(present(v)) for t, v in live.items()}
        most, fewest = max(count, key=lambda t: count[t]), min(count, key=lambda t: count[t])
        if count[most] - count[fewest] < 2:
            return False
        if self._halt(live):                        # R11-D: a table 3 or more short halts at once
            return True
        player, seat = due_big_blind(live[most]), worst_seat(live[fewest], self.settings.seats)
        if (player is None or seat is None) and not live[most].get("in_hand") and not live[fewest].get("in_hand"):
            return False        # no seat a moved player may take now (TDA 8): after a hand, when the button moved
        if not self.hold({most: live[most], fewest: live[fewest]}):
            return bool(self.state["plan"])
        if player is None or seat is None:
            return False
        from_seat = next(int(n) for n, v in view_seats(live[most]).items() if v.get("player") == player)
        s = self.state
        s["plan"] = [[{"op": "leave", "table": most, "player": player}],
                     [{"op": "sit", "table": fewest, "seat": seat, "player": player, "hold": True}]]
        s["events"].append({"kind": "move", "player": player, "from": [most, from_seat], "to": [fewest, seat]})
        return True

    def _halt(self, live: Mapping[str, View]) -> bool:
        """TRN-8 (TDA 11, R11-D): a table three or more players short of the fullest halts (is paused after the
        hand it is in) until balanced."""
        short = halted([Layout(t, self.settings.seats, present(v), 0, 0) for t, v in live.items()])
        due = [t for t in short if not asked_to_pause(live[t])]
        if due:
            self.state["plan"] = [[{"op": "pause", "table": t, "reason": HALT} for t in due]]
        return bool(due)

    def hold(self, tables: Mapping[str, View]) -> bool:
        """True when every one of ``tables`` is held (paused between hands); else plan pausing those not yet
        asked, after the hand each is in (held by its journal when it ends), and False."""
        if all(held(v) for v in tables.values()):
            return True
        self._waiting = True
        self.state["plan"] = [[{"op": "pause", "table": t, "reason": MOVES}
                               for t, v in tables.items() if not asked_to_pause(v)]]
        if not self.state["plan"][0]:
            self.state["plan"] = []
        return False

    def _levels(self, live: Mapping[str, View], now: float) -> bool:
        """TRN-1: every table between hands gets the level the room's clock is in. A break pauses a table
        after the hand it is in (one already asked to pause is held by its break level too)."""
        s = self.state
        index = self.level_at(now)[0]
        is_break = self.settings.levels[index].is_break
        batch: list[dict[str, Any]] = []
        for table, view in live.items():
            if s["level"].get(table) == index or (view.get("in_hand") and not (is_break and not asked_to_pause(view))):
                continue
            if is_break:
                if not asked_to_pause(view):
                    batch.append({"op": "pause", "table": table, "reason": BREAK})
                if not view.get("in_hand"):
                    batch.append({"op": "table", "table": table, "level": index})
            else:
                batch.append({"op": "table", "table": table, "level": index})
                if view.get("paused") == BREAK and self.money.raced(table):     # TRN-6: after its race
                    batch.append({"op": "resume", "table": table})
        if batch:
            s["plan"] = [batch]
        return bool(batch)

    # --- what the room page shows ---------------------------------------------------------------------

    def level_at(self, now: float) -> tuple[int, float | None]:
        """TRN-1: the step in force at ``now`` and the seconds left in it (None: the last never ends). Step
        k starts at ``started`` plus the minutes of every step before it, so no table's clock drifts; TRN-5:
        a hand-for-hand round takes at most two minutes off it (``offset``: what the rounds took beyond)."""
        s = self.state
        started, offset = s["started"], s.get("offset", 0)
        now = clock_now(s, now, self.cap)          # paused by the director; a round's third minute is not played
        elapsed = 0.0 if started is None else max(0.0, now - started - offset)
        end = 0.0
        for index, step in enumerate(self.settings.levels):
            end += step.minutes * 60
            if elapsed < end or index == len(self.settings.levels) - 1:
                return index, None if index == len(self.settings.levels) - 1 else end - elapsed
        raise AssertionError("unreachable: a schedule has at least one step")

    def summary(self, views: Mapping[str, View], now: float) -> dict[str, Any]:
        """The clock, the field and each table, for the room page (and for tests: the state to inspect)."""
        return summary(self, views, now)


_standings, _standings_json = standings_of, standings_json

