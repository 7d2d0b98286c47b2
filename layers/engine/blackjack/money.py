"""Exact money. Bets are whole coins; every other amount is a multiple of half a coin."""

from decimal import Decimal

Money = Decimal

ZERO = Decimal(0)
HALF_COIN = Decimal("0.5")


def is_multiple(amount: Decimal, step: Decimal) -> bool:
    return amount > 0 and amount % step == 0


def to_json(amount: Decimal) -> int | float:
    """A JSON number for an amount: whole coins as integers, halves as floats (a binary
    float holds any multiple of 0.5, and 0.01, with its exact decimal repr)."""
    return int(amount) if amount == amount.to_integral_value() else float(amount)
