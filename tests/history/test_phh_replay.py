"""Replaying PHH records through the engine (dealerpi.history.replay). Every expected stack is worked out by
hand in the test's docstring or comments; the hands are small texts written here, not the shared corpus."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest

import dealerpi
from dealerpi.history import phh
from dealerpi.history.replay import KNOWN_DATA_ERRORS, ReplayResult, Status, replay

EXAMPLES = Path(dealerpi.__file__).parent / "examples" / "hands"


def play(text: str, source: str = "t.phh") -> ReplayResult:
    return replay(phh.loads(text, source))


def nt3(actions: list[str], finishing: str | None = "[99, 98, 103]", *, stacks: str = "[100, 100, 100]",
        blinds: str = "[1, 2, 0]", antes: str = "[0, 0, 0]") -> str:
    """A 3-player no-limit hold'em record, blinds 1/2."""
    lines = [f"variant = 'NT'\nantes = {antes}\nblinds_or_straddles = {blinds}\nmin_bet = 2",
             f"starting_stacks = {stacks}", f"actions = {actions!r}"]
    if finishing is not None:
        lines.append(f"finishing_stacks = {finishing}")
    return "\n".join(lines) + "\n"


DEAL3 = ["d dh p1 AsAd", "d dh p2 7c2d", "d dh p3 8h3s"]
# p3 raises to 6, both blinds fold: the uncalled 4 goes back (POT-2) and p3 wins the blinds 1 + 2 (POT-8).
FOLD_OUT = [*DEAL3, "p3 cbr 6", "p1 f", "p2 f"]
# p1 folds his small blind; p2 (9c8d) and p3 (9d8s) check down and both hold the 5-9 straight on
# 5h 6c 7s Kd 2h. Pot 1 + 2 + 2 = 5: p2 gets the odd chip, first clockwise from the button p3 (POT-3):
# p1 99, p2 100 - 2 + 3 = 101, p3 100 - 2 + 2 = 100.
SPLIT = ["d dh p1 2c3d", "d dh p2 9c8d", "d dh p3 9d8s", "p3 cc", "p1 f", "p2 cc", "d db 5h6c7s", "p2 cc",
         "p3 cc", "d db Kd", "p2 cc", "p3 cc", "d db 2h", "p2 cc", "p3 cc"]
SHOWS = ["p2 sm 9c8d", "p3 sm 9d8s"]


def test_fold_out_matches_the_recorded_stacks_pot_8() -> None:
    result = play(nt3(FOLD_OUT))
    assert (result.status, result.finishing_stacks, result.reason) == (Status.MATCH, (99, 98, 103), "")
    assert result.recorded == (99, 98, 103)


def test_wrong_recorded_stacks_are_a_mismatch_naming_each_player() -> None:
    result = play(nt3(FOLD_OUT, "[100, 98, 102]"))
    assert result.status is Status.MISMATCH
    assert result.reason == "final stacks differ: p1 99 (recorded 100), p3 103 (recorded 102)"
    assert result.finishing_stacks == (99, 98, 103)


def test_no_finishing_stacks_is_no_result_with_our_stacks() -> None:
    result = play(nt3(FOLD_OUT, None))
    assert (result.status, result.finishing_stacks) == (Status.NO_RESULT, (99, 98, 103))
    assert result.reason == "the record has no finishing_stacks"


def test_heads_up_blinds_are_swapped_the_button_posts_the_small_blind_bld_4() -> None:
    """PHH writes [SB, BB] but p1 is the big blind: p2 (button, SB 1) completes, p1 checks, all check down;
    p1's aces win p2's 2: p1 102, p2 98."""
    text = ("variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
            "starting_stacks = [100, 100]\nactions = ['d dh p1 AsAd', 'd dh p2 7c2d', 'p2 cc', 'p1 cc', "
            "'d db Kc9d4h', 'p1 cc', 'p2 cc', 'd db 5s', 'p1 cc', 'p2 cc', 'd db Jc', 'p1 cc', 'p2 cc', "
            "'p1 sm AsAd', 'p2 sm 7c2d']\nfinishing_stacks = [102, 98]\n")
    result = play(text)
    assert (result.status, result.finishing_stacks) == (Status.MATCH, (102, 98))


def test_heads_up_antes_are_swapped_like_the_blinds() -> None:
    """PHH antes [0, 5] heads-up: the big blind p1 antes 5. p2 (button) folds his small blind 1:
    p1 100 - 2 - 5 + (2 + 5 + 1) = 101, p2 99."""
    text = ("variant = 'NT'\nantes = [0, 5]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
            "starting_stacks = [100, 100]\nactions = ['d dh p1 AsAd', 'd dh p2 7c2d', 'p2 f']\n"
            "finishing_stacks = [101, 99]\n")
    assert play(text).status is Status.MATCH


def test_fractional_stakes_are_scaled_to_integers_and_back() -> None:
    """$0.10/$0.25: p3 raises to 0.75, p1 folds, p2 calls; p2 bets 1.00 on the flop, p3 folds, the 1.00 comes
    back: p1 4.90, p2 5 - 0.75 + (0.10 + 0.75 + 0.75) = 5.85, p3 4.25."""
    text = ("variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [0.10, 0.25, 0]\nmin_bet = 0.25\n"
            "starting_stacks = [5, 5, 5]\nactions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', "
            "'p3 cbr 0.75', 'p1 f', 'p2 cc', 'd db 2c7d9s', 'p2 cbr 1.00', 'p3 f']\n"
            "finishing_stacks = [4.90, 5.85, 4.25]\n")
    result = play(text)
    assert result.status is Status.MATCH
    assert result.finishing_stacks == (Decimal("4.90"), Decimal("5.85"), Decimal("4.25"))


def test_the_scale_is_the_finest_amount_of_the_hand() -> None:
    """Blinds 0.5/1 and a stack of 10.25: the unit is 0.01. p3 raises to 3, both fold: p1 9.75, p2 19,
    p3 30 + 0.5 + 1 = 31.5."""
    text = nt3(["d dh p1 AsAd", "d dh p2 7c2d", "d dh p3 8h3s", "p3 cbr 3", "p1 f", "p2 f"],
               "[9.75, 19, 31.5]", stacks="[10.25, 20, 30]", blinds="[0.5, 1, 0]")
    assert play(text.replace("min_bet = 2", "min_bet = 1")).status is Status.MATCH


def test_split_pot_odd_chip_goes_clockwise_from_the_button_pot_3() -> None:
    result = play(nt3(SPLIT + SHOWS, "[99, 101, 100]"))
    assert (result.status, result.finishing_stacks) == (Status.MATCH, (99, 101, 100))


def test_odd_chip_to_the_wrong_player_is_a_mismatch_pot_3() -> None:
    result = play(nt3(SPLIT + SHOWS, "[99, 100, 101]"))
    assert result.status is Status.MISMATCH
    assert result.reason == "final stacks differ: p2 101 (recorded 100), p3 100 (recorded 101)"


def test_a_recorded_half_chip_is_accepted_within_half_a_chip() -> None:
    assert play(nt3(SPLIT + SHOWS, "[99, 100.5, 100.5]")).status is Status.MATCH


def test_half_chips_that_do_not_add_up_are_a_mismatch() -> None:
    result = play(nt3(SPLIT + SHOWS, "[99, 100.5, 100]"))
    assert result.status is Status.MISMATCH
    assert result.reason == "the recorded stacks add up to 299.5, ours to 300"


def test_unknown_cards_of_a_folded_hand_do_not_matter() -> None:
    actions = ["d dh p1 AsAd", "d dh p2 ????", "d dh p3 8h3s", "p3 cbr 6", "p1 f", "p2 f"]
    assert play(nt3(actions)).status is Status.MATCH


def test_unknown_cards_shown_with_cards_at_the_showdown_are_used() -> None:
    actions = ["d dh p1 2c3d", "d dh p2 ????", "d dh p3 ????", *SPLIT[3:], *SHOWS]
    result = play(nt3(actions, "[99, 101, 100]"))
    assert (result.status, result.finishing_stacks) == (Status.MATCH, (99, 101, 100))


def test_a_showdown_of_unknown_cards_has_no_result() -> None:
    actions = ["d dh p1 2c3d", "d dh p2 9c8d", "d dh p3 ????", *SPLIT[3:], "p2 sm 9c8d", "p3 sm ????"]
    result = play(nt3(actions, "[99, 101, 100]"))
    assert (result.status, result.finishing_stacks) == (Status.NO_RESULT, None)
    assert result.reason == "showdown with unknown hole cards of p3"


def test_unknown_cards_left_unshown_at_the_showdown_have_no_result() -> None:
    actions = ["d dh p1 2c3d", "d dh p2 9c8d", "d dh p3 ????", *SPLIT[3:], "p2 sm 9c8d"]
    assert play(nt3(actions, "[99, 101, 100]")).reason == "showdown with unknown hole cards of p3"


@pytest.mark.parametrize("muck", ["p3 sm", "p3 sm -"])
def test_sm_without_cards_mucks_and_the_other_hand_wins(muck: str) -> None:
    """p3 mucks: p2 wins the whole pot of 5: p1 99, p2 103, p3 98."""
    assert play(nt3([*SPLIT, "p2 sm 9c8d", muck], "[99, 103, 98]")).status is Status.MATCH


def test_showing_after_winning_uncontested_changes_nothing() -> None:
    assert play(nt3([*FOLD_OUT, "p3 sm 8h3s"])).status is Status.MATCH


def test_showing_other_cards_than_dealt_is_invalid() -> None:
    result = play(nt3([*SPLIT, "p2 sm 9c8h", "p3 sm 9d8s"], "[99, 101, 100]"))
    assert result.status is Status.INVALID
    assert result.reason == "action 'p2 sm 9c8h': p2 shows 9c8h but was dealt 9c8d"


def test_a_refused_raise_is_a_mismatch_naming_the_action_bet_2() -> None:
    """Over a big blind of 2 the smallest raise is to 4 (BET-2)."""
    result = play(nt3([*DEAL3, "p3 cbr 3", "p1 f", "p2 f"]))
    assert result.status is Status.MISMATCH
    assert result.reason.startswith("action 4 'p3 cbr 3' refused: ")


def test_an_action_out_of_turn_is_a_mismatch_bet_12() -> None:
    result = play(nt3([*DEAL3, "p1 f", "p3 cbr 6", "p2 f"]))
    assert result.status is Status.MISMATCH
    assert result.reason == "action 4 'p1 f': the engine expects p3 to act (phase BETTING)"


def test_fixed_limit_fourth_raise_pre_flop_is_refused_bet_6() -> None:
    """Limits 10/20: the big blind is the bet, then raises to 20, 30, 40; a raise to 50 is over the cap."""
    text = ("variant = 'FT'\nantes = [0, 0, 0]\nblinds_or_straddles = [5, 10, 0]\nsmall_bet = 10\nbig_bet = 20\n"
            f"starting_stacks = [200, 200, 200]\nactions = {[*DEAL3, 'p3 cbr 20', 'p1 cbr 30', 'p2 cbr 40']!r}"
            "\n")
    unfinished = play(text)
    assert (unfinished.status, unfinished.reason) == (Status.NO_RESULT,
                                                      "the record ends before the hand does (betting, p3 to act)")
    result = play(text.replace("'p2 cbr 40']", "'p2 cbr 40', 'p3 cbr 50']"))
    assert result.status is Status.MISMATCH
    assert result.reason.startswith("action 7 'p3 cbr 50' refused: ")


def test_pot_limit_omaha_raise_above_the_pot_is_refused_bet_8() -> None:
    """Blinds 5/10, the first player may raise to 10 + (15 + 10) = 35, not 36."""
    deal = ["d dh p1 2c3c4d5d", "d dh p2 KsKdQsQd", "d dh p3 AhAsJhTh"]
    text = ("variant = 'PO'\nantes = [0, 0, 0]\nblinds_or_straddles = [5, 10, 0]\nmin_bet = 10\n"
            f"starting_stacks = [1000, 1000, 1000]\nactions = {[*deal, 'p3 cbr 35', 'p1 f', 'p2 f']!r}\n"
            "finishing_stacks = [995, 990, 1015]\n")
    assert play(text).status is Status.MATCH
    result = play(text.replace("cbr 35", "cbr 36"))
    assert result.status is Status.MISMATCH
    assert result.reason.startswith("action 4 'p3 cbr 36' refused: ")


def test_big_blind_ante_is_dead_money_in_the_main_pot_bld_10() -> None:
    """A big-blind ante of 2 (WSOP style): everyone limps and checks down; p1's aces win the blinds, the calls
    and the ante: pot 2 + 2 + 2 + 2 = 8, so p1 100 - 2 + 8 = 106, p2 100 - 4 = 96, p3 98."""
    actions = [*DEAL3, "p3 cc", "p1 cc", "p2 cc", "d db Kc9d4h", "p1 cc", "p2 cc", "p3 cc", "d db 5s", "p1 cc",
               "p2 cc", "p3 cc", "d db Jc", "p1 cc", "p2 cc", "p3 cc"]
    result = play(nt3(actions, "[106, 96, 98]", antes="[0, 2, 0]"))
    assert (result.status, result.finishing_stacks) == (Status.MATCH, (106, 96, 98))


@pytest.mark.parametrize("variant", ["F7S", "F7S/8", "FR", "F2L3D", "N2L1D", "FB", "NS", "XYZ"])
def test_variants_the_engine_does_not_play_are_unsupported(variant: str) -> None:
    result = play(nt3(FOLD_OUT).replace("'NT'", repr(variant)))
    assert result.status is Status.UNSUPPORTED
    assert result.reason.startswith(f"variant {variant} (")


@pytest.mark.parametrize(("variant", "game_shown"), [("PT", "NT"), ("PO/8", "PO")])
def test_pot_limit_holdem_and_omaha_hi_lo_codes_are_played(variant: str, game_shown: str) -> None:
    """PT (pot-limit hold'em) and PO/8 replay like the fold-outs of their cousins."""
    if variant == "PT":
        assert play(nt3(FOLD_OUT).replace("'NT'", "'PT'")).status is Status.MATCH
    else:
        deal = ["d dh p1 2c3c4d5d", "d dh p2 KsKdQsQd", "d dh p3 AhAsJhTh"]
        text = ("variant = 'PO/8'\nantes = [0, 0, 0]\nblinds_or_straddles = [5, 10, 0]\nmin_bet = 10\n"
                f"starting_stacks = [1000, 1000, 1000]\nactions = {[*deal, 'p3 cbr 35', 'p1 f', 'p2 f']!r}\n"
                "finishing_stacks = [995, 990, 1015]\n")
        assert play(text).status is Status.MATCH


def test_a_negative_blind_is_unsupported() -> None:
    result = play(nt3(FOLD_OUT, stacks="[100, 100, 100]", blinds="[1, 2, -2]"))
    assert result.status is Status.UNSUPPORTED
    assert result.reason.startswith("a negative blind")


@pytest.mark.parametrize(("action", "reason"), [
    ("p1 raise 5", "action 'p1 raise 5': expected"),
    ("p7 f", "action 4 'p7 f': there are only 3 players"),
    ("d dh p7 2c2d", "action 4 'd dh p7 2c2d': there are only 3 players"),
    ("p9 cbr 50", "action 4 'p9 cbr 50': there are only 3 players"),
])
def test_malformed_actions_make_the_record_invalid(action: str, reason: str) -> None:
    result = play(nt3([*DEAL3, action]))
    assert result.status is Status.INVALID
    assert result.reason.startswith(reason)


def test_a_malformed_action_after_a_refused_one_still_makes_the_record_invalid() -> None:
    """The record is read as it is replayed; a refusal (p1 acting out of turn) must not hide that a later
    action cannot be read at all."""
    result = play(nt3([*DEAL3, "p1 f", "p3 cbr 6", "d db 2c7"]))
    assert result.status is Status.INVALID
    assert result.reason.startswith("action 'd db 2c7': ")


# --- known data errors ------------------------------------------------------------------------------------

# The situation of wsop/2019/42/3/00-01-07.phh: 8 players, p7 raises, the button p8's fold is missing and
# p1 acts next. With the fold, p1 (QdJd, a pair of jacks on Th Jc 5h 6c 8s) beats p2 (Ac7c, ace high):
# pot 6 + 6 + 6 + 10 + 10 = 38; p1 100 - 16 + 38 = 122, p2 84, p7 94, the rest 100.
OMITTED_FOLD = (
    "variant = 'NT'\nantes = [0, 0, 0, 0, 0, 0, 0, 0]\nblinds_or_straddles = [1, 2, 0, 0, 0, 0, 0, 0]\n"
    "min_bet = 2\nstarting_stacks = [100, 100, 100, 100, 100, 100, 100, 100]\n"
    "actions = ['d dh p1 QdJd', 'd dh p2 Ac7c', 'd dh p3 Qh3h', 'd dh p4 6s5c', 'd dh p5 Ad7s', 'd dh p6 9c4c',"
    " 'd dh p7 3s3c', 'd dh p8 Td3d', 'p3 f', 'p4 f', 'p5 f', 'p6 f', 'p7 cbr 6', 'p1 cc', 'p2 cc',"
    " 'd db ThJc5h', 'p1 cc', 'p2 cc', 'p7 cc', 'd db 6c', 'p1 cc', 'p2 cc', 'p7 cc', 'd db 8s', 'p1 cc',"
    " 'p2 cbr 10', 'p7 f', 'p1 cc', 'p2 sm Ac7c', 'p1 sm QdJd']\n"
    "finishing_stacks = [122, 84, 100, 100, 100, 100, 94, 100]\n"
)


def test_known_data_errors_are_listed_by_name_with_a_reason() -> None:
    assert [(k.name, k.files) for k in KNOWN_DATA_ERRORS] == [("omitted-button-fold",
                                                                ("wsop/2019/42/3/00-01-07.phh",))]
    assert all(k.reason for k in KNOWN_DATA_ERRORS)


def test_omitted_button_fold_in_its_listed_file_is_a_known_data_error() -> None:
    result = play(OMITTED_FOLD, "/data/phh/wsop/2019/42/3/00-01-07.phh")
    assert result.status is Status.KNOWN_DATA_ERROR
    assert result.reason.startswith("omitted-button-fold: the record omits the button's pre-flop fold (p8 f)")
    assert result.finishing_stacks == (122, 84, 100, 100, 100, 100, 94, 100)


def test_the_same_omission_elsewhere_is_a_mismatch() -> None:
    result = play(OMITTED_FOLD, "/data/phh/other.phh")
    assert result.status is Status.MISMATCH
    assert result.reason == "action 14 'p1 cc': the engine expects p8 to act (phase BETTING)"


def test_a_listed_file_that_still_differs_after_the_repair_is_a_mismatch() -> None:
    wrong = OMITTED_FOLD.replace("[122, 84,", "[84, 122,")
    result = play(wrong, "wsop/2019/42/3/00-01-07.phh")
    assert result.status is Status.MISMATCH
    assert "(known data error omitted-button-fold repaired, still mismatch: final stacks differ" in result.reason


# --- examples and round trips ----------------------------------------------------------------------------


def test_every_example_hand_replays_to_its_hand_checked_result() -> None:
    records = list(phh.load_path(EXAMPLES))
    assert sorted(Path(r.source).name for r in records) == [
        "fixed-limit-capped.phh", "plo-pot-raises.phh", "side-pots-all-in.phh", "split-pot-odd-chip.phh"]
    for record in records:
        result = replay(record)
        assert (record.name, result.status) == (record.name, Status.MATCH), result.reason


@pytest.mark.parametrize("text", [nt3(FOLD_OUT, None), nt3(SPLIT + SHOWS, None)]
                         + [p.read_text() for p in sorted(EXAMPLES.glob("*.phh"))])
def test_a_replayed_hand_written_back_replays_to_the_same_result(text: str) -> None:
    record = phh.loads(text, "in.phh")
    first = replay(replace(record, finishing_stacks=None))
    assert first.finishing_stacks is not None
    written = phh.dumps(replace(record, finishing_stacks=first.finishing_stacks))
    again = replay(phh.loads(written, "out.phh"))
    assert (again.status, again.finishing_stacks) == (Status.MATCH, first.finishing_stacks)


def test_a_record_that_stops_early_but_records_a_result_is_a_mismatch() -> None:
    result = play(nt3([*DEAL3, "p3 cbr 6", "p1 f"]))
    assert (result.status, result.finishing_stacks) == (Status.MISMATCH, None)
    assert result.reason == "the record ends before the hand does (betting, p2 to act)"
