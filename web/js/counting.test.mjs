// The count's arithmetic (API.md, "The count"), the drill's shoe, its grading and the bests.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  formatCount,
  freshCount,
  gradePass,
  groupsOf,
  hiLoTag,
  parseBests,
  parseCount,
  parseSetup,
  randomBelow,
  roundCards,
  runningCount,
  setupKey,
  shiftCount,
  shuffledShoe,
  trueCount,
  withPass,
} from "./counting.js";

test("Hi-Lo tags: 2 to 6 +1, 7 to 9 0, tens and aces −1", () => {
  assert.deepEqual(["2S", "3H", "4D", "5C", "6S", "7H", "8D", "9C", "TS", "JH", "QD", "KC", "AS"].map(hiLoTag), [1, 1, 1, 1, 1, 0, 0, 0, -1, -1, -1, -1, -1]);
  assert.equal(runningCount(["2S", "KD", "5H", "5C"]), 2);
  assert.equal(runningCount(shuffledShoe(6)), 0, "a whole shoe counts to zero");
});

test("the true count is running / (unseen / 52), rounded half-even to two decimals", () => {
  assert.equal(trueCount(3, 156), 1); // three decks left
  assert.equal(trueCount(-2, 307), -0.34); // −0.33876…
  assert.equal(trueCount(5, 208), 1.25);
  // exact halves: 1 × 5200 / 320000 is no card count, so halves come from these
  assert.equal(trueCount(1, 800), 0.06); // 0.065 → 0.06 (6 is even)
  assert.equal(trueCount(3, 800), 0.2); // 0.195 → 0.20
  assert.equal(trueCount(-1, 800), -0.06); // −0.065 → −0.06
  assert.equal(trueCount(-3, 800), -0.2); // −0.195 → −0.20
  assert.equal(trueCount(0, 312), 0);
});

test("a count shifts by the cards added or taken away", () => {
  const start = freshCount(6);
  assert.deepEqual(start, { system: "hi_lo", running: 0, true: 0, cards_seen: 0, cards_unseen: 312 });
  const after = shiftCount(start, ["6C", "JS", "7C", "QC", "2H"]);
  assert.deepEqual(after, { system: "hi_lo", running: 0, true: 0, cards_seen: 5, cards_unseen: 307 });
  const more = shiftCount(after, ["2D", "3D"]);
  assert.deepEqual(more, { system: "hi_lo", running: 2, true: trueCount(2, 305), cards_seen: 7, cards_unseen: 305 });
  assert.deepEqual(shiftCount(more, ["2D", "3D"], -1), after);
});

test("a round's face-up cards: the dealer's and every hand's, AI boxes too", () => {
  const round = {
    dealer: { cards: ["KH"], hidden: 1 },
    boxes: [
      { box: 0, player: "user", hands: [{ cards: ["8S", "3D"] }, { cards: ["8H", "TC"] }] },
      { box: 1, player: "ai:expert", hands: [{ cards: ["AS", "9D"] }] },
    ],
  };
  assert.deepEqual(roundCards(round), ["KH", "8S", "3D", "8H", "TC", "AS", "9D"]);
  assert.deepEqual(roundCards(null), []);
});

test("counts are written with their sign", () => {
  assert.equal(formatCount(3), "+3");
  assert.equal(formatCount(-2), "−2");
  assert.equal(formatCount(0), "0");
  assert.equal(formatCount(0.62, 2), "+0.62");
  assert.equal(formatCount(-1.5, 2), "−1.50");
  assert.equal(formatCount(0, 2), "0.00");
});

test("the shoe: six decks, every card once per deck, shuffled with the random source given", () => {
  const shoe = shuffledShoe(6);
  assert.equal(shoe.length, 312);
  const copies = {};
  for (const c of shoe) copies[c] = (copies[c] || 0) + 1;
  assert.equal(Object.keys(copies).length, 52);
  assert.ok(Object.values(copies).every((n) => n === 6));
  // j = i at every step leaves the order as built
  assert.deepEqual(shuffledShoe(1, (n) => n - 1).slice(0, 3), ["2S", "3S", "4S"]);
  assert.deepEqual(groupsOf(["a", "b", "c", "d", "e"], 2), [["a", "b"], ["c", "d"], ["e"]]);
});

test("randomBelow draws again past the last whole multiple of n (no modulo bias)", () => {
  const words = [2 ** 32 - 1, 7];
  const fill = (a) => {
    a[0] = words.shift();
  };
  assert.equal(randomBelow(10, fill), 7);
  for (let i = 0; i < 200; i++) {
    const v = randomBelow(6);
    assert.ok(Number.isInteger(v) && v >= 0 && v < 6);
  }
});

test("typed counts: signs, a typographic minus, a decimal comma; anything else is none", () => {
  assert.equal(parseCount("3"), 3);
  assert.equal(parseCount("+3"), 3);
  assert.equal(parseCount("−2"), -2);
  assert.equal(parseCount("-1.5"), -1.5);
  assert.equal(parseCount("1,5"), 1.5);
  assert.equal(parseCount(""), null);
  assert.equal(parseCount("three"), null);
});

test("a pass is right when the running count is exact and a true count, if given, within 0.5", () => {
  const cards = ["2S", "3H", "KD", "5C", "9S"]; // +2, 307 unseen: true 0.34
  const right = gradePass(cards, 6, { running: 2, true: null });
  assert.deepEqual(right, { running: 2, true: 0.34, unseen: 307, runningRight: true, trueRight: null, right: true });
  assert.equal(gradePass(cards, 6, { running: 2, true: 0.5 }).right, true);
  assert.equal(gradePass(cards, 6, { running: 2, true: 0.84 }).right, true);
  assert.equal(gradePass(cards, 6, { running: 2, true: 1 }).right, false);
  const wrong = gradePass(cards, 6, { running: 1, true: 0.3 });
  assert.equal(wrong.runningRight, false);
  assert.equal(wrong.trueRight, true);
  assert.equal(wrong.right, false);
});

test("bests: per setup, the fastest right answer and the longest run of right passes", () => {
  const setup = { cards: 52, group: 2, pace: "brisk" };
  assert.equal(setupKey(setup), "52:2:brisk");
  const ok = { right: true };
  const miss = { right: false };
  let b = withPass({}, setup, ok, 4000);
  b = withPass(b, setup, ok, 2500);
  b = withPass(b, setup, miss, 1000);
  b = withPass(b, setup, ok, 3000);
  assert.deepEqual(b["52:2:brisk"], { passes: 4, right: 3, fastest: 2500, streak: 1, bestStreak: 2 });
  const other = withPass(b, { ...setup, group: 4 }, miss, 900);
  assert.deepEqual(other["52:4:brisk"], { passes: 1, right: 0, fastest: null, streak: 0, bestStreak: 0 });
  assert.deepEqual(other["52:2:brisk"], b["52:2:brisk"]);
});

test("the remembered setup and bests survive bad storage", () => {
  assert.deepEqual(parseSetup(null), { cards: 52, group: 1, pace: "steady" });
  assert.deepEqual(parseSetup('{"cards":10,"group":4,"pace":"fast"}'), { cards: 10, group: 4, pace: "fast" });
  assert.deepEqual(parseSetup('{"cards":11,"group":3,"pace":"toString"}'), { cards: 52, group: 1, pace: "steady" });
  assert.deepEqual(parseSetup("{oops"), { cards: 52, group: 1, pace: "steady" });
  assert.deepEqual(parseBests("[1]"), {});
  assert.deepEqual(parseBests('{"10:1:slow":{"passes":1}}'), { "10:1:slow": { passes: 1 } });
});
