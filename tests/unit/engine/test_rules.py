"""Every row of RULES.md's table, at every table, on shoes arranged so the cards are known.

Deal order with one box: the box's first card, the dealer's up card, the box's second
card, then the hole card where the table deals one; every later card comes in turn.
"""

import json
from decimal import Decimal
from pathlib import Path

import pytest

from blackjack.actions import Action, HandStatus, Phase, Result
from blackjack.errors import BetOutOfLimits, IllegalAction, InvalidAmount
from blackjack.round import Hand, Round
from blackjack.rules import TABLES

from .arrange import cards_of, deal, play

HIT, STAND, DOUBLE, SPLIT, SURRENDER = (
    Action.HIT,
    Action.STAND,
    Action.DOUBLE,
    Action.SPLIT,
    Action.SURRENDER,
)


def only_hand(round_: Round) -> Hand:
    [box] = round_.boxes
    [hand] = box.hands
    return hand


# ---- classic --------------------------------------------------------------------------


def test_classic_pays_a_natural_at_the_deal_whatever_the_dealer_holds() -> None:
    round_ = deal("classic", "AS KH TD AD")
    hand = only_hand(round_)
    assert round_.phase is Phase.SETTLED
    assert (hand.result, hand.payout) == (Result.BLACKJACK, Decimal(250))
    assert round_.dealer == ["KH", "AD"] and round_.hidden == 0
    assert round_.net == 150


def test_classic_pays_a_three_card_21_at_once_against_a_dealer_natural() -> None:
    round_ = play(deal("classic", "5S TH 6D AH TC"), "hit")
    hand = only_hand(round_)
    assert hand.cards == ["5S", "6D", "TC"]
    assert (hand.status, hand.result, hand.payout) == (
        HandStatus.BLACKJACK,
        Result.BLACKJACK,
        Decimal(250),
    )
    assert round_.phase is Phase.SETTLED and round_.net == 150


def test_classic_offers_hit_and_stand_only_and_does_not_peek() -> None:
    round_ = deal("classic", "TS AH 9D KC")
    assert round_.phase is Phase.PLAYER_TURN
    assert round_.legal_actions() == (HIT, STAND)
    assert round_.hidden == 1
    play(round_, "stand")
    assert only_hand(round_).result is Result.LOSE and round_.net == -100


def test_classic_natural_on_an_odd_bet_pays_a_half_coin() -> None:
    round_ = deal("classic", "AS 5H KD 7C", bets={0: 15})
    assert only_hand(round_).payout == Decimal("37.5")
    assert round_.net == Decimal("22.5")


@pytest.mark.parametrize(
    ("bets", "ai"),
    [({0: 9}, None), ({0: 501}, None), ({1: 100}, None), ({}, None), ({0: 100}, {0: "easy"})],
)
def test_classic_bet_limits_and_boxes(bets: dict[int, int], ai: dict[int, str] | None) -> None:
    with pytest.raises(BetOutOfLimits):
        deal("classic", "AS 5H KD 7C", bets=bets, ai=ai)


def test_tables_without_ai_players_refuse_them() -> None:
    with pytest.raises(BetOutOfLimits, match="no AI players"):
        deal("bicycle", "AS 5H KD 7C", ai={0: "easy"})


# ---- bicycle --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "legal"),
    [
        ("5S 7H 4D 9C", (HIT, STAND, DOUBLE)),  # hard 9
        ("6S 7H 4D 9C", (HIT, STAND, DOUBLE)),  # hard 10
        ("7S 7H 4D 9C", (HIT, STAND, DOUBLE)),  # hard 11
        ("AS 7H 8D 9C", (HIT, STAND)),  # soft 19
        ("AS 7H 9D 9C", (HIT, STAND)),  # soft 20
        ("4S 7H 4D 9C", (HIT, STAND, SPLIT)),  # 8 as a pair of fours
        ("JS 7H JD 9C", (HIT, STAND, SPLIT)),  # same rank
        ("JS 7H QD 9C", (HIT, STAND)),  # same value, other rank
        ("8S 7H 4D 9C", (HIT, STAND)),  # hard 12
    ],
)
def test_bicycle_doubles_hard_9_to_11_and_splits_one_rank(
    cards: str, legal: tuple[Action, ...]
) -> None:
    assert deal("bicycle", cards).legal_actions() == legal


def test_bicycle_one_split_no_double_after_it() -> None:
    round_ = play(deal("bicycle", "5S 7H 5D 9C 5C 6H TS"), "split")
    assert cards_of(round_) == [["5S", "5C"], ["5D"]]
    assert round_.legal_actions() == (HIT, STAND)  # 10 after a split: no double, no resplit
    play(round_, "stand")
    assert cards_of(round_) == [["5S", "5C"], ["5D", "6H"]]
    assert round_.legal_actions() == (HIT, STAND)


def test_bicycle_split_aces_take_one_card_each_and_ace_ten_pays_even() -> None:
    round_ = play(deal("bicycle", "AS 7H AD 9C AC KD TS"), "split")
    assert round_.phase is Phase.SETTLED  # both aces stood on their one card
    first, second = round_.boxes[0].hands
    assert first.cards == ["AS", "AC"] and second.cards == ["AD", "KD"]
    assert round_.dealer == ["7H", "9C", "TS"]
    assert (second.status, second.result, second.payout) == (
        HandStatus.STANDING,
        Result.WIN,
        Decimal(200),
    )
    assert first.result is Result.WIN and round_.net == 200


def test_bicycle_peeks_under_a_ten_and_settles_at_once() -> None:
    round_ = deal("bicycle", "9S TH 9D AC")
    assert round_.phase is Phase.SETTLED and round_.hidden == 0
    assert only_hand(round_).result is Result.LOSE and round_.net == -100


def test_bicycle_natural_against_a_dealer_natural_pushes() -> None:
    round_ = deal("bicycle", "AS KH TD AC")
    assert only_hand(round_).result is Result.PUSH and round_.net == 0


def test_bicycle_insurance_pays_2_to_1_on_a_dealer_natural() -> None:
    round_ = deal("bicycle", "TS AH 9D KC")
    assert round_.phase is Phase.INSURANCE
    assert round_.legal_actions() == (Action.INSURANCE, Action.DECLINE_INSURANCE)
    round_.act(Action.INSURANCE, Decimal(50))
    box = round_.boxes[0]
    assert round_.phase is Phase.SETTLED
    assert (box.insurance, box.insurance_payout) == (Decimal(50), Decimal(150))
    assert box.hands[0].result is Result.LOSE and round_.net == 0


def test_bicycle_insurance_lost_at_the_peek_then_play_goes_on() -> None:
    round_ = deal("bicycle", "TS AH 9D 7C")
    round_.act(Action.INSURANCE, Decimal(20))
    box = round_.boxes[0]
    assert round_.phase is Phase.PLAYER_TURN and box.insurance_payout == 0
    assert round_.legal_actions() == (HIT, STAND)
    play(round_, "stand")  # the dealer stands on soft 17... here A7, soft 18
    assert box.hands[0].result is Result.WIN and round_.net == 200 - 100 - 20


@pytest.mark.parametrize("amount", ["0.3", "0", "-1", "50.5", "51"])
def test_bicycle_insurance_amounts_are_halves_up_to_half_the_bet(amount: str) -> None:
    round_ = deal("bicycle", "TS AH 9D 7C")
    with pytest.raises(InvalidAmount):
        round_.act(Action.INSURANCE, Decimal(amount))
    assert round_.phase is Phase.INSURANCE and round_.boxes[0].insurance is None


def test_bicycle_insurance_default_is_half_and_half_coins_are_fine() -> None:
    round_ = deal("bicycle", "TS AH 9D 7C", bets={0: 5})
    round_.act(Action.INSURANCE, Decimal("2.5"))
    assert round_.boxes[0].insurance == Decimal("2.5")
    round_ = deal("bicycle", "TS AH 9D 7C", bets={0: 5})
    round_.act(Action.INSURANCE)
    assert round_.boxes[0].insurance == Decimal("2.5")


def test_bicycle_insures_a_natural_but_offers_no_even_money() -> None:
    round_ = deal("bicycle", "AS AH KD 7C")
    assert round_.legal_actions() == (Action.INSURANCE, Action.DECLINE_INSURANCE)
    play(round_, "decline_insurance")
    assert only_hand(round_).payout == 250 and round_.phase is Phase.SETTLED


def test_dealer_stands_on_soft_17() -> None:
    round_ = play(deal("bicycle", "TS AH 9D 6C 5S"), "decline_insurance", "stand")
    assert round_.dealer == ["AH", "6C"]
    assert only_hand(round_).result is Result.WIN


# ---- casino ---------------------------------------------------------------------------


def test_casino_deals_no_hole_card_and_draws_the_second_after_the_boxes() -> None:
    round_ = deal("casino", "TS 6H 7D 5C TD")
    assert round_.dealer == ["6H"] and round_.hidden == 0
    assert round_.legal_actions() == (HIT, STAND, DOUBLE, SURRENDER)
    play(round_, "stand")
    assert round_.dealer == ["6H", "5C", "TD"]
    assert only_hand(round_).result is Result.LOSE


def test_casino_dealer_natural_takes_a_double() -> None:
    round_ = play(deal("casino", "6S TH 5D 4C AC"), "double")
    hand = only_hand(round_)
    assert hand.doubled and hand.bet == 200 and hand.cards == ["6S", "5D", "4C"]
    assert round_.dealer == ["TH", "AC"]
    assert (hand.result, hand.payout, round_.net) == (Result.LOSE, 0, -200)


def test_casino_dealer_natural_takes_split_hands() -> None:
    round_ = play(deal("casino", "8S TH 8D 3C 2H AC"), "split", "stand", "stand")
    assert cards_of(round_) == [["8S", "3C"], ["8D", "2H"]]
    assert round_.net == -200


def test_casino_surrender_returns_half_and_ends_without_a_second_dealer_card() -> None:
    round_ = play(deal("casino", "TS 9H 6D"), "surrender")
    hand = only_hand(round_)
    assert (hand.status, hand.result, hand.payout) == (
        HandStatus.SURRENDERED,
        Result.SURRENDER,
        Decimal(50),
    )
    assert round_.dealer == ["9H"] and round_.shoe.position == 3 and round_.net == -50


def test_casino_surrender_is_the_first_decision_only() -> None:
    assert SURRENDER not in play(deal("casino", "2S 9H 3D 4C"), "hit").legal_actions()
    after_split = play(deal("casino", "8S 9H 8D 3C"), "split")
    assert after_split.legal_actions() == (HIT, STAND, DOUBLE)  # double after split
    against_ace = play(deal("casino", "TS AH 6D"), "decline_insurance")
    assert against_ace.legal_actions() == (HIT, STAND, DOUBLE)


def test_casino_insurance_is_exactly_half_and_pays_on_the_second_card() -> None:
    round_ = deal("casino", "TS AH 9D KC")
    with pytest.raises(InvalidAmount):
        round_.act(Action.INSURANCE, Decimal(40))
    round_.act(Action.INSURANCE)
    play(round_, "stand")
    box = round_.boxes[0]
    assert round_.dealer == ["AH", "KC"]
    assert (box.insurance, box.insurance_payout) == (50, 150)
    assert round_.net == 0


def test_casino_insurance_is_lost_when_every_hand_of_the_box_busted() -> None:
    round_ = deal("casino", "TS 9S AH 6D 9D 7C KC", bets={0: 100, 1: 100})
    round_.act(Action.INSURANCE)
    round_.act(Action.DECLINE_INSURANCE)
    play(round_, "hit", "stand")  # box 0 busts on the 7, box 1 stands on 18
    insured, other = round_.boxes
    assert round_.dealer == ["AH", "KC"]
    assert insured.insurance_payout == 0 and insured.hands[0].result is Result.LOSE
    assert other.hands[0].result is Result.LOSE
    assert round_.net == -250


def test_casino_even_money_pays_at_once() -> None:
    round_ = deal("casino", "AS AH KD")
    assert round_.legal_actions() == (Action.EVEN_MONEY, Action.DECLINE_INSURANCE)
    play(round_, "even_money")
    hand = only_hand(round_)
    assert (hand.result, hand.payout) == (Result.EVEN_MONEY, 200)
    assert round_.phase is Phase.SETTLED and round_.dealer == ["AH"] and round_.net == 100


def test_casino_declined_even_money_against_a_dealer_natural_pushes() -> None:
    round_ = play(deal("casino", "AS AH KD KC"), "decline_insurance")
    assert only_hand(round_).result is Result.PUSH and round_.dealer == ["AH", "KC"]


def test_casino_natural_against_a_small_card_draws_no_second_card() -> None:
    round_ = deal("casino", "AS 6H KD")
    assert round_.phase is Phase.SETTLED and round_.dealer == ["6H"]
    assert only_hand(round_).payout == 250


def test_casino_natural_against_a_ten_draws_one_card_only() -> None:
    round_ = deal("casino", "AS TH KD 5C 9C")
    assert round_.dealer == ["TH", "5C"]
    assert only_hand(round_).result is Result.BLACKJACK


def test_casino_resplits_aces() -> None:
    round_ = play(deal("casino", "AS 9H AD AC 5S 7D 2C TC"), "split")
    assert round_.legal_actions() == (SPLIT, STAND)
    play(round_, "split")
    assert cards_of(round_) == [["AS", "5S"], ["AC", "7D"], ["AD", "2C"]]
    assert round_.phase is Phase.SETTLED and round_.dealer == ["9H", "TC"]


def test_casino_splits_same_value_up_to_four_hands() -> None:
    assert SPLIT in deal("casino", "KS 9H QD").legal_actions()
    round_ = play(deal("casino", "8S 9H 8D 8C 8H 8C 5S 5D 5C 5H TC"), "split", "split", "split")
    assert len(round_.boxes[0].hands) == 4
    assert round_.legal_actions() == (HIT, STAND, DOUBLE)
    play(round_, "stand", "stand", "stand", "stand")
    assert cards_of(round_) == [["8S", "8C"], ["8H", "5S"], ["8C", "5D"], ["8D", "5C"]]
    assert round_.dealer == ["9H", "5H", "TC"] and round_.net == 400


def test_casino_bust_needs_no_second_dealer_card() -> None:
    round_ = play(deal("casino", "TS 6H 6D TC"), "hit")
    assert round_.dealer == ["6H"] and round_.net == -100


def test_ai_boxes_play_by_themselves_and_bet_the_minimum_from_the_house() -> None:
    round_ = deal("casino", "TS 5S 9H 9D 6S TD 8C", ai={1: "easy"})
    assert round_.turn is not None and round_.turn[0].index == 0
    play(round_, "stand")
    user, robot = round_.boxes
    assert robot.player == "ai:easy" and robot.bet == 10
    assert robot.hands[0].cards == ["5S", "6S", "TD"] and robot.hands[0].result is Result.WIN
    assert round_.dealer == ["9H", "8C"]
    assert user.hands[0].result is Result.WIN and round_.net == 100


def test_ai_box_before_the_user_plays_at_the_deal() -> None:
    round_ = deal("european", "5S TS 9H 6S 9D 7C TD", bets={1: 100}, ai={0: "easy"})
    assert round_.boxes[0].hands[0].cards == ["5S", "6S", "TD"]
    assert round_.turn is not None and round_.turn[0].index == 1


# ---- european -------------------------------------------------------------------------


def test_european_hole_card_natural_takes_a_double() -> None:
    round_ = play(deal("european", "6S TH 5D AC 4C"), "double")
    hand = only_hand(round_)
    assert round_.dealer == ["TH", "AC"]
    assert (hand.bet, hand.result, round_.net) == (200, Result.LOSE, -200)


def test_european_offers_no_insurance_and_no_surrender() -> None:
    round_ = deal("european", "TS AH 9D 7C")
    assert round_.phase is Phase.PLAYER_TURN
    assert round_.legal_actions() == (HIT, STAND, DOUBLE)


def test_european_splits_aces_once_with_one_card_each() -> None:
    round_ = play(deal("european", "AS 9H AD 7C AC KD 5S"), "split")
    first, second = round_.boxes[0].hands
    assert first.cards == ["AS", "AC"] and second.cards == ["AD", "KD"]
    assert round_.dealer == ["9H", "7C", "5S"]
    assert (first.result, second.result, round_.net) == (Result.LOSE, Result.PUSH, -100)


def test_european_doubles_after_a_split() -> None:
    round_ = play(deal("european", "8S 9H 8D 7C 3C"), "split")
    assert round_.legal_actions() == (HIT, STAND, DOUBLE)


def test_natural_against_natural_pushes() -> None:
    round_ = deal("european", "AS AH KD KC")
    assert round_.phase is Phase.SETTLED and only_hand(round_).result is Result.PUSH


# ---- every table ----------------------------------------------------------------------


def test_a_bust_hand_loses_even_when_the_dealer_busts() -> None:
    round_ = deal("european", "TS 9S 6H 6D 9D TC 9C TD", bets={0: 100, 1: 100})
    play(round_, "hit", "stand")
    busted, standing = round_.boxes
    assert round_.dealer == ["6H", "TC", "TD"]
    assert busted.hands[0].result is Result.LOSE and standing.hands[0].result is Result.WIN
    assert round_.net == 0


def test_a_hand_of_21_stands_by_itself() -> None:
    round_ = play(deal("european", "5S 6H 6D TC TD 2C"), "hit")
    hand = only_hand(round_)
    assert hand.status is HandStatus.STANDING and round_.phase is Phase.SETTLED
    assert round_.dealer == ["6H", "TC", "2C"] and hand.result is Result.WIN


def test_an_insurance_beyond_decimal_precision_is_refused() -> None:
    round_ = deal("bicycle", "TS AH 9D KC")  # bicycle takes any multiple of 0.5 up to half
    for amount in ("1e40", "1.25e168", "0.25"):
        with pytest.raises(InvalidAmount):
            round_.act(Action.INSURANCE, Decimal(amount))


def test_illegal_actions_say_why() -> None:
    round_ = deal("european", "TS 6H 9D TC 2C")
    with pytest.raises(IllegalAction, match="split is not allowed now; allowed: hit, stand"):
        round_.act(SPLIT)
    with pytest.raises(IllegalAction):
        round_.act(Action.INSURANCE)
    with pytest.raises(InvalidAmount):
        round_.act(HIT, Decimal(5))
    play(round_, "stand")
    with pytest.raises(IllegalAction, match="settled"):
        round_.act(STAND)


@pytest.mark.parametrize("table_id", list(TABLES))
def test_bets_must_be_whole_coins_within_limits(table_id: str) -> None:
    table = TABLES[table_id]
    for bad in (table.min_bet - 1, table.max_bet + 1):
        with pytest.raises(BetOutOfLimits):
            deal(table_id, "TS 6H 9D TC", bets={0: bad})
    with pytest.raises(BetOutOfLimits):
        deal(table_id, "TS 6H 9D TC", bets={0: Decimal("10.5")})  # type: ignore[dict-item]


def test_a_box_is_taken_once() -> None:
    with pytest.raises(BetOutOfLimits):
        deal("casino", "TS 6H 9D TC", bets={0: 100}, ai={0: "easy"})
    with pytest.raises(BetOutOfLimits):
        deal("casino", "TS 6H 9D TC", bets={5: 100})
    with pytest.raises(BetOutOfLimits):
        deal("casino", "TS 6H 9D TC", ai={1: "genius"})


def test_a_table_publishes_its_rules_as_api_md_writes_them() -> None:
    api_md = (Path(__file__).parents[3] / "docs" / "spec" / "API.md").read_text(encoding="utf-8")
    example = api_md.split("## Tables", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    casino = TABLES["casino"].as_dict()
    assert casino["rules"] == json.loads(example)
    assert {key: value for key, value in casino.items() if key != "rules"} == {
        "id": "casino",
        "name": "Casino",
        "description": TABLES["casino"].description,
        "min_bet": 10,
        "max_bet": 1000,
        "boxes": 5,
    }
    classic = TABLES["classic"].as_dict()["rules"]
    assert (classic["cut_default"], classic["cut_range"], classic["double"]) == (None, None, "none")
