"""A round of blackjack as a state machine: `insurance` -> `player_turn` -> `settled`.

`Round.deal` takes the bets and deals from the shoe in the order of RULES.md; `act` applies
the decision of the hand (or, while insurance is asked, the box) in turn. AI boxes and the
dealer play by themselves, so a round only ever waits for the user. Each step says what it
did to the cards (`Dealt`, in order). Given the shoe, every round is deterministic, so a
round is fully described by its shoe, its bets and the user's moves: `Round.replay` plays
them again. Money is `Decimal`; no float enters a stake or a payout.

At a shared table (a room) several users own boxes: each user box then names its owner
(`user:<owner>`), the round asks each owner in turn, and each one's money is counted
apart (`staked`, `returned` and `net_of` take the owner's `player`).
"""

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from . import count
from .actions import Action, HandStatus, Move, Phase, Result
from .cards import Card, HandValue, hand_value, is_ace, is_ten
from .errors import BetOutOfLimits, IllegalAction, InvalidAmount
from .grading import Decision, Grader
from .money import HALF_COIN, ZERO, is_multiple
from .players import AI_LEVELS, SHOE_POLICIES, decide
from .rules import Insurance, Peek, Rules, Table
from .shoe import Shoe
from .turn import PlayerView, insurance_actions, may_split, play_actions

if TYPE_CHECKING:
    from .strategy.dealer import Comp

USER = "user"
_OWNER_PREFIX = "user:"
_AI_PREFIX = "ai:"
_TWO = Decimal(2)
_THREE = Decimal(3)


@dataclass(frozen=True, slots=True)
class Dealt:
    """A card off the shoe, or the dealer's face-down card turned (API.md, `dealt`)."""

    card: Card | None  # None: dealt face down
    box: int | None = None  # the box and hand it went to; None: the dealer's
    hand: int | None = None
    turned: bool = False  # the dealer's face-down card, turned face up


@dataclass(slots=True)
class Hand:
    cards: list[Card]
    bet: Decimal
    doubled: bool = False
    split: bool = False  # made by a split: a two-card 21 here is no natural
    status: HandStatus = HandStatus.PLAYING
    result: Result | None = None
    payout: Decimal | None = None  # what the hand returned, stake included
    decisions: list[Decision] = field(default_factory=list)  # the user's, graded

    @property
    def value(self) -> HandValue:
        return hand_value(self.cards)

    @property
    def settled(self) -> bool:
        return self.result is not None

    def settle(self, result: Result, payout: Decimal) -> None:
        self.result = result
        self.payout = payout


@dataclass(slots=True)
class Box:
    index: int
    player: str  # "user", "user:<owner>" (at a shared table) or "ai:<level>"
    bet: Decimal  # the original stake
    hands: list[Hand]
    insurance: Decimal | None = None
    insurance_payout: Decimal | None = None
    insurance_decided: bool = False

    @property
    def is_user(self) -> bool:
        return self.player == USER or self.player.startswith(_OWNER_PREFIX)


def owner_player(owner: str) -> str:
    """The `player` of a box that `owner` holds at a shared table."""
    return _OWNER_PREFIX + owner


@dataclass(slots=True)
class Round:
    table: Table
    shoe: Shoe
    boxes: list[Box]
    dealer: list[Card] = field(default_factory=list)
    hidden: int = 0  # the dealer's face-down cards
    phase: Phase = Phase.PLAYER_TURN
    dealt: list[Dealt] = field(default_factory=list)  # by the last step: the deal or a move
    # What the user may do now: asked for again and again between moves, changed only by
    # `act`, so kept (None: not worked out yet).
    _legal: tuple[Action, ...] | None = field(default=None, init=False, repr=False, compare=False)

    # ---- the deal -------------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        table: Table,
        shoe: Shoe,
        bets: Mapping[int, Decimal],
        ai: Mapping[int, str] | None = None,
        owners: Mapping[int, str] | None = None,
    ) -> "Round":
        """Seat the user's bets (each box `owners` names held by that owner) and the AI
        players, deal, and play on until a user is asked something or the round is
        settled. Raises `BetOutOfLimits`."""
        ai, owners = ai or {}, owners or {}
        check_boxes(table, bets, ai)
        seats = {
            box: (owner_player(owners[box]) if box in owners else USER, Decimal(bet))
            for box, bet in bets.items()
        }
        seats |= {box: (_AI_PREFIX + level, Decimal(table.min_bet)) for box, level in ai.items()}
        boxes = [
            Box(index=box, player=player, bet=bet, hands=[Hand(cards=[], bet=bet)])
            for box, (player, bet) in sorted(seats.items())
        ]
        round_ = cls(table=table, shoe=shoe, boxes=boxes)
        round_._deal_cards()
        return round_

    @classmethod
    def replay(
        cls,
        table: Table,
        shoe: Shoe,
        bets: Mapping[int, Decimal],
        ai: Mapping[int, str],
        moves: Iterable[Move],
        grader: Grader | None = None,
        owners: Mapping[int, str] | None = None,
    ) -> "Round":
        """The round again from its shoe (at the position it was dealt from), its bets and
        the users' moves, exactly as it was played."""
        round_ = cls.deal(table, shoe, bets, ai, owners)
        for move in moves:
            round_.act(move.action, move.amount, grader=grader)
        return round_

    def _deal_cards(self) -> None:
        rules = self.table.rules
        for box in self.boxes:
            self._draw_to(box, box.hands[0])
        self._draw_to_dealer()
        for box in self.boxes:
            self._draw_to(box, box.hands[0])
        if rules.hole_card:
            self._draw_to_dealer(face_up=False)
        for box in self.boxes:
            hand = box.hands[0]
            if hand.value.total == 21:
                hand.status = HandStatus.BLACKJACK
                if rules.natural_paid_at_deal:
                    self._pay_blackjack(hand)
        if rules.insurance is not Insurance.NONE and is_ace(self.up_card):
            self.phase = Phase.INSURANCE  # every round has a user box to ask
        else:
            self._after_insurance()

    # ---- what the round asks --------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self.table.rules

    @property
    def up_card(self) -> Card:
        return self.dealer[0]

    @property
    def turn(self) -> tuple[Box, Hand] | None:
        """The box asked about insurance, or the hand in turn; None once settled."""
        if self.phase is Phase.INSURANCE:
            for box in self.boxes:
                if box.is_user and not box.insurance_decided:
                    return box, box.hands[0]
        elif self.phase is Phase.PLAYER_TURN:
            for box in self.boxes:
                for hand in box.hands:
                    if hand.status is HandStatus.PLAYING:
                        return box, hand
        return None

    def legal_actions(self) -> tuple[Action, ...]:
        if self._legal is None:
            turn = self.turn
            if turn is None:
                self._legal = ()
            elif self.phase is Phase.INSURANCE:
                _, hand = turn  # a box is asked while it holds one hand
                natural = hand.status is HandStatus.BLACKJACK
                self._legal = insurance_actions(self.rules, natural=natural)
            else:
                self._legal = self._play_actions(*turn)
        return self._legal

    def player_view(self) -> PlayerView | None:
        """What the player in turn may see: their own cards, the up card, the rules."""
        turn = self.turn
        if turn is None:
            return None
        box, hand = turn
        return self._view(box, hand, self.legal_actions())

    def _view(self, box: Box, hand: Hand, legal: tuple[Action, ...]) -> PlayerView:
        return PlayerView(
            rules=self.rules,
            phase=self.phase,
            cards=tuple(hand.cards),
            up_card=self.up_card,
            legal_actions=legal,
            hands_in_box=len(box.hands),
            split_hand=hand.split,
        )

    def _play_actions(self, box: Box, hand: Hand) -> tuple[Action, ...]:
        can_split = may_split(
            self.rules, hand.cards, hands_in_box=len(box.hands), split_hand=hand.split
        )
        return play_actions(
            self.rules, hand.cards, up_card=self.up_card, split_hand=hand.split, can_split=can_split
        )

    # ---- what a player at the table can see -----------------------------------------

    def public_cards(self) -> list[Card]:
        """The shoe's public cards now (RULES.md): all it has dealt but the face-down card."""
        return count.public_cards(self.shoe, self.dealer[1 : 1 + self.hidden])

    def unseen(self) -> "Comp":
        """The cards no player has seen: the shoe less its public cards (`expert`'s)."""
        return count.unseen(self.rules.decks, self.public_cards())

    def count(self) -> dict[str, Any]:
        """The shoe's Hi-Lo count now (API.md)."""
        return count.hi_lo(self.rules.decks, self.public_cards())

    # ---- decisions ------------------------------------------------------------------

    def act(
        self, action: Action, amount: Decimal | None = None, grader: Grader | None = None
    ) -> list[Dealt]:
        """Apply the decision of the hand or box in turn, graded by `grader` (if given) on
        the view the hint sees and kept on the hand in turn (a box's first hand while
        insurance is asked), and return what it did to the cards. Raises `IllegalAction`
        when the action is not legal now, `InvalidAmount` for a wrong insurance amount."""
        turn = self.turn
        if turn is None:
            raise IllegalAction("the round is settled")
        if amount is not None and action is not Action.INSURANCE:
            raise InvalidAmount("an amount goes only with insurance")
        legal = self.legal_actions()
        if action not in legal:
            allowed = ", ".join(legal)
            raise IllegalAction(f"{action} is not allowed now; allowed: {allowed}")
        box, hand = turn
        decision = (
            None if grader is None else grader(self._view(box, hand, legal), action, self.unseen())
        )
        self._legal = None
        self.dealt = []
        if self.phase is Phase.INSURANCE:
            self._answer_insurance(box, action, amount)
        else:
            self._play(box, hand, action)
            self._advance()
        if decision is not None:
            hand.decisions.append(decision)
        return self.dealt

    def _answer_insurance(self, box: Box, action: Action, amount: Decimal | None) -> None:
        if action is Action.INSURANCE:
            box.insurance = self._insurance_stake(box, amount)
        elif action is Action.EVEN_MONEY:
            hand = box.hands[0]
            hand.settle(Result.EVEN_MONEY, hand.bet * _TWO)
        box.insurance_decided = True
        if self.turn is None:
            self._after_insurance()

    def _insurance_stake(self, box: Box, amount: Decimal | None) -> Decimal:
        half = box.bet / _TWO
        if amount is None:
            return half
        if self.rules.insurance is Insurance.HALF:
            if amount != half:
                raise InvalidAmount(f"insurance is exactly half the bet: {half}")
        elif not (is_multiple(amount, HALF_COIN) and amount <= half):
            raise InvalidAmount(f"insurance is a multiple of 0.5 from 0.5 to {half}")
        return amount

    def _play(self, box: Box, hand: Hand, action: Action) -> None:
        if action is Action.HIT:
            self._give_card(box, hand)
        elif action is Action.STAND:
            hand.status = HandStatus.STANDING
        elif action is Action.DOUBLE:
            hand.bet *= _TWO
            hand.doubled = True
            self._give_card(box, hand)
            if hand.status is HandStatus.PLAYING:
                hand.status = HandStatus.STANDING
        elif action is Action.SPLIT:
            hand.split = True
            second = Hand(cards=[hand.cards.pop()], bet=box.bet, split=True)
            box.hands.insert(box.hands.index(hand) + 1, second)
        elif action is Action.SURRENDER:
            hand.status = HandStatus.SURRENDERED
            hand.settle(Result.SURRENDER, hand.bet / _TWO)

    def _draw_to(self, box: Box, hand: Hand) -> None:
        card = self.shoe.draw()
        hand.cards.append(card)
        self.dealt.append(Dealt(card, box=box.index, hand=box.hands.index(hand)))

    def _draw_to_dealer(self, face_up: bool = True) -> None:
        card = self.shoe.draw()
        self.dealer.append(card)
        if not face_up:
            self.hidden += 1
        self.dealt.append(Dealt(card if face_up else None))

    def _give_card(self, box: Box, hand: Hand) -> None:
        self._draw_to(box, hand)
        total = hand.value.total
        if total > 21:
            hand.status = HandStatus.BUST
            hand.settle(Result.LOSE, ZERO)
        elif total == 21:
            if self.rules.any_21_pays_3_2 and len(hand.cards) >= 3:
                hand.status = HandStatus.BLACKJACK
                self._pay_blackjack(hand)
            else:
                hand.status = HandStatus.STANDING

    def _pay_blackjack(self, hand: Hand) -> None:
        hand.settle(Result.BLACKJACK, hand.bet + hand.bet * self.rules.blackjack_ratio)

    # ---- playing on by itself -------------------------------------------------------

    def _after_insurance(self) -> None:
        """Where the dealer peeks, a dealer natural ends the round before anyone plays."""
        self.phase = Phase.PLAYER_TURN
        if self.rules.peek is Peek.ACE_AND_TEN and (is_ace(self.up_card) or is_ten(self.up_card)):
            if self._dealer_natural():
                self._finish()
                return
            for box in self.boxes:
                if box.insurance is not None:
                    box.insurance_payout = ZERO
        self._advance()

    def _advance(self) -> None:
        """Deal the second card of a split hand when its turn comes, stand hands that have
        no choice left, let AI boxes decide, and play the dealer once no hand is left."""
        while (turn := self.turn) is not None:
            box, hand = turn
            if len(hand.cards) == 1:
                self._give_card(box, hand)
                if hand.status is not HandStatus.PLAYING:
                    continue
            legal = self._play_actions(box, hand)
            if legal == (Action.STAND,):
                hand.status = HandStatus.STANDING
            elif box.is_user:
                self._legal = legal
                return
            else:
                level = box.player.removeprefix(_AI_PREFIX)
                unseen = self.unseen() if level in SHOE_POLICIES else None
                self._play(box, hand, decide(level, self._view(box, hand, legal), unseen))
        self._dealer_plays()

    def _dealer_plays(self) -> None:
        """RULES.md, "Phases of a round", step 3."""
        self._turn_hole_card()
        waiting = [hand for hand in self._hands() if not hand.settled]
        draws_second_card = not self.rules.hole_card
        if waiting and all(hand.status is HandStatus.BLACKJACK for hand in waiting):
            if draws_second_card and (is_ace(self.up_card) or is_ten(self.up_card)):
                self._draw_to_dealer()
        elif waiting:
            if draws_second_card:
                self._draw_to_dealer()
            while self._dealer_draws():
                self._draw_to_dealer()
        self._finish()

    def _turn_hole_card(self) -> None:
        self.dealt.extend(Dealt(card, turned=True) for card in self.dealer[1 : 1 + self.hidden])
        self.hidden = 0

    def _dealer_draws(self) -> bool:
        total, soft = hand_value(self.dealer)
        return total < 17 or (total == 17 and soft and self.rules.dealer_hits_soft_17)

    def _dealer_natural(self) -> bool:
        return len(self.dealer) == 2 and hand_value(self.dealer).total == 21

    def _finish(self) -> None:
        """Turn the hole card and settle every hand and insurance still open."""
        self._turn_hole_card()
        dealer_natural = self._dealer_natural()
        dealer_total = hand_value(self.dealer).total
        for hand in self._hands():
            if not hand.settled:
                self._settle(hand, dealer_natural, dealer_total)
        for box in self.boxes:
            if box.insurance is not None and box.insurance_payout is None:
                alive = any(hand.status is not HandStatus.BUST for hand in box.hands)
                won = dealer_natural and alive
                box.insurance_payout = box.insurance * _THREE if won else ZERO
        self.phase = Phase.SETTLED

    def _settle(self, hand: Hand, dealer_natural: bool, dealer_total: int) -> None:
        if hand.status is HandStatus.BLACKJACK:
            if dealer_natural:
                hand.settle(Result.PUSH, hand.bet)
            else:
                self._pay_blackjack(hand)
            return
        total = hand.value.total
        if dealer_natural or (dealer_total <= 21 and total < dealer_total):
            hand.settle(Result.LOSE, ZERO)
        elif dealer_total > 21 or total > dealer_total:
            hand.settle(Result.WIN, hand.bet * _TWO)
        else:
            hand.settle(Result.PUSH, hand.bet)

    def _hands(self) -> Iterator[Hand]:
        for box in self.boxes:
            yield from box.hands

    # ---- the users' money ----------------------------------------------------------

    def staked(self, player: str | None = None) -> Decimal:
        """All the user (or the owner whose `player` is given) has put on the table in this
        round: bets, doubles, splits, insurance."""
        return sum(
            (
                sum((hand.bet for hand in box.hands), box.insurance or ZERO)
                for box in self.boxes_of(player)
            ),
            ZERO,
        )

    def returned(self, player: str | None = None) -> Decimal:
        """All the round has paid back to the user (or that owner) so far, stakes included."""
        return sum(
            (
                sum((hand.payout or ZERO for hand in box.hands), box.insurance_payout or ZERO)
                for box in self.boxes_of(player)
            ),
            ZERO,
        )

    def net_of(self, player: str | None = None) -> Decimal | None:
        """The user's (or that owner's) gain or loss once settled, insurance included, AI
        boxes excluded."""
        if self.phase is not Phase.SETTLED:
            return None
        return self.returned(player) - self.staked(player)

    @property
    def net(self) -> Decimal | None:
        """The user's gain or loss once settled (at a user's own table)."""
        return self.net_of()

    def boxes_of(self, player: str | None = None) -> Iterator[Box]:
        """The user's boxes (or those of the owner whose `player` is given)."""
        return (
            box for box in self.boxes if (box.is_user if player is None else box.player == player)
        )


def check_boxes(table: Table, bets: Mapping[int, Decimal], ai: Mapping[int, str]) -> None:
    if not bets:
        raise BetOutOfLimits("bet on at least one box")
    if ai and not table.rules.ai_players:
        raise BetOutOfLimits(f"the {table.id} table has no AI players")
    for box in (*bets, *ai):
        if not 0 <= box < table.boxes:
            raise BetOutOfLimits(f"the {table.id} table has boxes 0 to {table.boxes - 1}")
    if set(bets) & set(ai):
        raise BetOutOfLimits("a box can be taken only once")
    for bet in bets.values():
        if bet != bet.to_integral_value() or not table.min_bet <= bet <= table.max_bet:
            raise BetOutOfLimits(
                f"a bet is a whole number of coins from {table.min_bet} to {table.max_bet}"
            )
    for level in ai.values():
        if level not in AI_LEVELS:
            raise BetOutOfLimits(f"AI players are {', '.join(AI_LEVELS)}")
