import assert from "node:assert/strict";
import { test } from "node:test";
import { cardDelay, dealerDraws, dealOrder, feltCards, pendingCards, slotOf } from "./pacing.js";

const hand = (cards, status = "playing") => ({ cards, total: 0, soft: false, bet: 10, status });
const box = (n, player, ...hands) => ({ box: n, player, hands });
const toBox = (n, card, h = 0) => ({ to: "box", box: n, hand: h, card });
const toDealer = (card) => ({ to: "dealer", card });
const turned = (card) => ({ to: "dealer", turned: card });

/** The felt after each card of the answer lands, one line per step: the dealer, then each hand. */
function steps(round) {
  const shown = new Set();
  const felt = () => {
    const f = feltCards(round, shown);
    return [f.dealer.map((c) => c ?? "##").join(" "), ...Object.entries(f.hands).map(([k, v]) => `${k}=${v.join(" ")}`)].join(" | ");
  };
  const out = [felt()];
  for (const slot of pendingCards(round, shown)) {
    shown.add(slot.key);
    out.push(felt());
  }
  return out;
}

test("a plain deal lands as it came off the shoe: round the boxes, the up card, round again, the hole card", () => {
  const round = {
    round_id: "r1",
    version: 1,
    boxes: [box(0, "user", hand(["9S", "7D"])), box(2, "ai:hard", hand(["TC", "2H"]))],
    dealer: { cards: ["KH"], hidden: 1 },
    dealt: [toBox(0, "9S"), toBox(2, "TC"), toDealer("KH"), toBox(0, "7D"), toBox(2, "2H"), toDealer(null)],
  };
  assert.deepEqual(steps(round), [
    " | 0:0= | 2:0=",
    " | 0:0=9S | 2:0=",
    " | 0:0=9S | 2:0=TC",
    "KH | 0:0=9S | 2:0=TC",
    "KH | 0:0=9S 7D | 2:0=TC",
    "KH | 0:0=9S 7D | 2:0=TC 2H",
    "KH ## | 0:0=9S 7D | 2:0=TC 2H",
  ]);
});

test("european: the player's hit, then the AI boxes' cards in their place, then the hole card turns and the dealer draws", () => {
  // The answer to a hit that makes 21: the box stands by itself, the AI boxes after it play, the dealer plays.
  const round = {
    round_id: "r2",
    version: 3,
    status: "settled",
    boxes: [box(0, "ai:easy", hand(["TD", "8C"])), box(1, "user", hand(["5S", "6D", "KS"])), box(2, "ai:hard", hand(["9H", "3C", "4D"]))],
    dealer: { cards: ["6H", "KH", "3S"], hidden: 0 },
    dealt: [toBox(1, "KS"), toBox(2, "4D"), turned("KH"), toDealer("3S")],
  };
  assert.deepEqual(steps(round), [
    "6H ## | 0:0=TD 8C | 1:0=5S 6D | 2:0=9H 3C",
    "6H ## | 0:0=TD 8C | 1:0=5S 6D KS | 2:0=9H 3C",
    "6H ## | 0:0=TD 8C | 1:0=5S 6D KS | 2:0=9H 3C 4D",
    "6H KH | 0:0=TD 8C | 1:0=5S 6D KS | 2:0=9H 3C 4D",
    "6H KH 3S | 0:0=TD 8C | 1:0=5S 6D KS | 2:0=9H 3C 4D",
  ]);
  assert.equal(dealerDraws(round), true);
  const flip = pendingCards(round, new Set())[2];
  assert.deepEqual([flip.index, flip.turn, slotOf(round, flip.key)], [1, true, flip]);
});

test("a hole card of the same face as the up card turns in its own place", () => {
  const round = {
    round_id: "r3",
    version: 2,
    boxes: [box(0, "user", hand(["TS", "9D"], "standing"))],
    dealer: { cards: ["KH", "KH"], hidden: 0 },
    dealt: [turned("KH")],
  };
  assert.deepEqual(steps(round), ["KH ## | 0:0=TS 9D", "KH KH | 0:0=TS 9D"]);
  assert.equal(dealerDraws(round), false); // a turn is not a draw: the dealer stood on 20
});

test("a double lands its one card before the casino dealer's second card", () => {
  const round = {
    round_id: "r4",
    version: 2,
    boxes: [box(0, "user", { ...hand(["6S", "5D", "9C"], "standing"), doubled: true })],
    dealer: { cards: ["7H", "QC"], hidden: 0 },
    dealt: [toBox(0, "9C"), toDealer("QC")],
  };
  assert.deepEqual(steps(round), ["7H | 0:0=6S 5D", "7H | 0:0=6S 5D 9C", "7H QC | 0:0=6S 5D 9C"]);
  assert.equal(dealerDraws(round), true); // at casino the second card is drawn
});

test("a split moves no card: the new hands show their first card at once, then get theirs", () => {
  const round = {
    round_id: "r5",
    version: 2,
    boxes: [box(0, "user", hand(["8S", "3D"]), hand(["8H"]))],
    dealer: { cards: ["TH"], hidden: 1 },
    dealt: [toBox(0, "3D")],
  };
  assert.deepEqual(steps(round), ["TH ## | 0:0=8S | 0:1=8H", "TH ## | 0:0=8S 3D | 0:1=8H"]);
  // An AI player's resplit in the same answer: the 8 dealt to hand 0 is now hand 1's first card.
  const resplit = {
    round_id: "r6",
    version: 4,
    boxes: [box(1, "ai:hard", hand(["8C", "2S"]), hand(["8D", "TC"]), hand(["8H", "9S"]))],
    dealer: { cards: ["6D", "7C"], hidden: 0 },
    dealt: [toBox(1, "8D"), toBox(1, "2S"), toBox(1, "TC", 1), toBox(1, "9S", 2), toDealer("7C")],
  };
  assert.deepEqual(
    pendingCards(resplit, new Set()).map((s) => `${s.place}:${s.hand ?? ""}:${s.index}`),
    ["hand:1:0", "hand:0:1", "hand:1:1", "hand:2:1", "dealer::1"],
  );
  assert.equal(steps(resplit)[0], "6D | 1:0=8C | 1:1= | 1:2=8H");
});

test("insurance then settlement: the dealer's second card lands after the insurance answer, never with it", () => {
  const insured = {
    round_id: "r7",
    version: 2,
    status: "player_turn",
    boxes: [box(0, "user", hand(["TS", "6D"]))],
    dealer: { cards: ["AS"], hidden: 0 },
    dealt: [], // casino: insuring deals nothing
  };
  assert.deepEqual(steps(insured), ["AS | 0:0=TS 6D"]);
  const settled = { ...insured, version: 3, status: "settled", dealer: { cards: ["AS", "KD"], hidden: 0 }, dealt: [toDealer("KD")] };
  assert.deepEqual(steps(settled), ["AS | 0:0=TS 6D", "AS KD | 0:0=TS 6D"]);
  // Every insured hand busted: no second card, nothing of the dealer's lands.
  const busted = {
    ...insured,
    version: 3,
    status: "settled",
    boxes: [box(0, "user", hand(["TS", "6D", "9C"], "bust"))],
    dealt: [toBox(0, "9C")],
  };
  assert.deepEqual(steps(busted), ["AS | 0:0=TS 6D", "AS | 0:0=TS 6D 9C"]);
  assert.equal(dealerDraws(busted), false);
});

test("a round without `dealt` (a GET) is on the felt as it is", () => {
  const round = { round_id: "r8", version: 5, boxes: [box(0, "user", hand(["9S", "7D"]))], dealer: { cards: ["KH"], hidden: 1 } };
  assert.deepEqual(pendingCards(round, new Set()), []);
  assert.deepEqual(feltCards(round, new Set()), { dealer: ["KH", null], hands: { "0:0": ["9S", "7D"] } });
  assert.deepEqual(feltCards({ ...round, dealt: [] }, new Set()), feltCards(round, new Set()));
  assert.deepEqual(feltCards(null, new Set()), { dealer: [], hands: {} });
});

test("a card of an earlier answer never counts as landed for this one", () => {
  const first = { round_id: "r9", version: 1, boxes: [box(0, "user", hand(["4S"]))], dealer: { cards: [], hidden: 0 }, dealt: [toBox(0, "4S")] };
  const shown = new Set(dealOrder(first).map((s) => s.key));
  const next = { ...first, version: 2, boxes: [box(0, "user", hand(["4S", "4S"]))], dealt: [toBox(0, "4S")] };
  assert.deepEqual(feltCards(next, shown).hands["0:0"], ["4S"]);
});

test("instant under reduced motion, else the chosen pace", () => {
  assert.equal(cardDelay("normal", true), 0);
  assert.equal(cardDelay("normal", false), 300);
  assert.equal(cardDelay("fast", false), 120);
  assert.equal(cardDelay("instant", false), 0);
  assert.equal(cardDelay("bogus", false), 300);
});

test("two cards of one face in a box land one at a time, each in its own place (six decks: 8♣ 8♣)", () => {
  const round = {
    round_id: "r8",
    version: 1,
    boxes: [box(0, "user", hand(["8C", "8C"]))],
    dealer: { cards: ["5H"], hidden: 1 },
    dealt: [toBox(0, "8C"), toDealer("5H"), toBox(0, "8C"), toDealer(null)],
  };
  assert.deepEqual(steps(round), [" | 0:0=", " | 0:0=8C", "5H | 0:0=8C", "5H | 0:0=8C 8C", "5H ## | 0:0=8C 8C"]);
});

test("a hit of a face the hand holds already lands in the new place", () => {
  const round = {
    round_id: "r9",
    version: 2,
    boxes: [box(0, "user", hand(["8C", "2D", "8C"]))],
    dealer: { cards: ["5H"], hidden: 1 },
    dealt: [toBox(0, "8C")],
  };
  assert.deepEqual(steps(round), ["5H ## | 0:0=8C 2D", "5H ## | 0:0=8C 2D 8C"]);
});
