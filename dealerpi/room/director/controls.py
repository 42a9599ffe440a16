"""The tournament director's controls on the room page (issue 20, docs/room.md "The director's controls").

Pure, as the director (:mod:`dealerpi.room.director.mtt`) is: a control is a JSON body from the host's page, applied to
the director's ``state`` (the room stores it in the same transaction as the director's commands,
store.py ``save_tournament``), so a control is kept, and a restarted room goes on from it. Each body carries
the page's ``id``: a control whose id is already in the state's ``controls`` log is answered as the first time
and not applied again (the page's retry, or the same body after a restart). A control that cannot apply
raises :class:`ControlError` with the reason, and changes nothing.

- The clock (TRN-1: one level clock for the room): ``pause`` stops it and ``resume`` goes on where it stopped
  (the time paused is added to the clock's ``offset``); ``clock`` sets the level and the time left in it;
  ``time`` adds or removes seconds of the level in force. None of them during hand-for-hand: then the clock
  runs by rounds (TRN-5, TDA RP-8; a clock paused before it is resumed between its rounds, which take
  nothing off a paused clock). The tables keep dealing while the clock is paused; they get a new level
  between hands, as with the running clock (TRN-1: the level applies from the next hand).
- ``move`` (TDA 11, RP-6): a player to the table and seat the director chooses, made only when both tables
  are held between hands; checked again then: a move that balances the tables follows TDA 11 (the player due
  the big blind, to the worst position), any other move never takes the small blind or a seat between it and
  the button (TDA 8), and no move leaves the tables two apart.
- ``unregister``: before the start, an alternate not yet seated, or a seated player before his table's first
  hand (he leaves it; the pool and its payout row are the smaller field's), with the buy-in refunded; once he
  has played, his chips stay in play (his entry is part of the pool and the payouts by field size, TRN-4).
- ``place`` (TRN-4): a finish given wrongly: the player takes the place named and its holder his, both priced
  again from the pool; ``undo`` takes the last correction back.
- ``announce``: a short text on the big screen and every table's dealer display until cleared (an empty
  text): :func:`announce_to_tables` sends it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from dealerpi.engine import Finish
from dealerpi.room.director.mtt_summary import standings_json, standings_of
from dealerpi.room.director.seating import due_big_blind, entry_seats, present, worst_seat
from dealerpi.room.director.shape import DirectorLike
from dealerpi.room.director.table_view import View, view_seats

ANNOUNCEMENT_CHARACTERS = 140
KEPT = 500                   # the controls' log: the newest kept (their ids answer a retry)


class ControlError(ValueError):
    """A control that cannot apply; the message says why (the page shows it next to the control)."""


def clock_now(state: Mapping[str, Any], now: float, cap: float) -> float:
    """The time the level clock reads at ``now``: stopped while paused; during a hand-for-hand round at most
    ``cap`` seconds after it began (TRN-5, TDA RP-8: the round's third minute is not played)."""
    if state.get("clock_paused") is not None:
        now = min(now, state["clock_paused"])
    h4h = state.get("h4h")
    if state.get("started") is not None and h4h is not None and h4h.get("since") is not None:
        now = min(now, h4h["since"] + cap)
    return now


def apply(director: DirectorLike, body: Mapping[str, Any], now: float, views: Mapping[str, View]) -> str:
    """One control; its answer (the page shows it next to the control). Applied once per ``id``."""
    cid = body.get("id")
    if not (isinstance(cid, str) and 0 < len(cid) <= 40):
        raise ControlError('a control is {"id": "1-40 characters", "op": ...}')
    log = director.state.get("controls", [])
    for done in log:
        if done["id"] == cid:
            return str(done["answer"])               # applied already: the page's retry, or after a restart
    op = body.get("op")
    handler = OPS.get(op) if isinstance(op, str) else None
    if handler is None:
        raise ControlError(f"op: one of {', '.join(OPS)}")
    record = handler(director, body, now, views)
    log = director.state.setdefault("controls", [])
    log.append({"id": cid, "op": op, "at": now, **record})
    del log[:-KEPT]
    return str(record["answer"])


# --- the clock (TRN-1) ---------------------------------------------------------------------------------

def _running(director: DirectorLike, what: str) -> dict[str, Any]:
    s = director.state
    if s["phase"] != "running":
        raise ControlError(f"{what}: the tournament is not running ({s['phase']})")
    if what == "resume" and s["h4h"] is not None and s["h4h"].get("since") is None:
        return s                 # paused before the bubble: resumed between rounds, the rounds took nothing
    if s["h4h"] is not None:
        raise ControlError(f"{what}: not during hand-for-hand: the clock runs by rounds, at most "
                           f"{director.cap} s a hand (TRN-5, TDA RP-8)")
    return s


def _clock_words(director: DirectorLike, now: float) -> str:
    index, left = director.level_at(now)
    step = director.settings.levels[index]
    what = "break" if step.is_break else f"{step.small_blind}/{step.big_blind}"
    return f"step {index + 1} ({what}), " + ("no end" if left is None else f"{_mmss(left)} left")


def _mmss(seconds: float) -> str:
    whole = max(0, round(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def _pause(director: DirectorLike, body: Mapping[str, Any], now: float, views: Mapping[str, View]) -> dict[str, Any]:
    s = _running(director, "pause")
    if s.get("clock_paused") is not None:
        raise ControlError("pause: the clock is paused already")
    answer = f"clock paused at {_clock_words(director, now)}"
    s["clock_paused"] = now
    return {"answer": answer}


def _resume(director: DirectorLike, body: Mapping[str, Any], now: float, views: Mapping[str, View]) -> dict[str, Any]:
    s = _running(director, "resume")
    if s.get("clock_paused") is None:
        raise ControlError("resume: the clock is not paused")
    s["offset"] = s.get("offset", 0) + (now - s["clock_paused"])      # the time paused is not played
    s["clock_paused"] = None
    return {"answer": f"clock running: {_clock_words(director, now)}"}


def _whole(body: Mapping[str, Any], key: str) -> int:
    value = body.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ControlError(f"{key}: a whole number, not {value!r}")
    return value


def _clock(director: DirectorLike, body: Mapping[str, Any], now: float, views: Mapping[str, View]) -> dict[str, Any]:
    """The level (``step``, 1-based over the schedule, breaks counted) and ``seconds`` left in it."""
    s = _running(director, "clock")
    levels = director.settings.levels
    step, seconds = _whole(body, "step"), _whole(body, "seconds")
    if not 1 <= step <= len(levels):
        raise ControlError(f"step: 1 to {len(levels)} (the schedule's steps, breaks counted), not {step}")
    length = levels[step - 1].minutes * 60
    if not 0 < seconds <= length:
        raise ControlError(f"seconds: 1 to {length} (step {step} is {levels[step - 1].minutes} minutes), "
                           f"not {seconds}")
    before = sum(x.minutes * 60 for x in levels[: step - 1])
    reading = clock_now(s, now, director.cap)
    s["offset"] = reading - s["started"] - (before + length - seconds)    # level_at(now) is now (step, seconds)
    return {"answer": f"clock set: {_clock_words(director, now)}"}


def _time(director: DirectorLike, body: Mapping[str, Any], now: float, views: Mapping[str, View]) -> dict[str, Any]:
    """``seconds`` more (or, negative, fewer) in the level in force; its length is the most it may show and
    at least one second stays (to go to another level: ``clock``)."""
    s = _running(director, "time")
    seconds = _whole(body, "seconds")
    index, left = director.level_at(now)
    if left is None:
        raise ControlError("time: the last level has no end (TRN-1)")
    length = director.settings.levels[index].minutes * 60
    if seconds == 0 or not 0 < left + seconds <= length:
        raise ControlError(f"time: {_mmss(left)} left of {length // 60} minutes: add at most "
                           f"{int(length - left)} s, remove at most {max(0, round(left) - 1)} s "
                           "(another level: set the clock)")
    s["offset"] = s.get("offset", 0) + seconds
    return {"answer": f"{'added' if seconds > 0 else 'removed'} {abs(seconds)} s: {_clock_words(director, now)}"}


# --- the announcement ------------------------------------------------------------------------------------

def _announce(director: DirectorLike, body: Mapping[str, Any], now: float, views: Mapping[str, View]) -> dict[str, Any]:
    text = body.get("text")
    if not isinstance(text, str) or len(text.strip()) > ANNOUNCEMENT_CHARACTERS or not text.isprintable():
        raise ControlError(f"text: at most {ANNOUNCEMENT_CHARACTERS} printable characters (empty: clear it)")
    director.state["announcement"] = text.strip() or None
    return {"answer": f"announced: {text.strip()}" if text.strip() else "announcement cleared"}


def announce_to_tables(director: DirectorLike, live: Mapping[str, View]) -> bool:
    """The announcement to every table in play whose view does not show it: sent once, and again only when
    a table that showed it no longer does (its daemon restarted: the announcement is display only, not
    journaled there). A table that refused it is not asked again for the same text (the refusal is on the
    page). True if planned."""
    s = director.state
    wanted = s.get("announcement") or ""
    sent = s.setdefault("announced", {})
    due = []
    for table, view in live.items():
        if (view.get("announcement") or "") == wanted:
            sent[table] = {"text": wanted, "seen": True}
        elif table not in sent and not wanted:
            continue                                    # never told anything: nothing to clear
        elif sent.get(table, {}).get("text") != wanted or sent[table]["seen"]:
            sent[table] = {"text": wanted, "seen": False}
            due.append({"op": "announce", "table": table, "text": wanted})
    if due:
        s["plan"] = [due]
    return bool(due)


# --- players -------------------------------------------------------------------------------------------

def _name(body: Mapping[str, Any]) -> str:
    player = body.get("player")
    if not isinstance(player, str) or not player.strip():
        raise ControlError("player: a registered player's name")
    return player.strip()


def _unregister(director: DirectorLike, body: Mapping[str, Any], now: float,
                views: Mapping[str, View]) -> dict[str, Any]:
    s, player = director.state, _name(body)
    refund = f"{player} unregistered: refund the buy-in, {director.settings.buy_in}"
    if s["phase"] == "registering" and player in s["players"]:
        s["players"].remove(player)
        return {"answer": refund}
    if player in s.get("alternates", []):
        s["alternates"].remove(player)            # not seated: never entered (TRN-9)
        return {"answer": refund}
    if player not in s["players"]:
        raise ControlError(f"{player} is not registered")
    if s["phase"] != "running":
        raise ControlError(f"unregister: the tournament is {s['phase']}")
    where = _seat_of(views, s["active"], player)
    if where is None:
        raise ControlError(f"{player}'s table is not online: his seat is not known (try again when it is)")
    standings = standings_of(s["standings"])
    if views[where[0]].get("hand") or views[where[0]].get("in_hand") or standings.finishes:
        raise ControlError(f"{player} has played: his chips stay in play and his buy-in in the pool (TRN-9: a "
                           "player is entered when seated; TRN-4: the payouts count him); no refund. Before "
                           "his table's first hand he may be unregistered")
    paid = len(director.settings.percents(len(s["players"]) - 1))
    if len(s["players"]) - 1 < max(2, paid):
        raise ControlError(f"unregister: {len(s['players']) - 1} players would be left for {paid} places paid "
                           "(TRN-4)")
    s["players"].remove(player)                   # TRN-4: the field, the pool and its payout row without him
    field = director.money.unregister(player, standings)    # his entry, pool part and head (room/director/money.py)
    s["standings"] = standings_json(field.with_percents(director.settings.percents(len(s["players"]))))
    s.setdefault("leaving", []).append({"player": player, "table": where[0]})
    return {"answer": f"{refund}; he leaves {where[0]} seat {where[1]} before its first hand"}


def unregistered_leave(director: DirectorLike, live: Mapping[str, View]) -> bool:
    """A player unregistered after the draw, before his table's first hand, leaves it (held: no START slips
    in), his chips with him (a ``drop``: no stack carried). True if planned."""
    s = director.state
    if not s.get("leaving"):
        return False
    table = s["leaving"][0]["table"]
    if table not in live:
        return False
    if not director.hold({table: live[table]}):
        return bool(s["plan"])
    gone = s["leaving"].pop(0)
    s["plan"] = [[{"op": "drop", "table": table, "player": gone["player"]}]]
    s["events"].append({"kind": "unregistered", "player": gone["player"], "table": table})
    return True


def _seat_of(views: Mapping[str, View], tables: list[str], player: str) -> tuple[str, int] | None:
    return next(((t, int(n)) for t in tables for n, v in view_seats(views.get(t) or {}).items()
                 if v.get("player") == player), None)


def _move(director: DirectorLike, body: Mapping[str, Any], now: float, views: Mapping[str, View]) -> dict[str, Any]:
    """Checked now against what the tables show; made when both are held (:func:`director_moves`)."""
    s, player = director.state, _name(body)
    if s["phase"] != "running":
        raise ControlError(f"move: the tournament is not running ({s['phase']})")
    table, seat = body.get("table"), _whole(body, "seat")
    if not isinstance(table, str) or table not in s["active"]:
        raise ControlError(f"table: one of the tables in play: {', '.join(s['active'])}")
    if not 1 <= seat <= director.settings.seats:
        raise ControlError(f"seat: 1 to {director.settings.seats}, not {seat}")
    if any(m["player"] == player for m in s.get("moves", [])):
        raise ControlError(f"{player} is to be moved already: wait for it")
    if player in {f.player for f in standings_of(s["standings"]).finishes}:
        raise ControlError(f"{player} is out of the tournament")
    where = _seat_of(views, s["active"], player)
    if where is None:
        raise ControlError(f"{player} is not seated at a table in play")
    if table not in views:
        raise ControlError(f"{table} is offline: its seats are not known")
    reason = _refusal(director, views, player, where, (table, seat), held=False)
    if reason:
        raise ControlError(reason)
    s.setdefault("moves", []).append({"id": body["id"], "player": player, "from": list(where), "to": [table, seat]})
    return {"answer": f"{player}: {where[0]} seat {where[1]} to {table} seat {seat} when both tables are "
                      "between hands (RP-6)"}


def _refusal(director: DirectorLike, views: Mapping[str, View], player: str, source: tuple[str, int],
             target: tuple[str, int], held: bool) -> str | None:
    """Why ``player`` cannot move from ``source`` to ``target`` (None: he can). ``held``: the tables are held
    between hands and their next hands planned, so the seats TDA 8 and TDA 11 name are known."""
    (src, _), (dst, seat) = source, target
    occupant = view_seats(views[dst]).get(str(seat), {}).get("player")
    if occupant == player:
        return f"{player} sits at {dst} seat {seat} already"
    if occupant:
        return f"{dst} seat {seat} is taken by {occupant}"
    if src == dst:
        return (f"{player} sits at {dst} already: a seat change at one table is the table's own (its console's "
                "move input)")
    before = {t: len(present(v)) for t, v in views.items() if t in director.state["active"]}
    after = {**before, src: before[src] - 1, dst: before[dst] + 1}
    spread = max(after.values()) - min(after.values())
    if spread >= 2 and spread > max(before.values()) - min(before.values()):
        return (f"TDA 11: the tables would be {', '.join(f'{t} {n}' for t, n in sorted(after.items()))}: "
                "more than one apart")
    if not held:
        return None
    if before[src] - before[dst] >= 2:                      # a balancing move: TDA 11 says who and where
        due, worst = due_big_blind(views[src]), worst_seat(views[dst], director.settings.seats)
        if due != player:
            return f"TDA 11: the player due the big blind moves to balance: {due}, not {player}"
        if worst != seat:
            return f"TDA 11: the balancing move goes to the worst position: {dst} seat {worst}, not {seat}"
    elif seat not in entry_seats(views[dst], director.settings.seats):
        return f"TDA 8: {dst} seat {seat} is the small blind or between it and the button"
    return None


def director_moves(director: DirectorLike, live: Mapping[str, View]) -> bool:
    """The first move the director asked for: both tables held (paused after their hands), checked again,
    then ``leave`` and ``sit`` (the moved stack read when it can no longer change). True if planned or
    settled."""
    s = director.state
    if not s.get("moves"):
        return False
    move = s["moves"][0]
    src, dst = move["from"][0], move["to"][0]
    if src not in live or dst not in live:
        return False                                         # offline: when it is back
    tables = {src: live[src], dst: live[dst]}
    if not director.hold(tables):
        return bool(s["plan"])
    s["moves"].pop(0)
    where = _seat_of(live, [src], move["player"])
    reason = "no longer seated there" if where is None else \
        _refusal(director, live, move["player"], where, (dst, move["to"][1]), held=True)
    _settle(s, move["id"], reason)
    if reason is not None:
        s["refused"].append({"op": "move", "table": dst, "player": move["player"], "reason": reason})
        return True
    assert where is not None
    s["plan"] = [[{"op": "leave", "table": src, "player": move["player"]}],
                 [{"op": "sit", "table": dst, "seat": move["to"][1], "player": move["player"], "hold": True}]]
    s["events"].append({"kind": "move", "player": move["player"], "from": list(where), "to": move["to"],
                        "by": "director"})
    return True


def _settle(state: dict[str, Any], cid: str, reason: str | None) -> None:
    for done in state.get("controls", []):
        if done["id"] == cid:
            done["result"] = "moved" if reason is None else f"refused: {reason}"


# --- places (TRN-4) ------------------------------------------------------------------------------------

def _place(director: DirectorLike, body: Mapping[str, Any], now: float, views: Mapping[str, View]) -> dict[str, Any]:
    s, player = director.state, _name(body)
    place = _whole(body, "place")
    if s["standings"] is None:
        raise ControlError("place: nobody has finished yet")
    standings = standings_of(s["standings"])
    mine = next((f for f in standings.finishes if f.player == player), None)
    if mine is None:
        raise ControlError(f"{player} has no place: he is still in")
    holders = [f for f in standings.finishes if f.place == place]
    if mine.place == place:
        raise ControlError(f"{player} is {place} already")
    if not holders:
        raise ControlError(f"place {place} is not given: the places given are "
                           f"{', '.join(str(p) for p in sorted({f.place for f in standings.finishes}))}")
    if len(holders) > 1 or sum(f.place == mine.place for f in standings.finishes) > 1:
        raise ControlError("a shared place (TRN-4, RP-8-A) is corrected one player at a time: not this one")
    other = holders[0].player
    _swap(s, player, other)
    return {"answer": f"{player} {place}, {other} {mine.place}: {_prizes(s, (player, other))}",
            "swap": [player, other]}


def _swap(state: dict[str, Any], one: str, two: str) -> None:
    standings = standings_of(state["standings"])
    places = {f.player: f.place for f in standings.finishes}
    places[one], places[two] = places[two], places[one]
    fixed = standings.priced(tuple(Finish(f.player, places[f.player], 0) for f in standings.finishes))
    state["standings"] = {**state["standings"], "finishes": [[f.player, f.place, f.prize] for f in fixed.finishes]}


def _prizes(state: dict[str, Any], players: tuple[str, ...]) -> str:
    prize = {p: prize for p, _place, prize in state["standings"]["finishes"]}
    return ", ".join(f"{p} wins {prize[p]}" for p in players)


def _undo(director: DirectorLike, body: Mapping[str, Any], now: float, views: Mapping[str, View]) -> dict[str, Any]:
    """The last place correction not yet undone, taken back."""
    s = director.state
    last = next((c for c in reversed(s.get("controls", [])) if c["op"] == "place" and not c.get("undone")), None)
    if last is None:
        raise ControlError("undo: no place correction to take back")
    one, two = last["swap"]
    _swap(s, one, two)
    last["undone"] = True
    return {"answer": f"undone: {last['answer'].split(':')[0]}; now {_prizes(s, (one, two))}"}


Handler = Callable[[DirectorLike, Mapping[str, Any], float, Mapping[str, View]], dict[str, Any]]
OPS: dict[str, Handler] = {"pause": _pause, "resume": _resume, "clock": _clock, "time": _time,
                           "announce": _announce, "move": _move, "unregister": _unregister, "place": _place,
                           "undo": _undo}


# --- what the room page shows of them --------------------------------------------------------------------

def _step_words(director: DirectorLike, index: int) -> str:
    levels = director.settings.levels
    step = levels[index]
    if step.is_break:
        return "Break"
    number = sum(1 for x in levels[: index + 1] if not x.is_break)
    antes = (f" ante {step.ante}" if step.ante else "") + (f" bb ante {step.bb_ante}" if step.bb_ante else "")
    return f"Level {number} · {step.small_blind}/{step.big_blind}{antes}"


def shown(director: DirectorLike, now: float) -> dict[str, Any]:
    """The page's part: the clock's state, the next level, the time to the next break (TRN-1), the
    announcement, the winner, the schedule's steps (for ``clock``) and the last controls with their answers."""
    s, levels = director.state, director.settings.levels
    index, left = director.level_at(now)
    break_in: float | None = None
    if not levels[index].is_break and left is not None:
        ahead = next((k for k in range(index + 1, len(levels)) if levels[k].is_break), None)
        if ahead is not None:
            break_in = left + sum(x.minutes * 60 for x in levels[index + 1: ahead])
    finishes = (s.get("standings") or {}).get("finishes", [])
    return {"clock_paused": s.get("clock_paused") is not None, "announcement": s.get("announcement"),
            "next": _step_words(director, index + 1) if index + 1 < len(levels) else None,
            "break_in": None if break_in is None else int(break_in),
            "winner": next((p for p, place, _prize in finishes if place == 1), None),
            "steps": [_step_words(director, k) for k in range(len(levels))],
            "moves": [f"{m['player']}: {m['from'][0]} seat {m['from'][1]} to {m['to'][0]} seat {m['to'][1]}, "
                      "when both tables are between hands" for m in s.get("moves", [])],
            "controls": [{"op": c["op"], "answer": c["answer"], "result": c.get("result"),
                          "undone": bool(c.get("undone"))} for c in s.get("controls", [])[-8:]]}
