"""FAIRNESS.md, to the letter: its check values and the cut card."""

from decimal import Decimal

import pytest

from blackjack.fairness import (
    cut_index,
    is_valid_client_seed,
    new_client_seed,
    new_server_seed,
    seed_hash,
    shuffled_shoe,
)
from blackjack.shoe import Shoe, ShoeExhausted

ZERO_SEED = "00" * 32


def test_commitment_check_value() -> None:
    assert seed_hash(ZERO_SEED) == (
        "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    )


def test_one_deck_check_value() -> None:
    cards = shuffled_shoe(ZERO_SEED, "player", 1, decks=1)
    assert cards[:10] == ["8H", "TD", "9D", "QD", "7C", "4S", "2C", "5D", "9H", "JD"]


def test_six_deck_check_value() -> None:
    cards = shuffled_shoe(ZERO_SEED, "player", 2, decks=6)
    assert cards[:10] == ["KD", "9S", "TC", "3S", "8H", "4H", "4H", "TC", "6S", "AH"]


@pytest.mark.parametrize("decks", [1, 4, 6])
def test_a_shoe_is_a_permutation_of_its_decks(decks: int) -> None:
    cards = shuffled_shoe(new_server_seed(), new_client_seed(), 7, decks)
    assert len(cards) == 52 * decks
    assert sorted(cards) == sorted(
        rank + suit for rank in "A23456789TJQK" for suit in "SHDC" for _ in range(decks)
    )


def test_shoes_differ_by_nonce_and_client_seed() -> None:
    base = shuffled_shoe(ZERO_SEED, "player", 1, 6)
    assert shuffled_shoe(ZERO_SEED, "player", 2, 6) != base
    assert shuffled_shoe(ZERO_SEED, "player2", 1, 6) != base


def test_server_seeds_are_fresh_64_hex() -> None:
    seeds = {new_server_seed() for _ in range(20)}
    assert len(seeds) == 20
    assert all(len(seed) == 64 and int(seed, 16) >= 0 for seed in seeds)
    assert all(is_valid_client_seed(new_client_seed()) for _ in range(5))


@pytest.mark.parametrize(
    ("seed", "valid"),
    [
        ("player", True),
        ("!~", True),
        ("x" * 64, True),
        ("", False),
        ("x" * 65, False),
        ("two words", False),
        ("caf\u00e9", False),
        ("tab\t", False),
    ],
)
def test_client_seed_alphabet(seed: str, valid: bool) -> None:
    assert is_valid_client_seed(seed) is valid


@pytest.mark.parametrize(
    ("decks", "fraction", "index"),
    [(6, "0.75", 234), (6, "0.5", 156), (6, "0.85", 265), (6, "0.7", 218), (1, "0.75", 39)],
)
def test_cut_index_is_floored(decks: int, fraction: str, index: int) -> None:
    assert cut_index(decks, Decimal(fraction)) == index


def test_cut_card_comes_out_with_the_card_at_the_cut_index() -> None:
    shoe = Shoe.shuffle(ZERO_SEED, "player", 1, 1, Decimal("0.5"))
    assert shoe.cut_index == 26
    for _ in range(26):
        shoe.draw()
    assert not shoe.cut_card_out
    shoe.draw()
    assert shoe.cut_card_out


def test_shoe_state_and_exhaustion() -> None:
    shoe = Shoe.shuffle(ZERO_SEED, "player", 2, 6, Decimal("0.75"))
    dealt = [shoe.draw() for _ in range(5)]
    assert shoe.dealt == dealt
    assert shoe.cards_remaining == 312 - 5
    one = Shoe.shuffle(ZERO_SEED, "player", 1, 1)
    for _ in range(52):
        one.draw()
    with pytest.raises(ShoeExhausted):
        one.draw()
