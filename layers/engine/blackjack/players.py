"""AI players. Each sees only its own hand, the dealer's face-up card, the table's rules and
the actions legal now: a `PlayerView`, never the shoe or the hole card. The `expert`
player sees the unseen composition as well (`count.unseen`: the shoe less its public
cards), which a view does not hold, and the `counter` its Hi-Lo true count (taken from the
same); so each is a policy made for one moment of the shoe (`expert`, `counter`), not one
of `POLICIES`."""

from decimal import Decimal
from typing import TYPE_CHECKING

from .actions import Action, Phase
from .cards import Card, hand_value, points
from .turn import PlayerView, Policy

if TYPE_CHECKING:  # the analysis stays out of cold starts (see `hard`)
    from .strategy.dealer import Comp
    from .strategy.indices import Index

_UP_CARDS = "23456789TA"

# A textbook basic-strategy chart (multi-deck, dealer stands on soft 17, double after
# split), one string per row, one letter per up card 2..9, T, A:
# H hit, S stand, D double else hit, d double else stand, P split, R surrender else hit.
_HARD = {
    **dict.fromkeys(range(4, 9), "HHHHHHHHHH"),
    9: "HDDDDHHHHH",
    10: "DDDDDDDDHH",
    11: "DDDDDDDDDH",
    12: "HHSSSHHHHH",
    13: "SSSSSHHHHH",
    14: "SSSSSHHHHH",
    15: "SSSSSHHHRH",
    16: "SSSSSHHRRR",
    **dict.fromkeys(range(17, 22), "SSSSSSSSSS"),
}
_SOFT = {
    12: "HHHHHHHHHH",
    13: "HHHDDHHHHH",
    14: "HHHDDHHHHH",
    15: "HHDDDHHHHH",
    16: "HHDDDHHHHH",
    17: "HDDDDHHHHH",
    18: "SddddSSHHH",
    **dict.fromkeys(range(19, 22), "SSSSSSSSSS"),
}
_PAIRS = {  # by the value of one card: "P" splits, any other letter plays the total
    "2": "PPPPPPHHHH",
    "3": "PPPPPPHHHH",
    "4": "HHHPPHHHHH",
    "5": "----------",
    "6": "PPPPPHHHHH",
    "7": "PPPPPPHHHH",
    "8": "PPPPPPPPPP",
    "9": "PPPPPSPPSS",
    "T": "----------",
    "A": "PPPPPPPPPP",
}
_FALLBACK = {"D": Action.HIT, "d": Action.STAND, "R": Action.HIT}
_LETTERS = {
    "H": Action.HIT,
    "S": Action.STAND,
    "D": Action.DOUBLE,
    "d": Action.DOUBLE,
    "R": Action.SURRENDER,
    "P": Action.SPLIT,
}


def _value_key(card: Card) -> str:
    value = points(card)
    return "A" if value == 1 else "T" if value == 10 else str(value)


def _column(up_card: Card) -> int:
    return _UP_CARDS.index(_value_key(up_card))


def _legal_or_stand(action: Action, view: PlayerView) -> Action:
    if action in view.legal_actions:
        return action
    if Action.STAND in view.legal_actions:
        return Action.STAND
    return view.legal_actions[0]


def easy(view: PlayerView) -> Action:
    """Hits below 17, stands on 17 or more; never insures."""
    if view.phase is Phase.INSURANCE:
        return Action.DECLINE_INSURANCE
    total = hand_value(view.cards).total
    return _legal_or_stand(Action.HIT if total < 17 else Action.STAND, view)


def medium(view: PlayerView) -> Action:
    """The textbook chart, limited to the actions legal at the table; never insures."""
    if view.phase is Phase.INSURANCE:
        return Action.DECLINE_INSURANCE
    column = _column(view.up_card)
    if Action.SPLIT in view.legal_actions and _PAIRS[_value_key(view.cards[0])][column] == "P":
        return Action.SPLIT
    total, soft = hand_value(view.cards)
    letter = (_SOFT if soft else _HARD)[total][column]
    action = _LETTERS[letter]
    if action not in view.legal_actions and letter in _FALLBACK:
        action = _FALLBACK[letter]
    return _legal_or_stand(action, view)


def hard(view: PlayerView) -> Action:
    """The legal action of highest exact EV for its own cards against the up card at its
    table (composition-dependent, removal from a full shoe; no count, no hole card); never
    insures: insurance and even money are never worth it off the top."""
    from .strategy import best_action  # on first use: the analysis stays out of cold starts

    return best_action(view)


def expert(unseen: "Comp") -> Policy:
    """The `expert` player at the moment whose unseen cards are `unseen`: the legal action
    of highest exact EV for those cards (RULES.md, "AI levels"); it insures when that pays.
    Make it again whenever a card turns public."""
    from .strategy.advisor import expert_best  # on first use, as in `hard`

    def play(view: PlayerView) -> Action:
        return expert_best(view, unseen)

    return play


def counter_play(view: PlayerView, unseen: "Comp") -> tuple[Action, "Index | None"]:
    """What the `counter` player does on `view` when the unseen cards are `unseen` (the
    true count is theirs, as the hint's `count` shows it), and the index play that changed
    the card's action (None where it plays the card, or `medium`): `counter_at`."""
    from .count import true_count

    return counter_at(view, true_count(view.rules.decks, unseen))


def counter_at(view: PlayerView, true: Decimal) -> tuple[Action, "Index | None"]:
    """The `counter` at true count `true` (RULES.md, "AI levels"): the card's cell, or
    the index's play where the count reaches it; `medium` where that is not legal or the
    hand has no cell; insurance and even money exactly from the insurance index on."""
    from .strategy.indices import counted_play, insurance_play  # on first use, as `hard`

    if view.phase is Phase.INSURANCE:
        index = insurance_play(view.rules)
        if index is None or not index.applies(true):
            return Action.DECLINE_INSURANCE, None
        taken = Action.EVEN_MONEY if Action.EVEN_MONEY in view.legal_actions else index.play
        return _legal_or_stand(taken, view), index
    counted = counted_play(view, true)
    if counted is None or counted[0] not in view.legal_actions:
        return medium(view), None
    return counted


def counter(unseen: "Comp") -> Policy:
    """The `counter` player at the moment whose unseen cards are `unseen` (see
    `counter_play`). Make it again whenever a card turns public."""

    def play(view: PlayerView) -> Action:
        return counter_play(view, unseen)[0]

    return play


POLICIES: dict[str, Policy] = {"easy": easy, "medium": medium, "hard": hard}
LEVELS = tuple(POLICIES)  # the levels that decide on a view alone
EXPERT = "expert"
COUNTER = "counter"
SHOE_POLICIES = {EXPERT: expert, COUNTER: counter}  # the levels that see the unseen cards
AI_LEVELS = (*LEVELS, *SHOE_POLICIES)  # API.md's AI levels


def decide(level: str, view: PlayerView, unseen: "Comp | None" = None) -> Action:
    """What the player of `level` does on `view`; `expert` and `counter` need the unseen
    cards."""
    if level in SHOE_POLICIES:
        if unseen is None:
            raise ValueError(f"the {level} level decides from the unseen cards")
        return SHOE_POLICIES[level](unseen)(view)
    return POLICIES[level](view)


def advice(
    level: str, view: PlayerView, unseen: "Comp"
) -> tuple[Action, dict[Action, float] | None]:
    """What the player of `level` does on `view`, and the expected value of each legal
    action it decides by, per unit of the hand's original bet (`hard` and `expert`, by the
    exact analysis: `blackjack.strategy.advisor` says what is shown in each phase; None at
    the levels that play a chart). Valued once: the action is the best of those values."""
    from .strategy import action_values, best_of, expert_values  # on first use, as `hard`

    values = (
        action_values(view)
        if level == "hard"
        else expert_values(view, unseen)
        if level == EXPERT
        else None
    )
    return (decide(level, view, unseen) if values is None else best_of(values)), values
