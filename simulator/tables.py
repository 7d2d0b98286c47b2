"""A table's rules and an AI policy as integer arrays for the compiled fast path.

A hand is a composition of card values (the analysis's ten ranks: 0 the ace, 9 every
ten-value card) given an id; `next_id[id, value]` is the hand after one more card (-1:
bust). The policy is asked once per state, through a `PlayerView` with the legal actions
of the engine's one rule (`blackjack.turn`), and its answers are stored:
`plain[up, id, can_split]` for hands not made by a split, `split[up, pair, id]` for
two- and three-card hands made by splitting `pair` cards (deeper split hands use `plain`:
no policy here looks at the split beyond its third card) and `resplit[up, pair, hands]`
for a pair again in a box of `hands` hands. The fast path then never calls Python.
"""

from dataclasses import dataclass
from itertools import product

import numpy as np
import numpy.typing as npt

from blackjack.actions import Action, Phase
from blackjack.players import POLICIES
from blackjack.rules import Peek, Rules, Split, Table
from blackjack.strategy.analysis import card_of, cards_of, shoe_counts
from blackjack.strategy.card import analyse
from blackjack.strategy.dealer import total
from blackjack.turn import PlayerView, Policy, play_actions

STAND, HIT, DOUBLE, SPLIT, SURRENDER = range(5)
CODES = {
    Action.STAND: STAND,
    Action.HIT: HIT,
    Action.DOUBLE: DOUBLE,
    Action.SPLIT: SPLIT,
    Action.SURRENDER: SURRENDER,
}

# Indices into the `params` array of the fast path.
P_DECKS, P_CUT, P_PEEK, P_HOLE, P_PAID_AT_DEAL, P_ANY21 = range(6)
P_SPLIT_RULE, P_MAX_HANDS, P_RESPLIT_ACES, P_ACES_ONE_CARD, P_H17 = range(6, 11)
N_PARAMS = 11


@dataclass(frozen=True)
class Compiled:
    params: npt.NDArray[np.int64]
    next_id: npt.NDArray[np.int32]
    totals: npt.NDArray[np.int32]
    cards: npt.NDArray[np.int32]
    plain: npt.NDArray[np.int8]
    split: npt.NDArray[np.int8]
    resplit: npt.NDArray[np.int8]  # [up, pair, hands in box]: a pair in a split hand
    start: npt.NDArray[np.int32]  # id of the one-card hand of each value


def compositions() -> list[tuple[int, ...]]:
    """Every hand of one or more cards that is not bust (hard total at most 21)."""
    out: list[tuple[int, ...]] = []

    def grow(prefix: tuple[int, ...], value: int, room: int) -> None:
        if value == 10:
            if sum(prefix):
                out.append(prefix)
            return
        for n in range(room // (value + 1) + 1):
            grow((*prefix, n), value + 1, room - n * (value + 1))

    grow((), 0, 21)
    return out


def params(rules: Rules) -> npt.NDArray[np.int64]:
    cut = -1
    if rules.cut_default is not None:
        cut = int(52 * rules.decks * rules.cut_default)  # FAIRNESS.md: floor(52n * f)
    split_rule = {Split.NONE: 0, Split.SAME_RANK: 1, Split.SAME_VALUE: 2}[rules.split]
    values = [0] * N_PARAMS
    values[P_DECKS] = rules.decks
    values[P_CUT] = cut
    values[P_PEEK] = int(rules.peek is Peek.ACE_AND_TEN)
    values[P_HOLE] = int(rules.hole_card)
    values[P_PAID_AT_DEAL] = int(rules.natural_paid_at_deal)
    values[P_ANY21] = int(rules.any_21_pays_3_2)
    values[P_SPLIT_RULE] = split_rule
    values[P_MAX_HANDS] = rules.max_hands
    values[P_RESPLIT_ACES] = int(rules.resplit_aces)
    values[P_ACES_ONE_CARD] = int(rules.split_aces_one_card)
    values[P_H17] = int(rules.dealer_hits_soft_17)
    return np.array(values, dtype=np.int64)


def compile_table(table: Table, level: str) -> Compiled:
    """The rules and the policy `level` as arrays (asks the policy once per state)."""
    rules = table.rules
    policy = POLICIES[level]
    if level == "hard":  # one batch for the whole table, not one per state asked
        analyse(rules)
    comps = compositions()
    ids = {comp: i for i, comp in enumerate(comps)}
    n = len(comps)
    next_id = np.full((n, 10), -1, dtype=np.int32)
    totals = np.zeros(n, dtype=np.int32)
    cards = np.zeros(n, dtype=np.int32)
    for comp, i in ids.items():
        totals[i] = total(comp)[0]
        cards[i] = sum(comp)
        for v in range(10):
            more = (*comp[:v], comp[v] + 1, *comp[v + 1 :])
            next_id[i, v] = ids.get(more, -1)
    start = np.array(
        [ids[tuple(int(v == w) for w in range(10))] for v in range(10)], dtype=np.int32
    )
    plain = np.full((10, n, 2), -1, dtype=np.int8)
    split = np.full((10, 10, n), -1, dtype=np.int8)
    resplit = np.full((10, 10, 8), -1, dtype=np.int8)
    shoe = shoe_counts(rules.decks)
    may_split = rules.split is not Split.NONE and rules.max_hands > 1
    for up, comp in product(range(10), comps):
        if sum(comp) < 2 or total(comp)[0] >= 21 or not _fits(shoe, comp, up):
            continue
        i = ids[comp]
        plain[up, i, 0] = _ask(rules, policy, up, comp, None, False)
        if may_split and sum(comp) == 2 and max(comp) == 2:
            plain[up, i, 1] = _ask(rules, policy, up, comp, None, True)
    if may_split:
        for up, comp, pair in product(range(10), comps, range(10)):
            if _split_hand(rules, shoe, up, comp, pair):
                split[up, pair, ids[comp]] = _ask(rules, policy, up, comp, pair, False)
                if sum(comp) == 2 and comp[pair] == 2:
                    for hands in range(2, rules.max_hands):
                        resplit[up, pair, hands] = _ask(rules, policy, up, comp, pair, True, hands)
    return Compiled(params(rules), next_id, totals, cards, plain, split, resplit, start)


def _ask(
    rules: Rules,
    policy: Policy,
    up: int,
    comp: tuple[int, ...],
    pair: int | None,
    can_split: bool,
    hands: int = 2,
) -> int:
    """The policy's action code on the hand `comp` (a split hand of `pair`, if given)."""
    shown = cards_of(comp, pair)
    up_card = card_of(up)
    split_hand = pair is not None
    legal = play_actions(rules, shown, up_card=up_card, split_hand=split_hand, can_split=can_split)
    view = PlayerView(
        rules=rules,
        phase=Phase.PLAYER_TURN,
        cards=shown,
        up_card=up_card,
        legal_actions=legal,
        hands_in_box=1 if pair is None else hands,
        split_hand=split_hand,
    )
    return CODES[policy(view)]


def _fits(
    shoe: tuple[int, ...], comp: tuple[int, ...], up: int, sibling: int | None = None
) -> bool:
    """The shoe holds these cards besides the up card (and the split sibling)."""
    return all(n + (v == up) + (v == sibling) <= shoe[v] for v, n in enumerate(comp))


def _split_hand(
    rules: Rules, shoe: tuple[int, ...], up: int, comp: tuple[int, ...], pair: int
) -> bool:
    """Whether `comp` is a split hand of `pair` that still decides (two or three cards,
    not a split ace that takes one card, under 21, and dealt from this shoe)."""
    if not 2 <= sum(comp) <= 3 or not comp[pair]:
        return False
    if sum(comp) == 3 and pair == 0 and rules.split_aces_one_card:
        return False
    return total(comp)[0] < 21 and _fits(shoe, comp, up, pair)
