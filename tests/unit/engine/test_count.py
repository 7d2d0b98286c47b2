"""The Hi-Lo count over a shoe's public cards (API.md, the count)."""

from decimal import Decimal

import pytest

from blackjack.actions import Action, Phase
from blackjack.cards import RANKS, SUITS
from blackjack.count import hi_lo, hi_lo_tag, public_cards

from .arrange import deal


def test_the_tags() -> None:
    tags = {rank: hi_lo_tag(rank + "S") for rank in RANKS}
    assert tags == {
        **dict.fromkeys("23456", 1),
        **dict.fromkeys("789", 0),
        **dict.fromkeys("TJQKA", -1),
    }


def test_a_count() -> None:
    count = hi_lo(6, ["2S", "KD", "5H", "9C", "AS", "3D"])
    assert count == {
        "system": "hi_lo",
        "running": 1,
        "true": Decimal("0.17"),  # 1 / (306 / 52) = 0.1699...
        "cards_seen": 6,
        "cards_unseen": 306,
    }
    assert str(count["true"]) == "0.17"
    assert str(hi_lo(6, [])["true"]) == "0.00"


def cards_with(running: int, seen: int) -> list[str]:
    """`seen` cards of a six-deck shoe whose tags sum to `running`: lows and highs in
    pairs, neutral cards to fill."""
    highs = (seen - running) // 2
    lows = highs + running
    neutral = seen - highs - lows
    low = [f"{r}{s}" for r in "23456" for s in SUITS] * 6
    high = [f"{r}{s}" for r in "TJQKA" for s in SUITS] * 6
    return low[:lows] + high[:highs] + ["7S"] * neutral


@pytest.mark.parametrize(
    ("running", "unseen", "true"),
    [
        (1, 160, "0.32"),  # 52 / 160 = 0.325 exactly: half to even, down
        (-1, 160, "-0.32"),
        (3, 96, "1.62"),  # 156 / 96 = 1.625 exactly: down to the even 2
        (5, 160, "1.62"),  # 260 / 160 = 1.625
        (7, 160, "2.28"),  # 364 / 160 = 2.275 exactly: up to the even 8
        (2, 312 - 150, "0.64"),  # 104 / 162 = 0.6419...
    ],
)
def test_the_true_count_rounds_half_to_even(running: int, unseen: int, true: str) -> None:
    public = cards_with(running, 312 - unseen)
    count = hi_lo(6, public)
    assert (count["running"], count["cards_unseen"]) == (running, unseen)
    assert count["true"] == Decimal(true) and str(count["true"]) == true


def test_no_card_unseen_is_refused() -> None:
    with pytest.raises(ValueError, match="no card unseen"):
        hi_lo(1, ["7S"] * 52)


def test_the_hole_card_counts_once_turned() -> None:
    # european: the user's 5,6 against a 6 with a king in the hole; another king follows.
    round_ = deal("european", "5S 6D 6H KS KD 9C 9D")
    assert round_.phase is Phase.PLAYER_TURN and round_.hidden == 1
    face_down = round_.dealer[1 : 1 + round_.hidden]
    public = public_cards(round_.shoe, face_down)
    assert public == ["5S", "6D", "6H"]
    count = hi_lo(6, public)
    assert (count["running"], count["cards_seen"], count["cards_unseen"]) == (3, 3, 309)
    round_.act(Action.STAND)  # the dealer turns the king: 16, draws the other king
    assert round_.phase is Phase.SETTLED and round_.hidden == 0
    public = public_cards(round_.shoe, round_.dealer[1 : 1 + round_.hidden])
    assert public == ["5S", "6D", "6H", "KS", "KD"]
    assert hi_lo(6, public)["running"] == 1


def test_a_face_down_card_must_have_been_dealt() -> None:
    round_ = deal("european", "5S 6D 6H KS")
    with pytest.raises(ValueError):
        public_cards(round_.shoe, ["AS"])
