"""Properties over random shoes and random legal actions at every table."""

import json
from collections import Counter
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from blackjack.actions import Action, Phase, Result
from blackjack.players import LEVELS
from blackjack.round import Round
from blackjack.rules import TABLES, Insurance, Table
from blackjack.shoe import Shoe
from blackjack.views import round_view

HALF = Decimal("0.5")


@st.composite
def dealt_rounds(draw: st.DrawFn, table: Table) -> Round:
    seed = draw(st.binary(min_size=32, max_size=32)).hex()
    shoe = Shoe.shuffle(seed, "property", draw(st.integers(1, 9)), table.rules.decks)
    boxes = draw(st.lists(st.integers(0, table.boxes - 1), min_size=1, unique=True))
    users = boxes[: draw(st.integers(1, len(boxes)))] if table.rules.ai_players else boxes
    bets = {box: Decimal(draw(st.integers(table.min_bet, table.max_bet))) for box in users}
    ai = {box: draw(st.sampled_from(LEVELS)) for box in boxes if box not in bets}
    # at a shared table, each user box is one of several owners'
    shared = draw(st.booleans())
    owners = {box: draw(st.sampled_from(["ann", "ben"])) for box in bets} if shared else {}
    return Round.deal(table, shoe, bets, ai, owners)


def check_deal_order(round_: Round) -> None:
    """One card to each box in order, the up card, the second cards, the hole card."""
    cards = round_.shoe.cards
    n = len(round_.boxes)
    assert round_.dealer[0] == cards[n]
    if round_.table.rules.hole_card:
        assert round_.dealer[1] == cards[2 * n + 1]
    for i, box in enumerate(round_.boxes):
        first = box.hands[0].cards[0]
        assert first == cards[i]
        if box.is_user:  # nobody has played the user's boxes yet
            assert box.hands[0].cards == [cards[i], cards[n + 1 + i]]


def check_view_hides_the_hole_card(round_: Round) -> None:
    view = round_view(round_)
    visible = round_.dealer[: len(round_.dealer) - round_.hidden]
    assert view["dealer"]["cards"] == visible
    assert view["dealer"]["hidden"] == round_.hidden
    if round_.hidden:
        hole = round_.dealer[-1]
        shown = sum(hand.cards.count(hole) for box in round_.boxes for hand in box.hands)
        assert json.dumps(view).count(f'"{hole}"') == shown + visible.count(hole)


def check_cards_come_from_the_shoe(round_: Round) -> None:
    on_table = [card for box in round_.boxes for hand in box.hands for card in hand.cards]
    assert Counter(on_table + round_.dealer) == Counter(round_.shoe.dealt)


def check_money(round_: Round) -> None:
    staked = returned = Decimal(0)
    for box in round_.boxes:
        for hand in box.hands:
            assert hand.payout is not None and hand.payout % HALF == 0
            assert hand.result is not None
            expected = {
                Result.WIN: hand.bet * 2,
                Result.PUSH: hand.bet,
                Result.LOSE: Decimal(0),
                Result.BLACKJACK: hand.bet * Decimal("2.5"),
                Result.SURRENDER: hand.bet / 2,
                Result.EVEN_MONEY: hand.bet * 2,
            }[hand.result]
            assert hand.payout == expected
            if box.is_user:
                staked += hand.bet
                returned += hand.payout
        if box.insurance is not None:
            assert box.insurance_payout is not None
            assert box.insurance_payout in (0, box.insurance * 3)
            staked += box.insurance
            returned += box.insurance_payout
    assert round_.net == returned - staked
    assert (round_.staked(), round_.returned()) == (staked, returned)


def insurance_amount(data: st.DataObject, round_: Round) -> Decimal | None:
    turn = round_.turn
    if round_.table.rules.insurance is not Insurance.UP_TO_HALF or turn is None:
        return None
    halves = int(turn[0].bet)  # half the bet, counted in half coins
    return data.draw(st.none() | st.integers(1, halves).map(lambda n: n * HALF))


@settings(max_examples=400, deadline=None)
@given(data=st.data(), table_id=st.sampled_from(list(TABLES)))
def test_random_rounds_end_conserve_money_and_hide_the_hole_card(
    data: st.DataObject, table_id: str
) -> None:
    round_ = data.draw(dealt_rounds(TABLES[table_id]))
    check_deal_order(round_)
    for _ in range(100):  # far more decisions than any round can take
        check_view_hides_the_hole_card(round_)
        check_cards_come_from_the_shoe(round_)
        if round_.phase is Phase.SETTLED:
            break
        assert round_.net is None
        legal = round_.legal_actions()
        assert legal and round_.turn is not None and round_.turn[0].is_user
        action = data.draw(st.sampled_from(legal))
        amount = insurance_amount(data, round_) if action is Action.INSURANCE else None
        round_.act(action, amount)
    assert round_.phase is Phase.SETTLED
    assert round_.legal_actions() == () and round_.turn is None and round_.hidden == 0
    check_money(round_)
    owners = {box.player for box in round_.boxes if box.player.startswith("user:")}
    if owners:  # each owner's money counted apart adds up to all the users'
        assert sum(round_.net_of(owner) or 0 for owner in owners) == round_.net
