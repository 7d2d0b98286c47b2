"""The public cards of a shoe (RULES.md, "Public cards"), what is still unseen, and the
Hi-Lo count over them (API.md, the count in a hint and in a seat's `shoe`).

A shoe's public cards at a moment are all it has dealt less the face-down cards of the
round in play: a settled round has turned its hole card, and a shoe that shuffles every
round serves one round, so its dealt cards are that round's. Nothing here reads a card
that is not public: the unseen composition is the full shoe less the public cards.
"""

from collections.abc import Iterable, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .cards import Card, points
from .shoe import Shoe

if TYPE_CHECKING:  # a count (a seat's) needs no analysis: it loads on first use
    from .strategy.dealer import Comp

SYSTEM = "hi_lo"
_TRUE_STEP = Decimal("0.01")
_DECK = 52


def public_cards(shoe: Shoe, face_down: Sequence[Card] = ()) -> list[Card]:
    """The cards `shoe` has dealt face up so far. `face_down` are the round in play's
    cards still face down (a `Round`'s `dealer[1 : 1 + hidden]`); none once it settles."""
    public = shoe.dealt
    for card in face_down:
        public.remove(card)  # the same card of another deck is the same to a count
    return public


def unseen(decks: int, public: Iterable[Card]) -> "Comp":
    """The composition (`strategy.dealer.Comp`: by rank, the ace first, every ten-value
    card as one rank) of a shoe of `decks` decks less its public cards."""
    from .strategy.analysis import shoe_counts

    counts = list(shoe_counts(decks))
    for card in public:
        counts[points(card) - 1] -= 1
    if min(counts) < 0:
        raise ValueError(f"more public cards than a shoe of {decks} decks holds")
    return tuple(counts)


def hi_lo_tag(card: Card) -> int:
    """2 to 6 count +1; 7, 8 and 9 count 0; ten-value cards and aces count -1."""
    value = points(card)
    if 2 <= value <= 6:
        return 1
    if 7 <= value <= 9:
        return 0
    return -1


def hi_lo(decks: int, public: Sequence[Card]) -> dict[str, Any]:
    """The count of API.md over the `public` cards of a shoe of `decks` decks. `true` is a
    Decimal of two decimals (the service serialises it)."""
    seen = len(public)
    cards_unseen = _DECK * decks - seen
    if cards_unseen <= 0:
        raise ValueError(f"a shoe of {decks} decks has no card unseen after {seen} cards")
    running = sum(map(hi_lo_tag, public))
    return {
        "system": SYSTEM,
        "running": running,
        "true": _true(running, cards_unseen),
        "cards_seen": seen,
        "cards_unseen": cards_unseen,
    }


# Hi-Lo's tag of each rank of a composition (`strategy.dealer.Comp`: the ace first, then
# 2 to 9, every ten-value card last).
_RANK_TAGS = (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)


def true_count(decks: int, unseen: "Comp") -> Decimal:
    """The `true` of `hi_lo` from the unseen cards alone (the shoe less its public cards):
    the same figure, for the players that are handed only those (`counter`)."""
    full = (4 * decks,) * 9 + (16 * decks,)
    running = sum(tag * (n - left) for tag, n, left in zip(_RANK_TAGS, full, unseen, strict=True))
    return _true(int(running), int(sum(unseen)))


def _true(running: int, cards_unseen: int) -> Decimal:
    """running / (cards_unseen / 52) as an exact fraction, rounded half-even exactly
    (Fraction's round), then written in Decimal: its denominator divides 100."""
    true = round(Fraction(running * _DECK, cards_unseen), 2)
    return (Decimal(true.numerator) / true.denominator).quantize(_TRUE_STEP)
