"""A shoe in play: its commitment, its cards in dealing order and how far it has dealt."""

from dataclasses import dataclass, field
from decimal import Decimal

from .cards import Card
from .fairness import cut_index, seed_hash, shuffled_shoe


class ShoeExhausted(Exception):
    """No card is left to deal (cannot happen within the rules' limits of a round)."""


@dataclass(slots=True)
class Shoe:
    server_seed: str
    client_seed: str
    nonce: int
    decks: int
    cut_index: int | None
    cards: list[Card] = field(repr=False)
    position: int = 0

    @classmethod
    def shuffle(
        cls,
        server_seed: str,
        client_seed: str,
        nonce: int,
        decks: int,
        cut_fraction: Decimal | None = None,
    ) -> "Shoe":
        """A new shoe; `cut_fraction` None means the shoe serves one round only."""
        return cls(
            server_seed=server_seed,
            client_seed=client_seed,
            nonce=nonce,
            decks=decks,
            cut_index=None if cut_fraction is None else cut_index(decks, cut_fraction),
            cards=shuffled_shoe(server_seed, client_seed, nonce, decks),
        )

    @property
    def server_seed_hash(self) -> str:
        return seed_hash(self.server_seed)

    @property
    def cards_remaining(self) -> int:
        return len(self.cards) - self.position

    @property
    def cut_card_out(self) -> bool:
        """The card at the cut index has been dealt: this round is the shoe's last."""
        return self.cut_index is not None and self.position > self.cut_index

    @property
    def dealt(self) -> list[Card]:
        return self.cards[: self.position]

    def draw(self) -> Card:
        if self.position >= len(self.cards):
            raise ShoeExhausted("the shoe has no card left")
        card = self.cards[self.position]
        self.position += 1
        return card
