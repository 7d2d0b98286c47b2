"""Exact combinatorial analysis of a table's rules: the EV of every action.

Everything is per up card and per unit of a hand's original bet. Removal is exact: the
dealer's up card and the player's cards are gone from the shoe, and the dealer's
probabilities and every hit are computed from what is left (`dealer.py`). Nothing else is
known: no other box, no count, no hole card. Hitting is played out recursively over
compositions with a memo, so a hand of any length is valued exactly; standing is not even
computed where hitting provably dominates it (see `stand_dominated`).

Peek. Where the dealer checks for a natural under an ace or a ten (`Peek.ACE_AND_TEN`),
the EVs of the player's decisions are conditional on the dealer having no natural. The
solver works with U = E[result * 1{no dealer natural}] (a natural outcome contributes 0),
which is additive over the player's draws; the conditional EV is U / (1 - b), b being the
chance of a dealer natural given the player's cards. Elsewhere (no peek, no hole card)
a dealer natural beats every non-natural hand and takes all that is staked: doubled
stakes and every split hand included, and values are unconditional.

Splits (the stated approximation). A hand made by a split takes its decisions on two
cards (stand, double after split where allowed, hit) and on its third card (stand, or hit
on) with the up card, both cards of the original pair and its own cards removed; from its
third card on, hitting is valued as for an ordinary hand of the same cards (the sibling's
first card no longer removed, renormalised to its no-natural chance at peek tables).
Nothing of the sibling hands' later cards is known. Split aces take one card where the
table says so. Resplits are counted, not simulated: with q the chance that a split hand's
second card pairs it again (from that same composition), a small Markov chain over
(hands waiting, hands made) gives the expected number of final hands that drew a
non-pair card and of those that drew a pair card when no resplit was allowed any more
(played without splitting); the split EV is
n_other * E[hand | non-pair card] + n_pair * E[pair hand, no split]. Measured against
published exact figures the whole approximation moves the house edge by under 0.001
percentage points (tests/unit/strategy/test_analysis.py); ignoring the sibling's card
altogether would move the one-deck figure by 0.014. At `same_rank` tables the ten pair
valued here is two tens of one rank; two unequal tens, dealt as often as
`one_rank_chance` leaves, play it without the split (`card.UpCardResult`).

`classic`: naturals and any 21 of three or more cards win 3:2 at once, whatever the
dealer holds. Early surrender (`casino`, not against an ace) returns half the bet before
the dealer's natural is known.
"""

import operator
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from operator import sub

from ..actions import Action
from ..cards import Card
from ..rules import Peek, Rules, Split
from ..turn import may_split, play_actions
from .dealer import (
    ACE,
    RANKS,
    TEN,
    Comp,
    Counts,
    add,
    capacity,
    outcome_chances,
    stand_values,
    total,
)

EMPTY: Comp = (0,) * RANKS

STAND = "stand"
HIT = "hit"
DOUBLE = "double"
SPLIT = "split"
SURRENDER = "surrender"


def shoe_counts(decks: int) -> Comp:
    return (4 * decks,) * 9 + (16 * decks,)


def merge(a: Comp, b: Comp) -> Comp:
    return tuple(map(operator.add, a, b))


def of_ranks(*ranks: int) -> Comp:
    comp = EMPTY
    for rank in ranks:
        comp = add(comp, rank)
    return comp


def card_of(rank: int) -> Card:
    """A card of the rank (a ten for every ten-value card; suits do not matter)."""
    return "A23456789T"[rank] + "S"


def cards_of(hand: Comp, first: int | None = None) -> tuple[Card, ...]:
    """The hand's cards, as the engine's rules take them; a split hand's pair card first."""
    ranks = [rank for rank, count in enumerate(hand) for _ in range(count)]
    if first is not None:
        ranks.remove(first)
        ranks.insert(0, first)
    return tuple(map(card_of, ranks))


@cache
def split_hand_counts(q: float, hands: int, max_hands: int) -> tuple[float, float]:
    """Expected final hands (drew a non-pair card, drew a pair card with no resplit left)
    when a split brings a box to `hands` hands, each new hand pairing again with
    probability q."""

    def play(waiting: int, made: int) -> tuple[float, float]:
        if waiting == 0:
            return 0.0, 0.0
        other, pair = play(waiting - 1, made)
        other += 1.0
        if made < max_hands:
            resplit_other, resplit_pair = play(waiting + 1, made + 1)
        else:
            resplit_other, resplit_pair = other - 1.0, pair + 1.0
        return (
            (1 - q) * other + q * resplit_other,
            (1 - q) * pair + q * resplit_pair,
        )

    return play(2, hands)


@dataclass
class UpCardSolver:
    """Values of player hands against one up card; memoised, filled on demand. The
    Python reference of the analysis: the kernel (`native.KernelSolver`) has the same
    methods and is tested equal to it; `solvers.solver` chooses between them.

    `pool` is the composition the player's cards are removed from: by default the full
    shoe less the up card (the analysis, `hard`); the `expert` level gives the unseen
    cards plus the hand's own (`advisor.expert_values`)."""

    rules: Rules
    up: int
    pool: Counts | None = None
    counts: Counts = field(init=False)
    size: float = field(init=False)
    peeked: bool = field(init=False)
    _natural_loss: float = field(init=False)
    _stand: dict[tuple[Comp, int], float] = field(default_factory=dict, init=False)
    _best: dict[Comp, float] = field(default_factory=dict, init=False)
    _dealer: dict[Comp, list[float]] = field(default_factory=dict, init=False)
    _explored: set[Comp] = field(default_factory=set, init=False)  # subtree prepared

    def __post_init__(self) -> None:
        fresh = add(shoe_counts(self.rules.decks), self.up, -1)
        self.counts = fresh if self.pool is None else self.pool
        self.size = sum(self.counts)
        self.peeked = self.rules.peek is Peek.ACE_AND_TEN and self.up in (ACE, TEN)
        self._natural_loss = 0.0 if self.peeked else 1.0

    # ---- probabilities ------------------------------------------------------------

    def left(self, removed: Comp, rank: int) -> float:
        return self.counts[rank] - removed[rank]

    def draw(self, removed: Comp) -> list[tuple[int, float]]:
        """Each rank that can come next, with its probability."""
        remaining = self.size - sum(removed)
        return [
            (rank, n / remaining) for rank, n in enumerate(map(sub, self.counts, removed)) if n != 0
        ]

    def one_rank_chance(self) -> float:
        """The chance that two ten-value cards dealt from the pool are of one rank (a pair
        that `same_rank` tables split), a quarter of the shoe's tens being of each rank:
        with `a` of each (the up card counted back in), (a - 1) / (4a - 1), whether the up
        card is a ten or not."""
        a = (self.counts[TEN] + (self.up == TEN)) / 4
        return (a - 1) / (4 * a - 1)

    def natural_chance(self, removed: Comp) -> float:
        """The chance the dealer's (hole or second) card makes a natural."""
        if self.up == ACE:
            need = TEN
        elif self.up == TEN:
            need = ACE
        else:
            return 0.0
        return self.left(removed, need) / (self.size - sum(removed))

    # ---- filling the memo -----------------------------------------------------------

    def _pays_at_once(self, hand: Comp) -> bool:
        """`classic`: a 21 of three or more cards wins 3:2 whatever the dealer holds."""
        return self.rules.any_21_pays_3_2 and sum(hand) >= 3 and total(hand)[0] == 21

    def prepare(
        self, hands: Iterable[Comp] = (), shallow: Iterable[tuple[Comp, Comp]] = ()
    ) -> None:
        """Compute in one batch the stand values that every hand reachable by hitting from
        `hands` may need, and those of the (extra removed cards, hand) pairs `shallow`."""
        wanted: dict[int, set[Comp]] = defaultdict(set)

        def want(removed: Comp, hand: Comp) -> None:
            points = total(hand)[0]
            key = (removed, max(points, 16))
            if points <= 21 and key not in self._stand and not self._pays_at_once(hand):
                wanted[key[1]].add(removed)

        for extra, hand in shallow:
            want(merge(extra, hand), hand)
        seen = self._explored
        most = capacity(self.counts)
        stack = [hand for hand in hands if hand not in seen and total(hand)[0] <= 21]
        while stack:
            hand = stack.pop()
            if hand in seen:
                continue
            seen.add(hand)  # its whole subtree is wanted in this batch
            if not stand_dominated(hand):
                want(hand, hand)
            if total(hand)[0] < 21:
                stack.extend(more for rank, more in unbusted(hand) if hand[rank] < most[rank])
        if wanted:
            self._stand.update(
                stand_values(
                    self.counts,
                    self.up,
                    self.rules.dealer_hits_soft_17,
                    wanted,
                    self._natural_loss,
                )
            )

    def dealer(self, removed: Comp) -> list[float]:
        """The dealer's chance of each outcome (17..21, bust, natural) with `removed` gone
        from the pool. A miss also computes those of every composition stand-valued so
        far (the hands a caller plays on): one batch costs about what one composition
        does."""
        chances = self._dealer.get(removed)
        if chances is None:
            batch = {comp for comp, _ in self._stand if comp not in self._dealer}
            batch.add(removed)
            h17 = self.rules.dealer_hits_soft_17
            self._dealer.update(outcome_chances(self.counts, self.up, h17, batch))
            chances = self._dealer.get(removed)
            if chances is None:
                raise ValueError(f"a shoe of {self.rules.decks} decks cannot hold {removed}")
        return chances

    # ---- values (U: see the module docstring) ----------------------------------------

    def bust(self, removed: Comp) -> float:
        if not self.peeked:
            return -1.0  # what the sum below gives: the natural's weight is 0.0
        return -1.0 + (1.0 - self._natural_loss) * self.natural_chance(removed)

    def stand(self, extra: Comp, hand: Comp) -> float:
        points = total(hand)[0]
        removed = merge(extra, hand)
        if points > 21:
            return self.bust(removed)
        if self._pays_at_once(hand):
            return 1.5
        key = (removed, max(points, 16))
        value = self._stand.get(key)
        if value is None:
            self.prepare(shallow=[(extra, hand)])
            value = self._stand.get(key)
            if value is None:
                raise ValueError(f"a shoe of {self.rules.decks} decks cannot hold {removed}")
        return value

    def best(self, hand: Comp) -> float:
        """A hand not made by a split, standing or hitting, whichever is better, played on
        to the end."""
        value = self._best.get(hand)
        if value is None:
            points = total(hand)[0]
            if points > 21:
                value = self.bust(hand)
            elif points == 21:
                value = self.stand(EMPTY, hand)
            else:
                if hand not in self._explored:
                    self.prepare([hand])
                value = self.hit(EMPTY, hand)
                if not stand_dominated(hand):
                    stand = self._stand.get((hand, max(points, 16)))
                    if stand is None:
                        stand = self.stand(EMPTY, hand)
                    value = max(stand, value)
            self._best[hand] = value
        return value

    def hit(self, extra: Comp, hand: Comp) -> float:
        """Take a card, then play on. A hand made by a split (`extra` not empty) plays its
        third card with the sibling's card removed, and on from there as an ordinary
        hand (the stated approximation)."""
        removed = merge(extra, hand)
        if extra == EMPTY:
            return self._hit_on(hand)
        value = 0.0
        for rank, p in self.draw(removed):
            more = add(hand, rank)
            points = total(more)[0]
            if points >= 21:
                value += p * self.stand(extra, more)
            else:
                on = self.hit(EMPTY, more) * self.renormalise(more, merge(extra, more))
                value += p * max(self.stand(extra, more), on)
        return value

    def _hit_on(self, hand: Comp) -> float:
        """`hit` of a hand not made by a split: the sum over the next card of p times the
        best value of the hand it makes, in rank order (the order the shipped cards were
        summed in). The memo is read here: this is the hot loop of a big tree, and most
        hands it meets are memoised already."""
        memo = self._best
        more = successors(hand)
        value = 0.0
        for rank, p in self.draw(hand):
            known = memo.get(more[rank])
            value += p * (self.best(more[rank]) if known is None else known)
        return value

    def renormalise(self, known: Comp, removed: Comp) -> float:
        """Scale a U computed with `known` removed to the no-natural chance of `removed`."""
        if not self.peeked:
            return 1.0
        return (1.0 - self.natural_chance(removed)) / (1.0 - self.natural_chance(known))

    def double(self, extra: Comp, hand: Comp) -> float:
        removed = merge(extra, hand)
        return 2.0 * sum(p * self.stand(extra, add(hand, rank)) for rank, p in self.draw(removed))

    def surrender(self, extra: Comp, hand: Comp) -> float:
        if self.peeked:
            return -0.5 * (1.0 - self.natural_chance(merge(extra, hand)))
        return -0.5

    def legal(self, hand: Comp, *, pair: int | None = None) -> tuple[Action, ...]:
        """The engine's legal actions for a hand dealt, or made by splitting `pair` cards
        (which splits no further here: resplits are counted, see `split`)."""
        cards = cards_of(hand, pair)
        dealt = pair is None
        can_split = dealt and may_split(self.rules, cards, hands_in_box=1, split_hand=False)
        return play_actions(
            self.rules, cards, up_card=card_of(self.up), split_hand=not dealt, can_split=can_split
        )

    # ---- splits ------------------------------------------------------------------------

    def split_hand_options(self, pair: int, extra: Comp, hand: Comp) -> dict[str, float]:
        """A two-card hand made by splitting `pair` cards, without a further split."""
        legal = self.legal(hand, pair=pair)
        options = {STAND: self.stand(extra, hand)}
        if Action.HIT in legal and total(hand)[0] < 21:  # a 21 stands by itself
            options[HIT] = self.hit(extra, hand)
        if Action.DOUBLE in legal:
            options[DOUBLE] = self.double(extra, hand)
        return options

    def prepare_first_decisions(self, hands: Sequence[Comp]) -> None:
        """`prepare` every first decision of these two-card hands in one batch, the hands
        their splits make included (see `split`)."""
        roots = list(hands)
        shallow = [(EMPTY, hand) for hand in roots]  # stand is shown even where dominated
        if self.rules.split is not Split.NONE:
            for pair in range(RANKS):
                if self.left(of_ranks(pair, pair), pair) >= 0:
                    more, pairs = self.split_roots(pair)
                    roots += more
                    shallow += pairs
        self.prepare(roots, shallow)

    def split_roots(
        self, pair: int, extra: Comp = EMPTY
    ) -> tuple[list[Comp], list[tuple[Comp, Comp]]]:
        """What `prepare` needs for splitting `pair` cards: the ordinary hands the split
        hands continue as, and the (extra, hand) pairs valued with the sibling removed."""
        removed = merge(extra, of_ranks(pair, pair))
        after = add(extra, pair)
        hands: list[Comp] = []
        shallow: list[tuple[Comp, Comp]] = []
        for rank, _ in self.draw(removed):
            two = of_ranks(pair, rank)
            shallow.append((after, two))
            for third, _ in self.draw(merge(after, two)):
                three = add(two, third)
                shallow.append((after, three))
                hands.append(three)
        return hands, shallow

    def decision_roots(
        self, hand: Comp, double: bool, pair: int | None, extra: Comp = EMPTY
    ) -> tuple[list[Comp], list[tuple[Comp, Comp]]]:
        """What `prepare` needs to value every action of a hand at once: one batch (a
        contraction costs about the same for one composition as for hundreds). A
        double stands on hands whose stand the tree skips (`stand_dominated`)."""
        roots = [hand]
        shallow = [(extra, hand)]
        if double:
            shallow += [(extra, add(hand, r)) for r, _ in self.draw(merge(extra, hand))]
        if pair is not None:
            more, pairs = self.split_roots(pair, extra)
            roots += more
            shallow += pairs
        return roots, shallow

    def split(self, pair: int, extra: Comp = EMPTY, hands: int = 1) -> float:
        """Split a pair of `pair` cards from a box holding `hands` hands; `extra` is
        what else is known gone (for a resplit, the first split's other card)."""
        rules = self.rules
        removed = merge(extra, of_ranks(pair, pair))
        after = add(extra, pair)  # each new hand also lacks its sibling's first card
        max_hands = rules.max_hands if pair != ACE or rules.resplit_aces else 2
        remaining = self.size - sum(removed)
        if rules.split is Split.SAME_RANK and pair == TEN:
            # Two of one ten-value rank: only that rank pairs them again. A pool does not
            # say which ten-value ranks it holds: a quarter of its tens is the estimate.
            of_rank = 4 * rules.decks if self.pool is None else self.counts[TEN] / 4
            q = max(0, of_rank - removed[TEN]) / remaining
        else:
            q = self.left(removed, pair) / remaining
        self.prepare(*self.split_roots(pair, extra))
        other = 0.0  # Σ p·value over the cards that do not pair the hand again
        pair_hand = 0.0
        for rank, p in self.draw(removed):
            value = max(self.split_hand_options(pair, after, of_ranks(pair, rank)).values())
            if rank == pair:
                pair_hand = value
                # A ten of another rank makes the same 20, but one that pairs nothing.
                other += (p - q) * value
            else:
                other += p * value
        n_other, n_pair = split_hand_counts(q, hands + 1, max_hands)
        per_other = other / (1.0 - q) if q < 1.0 else 0.0
        return n_other * per_other + n_pair * pair_hand

    # ---- a two-card hand's first decision --------------------------------------------

    def first_decision(self, hand: Comp) -> dict[str, float]:
        """U of every action legal on a dealt two-card hand (a natural: {"stand": U})."""
        rules = self.rules
        if total(hand)[0] == 21:
            if rules.natural_paid_at_deal:
                return {STAND: 1.5}
            # Natural against natural is a push.
            return {STAND: 1.5 * (1.0 - self.natural_chance(hand))}
        legal = self.legal(hand)
        pair = pair_rank(hand) if Action.SPLIT in legal else None
        self.prepare(*self.decision_roots(hand, Action.DOUBLE in legal, pair))
        options = {STAND: self.stand(EMPTY, hand), HIT: self.hit(EMPTY, hand)}
        if Action.DOUBLE in legal:
            options[DOUBLE] = self.double(EMPTY, hand)
        if pair is not None:
            options[SPLIT] = self.split(pair)
        if Action.SURRENDER in legal:
            options[SURRENDER] = self.surrender(EMPTY, hand)
        return options

    def conditional(self, value: float, removed: Comp) -> float:
        """EV given the dealer showed no natural, from U (peek tables); else unchanged."""
        if not self.peeked:
            return value
        return value / (1.0 - self.natural_chance(removed))


@cache
def successors(hand: Comp) -> tuple[Comp, ...]:
    """The hand with one more card, by rank (memoised: the hands worth hitting are a few
    thousand, and every tree walks them again)."""
    return tuple(add(hand, rank) for rank in range(RANKS))


@cache
def unbusted(hand: Comp) -> tuple[tuple[int, Comp], ...]:
    """The (rank, hand) of each card that leaves the hand at 21 or less."""
    return tuple((rank, more) for rank, more in enumerate(successors(hand)) if total(more)[0] <= 21)


@cache
def stand_dominated(hand: Comp) -> bool:
    """Hitting is at least as good as standing: the hand cannot bust on one card and
    stands on 16 or less (which loses to every dealer total). Averaged over the next card
    the dealer's chances are unchanged, and any total reached is at least as good."""
    points, soft = total(hand)
    return points <= 16 if soft else points <= 11


def pair_rank(hand: Comp) -> int | None:
    """The rank of a two-card pair (ten-value cards as one rank), else None."""
    if sum(hand) == 2:
        for rank in range(RANKS):
            if hand[rank] == 2:
                return rank
    return None


@cache
def reference_solver(rules: Rules, up: int) -> UpCardSolver:
    """The reference of a fresh shoe, one per rule set and up card, memoised for the life
    of the process: the shipped data is computed by it, and hints without the kernel."""
    return UpCardSolver(rules, up)
