// A shared table's page, without the DOM: which view is shown, seats and turns, the phase,
// the countdown, what changed between views, the count on the felt, the lobby's words.

import assert from "node:assert/strict";
import { test } from "node:test";
import { setLanguage } from "./i18n.js";
import {
  countdownWords,
  feltCount,
  keepOwnPart,
  needsOwnView,
  ownerOf,
  phaseOf,
  retryDelay,
  roomRequest,
  roomStatusWords,
  roomSummaryWords,
  roomTable,
  roomTables,
  seatChanges,
  seatSentences,
  secondsLeft,
  turnOf,
  viewToApply,
  yourTurnNow,
} from "./roomview.js";

const hand = (cards, extra = {}) => ({ cards, bet: 10, status: "playing", ...extra });
const view = (version, extra = {}) => ({
  room_id: "r1",
  table: "casino",
  version,
  phase: "waiting",
  deadline: null,
  seats: [
    { box: 0, nick: "alice1", you: false },
    { box: 2, nick: "bob42", you: false },
  ],
  bets: [],
  passed: [],
  round: null,
  legal_actions: [],
  ...extra,
});
const inPlay = (version, turn, extra = {}) =>
  view(version, {
    phase: "player_turn",
    deadline: "2026-12-04T20:15:03.250Z",
    round: {
      round_id: "x",
      shoe_id: "s",
      version,
      status: "player_turn",
      turn,
      dealt: [{ to: "box", box: 0, hand: 0, card: "TS" }],
      dealer: { cards: ["9H"], hidden: 1 },
      boxes: [
        { box: 0, player: "user:alice1", hands: [hand(["TS", "6D"])] },
        { box: 2, player: "user:bob42", hands: [hand(["5C", "5D"])] },
      ],
    },
    ...extra,
  });

/** Carol takes boxes 2 and 4 as bob42 leaves box 3. */
const carolJoinsBobLeaves = () => ({
  before: view(1),
  after: view(2, {
    seats: [
      { box: 0, nick: "alice1", you: false },
      { box: 1, nick: "carol", you: false },
      { box: 3, nick: "carol", you: false },
    ],
  }),
});

test("a newer view is shown; an older or equal one is not", () => {
  const shown = { view: view(4), personal: false };
  assert.equal(viewToApply(shown, { view: view(3), personal: false }), null);
  assert.equal(viewToApply(shown, { view: view(4), personal: false }), null);
  assert.equal(viewToApply({ view: view(4), personal: true }, { view: view(4), personal: true }), null);
  assert.deepEqual(viewToApply(shown, { view: view(5), personal: false }), { view: view(5), personal: false });
  assert.deepEqual(viewToApply(null, { view: view(1), personal: true }), { view: view(1), personal: true });
  assert.equal(viewToApply(shown, null), null);
});

test("a personal view of the version shown adds the caller's part and keeps the cards landing", () => {
  const live = { view: inPlay(7, { box: 0, hand: 0 }), personal: false };
  const got = inPlay(7, { box: 0, hand: 0 }, { legal_actions: ["hit", "stand"] });
  got.round.dealt = []; // a GET's
  const applied = viewToApply(live, { view: got, personal: true });
  assert.equal(applied.personal, true);
  assert.deepEqual(applied.view.legal_actions, ["hit", "stand"]);
  assert.deepEqual(applied.view.round.dealt, live.view.round.dealt);
});

test("a public view keeps the marks of the caller's hands it leaves out, in the same round only", () => {
  const marked = inPlay(7, { box: 0, hand: 0 });
  marked.round.boxes[0].hands[0].decisions = [{ action: "hit", best: "hit" }];
  const next = inPlay(8, { box: 2, hand: 0 });
  assert.deepEqual(keepOwnPart(marked, next).round.boxes[0].hands[0].decisions, [{ action: "hit", best: "hit" }]);
  assert.equal(keepOwnPart(marked, next).round.boxes[1].hands[0].decisions, undefined);
  const other = inPlay(9, { box: 0, hand: 0 });
  other.round.round_id = "y";
  assert.equal(keepOwnPart(marked, other), other);
});

test("a box's owner is its seat's, or the player's of the round (a leaver's box plays on)", () => {
  const v = inPlay(3, { box: 2, hand: 0 }, { seats: [{ box: 0, nick: "alice1", you: true }] });
  assert.deepEqual(ownerOf(v, 0, "zed"), { nick: "alice1", you: true });
  assert.deepEqual(ownerOf(v, 2, "alice1"), { nick: "bob42", you: false });
  assert.deepEqual(ownerOf(v, 2, "bob42"), { nick: "bob42", you: true });
  assert.equal(ownerOf(v, 4, "alice1"), null);
});

test("the decision asked names its box, hand and owner; none between rounds", () => {
  assert.deepEqual(turnOf(inPlay(3, { box: 2, hand: 0 }), "alice1"), { box: 2, hand: 0, nick: "bob42", you: false, insurance: false });
  assert.equal(turnOf(inPlay(3, { box: 2, hand: 0 }), "bob42").you, true);
  assert.equal(turnOf(view(3), "bob42"), null);
  assert.equal(turnOf(inPlay(3, { box: 0, hand: 0 }, { phase: "insurance" }), "alice1").insurance, true);
});

test("'your turn' is said when a decision of the caller's is asked, once per hand", () => {
  const alice = inPlay(3, { box: 0, hand: 0 });
  const bob = inPlay(4, { box: 2, hand: 0 });
  assert.equal(yourTurnNow(alice, bob, "bob42"), true);
  assert.equal(yourTurnNow(alice, bob, "alice1"), false);
  assert.equal(yourTurnNow(bob, inPlay(5, { box: 2, hand: 0 }), "bob42"), false); // a hit: the same hand
  assert.equal(yourTurnNow(bob, inPlay(6, { box: 2, hand: 1 }), "bob42"), true); // a split's second hand
  assert.equal(yourTurnNow(null, bob, "bob42"), true);
  assert.equal(yourTurnNow(view(2), bob, "bob42"), true);
});

test("joins and leaves are told apart by nick, a user's boxes together", () => {
  const { before, after } = carolJoinsBobLeaves();
  const changes = seatChanges(before, after);
  assert.deepEqual(changes, { joined: [{ nick: "carol", boxes: [1, 3] }], left: ["bob42"] });
  assert.deepEqual(seatSentences(changes, "alice1"), ["carol joined at boxes 2 and 4.", "bob42 left."]);
  assert.deepEqual(seatSentences(changes, "carol"), ["You sit at boxes 2 and 4.", "bob42 left."]);
  assert.deepEqual(seatSentences(changes, "bob42"), ["carol joined at boxes 2 and 4.", "You no longer sit at this table."]);
  assert.deepEqual(seatChanges(before, view(3)), { joined: [], left: [] });
  assert.deepEqual(seatSentences({ joined: [{ nick: "d", boxes: [0, 2, 4] }], left: [] }, "x"), ["d joined at boxes 1, 3 and 5."]);
});

test("between rounds the seated caller bets or passes once; others watch", () => {
  const open = view(5, { phase: "betting", deadline: "2026-12-04T20:15:03.250Z", bets: [{ box: 0, amount: 50 }] });
  assert.deepEqual(phaseOf(open, "bob42"), {
    betting: true,
    seated: true,
    mine: [2],
    myBet: [],
    passed: false,
    canBet: true,
    turn: null,
    countdown: "betting",
  });
  assert.equal(phaseOf(open, "alice1").canBet, false);
  assert.deepEqual(phaseOf(open, "alice1").myBet, [{ box: 0, amount: 50 }]);
  assert.equal(phaseOf({ ...open, passed: ["bob42"] }, "bob42").canBet, false);
  assert.equal(phaseOf(open, "zed").seated, false);
  assert.equal(phaseOf(view(2, { phase: "settled" }), "alice1").canBet, true);
  const playing = phaseOf(inPlay(6, { box: 2, hand: 0 }), "alice1");
  assert.equal(playing.betting, false);
  assert.equal(playing.countdown, "turn");
});

test("the status line says whose turn it is, or where the bets stand", () => {
  assert.equal(roomStatusWords(inPlay(6, { box: 2, hand: 0 }), "alice1"), "bob42's turn: box 3");
  assert.equal(roomStatusWords(inPlay(6, { box: 2, hand: 0 }), "bob42"), "Your turn: box 3");
  assert.equal(roomStatusWords(inPlay(6, { box: 0, hand: 0 }, { phase: "insurance" }), "alice1"), "Your turn: insurance?");
  assert.equal(roomStatusWords(view(1), "alice1"), "Place your bet: the first bet opens the window.");
  assert.equal(roomStatusWords(view(1), "zed"), "Waiting for bets: take a free box to play.");
  const open = view(5, { phase: "betting", bets: [{ box: 0, amount: 1050 }], passed: ["bob42"] });
  assert.equal(roomStatusWords(open, "alice1"), "Your bet is in (1,050): waiting for the others.");
  assert.equal(roomStatusWords(open, "bob42"), "You pass this round: waiting for the others.");
  assert.equal(roomStatusWords(view(5, { phase: "betting" }), "alice1"), "Bets are open: bet or pass.");
});

test("the countdown counts whole seconds up to the deadline, and stops at 0", () => {
  const deadline = "2026-12-04T20:15:03.250Z";
  const at = Date.parse(deadline);
  assert.equal(secondsLeft(deadline, at - 14_200), 15);
  assert.equal(secondsLeft(deadline, at - 1), 1);
  assert.equal(secondsLeft(deadline, at), 0);
  assert.equal(secondsLeft(deadline, at + 5000), 0);
  assert.equal(secondsLeft(null, at), null);
  assert.equal(countdownWords("betting", 12, false), "Bets close in 12 s");
  assert.equal(countdownWords("turn", 14, true), "14 s to answer");
  assert.equal(countdownWords("turn", 14, false), "14 s left");
  assert.equal(countdownWords("turn", 0, true), "Time is up: the table answers for you");
  assert.equal(countdownWords("turn", 0, false), "Time is up");
  assert.equal(countdownWords(null, 3, true), "");
});

test("reconnecting waits longer each time, up to 15 s", () => {
  assert.deepEqual([1, 2, 3, 4, 5, 9].map(retryDelay), [1000, 2000, 4000, 8000, 15000, 15000]);
});

test("the count on the felt is the view's, less the round's cards, plus those landed", () => {
  const v = inPlay(6, { box: 2, hand: 0 });
  v.shoe = { shoe_id: "s", count: { system: "hi_lo", running: 2, true: 0.4, cards_seen: 8, cards_unseen: 304 } };
  // the round's face-up cards: 9H, TS 6D, 5C 5D = 0 -1 +1 +1 +1 = +2
  assert.equal(feltCount(v, []).running, 0);
  assert.equal(feltCount(v, []).cards_seen, 3);
  assert.equal(feltCount(v, ["9H", "5C"]).running, 1);
  v.shoe.shoe_id = "new";
  assert.equal(feltCount(v, []).running, 2);
  assert.equal(feltCount({ ...v, shoe: null }, []), null);
});

test("a new room's form: its body, or what is wrong", () => {
  assert.deepEqual(roomRequest({ table: "casino", name: " Friday ", turnSeconds: "20", bettingSeconds: "15" }), {
    body: { table: "casino", name: "Friday", turn_seconds: 20, betting_seconds: 15 },
    errors: [],
  });
  assert.deepEqual(roomRequest({ table: "european", name: "", turnSeconds: "5", bettingSeconds: "60" }).body, {
    table: "european",
    turn_seconds: 5,
    betting_seconds: 60,
  });
  const bad = roomRequest({ table: "casino", name: "é".repeat(3), turnSeconds: "4", bettingSeconds: "7.5" });
  assert.equal(bad.errors.length, 3);
});

test("rooms are made at tables of more than one box, without the cut card's choice or AI players", () => {
  const tables = [
    { id: "classic", boxes: 1, rules: {} },
    { id: "casino", boxes: 5, rules: { cut_range: [0.5, 0.8], ai_players: true, decks: 6 } },
  ];
  assert.deepEqual(
    roomTables(tables).map((t) => t.id),
    ["casino"],
  );
  assert.deepEqual(roomTable(tables[1]).rules, { cut_range: null, ai_players: false, decks: 6 });
  assert.equal(
    roomSummaryWords({ room_id: "r", table: "casino", name: "Fri", players: 2, free_boxes: 1, phase: "player_turn" }, "Casino"),
    "Casino · 2 players · 1 free box · playing",
  );
});

test("the caller's own view is read when a decision of theirs is asked or answered, or their round settles", () => {
  const alice = inPlay(3, { box: 0, hand: 0 });
  const bob = inPlay(4, { box: 2, hand: 0 });
  assert.equal(needsOwnView(alice, bob, "bob42"), true); // asked
  assert.equal(needsOwnView(alice, bob, "alice1"), true); // answered
  assert.equal(needsOwnView(bob, inPlay(5, { box: 2, hand: 0 }), "alice1"), false);
  assert.equal(needsOwnView(bob, inPlay(5, { box: 2, hand: 0 }), "zed"), false);
  const settled = inPlay(6, null, { phase: "settled", deadline: null });
  settled.round.status = "settled";
  assert.equal(needsOwnView(bob, settled, "alice1"), true);
  assert.equal(needsOwnView(settled, { ...settled, version: 7 }, "alice1"), false);
  assert.equal(needsOwnView(null, view(1), "alice1"), false);
});

test("the room's words in Russian and in Croatian: seats, turns, bets, the countdown, the lobby's line", () => {
  const { before, after } = carolJoinsBobLeaves();
  const changes = seatChanges(before, after);
  const open = view(5, { phase: "betting", bets: [{ box: 0, amount: 50 }], passed: ["bob42"] });
  try {
    setLanguage("ru");
    assert.deepEqual(seatSentences(changes, "alice1"), ["carol садится за стол: боксы 2 и 4.", "bob42 уходит из-за стола."]);
    assert.deepEqual(seatSentences({ joined: [{ nick: "d", boxes: [2] }], left: ["bob42"] }, "bob42"), [
      "d садится за стол: бокс 3.",
      "Вы больше не за этим столом.",
    ]);
    assert.equal(roomStatusWords(inPlay(6, { box: 2, hand: 0 }), "alice1"), "Ход игрока bob42: бокс 3");
    assert.equal(roomStatusWords(inPlay(6, { box: 0, hand: 0 }, { phase: "insurance" }), "alice1"), "Ваш ход: страховка?");
    assert.equal(roomStatusWords(open, "alice1"), "Ваша ставка принята (50): ждём остальных.");
    assert.equal(countdownWords("betting", 12, false), "Ставки закроются через 12 с");
    assert.equal(countdownWords("turn", 0, true), "Время вышло: стол отвечает за вас");
    const summary = { room_id: "r", table: "casino", name: "Fri", players: 5, free_boxes: 2, phase: "settled" };
    assert.equal(roomSummaryWords(summary, "Казино"), "Казино · 5 игроков · 2 свободных бокса · между раундами");
    assert.equal(roomSummaryWords({ ...summary, players: 21, free_boxes: 1 }, "Казино"), "Казино · 21 игрок · 1 свободный бокс · между раундами");
    assert.deepEqual(roomRequest({ table: "casino", name: "", turnSeconds: "4", bettingSeconds: "15" }).errors, ["Секунд на решение: целое число от 5 до 60."]);
    setLanguage("hr");
    assert.deepEqual(seatSentences({ joined: [{ nick: "d", boxes: [0, 2, 4] }], left: [] }, "d"), ["Sjedite za stolom: boksovi 1, 3 i 5."]);
    assert.deepEqual(seatSentences(changes, "bob42"), ["carol sjeda za stol: boksovi 2 i 4.", "Više ne sjedite za ovim stolom."]);
    const split = inPlay(6, { box: 2, hand: 1 });
    split.round.boxes[1].hands.push(hand(["5H", "9S"]));
    assert.equal(roomStatusWords(split, "bob42"), "Na redu ste: boks 3, ruka 2");
    assert.equal(roomStatusWords(open, "bob42"), "Propuštate ovu rundu: čekamo ostale.");
    assert.equal(countdownWords("turn", 14, false), "Još 14 s");
    assert.equal(
      roomSummaryWords({ room_id: "r", table: "casino", players: 2, free_boxes: 5, phase: "player_turn" }, "Kasino"),
      "Kasino · 2 igrača · 5 slobodnih boksova · igra",
    );
  } finally {
    setLanguage("en");
  }
});
