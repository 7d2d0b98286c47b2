import assert from "node:assert/strict";
import { test } from "node:test";
import { cardDelay, dealOrder, feltCards, pendingCards } from "./pacing.js";

const hand = (cards) => ({ cards, total: 0, soft: false, bet: 10, status: "playing" });
const inPlay = {
  round_id: "r1",
  boxes: [
    { box: 0, player: "user", hands: [hand(["9S", "7D"])] },
    { box: 2, player: "ai:hard", hands: [hand(["TC", "2H"])] },
  ],
  dealer: { cards: ["KH"], hidden: 1 },
};
const settled = { ...inPlay, dealer: { cards: ["KH", "5C", "3D"], hidden: 0 } };

test("the deal goes round the boxes twice, the dealer's hole card last", () => {
  assert.deepEqual(
    dealOrder(inPlay).map((s) => s.key),
    ["0:0:0:9S", "2:0:0:TC", "d:0:KH", "0:0:1:7D", "2:0:1:2H", "d:1:back"],
  );
});

test("the dealer turns the hole card, then draws one card at a time", () => {
  const shown = new Set(dealOrder(inPlay).map((s) => s.key));
  assert.deepEqual(
    pendingCards(settled, shown).map((s) => s.key),
    ["d:1:5C", "d:2:3D"],
  );
  assert.deepEqual(feltCards(settled, shown).dealer, ["KH", null]); // still face down
  shown.add("d:1:5C");
  assert.deepEqual(feltCards(settled, shown).dealer, ["KH", "5C"]);
});

test("a hand's draws land after its first cards", () => {
  const hit = { ...inPlay, boxes: [{ box: 0, player: "user", hands: [hand(["9S", "7D", "2C"])] }] };
  const shown = new Set(["0:0:0:9S", "0:0:1:7D", "d:0:KH", "d:1:back"]);
  assert.deepEqual(feltCards(hit, shown).hands["0:0"], ["9S", "7D"]);
  assert.deepEqual(pendingCards(hit, shown)[0].key, "0:0:2:2C");
});

test("instant under reduced motion, else the chosen pace", () => {
  assert.equal(cardDelay("normal", true), 0);
  assert.equal(cardDelay("normal", false), 300);
  assert.equal(cardDelay("fast", false), 120);
  assert.equal(cardDelay("instant", false), 0);
  assert.equal(cardDelay("bogus", false), 300);
});
