// The Hi-Lo count's arithmetic (API.md, "The count").

import assert from "node:assert/strict";
import { test } from "node:test";
import { shuffledShoe } from "./countdrills.js";
import { formatCount, freshCount, hiLoTag, roundCards, runningCount, shiftCount, trueCount } from "./hilo.js";
import { setLanguage } from "./i18n.js";

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

test("counts are written for the language: a decimal comma in Russian and Croatian", () => {
  try {
    setLanguage("ru");
    assert.equal(formatCount(-1.5, 2), "−1,50");
    setLanguage("hr");
    assert.equal(formatCount(0.62, 2), "+0,62");
    assert.equal(formatCount(0, 2), "0,00");
  } finally {
    setLanguage("en");
  }
});
