"""The `expert` level: EVs given the unseen cards (the shoe less its public cards)."""

import dataclasses
import random
from decimal import Decimal
from functools import cache

import pytest

from blackjack.actions import Action, Phase
from blackjack.cards import deck_order
from blackjack.count import public_cards, unseen
from blackjack.players import AI_LEVELS, decide, expert, hard
from blackjack.round import Round
from blackjack.rules import TABLES, Peek, Rules, Surrender
from blackjack.shoe import Shoe
from blackjack.strategy import solvers
from blackjack.strategy.advisor import action_values, best_of, expert_values
from blackjack.strategy.analysis import merge, of_ranks, shoe_counts
from blackjack.strategy.dealer import ACE, RANKS, TEN, Comp, add, total
from blackjack.turn import PlayerView

PLAY = Phase.PLAYER_TURN
EUROPEAN = TABLES["european"].rules
CASINO = TABLES["casino"].rules
CARDS = "A23456789T"
FIRST = (Action.HIT, Action.STAND, Action.DOUBLE)


def ranks_of(cards: str) -> list[int]:
    return [CARDS.index(card) for card in cards]


def view(
    rules: Rules,
    cards: str,
    up: str,
    legal: tuple[Action, ...] = FIRST,
    phase: Phase = PLAY,
) -> PlayerView:
    return PlayerView(rules, phase, tuple(c + "S" for c in cards), up + "D", legal, 1, False)


def fresh_unseen(rules: Rules, cards: str, up: str) -> Comp:
    """A shoe of which only the hand and the up card are public."""
    return unseen(rules.decks, [c + "H" for c in cards + up])


@pytest.mark.parametrize("table", ["european", "casino"])
def test_at_a_fresh_shoe_expert_is_hard(table: str) -> None:
    rules = TABLES[table].rules
    rng = random.Random(3)
    for _ in range(12):
        up = rng.choice(CARDS)
        cards = "".join(rng.choice(CARDS) for _ in range(rng.choice((2, 3))))
        if total(of_ranks(*ranks_of(cards)))[0] >= 21:
            continue
        legal = FIRST if len(cards) == 2 else (Action.HIT, Action.STAND)
        v = view(rules, cards, up, legal)
        assert expert_values(v, fresh_unseen(rules, cards, up)) == action_values(v)


@pytest.mark.parametrize(("cards", "up"), [("T6", "T"), ("A7", "9"), ("55", "6"), ("88", "A")])
def test_a_pool_equal_to_the_full_shoe_computes_the_shipped_card(cards: str, up: str) -> None:
    # The shortcut above reads the card; the expert solver of the same pool computes it.
    up_rank = CARDS.index(up)
    s = solvers.kept_solver(CASINO, up_rank, add(shoe_counts(6), up_rank, -1))
    hand = of_ranks(*ranks_of(cards))
    computed = {a: s.conditional(u, hand) for a, u in s.first_decision(hand).items()}
    legal = (*FIRST, Action.SPLIT) if cards[0] == cards[1] else FIRST
    shipped = action_values(view(CASINO, cards, up, (*legal, Action.SURRENDER)))
    assert shipped is not None
    for action, value in shipped.items():
        assert computed[action.value] == pytest.approx(value, abs=1e-8)


# ---- against a brute force over every card order, on a few cards ---------------------


def reference(rules: Rules, left: Comp, cards: str, up: str) -> dict[str, float]:  # noqa: C901
    """Stand, hit, double and surrender by a plain recursion over the cards as they come:
    the hole card first where there is one (dealt before the player decides, never seen
    by the player: each decision weighs every hole card by its chance given the cards
    the player has seen), then the player's cards, then the dealer's; the EVs are
    conditioned on no dealer natural at peek tables."""
    up_rank = CARDS.index(up)
    hand = of_ranks(*ranks_of(cards))
    peeks = rules.peek is Peek.ACE_AND_TEN and up_rank in (ACE, TEN)
    size = sum(left)

    @cache
    def dealer(comp: Comp, drawn: Comp) -> tuple[tuple[int, float], ...]:
        """The dealer's final total (22: bust, 0: a natural) from `drawn` (up card
        included), drawing from `comp`."""
        points, soft = total(drawn)
        if sum(drawn) == 2 and points == 21:
            return ((0, 1.0),)
        if points > 21:
            return ((22, 1.0),)
        if points >= 17 and not (rules.dealer_hits_soft_17 and soft and points == 17):
            return ((points, 1.0),)
        out: dict[int, float] = {}
        remaining = sum(comp)
        for rank, n in enumerate(comp):
            if n:
                for final, q in dealer(add(comp, rank, -1), add(drawn, rank)):
                    out[final] = out.get(final, 0.0) + n / remaining * q
        return tuple(out.items())

    def settle(comp: Comp, player: Comp, dealt: Comp, stake: float) -> float:
        points = total(player)[0]
        if points > 21:
            return -stake
        value = 0.0
        for final, p in dealer(comp, dealt):
            if final == 0 or (final != 22 and points < final):
                value -= p * stake
            elif final == 22 or points > final:
                value += p * stake
        return value

    # The hole cards the player plays against (none: the dealer draws all after), each
    # with its chance; a peek has shown that it makes no natural.
    holes: list[tuple[int | None, float]]
    if rules.hole_card:
        holes = [
            (h, n / size)
            for h, n in enumerate(left)
            if n and not (peeks and total(of_ranks(up_rank, h))[0] == 21)
        ]
    else:
        holes = [(None, 1.0)]

    def outcome(hole: int | None, drawn: Comp, stake: float) -> float:
        """The player's hand (`hand` plus `drawn`) stands with `stake` on it."""
        comp = tuple(n - d for n, d in zip(left, drawn, strict=True))
        if hole is None:
            return settle(comp, merge(hand, drawn), of_ranks(up_rank), stake)
        dealt = of_ranks(up_rank, hole)
        if total(dealt)[0] == 21:
            return -stake  # a natural the dealer did not peek at takes all
        return settle(add(comp, hole, -1), merge(hand, drawn), dealt, stake)

    def chances(drawn: Comp) -> list[tuple[int | None, float]]:
        """Each hole card with the chance of it and of the player drawing `drawn` in one
        given order (the same for every order)."""
        out = []
        for hole, p in holes:
            comp = list(left)
            if hole is not None:
                comp[hole] -= 1
            count = sum(comp)
            for rank, k in enumerate(drawn):
                for _ in range(k):
                    p *= comp[rank] / count
                    comp[rank] -= 1
                    count -= 1
            out.append((hole, p))
        return out

    def stand(drawn: Comp, stake: float = 1.0) -> float:
        return sum(p * outcome(h, drawn, stake) for h, p in chances(drawn) if p)

    def draws(drawn: Comp) -> list[Comp]:
        return [add(drawn, r) for r in range(RANKS) if left[r] > drawn[r]]

    @cache
    def best(drawn: Comp) -> float:
        if total(merge(hand, drawn))[0] >= 21:
            return stand(drawn)
        return max(stand(drawn), hit(drawn))

    def hit(drawn: Comp) -> float:
        return sum(best(more) for more in draws(drawn))

    none = of_ranks()
    weight = sum(p for _, p in chances(none))
    values = {
        "stand": stand(none) / weight,
        "hit": hit(none) / weight,
        "double": sum(stand(more, 2.0) for more in draws(none)) / weight,
    }
    if surrenders(rules, up):
        values["surrender"] = -0.5  # early: before the dealer's natural is known
    return values


def surrenders(rules: Rules, up: str) -> bool:
    return rules.surrender is Surrender.EARLY_NOT_ACE and up != "A"


# 25 cards of a six-deck shoe left, few of them tens: hitting and standing are close.
LEFT: Comp = (2, 3, 2, 3, 2, 2, 3, 2, 2, 4)
SIX_DECKS_PEEK = dataclasses.replace(EUROPEAN, peek=Peek.ACE_AND_TEN)


@pytest.mark.parametrize(
    ("rules", "cards", "up"),
    [
        (EUROPEAN, "93", "6"),
        (EUROPEAN, "A5", "T"),
        (EUROPEAN, "T2", "A"),
        (SIX_DECKS_PEEK, "64", "T"),
        (SIX_DECKS_PEEK, "A6", "A"),
        (CASINO, "T6", "9"),
        (CASINO, "92", "A"),
        (CASINO, "A7", "2"),
        (EUROPEAN, "523", "T"),
        (CASINO, "A23", "7"),
    ],
    ids=lambda x: x if isinstance(x, str) else "",
)
def test_expert_equals_a_brute_force_on_a_few_cards(rules: Rules, cards: str, up: str) -> None:
    if len(cards) == 2:
        legal = FIRST + ((Action.SURRENDER,) if surrenders(rules, up) else ())
    else:
        legal = (Action.HIT, Action.STAND)
    values = expert_values(view(rules, cards, up, legal), LEFT)
    assert values is not None
    expected = reference(rules, LEFT, cards, up)
    assert {a.value for a in values} == {a.value for a in legal}
    for action, value in values.items():
        assert value == pytest.approx(expected[action.value], abs=1e-12), action


def test_insurance_is_exact_for_the_unseen_cards() -> None:
    # Ten-rich: 12 tens in 25 cards. Insurance pays 2:1 on a ten in the hole.
    left: Comp = (1, 1, 1, 2, 1, 2, 2, 1, 2, 12)
    v = view(CASINO, "95", "A", (Action.INSURANCE, Action.DECLINE_INSURANCE), Phase.INSURANCE)
    values = expert_values(v, left)
    assert values is not None
    play = expert_values(view(CASINO, "95", "A"), left)
    assert play is not None
    b = 12 / 25
    assert values[Action.DECLINE_INSURANCE] == pytest.approx(max(play.values()), abs=1e-15)
    assert values[Action.INSURANCE] - values[Action.DECLINE_INSURANCE] == pytest.approx(
        0.5 * (3 * b - 1), abs=1e-15
    )
    assert expert(left)(v) is Action.INSURANCE


# ---- nothing but the public cards ---------------------------------------------------


def shoe_of(first: list[str], seed: int) -> Shoe:
    """A full six-deck shoe that deals `first` first, the rest in an order set by `seed`."""
    rest = deck_order(6)
    for card in first:
        rest.remove(card)
    random.Random(seed).shuffle(rest)
    return Shoe("00" * 32, "arranged", 1, 6, 234, first + rest)


def test_the_hole_card_and_the_order_of_the_shoe_change_nothing() -> None:
    # A settled round (the user's 9,7 stands; the dealer's T,8 stands), then a round that
    # deals the user 5,6 against a 6 with a king, or a two, in the hole: the public cards
    # are the same, the shoes differ only in the hole card and the order of the rest.
    settled = ["9S", "TD", "7H", "8C"]
    table = TABLES["european"]
    values = []
    views = []
    for hole, seed in (("KS", 1), ("2C", 2)):
        shoe = shoe_of([*settled, "5S", "6D", "6H", hole], seed)
        first = Round.deal(table, shoe, {0: Decimal(table.min_bet)})
        first.act(Action.STAND)
        assert first.phase is Phase.SETTLED
        round_ = Round.deal(table, shoe, {0: Decimal(table.min_bet)})
        assert round_.dealer == ["6D", hole] and round_.hidden == 1
        public = public_cards(shoe, round_.dealer[1 : 1 + round_.hidden])
        assert sorted(public) == sorted([*settled, "5S", "6D", "6H"])
        player_view = round_.player_view()
        assert player_view is not None
        views.append(player_view)
        values.append(expert_values(player_view, unseen(6, public)))
    assert values[0] == values[1]
    hard_values = action_values(views[0])
    assert values[0] is not None and hard_values is not None
    assert values[0] != hard_values  # the settled round's cards are known to `expert`


# ---- the expert player ----------------------------------------------------------------


def small_cards_gone(count: int) -> list[str]:
    """`count` cards of ranks 2 to 6 (public: the count is high)."""
    return [f"{2 + i % 5}{'SHDC'[i // 5 % 4]}" for i in range(count)]


def test_the_expert_player_takes_the_best_legal_action() -> None:
    # 16 against a ten hits off the top, but stands once many small cards are gone.
    v = view(EUROPEAN, "T6", "T", (Action.HIT, Action.STAND))
    gone = unseen(6, [*small_cards_gone(60), "TH", "6H", "TD"])
    values = expert_values(v, gone)
    assert values is not None
    assert expert(gone)(v) is best_of(values) is Action.STAND
    assert values[Action.STAND] > values[Action.HIT]
    assert hard(v) is Action.HIT
    assert decide("expert", v, gone) is Action.STAND
    with pytest.raises(ValueError, match="unseen"):
        decide("expert", v)
    assert "expert" in AI_LEVELS


def test_unseen_is_the_shoe_less_the_public_cards() -> None:
    comp = unseen(1, ["AS", "KD", "QH", "TC", "5S"])
    assert comp == (3, 4, 4, 4, 3, 4, 4, 4, 4, 13)
    assert sum(comp) == 47 and len(comp) == RANKS
    with pytest.raises(ValueError, match="more public cards"):
        unseen(1, ["AS"] * 5)
