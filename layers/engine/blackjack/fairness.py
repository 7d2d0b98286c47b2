"""Provably fair shoes, exactly as FAIRNESS.md specifies them.

A shoe's order is a pure function of (server_seed, client_seed, nonce, decks): anyone
holding the revealed seeds recomputes it with `shuffled_shoe`.
"""

import hashlib
import hmac
import re
import secrets
import struct
from collections.abc import Iterator, Sequence
from decimal import ROUND_FLOOR, Decimal

from .cards import Card, deck_order

# 1 to 64 printable ASCII characters, no space (the API validates requests with it too).
CLIENT_SEED_PATTERN = r"^[!-~]{1,64}$"
_CLIENT_SEED = re.compile(CLIENT_SEED_PATTERN)
_WORDS_PER_BLOCK = struct.Struct(">8I")
_TWO_32 = 2**32


def new_server_seed() -> str:
    """32 bytes from the operating system's secure generator, as 64 hex characters."""
    return secrets.token_hex(32)


def new_client_seed() -> str:
    """The client seed the server picks when the player gives none: 16 hex characters."""
    return secrets.token_hex(8)


def room_client_seed(seeds: Sequence[str]) -> str:
    """A shared table's shoe's client seed, of every seated user's seed in box order of
    their first boxes (FAIRNESS.md, "Shared tables' shoes")."""
    return hashlib.sha256(":".join(seeds).encode()).hexdigest()


def is_valid_client_seed(client_seed: str) -> bool:
    """1 to 64 printable ASCII characters, no space."""
    return _CLIENT_SEED.fullmatch(client_seed) is not None


def seed_hash(server_seed: str) -> str:
    """The commitment: sha256 of the seed's bytes, as lower-case hex."""
    return hashlib.sha256(bytes.fromhex(server_seed)).hexdigest()


def random_words(server_seed: str, client_seed: str, nonce: int) -> Iterator[int]:
    """The endless stream of 32-bit words: HMAC-SHA256 blocks k = 0, 1, 2, ..., each read
    as eight big-endian unsigned integers."""
    key = bytes.fromhex(server_seed)
    block = 0
    while True:
        message = f"{client_seed}:{nonce}:{block}".encode("ascii")
        yield from _WORDS_PER_BLOCK.unpack(hmac.digest(key, message, "sha256"))
        block += 1


def shuffled_shoe(server_seed: str, client_seed: str, nonce: int, decks: int) -> list[Card]:
    """The shoe in dealing order (index 0 is dealt first): Fisher-Yates from the top
    index down, each index drawn by rejection so that every card is equally likely."""
    cards = deck_order(decks)
    words = random_words(server_seed, client_seed, nonce)
    for i in range(len(cards) - 1, 0, -1):
        m = i + 1
        limit = _TWO_32 - _TWO_32 % m
        x = next(words)
        while x >= limit:
            x = next(words)
        j = x % m
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def cut_index(decks: int, cut_fraction: Decimal) -> int:
    """Where the cut card sits: before index floor(52 * decks * cut_fraction)."""
    return int((52 * decks * cut_fraction).to_integral_value(rounding=ROUND_FLOOR))
