"""Hints of three or more cards: the values computed before, those of the Python
reference whichever solver hints (the kernel where it is loaded), and a plain recursion."""

import random
from functools import cache

import pytest

from blackjack.actions import Action, Phase
from blackjack.rules import TABLES
from blackjack.strategy import action_values, advisor
from blackjack.strategy.analysis import UpCardSolver, of_ranks, shoe_counts
from blackjack.strategy.dealer import RANKS, Comp, add, payoffs, total
from blackjack.turn import PlayerView

from .helpers import brute_force

CARDS = "A23456789T"
HIT_STAND = (Action.HIT, Action.STAND)

# (stand, hit) EVs of hands of three or more cards as the Python solver computed them
# (each from a fresh process), keyed "table|up card|cards".
BEFORE = {
    "european|2|AAA": (-0.28828623797553266, 0.04777939246007433),
    "european|2|A6A4": (-0.2868664058223165, -0.25123801355305253),
    "european|T|835": (-0.5757396892855214, -0.579536127848882),
    "european|6|666": (0.2840712175378177, -0.6024312866674206),
    "european|6|3734": (0.020243032463109656, -0.5174631026761508),
    "bicycle|2|444": (-0.28958842269019125, -0.2509524458148745),
    "bicycle|A|2T5": (-0.4860419957054717, -0.5707827001559469),
    "bicycle|T|5A62": (-0.5560119997660212, -0.4943544186115744),
    "bicycle|6|933": (-0.1336492968350773, -0.39374032625554556),
    "bicycle|2|AAAA": (-0.25229299644031933, 0.04275125079609057),
    "casino|2|246": (-0.2897236270858381, -0.25284731489966744),
    "casino|T|T24": (-0.5769405188495959, -0.5770639214680175),
    "casino|9|454": (-0.5434748691630611, -0.3882081915575389),
    "classic|9|222T": (-0.5371924984531905, -0.46398858204532817),
}


def hint(table: str, cards: str, up: str, hands: int = 1, split: bool = False) -> PlayerView:
    rules = TABLES[table].rules
    shown = tuple(card + "SHDC"[i % 4] for i, card in enumerate(cards))
    legal = HIT_STAND if total(of_ranks(*map(CARDS.index, cards)))[0] < 21 else (Action.STAND,)
    return PlayerView(rules, Phase.PLAYER_TURN, shown, up + "D", legal, hands, split)


@pytest.mark.parametrize("key", sorted(BEFORE))
def test_hints_equal_the_values_computed_before(key: str) -> None:
    table, up, cards = key.split("|")
    values = action_values(hint(table, cards, up))
    assert values is not None
    stand, hit = BEFORE[key]
    assert values[Action.STAND] == pytest.approx(stand, abs=1e-12)
    assert values[Action.HIT] == pytest.approx(hit, abs=1e-12)


@cache
def plain_solver(table: str, up: int) -> UpCardSolver:
    return UpCardSolver(TABLES[table].rules, up)


def random_hands(rng: random.Random, count: int) -> list[tuple[str, str, str, bool]]:
    """(table, up card, cards, made by a split): hands a hint may be asked for."""
    out: list[tuple[str, str, str, bool]] = []
    while len(out) < count:
        table = rng.choice(list(TABLES))
        up = rng.randrange(RANKS)
        split = rng.random() < 0.2 and TABLES[table].rules.max_hands > 1
        size = 2 if split and rng.random() < 0.5 else rng.choice((3, 3, 4, 5))
        ranks = [rng.choice((0, 1, 1, 2, 2, 3, 4, 5, 9)) for _ in range(size)]
        counts = add(shoe_counts(TABLES[table].rules.decks), up, -1)
        comp = of_ranks(*ranks)
        prefix = of_ranks(*ranks[:-1])
        if any(comp[r] > counts[r] for r in range(RANKS)) or total(prefix)[0] >= 21:
            continue
        if total(comp)[0] >= 21 or (split and ranks[0] == 0):
            continue
        out.append((table, CARDS[up], "".join(CARDS[r] for r in ranks), split))
    return out


def test_hints_equal_the_plain_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver hints use (the kernel where it is loaded) against a new Python reference,
    on ordinary and split hands of two to five cards, heavy and light, at every table."""
    hands = random_hands(random.Random(5), 60)
    hands += [("european", "2", "AAA", False), ("european", "2", "22A", True)]
    by_hint_solver = {h: action_values(hint(h[0], h[2], h[1], 1 + h[3], h[3])) for h in hands}
    monkeypatch.setattr(
        advisor,
        "kept_solver",
        lambda rules, up: plain_solver(next(t for t in TABLES if TABLES[t].rules == rules), up),
    )
    for h in hands:
        computed = action_values(hint(h[0], h[2], h[1], 1 + h[3], h[3]))
        hinted = by_hint_solver[h]
        assert computed is not None and hinted is not None
        assert hinted.keys() == computed.keys()
        for action, value in computed.items():
            assert hinted[action] == pytest.approx(value, abs=1e-12), (h, action)


def reference_values(table: str, up: int, hand: Comp) -> tuple[float, float]:
    """(stand, hit) of a hand of three or more cards at a table without peek, by a plain
    recursion over the player's draws and the dealer's (`brute_force`)."""
    rules = TABLES[table].rules
    counts = add(shoe_counts(rules.decks), up, -1)

    @cache
    def stand(removed: Comp) -> float:
        row = payoffs(max(total(removed)[0], 16), 1.0)
        outcomes = brute_force(counts, up, removed, rules.dealer_hits_soft_17)
        return sum(p * w for p, w in zip(outcomes, row, strict=True))

    @cache
    def best(removed: Comp) -> float:
        points = total(removed)[0]
        if points > 21:
            return -1.0
        if points == 21:
            return stand(removed)
        return max(stand(removed), hit(removed))

    def hit(removed: Comp) -> float:
        left = sum(counts) - sum(removed)
        return sum(
            (counts[r] - removed[r]) / left * best(add(removed, r))
            for r in range(RANKS)
            if counts[r] > removed[r]
        )

    return stand(hand), hit(hand)


@pytest.mark.parametrize(("cards", "up"), [("T24", "T"), ("A6A4", "9"), ("5A62", "7")])
def test_hints_match_a_plain_recursion(cards: str, up: str) -> None:
    values = action_values(hint("european", cards, up))
    assert values is not None
    stand, hit = reference_values("european", CARDS.index(up), of_ranks(*map(CARDS.index, cards)))
    assert values[Action.STAND] == pytest.approx(stand, abs=1e-12)
    assert values[Action.HIT] == pytest.approx(hit, abs=1e-12)
