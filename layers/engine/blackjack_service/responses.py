"""Response bodies of API.md as pydantic models, written out rather than derived from the
engine's or the store's types, so that what is published changes only here. Every
successful response is checked against its model before it leaves (closed models: a field
the contract does not name, such as a seed or a shoe's cards, cannot slip out), and the
routes declare them, which puts their schemas in the OpenAPI document under these names."""

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

Money = int | float  # exact: whole coins as integers, halves as floats (blackjack.money)
Kind = Literal["hard", "soft", "pairs", "insurance"]  # blackjack.grading.Kind's values


class ResponseModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Problem(BaseModel):
    """An error (RFC 9457): `code` says which, in API.md's words. Open: an answer may
    carry more, such as the invalid fields in `errors`."""

    type: str
    title: str
    status: int
    detail: str
    code: str
    errors: list[dict[str, Any]] | None = None


class Rules(ResponseModel):
    """A table's rules, as RULES.md names them."""

    decks: int
    shuffle: Literal["every_round", "cut_card"]
    cut_default: float | None
    cut_range: list[float] | None
    ai_players: bool
    hole_card: bool
    peek: Literal["none", "ace_and_ten"]
    dealer_hits_soft_17: bool
    blackjack_pays: str
    natural_paid_at_deal: bool
    any_21_pays_3_2: bool
    double: Literal["none", "9_10_11", "any"]
    double_after_split: bool
    split: Literal["none", "same_rank", "same_value"]
    max_hands: int
    resplit_aces: bool
    split_aces_one_card: bool
    surrender: Literal["none", "early_not_ace"]
    insurance: Literal["none", "up_to_half", "half"]
    even_money: bool


class Table(ResponseModel):
    id: str
    name: str
    description: str
    min_bet: int
    max_bet: int
    boxes: int
    rules: Rules


class Tables(ResponseModel):
    tables: list[Table]


class User(ResponseModel):
    login: str
    nick: str
    balance: Money


class Session(ResponseModel):
    token: str
    token_type: Literal["Bearer"]
    expires_in: int
    user: User
    tables: list[Table]


# The stats of API.md, written here rather than derived from the stored counters
# (records.Grades, records.Stats): a counter stored for later is published only when added
# here. A Stats is also the sum of its kinds' Grades (its base).
class Grades(ResponseModel):
    decisions: int
    mistakes: int
    ev_lost: Money


class Stats(Grades):
    rounds: int
    hands_won: int
    hands_lost: int
    hands_pushed: int
    net: Money
    by_kind: dict[Kind, Grades]
    expert_mistakes: int
    expert_ev_lost: Money
    deviations: int
    deviations_taken: int
    index_spots: int
    index_spots_taken: int


class Me(User):
    stats: Stats


class Decision(ResponseModel):
    action: str
    best: str
    loss: float | int
    kind: Kind
    cards: list[str]
    expert_best: str
    expert_loss: float | int
    counter_best: str
    medium_best: str


class Hand(ResponseModel):
    cards: list[str]
    total: int
    soft: bool
    bet: Money
    doubled: bool
    split: bool
    status: Literal["playing", "standing", "bust", "blackjack", "surrendered"]
    result: Literal["win", "lose", "push", "blackjack", "even_money", "surrender"] | None
    payout: Money | None
    decisions: list[Decision]


class Box(ResponseModel):
    box: int
    player: str
    bet: Money
    insurance: Money | None
    insurance_payout: Money | None
    hands: list[Hand]


class Dealer(ResponseModel):
    cards: list[str]
    hidden: int
    total: int
    soft: bool


class Turn(ResponseModel):
    box: int
    hand: int


class CardToBox(ResponseModel):
    to: Literal["box"]
    box: int
    hand: int
    card: str


class CardToDealer(ResponseModel):
    to: Literal["dealer"]
    card: str | None  # None: face down


class HoleCardTurned(ResponseModel):
    to: Literal["dealer"]
    turned: str


class Round(ResponseModel):
    round_id: str
    room_id: str | None  # a shared table's round; null at the user's own tables
    table: str
    shoe_id: str
    status: Literal["insurance", "player_turn", "settled"]
    version: int
    started_at: str | None  # null only for rounds stored before it was kept
    settled_at: str | None
    boxes: list[Box]
    dealer: Dealer
    turn: Turn | None
    legal_actions: list[str]
    net: Money | None
    dealt: list[CardToBox | CardToDealer | HoleCardTurned]
    balance: Money | None  # null in a room round to a user with no box in it


class Count(ResponseModel):
    """The Hi-Lo count over the shoe's public cards."""

    system: Literal["hi_lo"]
    running: int
    true: float | int
    cards_seen: int
    cards_unseen: int


class ShoeInPlay(ResponseModel):
    shoe_id: str
    server_seed_hash: str
    client_seed: str
    nonce: int
    decks: int
    cards_remaining: int
    cut_card_out: bool
    count: Count


class Seat(ResponseModel):
    table: Table
    balance: Money
    shoe: ShoeInPlay
    round: Round | None


class IndexPlay(ResponseModel):
    """One index play (blackjack.strategy.indices.Index): a chart cell, or insurance."""

    section: Literal["hard", "soft", "pairs", "insurance"]
    row: str
    up: str
    basic: str
    play: str
    index: int
    direction: Literal["at_or_above", "at_or_below"]


class Hint(ResponseModel):
    action: str
    level: Literal["medium", "hard", "expert", "counter"]
    ev: dict[str, float] | None
    count: Count
    index: IndexPlay | None


class KellyBet(ResponseModel):
    kelly: int
    advised: int


class Edge(ResponseModel):
    """The player's edge for the next round at the seat's shoe, and the bet it makes."""

    table: str
    count: Count
    edge: float
    fresh_edge: float
    bet: KellyBet


class History(ResponseModel):
    rounds: list[Round]
    next_cursor: str | None


class Shoe(ResponseModel):
    shoe_id: str
    table: str
    server_seed_hash: str
    client_seed: str
    nonce: int
    decks: int
    cut_index: int | None
    retired: bool
    server_seed: str | None
    cards: list[str] | None
    rounds: list[str]


class DrillCell(ResponseModel):
    section: Literal["hard", "soft", "pairs", "indices"]
    row: str
    up: str
    direction: Literal["at_or_above", "at_or_below"] | None = None  # index cells only
    box: int
    attempts: int
    correct: int


class Drill(ResponseModel):
    table: str
    cards: list[str]
    up_card: str
    legal_actions: list[str]
    cell: DrillCell
    true_count: int | None = None  # index drills only


class DrillAnswer(ResponseModel):
    action: str
    best: str
    loss: float | int
    ev: dict[str, float]
    cell: DrillCell


class Drills(ResponseModel):
    table: str
    attempts: int
    correct: int
    cells: list[DrillCell]


class StrategyCard(BaseModel):
    """Open: the strategy engineer's card may carry more than API.md names."""

    table: str
    player_ev: float
    variance: float
    chart: dict[str, Any]
    ev: dict[str, Any]


class EdgeAtCount(ResponseModel):
    true_count: int
    edge: float


class Indices(ResponseModel):
    """The table's Hi-Lo index plays and its edge by true count (RULES.md, "Index plays")."""

    table: str
    system: Literal["hi_lo"]
    decks_unseen: int
    indices: list[IndexPlay]
    worth: list[float]
    edge: list[EdgeAtCount]


class RoomSeat(ResponseModel):
    box: int
    nick: str
    you: bool


class RoomBet(ResponseModel):
    box: int
    amount: Money


class UserSeed(ResponseModel):
    box: int
    client_seed: str


class RoomShoe(ResponseModel):
    shoe_id: str
    server_seed_hash: str
    client_seed: str | None  # null until the shoe's first deal
    seeds: list[UserSeed]
    nonce: int
    decks: int
    cards_remaining: int
    cut_card_out: bool
    count: Count


class Room(ResponseModel):
    """A shared table as one user sees it (API.md, "Shared tables (rooms)")."""

    room_id: str
    table: str
    name: str
    version: int
    phase: Literal["waiting", "betting", "insurance", "player_turn", "settled"]
    turn_seconds: int
    betting_seconds: int
    deadline: str | None
    seats: list[RoomSeat]
    bets: list[RoomBet]
    passed: list[str]
    shoe: RoomShoe
    round: Round | None
    legal_actions: list[str]


class RoomSummary(ResponseModel):
    room_id: str
    table: str
    name: str
    players: int
    free_boxes: int
    phase: Literal["waiting", "betting", "insurance", "player_turn", "settled"]


class Rooms(ResponseModel):
    rooms: list[RoomSummary]


class LiveTicket(ResponseModel):
    """Where to watch a room: a WebSocket address holding a single-use ticket."""

    url: str
    expires_in: int


class Health(ResponseModel):
    status: Literal["ok"]


class OpenApiDocument(BaseModel):
    openapi: str
    info: dict[str, Any]
    paths: dict[str, Any]
    components: dict[str, Any]
