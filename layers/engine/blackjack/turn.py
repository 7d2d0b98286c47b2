"""A player's turn: what the rules let the hand or box in turn do, and all its player sees.

`insurance_actions`, `play_actions` and `may_split` are the one statement of the legal
actions: the round asks them, and so do the analysis and the simulator's table compiler
for the hands they value. AI players (a `Policy`), the hint and the trainer decide on a
`PlayerView`: their own hand, the dealer's face-up card, the table's rules and the actions
legal now, never the shoe or the hole card.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .actions import Action, Phase
from .cards import Card, hand_value, is_ace, points
from .rules import Double, Rules, Split, Surrender


@dataclass(frozen=True, slots=True)
class PlayerView:
    rules: Rules
    phase: Phase
    cards: tuple[Card, ...]
    up_card: Card
    legal_actions: tuple[Action, ...]
    hands_in_box: int
    split_hand: bool


Policy = Callable[[PlayerView], Action]


def insurance_actions(rules: Rules, *, natural: bool) -> tuple[Action, ...]:
    """A box asked about insurance; even money instead where the table offers it on a
    natural."""
    if rules.even_money and natural:
        return (Action.EVEN_MONEY, Action.DECLINE_INSURANCE)
    return (Action.INSURANCE, Action.DECLINE_INSURANCE)


def play_actions(
    rules: Rules, cards: Sequence[Card], *, up_card: Card, split_hand: bool, can_split: bool
) -> tuple[Action, ...]:
    """A hand in its turn (made by a split or not) against `up_card`. `can_split` is
    `may_split` where the box is known (the round); the analysis and the simulator, whose
    hands know neither their box nor which ten-value ranks they hold, set it for the
    states they value."""
    two_cards = len(cards) == 2
    if split_hand and is_ace(cards[0]) and rules.split_aces_one_card:
        # A split ace has its one card; another ace may be split again where allowed.
        return (Action.SPLIT, Action.STAND) if can_split else (Action.STAND,)
    actions = [Action.HIT, Action.STAND]
    if two_cards and _may_double(rules, cards, split_hand):
        actions.append(Action.DOUBLE)
    if can_split:
        actions.append(Action.SPLIT)
    # Surrender is the first decision of a box (RULES.md: two cards, not split).
    if (
        two_cards
        and rules.surrender is Surrender.EARLY_NOT_ACE
        and not split_hand
        and not is_ace(up_card)
    ):
        actions.append(Action.SURRENDER)
    return tuple(actions)


def may_split(rules: Rules, cards: Sequence[Card], *, hands_in_box: int, split_hand: bool) -> bool:
    """Two cards of one rank or value, as the table says, in a box with room for another
    hand; split aces split again only where the table allows."""
    if len(cards) != 2 or hands_in_box >= rules.max_hands:
        return False
    first, second = cards
    if rules.split is Split.SAME_RANK:
        pair = first[0] == second[0]
    elif rules.split is Split.SAME_VALUE:
        pair = points(first) == points(second)
    else:
        return False
    return pair and not (split_hand and is_ace(first) and not rules.resplit_aces)


def _may_double(rules: Rules, cards: Sequence[Card], split_hand: bool) -> bool:
    if split_hand and not rules.double_after_split:
        return False
    if rules.double is Double.ANY:
        return True
    if rules.double is Double.NINE_TEN_ELEVEN:
        total, soft = hand_value(cards)
        return not soft and 9 <= total <= 11
    return False
