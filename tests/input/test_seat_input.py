"""The seat panel's amount entry and the dealer console (dealerpi/input), with injected time.

The design is docs/seat-panel.md. Amounts: half pot and pot follow the pot-limit formula of BET-8
(rules-digest.md: pot 100, a bet of 50 -> the maximum is a raise to 250).
"""

from __future__ import annotations

from dealerpi.config import InputTiming
from dealerpi.engine import Act, Card, Muck, Show, Start, Structure, Undo, Waiting
from dealerpi.input import DealerConsole, Key, Mode, Preset, SeatPanel, presets
from dealerpi.views.model import SeatView

TIMING = InputTiming(debounce_ms=30, long_press_ms=600, repeat_ms=150, fold_guard_ms=3000)

# Ann in the big blind (3) faces a raise to 12: pot 19 (1 + 3 + 12 + 3 limpers), to call 9, raise 21..283
FACING = SeatView(seat=3, player="Ann", stack=280, status="in", pot=19, bet=3, to_call=9, min_raise_to=21,
                  max_raise_to=283, your_action=True, blinds=(1, 3))
# Carmen first to act on the flop: pot 60, may check, bet 3..1140 (her stack)
OPENING = SeatView(seat=5, player="Carmen", stack=1140, status="in", pot=60, can_check=True, min_raise_to=3,
                   max_raise_to=1140, your_action=True, blinds=(1, 3))


def panel(view: SeatView, unit: int = 1) -> SeatPanel:
    p = SeatPanel(view.seat, TIMING, unit)
    p.set_view(view)
    return p


def tap(p: SeatPanel, key: Key, t: float) -> list[Act | Show | Muck]:
    return p.press(key, t) + p.release(key, t + 0.1)


def test_presets_facing_a_raise() -> None:
    # half pot: 12 + (19 + 9) // 2 = 26; pot: 12 + 28 = 40 (BET-8); all-in: 3 + 280 = 283
    assert presets(FACING) == [Preset(21, "MIN"), Preset(26, "1/2 POT"), Preset(40, "POT"), Preset(283, "ALL-IN")]


def test_presets_pot_limit_example_of_bet_8() -> None:
    """BET-8: pot 100, a bet of 50 -> the maximum is a raise to 250, which is the POT size."""
    view = SeatView(seat=1, player="P", stack=1000, status="in", pot=150, to_call=50, min_raise_to=100,
                    max_raise_to=250, your_action=True)
    assert presets(view) == [Preset(100, "MIN"), Preset(150, "1/2 POT"), Preset(250, "POT")]


def test_presets_collapse_when_short() -> None:
    short = SeatView(seat=2, player="S", stack=30, status="in", pot=19, bet=3, to_call=9, min_raise_to=21,
                     max_raise_to=33, your_action=True)
    assert presets(short) == [Preset(21, "MIN"), Preset(26, "1/2 POT"), Preset(33, "ALL-IN")]


def test_presets_fixed_limit_bet_5_one_size_no_pot_names() -> None:
    """BET-5, issue 14 (no-limit words in limit): fixed-limit 10/20 on the turn, facing a bet of 20 with 500
    behind: the one raise is to 40, with no MIN / 1/2 POT / POT / ALL-IN name; BET-7: all-in for less (a
    stack of 15 facing nothing: a bet of 15) is the one size and reads ALL-IN."""
    limit = SeatView(seat=1, player="P", stack=500, status="in", pot=80, to_call=20, min_raise_to=40,
                     max_raise_to=40, your_action=True, structure=Structure.FIXED_LIMIT)
    assert presets(limit) == [Preset(40, "")]
    short = SeatView(seat=1, player="P", stack=15, status="in", pot=80, can_check=True, min_raise_to=15,
                     max_raise_to=15, your_action=True, structure=Structure.FIXED_LIMIT)
    assert presets(short) == [Preset(15, "ALL-IN")]


def test_bet_opens_entry_at_min_and_taps_step_through_presets() -> None:
    p = panel(FACING)
    assert tap(p, Key.BET, 0.0) == []           # opens at the minimum; its release does not step
    assert (p.mode, p.amount) == (Mode.ENTRY, 21)
    shown = p.overlay(FACING)
    assert (shown.entry, shown.entry_label) == (21, "MIN")
    amounts = []
    for k in range(5):
        assert tap(p, Key.BET, 1.0 + k) == []
        amounts.append((p.amount, p.overlay(FACING).entry_label))
    assert amounts == [(26, "1/2 POT"), (40, "POT"), (283, "ALL-IN"), (21, "MIN"), (26, "1/2 POT")]


def test_holding_bet_confirms_the_amount_as_a_raise() -> None:
    p = panel(FACING)
    tap(p, Key.BET, 0.0)
    tap(p, Key.BET, 1.0)                        # 1/2 POT = 26
    assert p.press(Key.BET, 2.0) == []
    assert p.next_deadline() == 2.6
    assert p.tick(2.59) == []
    assert p.tick(2.6) == [Act(3, "raise", 26)]
    assert p.release(Key.BET, 3.0) == []        # the release after the confirm does nothing
    assert p.mode is Mode.IDLE


def test_the_press_that_opens_entry_never_confirms() -> None:
    p = panel(FACING)
    p.press(Key.BET, 0.0)
    assert p.tick(5.0) == []                    # held a long time: still entering
    assert p.mode is Mode.ENTRY and p.amount == 21


def test_confirming_the_whole_stack_is_all_in_and_an_opening_bet_is_a_bet() -> None:
    p = panel(OPENING)
    tap(p, Key.BET, 0.0)
    assert p.amount == 3
    p.press(Key.BET, 1.0)
    assert p.tick(1.6) == [Act(5, "bet", 3)]
    tap(p, Key.BET, 2.0)
    for k in range(3):                          # 1/2 POT 30, POT 60, ALL-IN 1140
        tap(p, Key.BET, 3.0 + k)
    assert p.amount == 1140
    p.press(Key.BET, 7.0)
    assert p.tick(7.6) == [Act(5, "all_in")]


def test_call_and_fold_fine_adjust_with_repeat_and_acceleration() -> None:
    p = panel(OPENING, unit=1)
    tap(p, Key.BET, 0.0)
    tap(p, Key.CALL, 1.0)
    tap(p, Key.CALL, 2.0)
    assert p.amount == 5
    tap(p, Key.FOLD, 3.0)
    assert p.amount == 4
    p.press(Key.CALL, 4.0)                      # hold: +1 now, repeats from 4.6 every 0.15 s
    assert p.amount == 5
    p.tick(4.6)                                 # repeat 1
    assert p.amount == 6
    for k in range(2, 11):                      # repeats 2..8 at one step, 9 and 10 at five (FAST_AFTER = 8)
        p.tick(4.6 + 0.15 * (k - 1) + 1e-9)
    assert p.amount == 6 + 7 + 2 * 5
    p.release(Key.CALL, 6.0)
    assert p.tick(7.0) == [] and p.amount == 23


def test_fold_at_the_minimum_cancels_entry_but_a_held_fold_stops_there() -> None:
    p = panel(FACING)
    tap(p, Key.BET, 0.0)
    tap(p, Key.CALL, 1.0)                       # 22
    p.press(Key.FOLD, 2.0)                      # 21
    p.tick(2.6)
    p.tick(2.75)                                # repeats stop at the minimum, still entering
    p.release(Key.FOLD, 3.0)
    assert (p.mode, p.amount) == (Mode.ENTRY, 21)
    assert tap(p, Key.FOLD, 4.0) == []          # a fresh FOLD at the minimum: cancel, nothing bet
    assert p.mode is Mode.IDLE
    assert p.overlay(FACING).entry is None


def test_amounts_stay_within_the_raise_range() -> None:
    p = panel(FACING, unit=100)
    tap(p, Key.BET, 0.0)
    tap(p, Key.CALL, 1.0)
    tap(p, Key.CALL, 2.0)
    tap(p, Key.CALL, 3.0)
    assert p.amount == 283


def test_call_check_and_fold_when_not_entering() -> None:
    assert tap(panel(FACING), Key.CALL, 0.0) == [Act(3, "call")]
    assert tap(panel(FACING), Key.FOLD, 0.0) == [Act(3, "fold")]
    assert tap(panel(OPENING), Key.CALL, 0.0) == [Act(5, "check")]
    short = SeatView(seat=2, player="S", stack=5, status="in", pot=19, to_call=9, your_action=True)
    assert tap(panel(short), Key.CALL, 0.0) == [Act(2, "all_in")]


def test_fold_when_check_is_free_asks_first() -> None:
    p = panel(OPENING)
    assert tap(p, Key.FOLD, 0.0) == []
    assert p.overlay(OPENING).notice == "FOLD again = fold"
    assert tap(p, Key.FOLD, 1.0) == [Act(5, "fold")]
    p = panel(OPENING)
    tap(p, Key.FOLD, 0.0)
    assert tap(p, Key.CALL, 1.0) == [Act(5, "check")]
    p = panel(OPENING)
    tap(p, Key.FOLD, 0.0)
    assert p.next_deadline() == 3.0
    p.tick(3.0)
    assert p.mode is Mode.IDLE and p.overlay(OPENING).notice is None


def test_out_of_turn_fold_goes_to_the_engine_bet_only_shows_a_notice() -> None:
    """BET-12: the engine detects the out-of-turn action and alerts the dealer; BET has no amount yet."""
    waiting = SeatView(seat=4, player="D", stack=97, status="in", pot=47, to_call=12, blinds=(1, 3))
    p = panel(waiting)
    assert tap(p, Key.FOLD, 0.0) == [Act(4, "fold")]
    assert tap(p, Key.BET, 1.0) == []
    assert p.overlay(waiting).notice == "not your turn"
    p.tick(3.0)
    assert p.overlay(waiting).notice is None
    folded = SeatView(seat=4, player="D", stack=97, status="folded", pot=47)
    assert tap(panel(folded), Key.FOLD, 0.0) == []


def test_entry_ends_when_the_action_moves_on() -> None:
    p = panel(FACING)
    tap(p, Key.BET, 0.0)
    tap(p, Key.BET, 1.0)
    p.set_view(SeatView(seat=3, player="Ann", stack=280, status="in", pot=31, bet=3, to_call=9))
    assert p.mode is Mode.IDLE


def test_no_raise_possible() -> None:
    only_call = SeatView(seat=3, player="Ann", stack=280, status="in", pot=600, to_call=290,
                         your_action=True)
    p = panel(only_call)
    assert tap(p, Key.BET, 0.0) == []
    assert p.mode is Mode.IDLE and p.overlay(only_call).notice == "no raise: CALL/FOLD"


def test_showdown_call_shows_fold_mucks() -> None:
    """POT-5/POT-7: at the showdown the table waits for each live seat to table or muck its hand."""
    view = SeatView(seat=6, player="E", stack=40, status="in", pot=230)
    p = panel(view)
    p.showdown = True
    assert p.overlay(view).notice == "CALL=show FOLD=muck"
    assert tap(p, Key.CALL, 0.0) == [Show(6)]
    assert tap(p, Key.FOLD, 1.0) == [Muck(6)]


def test_console_start_and_confirmed_irregularities() -> None:
    """EXP: the dealer declares the exposed card (the shoe cannot see faces); MISDEAL and UNDO confirm."""
    c = DealerConsole()
    c.set_state(Waiting.START, None)
    assert c.press("start", 0.0).inputs == [Start()]
    c.set_state(Waiting.CARD, "Ah")
    result = c.press("start", 1.0)
    assert result.inputs == [] and result.next_page
    assert c.press("exposed", 2.0).inputs == []
    assert c.confirm_lines(2.0)[0] == "EXPOSED? 5s left"
    assert c.press("confirm", 3.0).inputs == [Card("exposed", "Ah")]
    c.press("misdeal", 4.0)
    c.tick(9.5)                                 # not confirmed within 5 s: dropped
    assert c.press("confirm", 9.6).inputs == []
    c.press("undo", 10.0, {"type": "card", "card": "Ah"})
    c.press("start", 10.5)                      # another button cancels
    assert c.press("confirm", 11.0).clear_alerts
    c.press("undo", 12.0, {"type": "card", "card": "Ah"})
    assert c.press("confirm", 12.5).inputs == [Undo()]


def test_console_a_pending_confirmation_says_what_confirm_does_and_the_seconds_left() -> None:
    """Issue 14: a pending UNDO shows what CONFIRM will do and counts down (5 s: "5s left" at once, "1s left"
    in its last second); the words never name a card (the last card read may be a hole card)."""
    c = DealerConsole()
    c.set_state(Waiting.ACTION, "Ah")
    c.press("undo", 10.0, {"type": "act", "seat": 3, "action": "raise", "to": 12})
    assert c.confirm_lines(10.0) == ("UNDO? 5s left", "CONFIRM: take back seat 3's raise to 12",
                                     "any other button: cancel")
    assert c.confirm_lines(14.2)[0] == "UNDO? 1s left"
    assert c.next_deadline() == 11.0            # the count changes each second: the daemon redraws then
    c.press("undo", 20.0, {"type": "card", "card": "Ah"})
    assert c.confirm_lines(20.0)[1] == "CONFIRM: take back the last card read"
    c.press("exposed", 21.0)
    assert all("Ah" not in line for line in c.confirm_lines(21.0))
    c.press("start", 22.0)                      # another button cancels, and says so
    assert c.confirm_lines(22.0) == () and c.notice_now(22.0) == "exposed cancelled: nothing changed"


def test_console_a_lapsed_confirmation_says_nothing_changed() -> None:
    """Issue 14: the timeout used to pass silently. 5 s after MISDEAL without CONFIRM the screen says
    "misdeal not confirmed: nothing changed" for 4 s, then goes back to what the table expects."""
    c = DealerConsole()
    c.set_state(Waiting.CARD, "Ah")
    c.press("misdeal", 0.0)
    c.tick(5.1)
    assert c.pending is None and c.confirm_lines(5.1) == ()
    assert c.notice_now(5.1) == "misdeal not confirmed: nothing changed"
    assert c.press("confirm", 5.2).inputs == []
    c.tick(9.2)
    assert c.notice_now(9.2) is None
    c.press("undo", 10.0, None)
    assert c.pending is None and c.notice_now(10.0) == "UNDO: nothing to undo"
