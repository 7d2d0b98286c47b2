"""What the `hard` AI and the hint endpoint see: the EV of each legal action of a hand.

Values are per unit of the hand's original bet (a double stakes two units). Where the
dealer has checked for a natural (peek tables, ace or ten up) they are conditional on
there being none; elsewhere they are unconditional, a dealer natural taking all staked.
A dealt two-card hand reads the shipped strategy card; any other hand (three or more
cards, or made by a split) is computed on demand by the memoised solver of its table and
up card (`solvers.kept_solver`: the kernel's where it is loaded), which removes the hand's
own cards and, for a split hand, one card of the pair it was split from (the analysis's
approximation: the view shows no sibling hand).

Insurance phase (one decision per box, taken on its two cards): `decline_insurance` is
the EV of the hand played at best from here, before the dealer checks; `insurance` adds
the insurance bet of half the hand's bet, which pays 2:1 on a dealer natural:
0.5 * (3b - 1), b the chance of a ten in the hole given the hand; `even_money` is 1.
At `casino` the insurance of a box whose hands all bust is lost even against a natural;
the figure shown ignores that, so it is an upper bound. Off the top of a shoe insurance
and even money are never worth it, and `hard` declines them.
"""

from ..actions import Action, Phase
from ..cards import Card, points
from ..rules import TABLES, Rules, Shuffle
from ..turn import PlayerView
from .analysis import (
    DOUBLE,
    EMPTY,
    HIT,
    SPLIT,
    STAND,
    SURRENDER,
    UpCardSolver,
    merge,
    of_ranks,
    shoe_counts,
)
from .card import hand_key, label, shipped_ev, table_of
from .dealer import Comp, add, total
from .solvers import kept_solver

_ACTIONS = {
    STAND: Action.STAND,
    HIT: Action.HIT,
    DOUBLE: Action.DOUBLE,
    SPLIT: Action.SPLIT,
    SURRENDER: Action.SURRENDER,
}
# Ties (equal EVs) go to the first of these: the simplest play.
_PREFERENCE = (
    Action.DECLINE_INSURANCE,
    Action.STAND,
    Action.HIT,
    Action.DOUBLE,
    Action.SPLIT,
    Action.SURRENDER,
    Action.INSURANCE,
    Action.EVEN_MONEY,
)


def rank(card: Card) -> int:
    """A card's rank index in the analysis: 0 the ace, 9 every ten-value card."""
    return points(card) - 1


def _dealt_values(
    view: PlayerView, s: UpCardSolver, hand: Comp, shipped: str | None
) -> dict[str, float]:
    """The first decision of a dealt two-card hand: the `shipped` table's card, else
    computed (custom rules, as in the tests, and the `expert` level)."""
    if shipped is not None:
        first, second = (rank(card) for card in view.cards)
        return shipped_ev(shipped)[hand_key(first, second)][label(s.up)]
    return {a: s.conditional(v, hand) for a, v in s.first_decision(hand).items()}


def _computed_values(
    view: PlayerView, s: UpCardSolver, hand: Comp, sibling: Comp
) -> dict[str, float]:
    """A hand of three or more cards, or one made by a split, valued as the analysis
    values it: a split hand with its sibling's first card removed up to its third card,
    and from its fourth card on as an ordinary hand (renormalised at peek tables).
    `sibling` is EMPTY where the solver's pool already lacks that card (`expert`)."""
    removed = merge(sibling, hand)
    cards = len(view.cards)
    extra = sibling if cards <= 3 else EMPTY
    ordinary = s.renormalise(hand, removed)  # scales values computed without the sibling
    # One batch for the hand and all it can become (a contraction costs about the same
    # for one composition as for hundreds).
    legal = set(view.legal_actions)
    pair = rank(view.cards[0]) if Action.SPLIT in legal else None
    roots, shallow = s.decision_roots(hand, Action.DOUBLE in legal, pair, extra)
    if extra != EMPTY and cards == 2:
        more = [add(hand, r) for r, _ in s.draw(removed)]
        roots += more
        shallow += [(extra, m) for m in more]
    s.prepare(roots, shallow)
    values: dict[str, float] = {}
    if Action.STAND in legal:
        values[STAND] = s.stand(extra, hand) * (1.0 if extra == sibling else ordinary)
    if Action.HIT in legal:
        if extra == EMPTY or cards == 2:
            values[HIT] = s.hit(extra, hand) * (1.0 if extra == sibling else ordinary)
        else:  # a split hand's third card: hitting goes on as an ordinary hand
            values[HIT] = s.hit(EMPTY, hand) * ordinary
    if Action.DOUBLE in legal:
        values[DOUBLE] = s.double(extra, hand)
    if Action.SPLIT in legal:
        values[SPLIT] = s.split(rank(view.cards[0]), extra, view.hands_in_box)
    if Action.SURRENDER in legal:
        values[SURRENDER] = s.surrender(extra, hand)
    return {a: s.conditional(v, removed) for a, v in values.items()}


def _insurance_values(
    view: PlayerView, s: UpCardSolver, hand: Comp, shipped: str | None
) -> dict[Action, float]:
    b = s.natural_chance(hand)
    first = _dealt_values(view, s, hand, shipped)
    natural = total(hand)[0] == 21
    if natural:
        decline = 1.5 * (1.0 - b)  # natural against natural: a push
    elif s.peeked:
        decline = (1.0 - b) * max(first.values()) - b
    else:
        decline = max(first.values())
    values = {
        Action.DECLINE_INSURANCE: decline,
        Action.INSURANCE: decline + 0.5 * (3.0 * b - 1.0),
        Action.EVEN_MONEY: 1.0,
    }
    return {a: v for a, v in values.items() if a in view.legal_actions}


def _values(
    view: PlayerView, s: UpCardSolver, sibling: Comp, shipped: str | None
) -> dict[Action, float]:
    """The EV of each legal action by solver `s` (its pool: what the hand's cards came
    from); `shipped` names the table whose card values dealt hands from the full shoe."""
    hand = of_ranks(*(rank(card) for card in view.cards))
    if view.phase is Phase.INSURANCE:
        return _insurance_values(view, s, hand, shipped)
    if len(view.cards) == 2 and not view.split_hand and view.hands_in_box == 1:
        values = _dealt_values(view, s, hand, shipped)
    else:
        values = _computed_values(view, s, hand, sibling)
    return {_ACTIONS[a]: v for a, v in values.items() if _ACTIONS[a] in view.legal_actions}


def _asked(view: PlayerView) -> bool:
    return bool(view.legal_actions) and view.phase is not Phase.SETTLED


def action_values(view: PlayerView) -> dict[Action, float] | None:
    """The EV of each legal action (see the module docstring); None when nothing is asked."""
    if not _asked(view):
        return None
    sibling = of_ranks(rank(view.cards[0])) if view.split_hand else EMPTY
    s = kept_solver(view.rules, rank(view.up_card))
    return _values(view, s, sibling, table_of(view.rules))


def plays_as_hard(rules: Rules) -> bool:
    """RULES.md: at tables that shuffle every round and seat one box, `expert` is `hard`."""
    table_id = table_of(rules)
    return (
        rules.shuffle is Shuffle.EVERY_ROUND
        and table_id is not None
        and TABLES[table_id].boxes == 1
    )


def expert_values(view: PlayerView, unseen: Comp) -> dict[Action, float] | None:
    """The EV of each legal action given the `unseen` cards (the shoe less its public
    cards: the dealer's face-down card is unseen), per unit of the hand's original bet,
    with `action_values`'s conventions; None when nothing is asked. The hand's cards are
    public, so its pool is `unseen` plus them; a split hand's sibling cards are public
    too, so nothing is removed for them beyond what `unseen` lacks."""
    if not _asked(view):
        return None
    rules = view.rules
    if plays_as_hard(rules):
        return action_values(view)
    up = rank(view.up_card)
    pool = merge(unseen, of_ranks(*(rank(card) for card in view.cards)))
    if pool == add(shoe_counts(rules.decks), up, -1):
        # Nothing public but the hand and the up card: `hard`'s solver and card.
        return _values(view, kept_solver(rules, up), EMPTY, table_of(rules))
    # Kept while the hand plays on (hitting moves a card from the unseen cards to the
    # hand: the pool stays) and for the grading of the same moment.
    return _values(view, kept_solver(rules, up, pool), EMPTY, None)


def expert_best(view: PlayerView, unseen: Comp) -> Action:
    """The legal action of highest EV given the unseen cards (ties: the simplest play)."""
    values = expert_values(view, unseen)
    if not values:
        return view.legal_actions[0]
    return best_of(values)


def best_of(values: dict[Action, float]) -> Action:
    """The action of highest EV among `values` (ties: the simplest play)."""
    return max(values, key=lambda a: (values[a], -_PREFERENCE.index(a)))


def best_action(view: PlayerView) -> Action:
    """The legal action of highest EV (ties: the simplest play)."""
    values = action_values(view)
    if not values:
        return view.legal_actions[0]
    return best_of(values)
