// The Indices page's pure parts: an index in words, the Kelly bet, the plot's axis.

import assert from "node:assert/strict";
import { test } from "node:test";
import { formatEdgePercent } from "./format.js";
import { setLanguage } from "./i18n.js";
import * as plays from "./indexplays.js";

const stand16 = { section: "hard", row: "16", up: "T", basic: "hit", play: "stand", index: 2, direction: "at_or_above" };
const hit9 = { section: "hard", row: "9", up: "3", basic: "double", play: "hit", index: -2, direction: "at_or_below" };
const insurance = { section: "insurance", row: "insurance", up: "A", basic: "decline_insurance", play: "insurance", index: 4, direction: "at_or_above" };

test("an index play in words, the card's play in brackets", () => {
  assert.equal(plays.indexWords(stand16), "16 v 10: stand at +2 or more (the card says hit)");
  assert.equal(plays.indexWords(hit9), "9 v 3: hit at −2 or less (the card says double)");
  assert.equal(
    plays.indexWords({ ...stand16, section: "pairs", row: "T", up: "6", basic: "stand", play: "split", index: 0 }),
    "10,10 v 6: split at 0 or more (the card says stand)",
  );
  assert.equal(
    plays.indexWords({ ...stand16, section: "soft", row: "19", up: "6", basic: "stand", play: "double", index: 1 }),
    "A,8 v 6: double at +1 or more (the card says stand)",
  );
  assert.equal(plays.indexWords(insurance), "Insurance: take it at +4 or more (the card declines it)");
  assert.deepEqual([plays.indexMark(stand16), plays.indexMark(hit9)], ["≥+2", "≤−2"]);
  assert.deepEqual([plays.shortRow("hard", "12"), plays.shortRow("soft", "13"), plays.shortRow("pairs", "A")], ["12", "A,2", "A,A"]);
  assert.deepEqual([plays.signedCount(3), plays.signedCount(0), plays.signedCount(-10)], ["+3", "0", "−10"]);
  assert.deepEqual([formatEdgePercent(1.2345), formatEdgePercent(-0.402), formatEdgePercent(0.001)], ["+1.23%", "−0.40%", "0.00%"]);
});

test("the Kelly bet: bankroll × edge/100 / variance, rounded down, 0 without an edge", () => {
  assert.equal(plays.kellyBet(10000, 1.5, 1.3), 115); // 115.38…
  assert.equal(plays.kellyBet(10000, 1.3, 1.3), 100); // exactly 100, not 99 by floating point
  assert.equal(plays.kellyBet(10000, 0, 1.3), 0);
  assert.equal(plays.kellyBet(10000, -0.4, 1.3), 0);
  assert.equal(plays.kellyBet(0, 2, 1.3), 0);
  assert.equal(plays.kellyBet(10000, 2, null), 0);
  assert.equal(plays.kellyBet(250, 0.1, 1.3), 0); // 0.19…
  assert.deepEqual(["10000", " 12,500 ", "1_000", "", "-5", "1.5", "abc"].map(plays.parseBankroll), [10000, 12500, 1000, null, null, null, null]);
});

test("the index plays by cell, insurance apart", () => {
  const by = plays.indicesByCell([stand16, hit9, insurance, { ...stand16, play: "surrender", direction: "at_or_below", index: -1 }]);
  assert.deepEqual(by.insurance, [insurance]);
  assert.equal(by.hard.get("16").get("T").length, 2);
  assert.deepEqual(by.hard.get("9").get("3"), [hit9]);
  assert.equal(by.soft.size, 0);
});

test("the plot's edge axis holds zero and every point, in whole steps", () => {
  assert.deepEqual(plays.edgeAxis([-4.7, 0.1, 6.66]), { min: -6, max: 8, ticks: [-6, -4, -2, 0, 2, 4, 6, 8] });
  assert.deepEqual(plays.edgeAxis([0.42, 2.3, 5.59]), { min: 0, max: 6, ticks: [0, 1, 2, 3, 4, 5, 6] });
  const axis = plays.edgeAxis([-1, 1]);
  const { x, y } = plays.plotScales(axis, { width: 120, height: 60, left: 10, right: 10, top: 10, bottom: 10 });
  assert.deepEqual([x(-10), x(0), x(10)], [10, 60, 110]);
  assert.deepEqual([y(1), y(0), y(-1)], [10, 30, 50]);
});

test("the plays ranked by worth, the most first, ties in chart order", () => {
  const four = [stand16, hit9, insurance, { ...hit9, up: "4" }];
  const ranked = plays.rankedPlays(four, [0.0047, 0, 0.0134, 0]);
  assert.deepEqual(
    ranked.map((ix) => [ix.row, ix.up, ix.worth]),
    [
      ["insurance", "A", 0.0134],
      ["16", "T", 0.0047],
      ["9", "3", 0],
      ["9", "4", 0],
    ],
  );
  assert.equal(plays.TOP_PLAYS, 18);
  assert.deepEqual([plays.worthCoins(0.0167), plays.worthCoins(0.00004), plays.worthCoins(0)], ["1.67", "<0.01", "0"]);
  assert.equal(plays.playKey(stand16), "hard 16 T at_or_above");
});

test("a shuffle-every-round table's count at the first decision: three cards over the decks left", () => {
  assert.equal(plays.firstDecisionBound(4), "0.76"); // classic: 3 × 52 / 205
  assert.equal(plays.firstDecisionBound(1), "3.18"); // bicycle: 3 × 52 / 49
  assert.deepEqual([plays.deckCount(1), plays.deckCount(3)], ["1 deck", "3 decks"]);
});

test("an index play, the decks and the worths in Russian and Croatian", () => {
  try {
    setLanguage("ru");
    assert.equal(plays.indexWords(stand16), "16 против 10: хватит при +2 и выше (по таблице — ещё)");
    assert.equal(plays.indexWords(hit9), "9 против 3: ещё при −2 и ниже (по таблице — удвоить)");
    assert.equal(plays.indexWords(insurance), "Страховка: брать при +4 и выше (по таблице — не брать)");
    assert.deepEqual([1, 2, 5, 21, 4.5].map(plays.deckCount), ["1 колода", "2 колоды", "5 колод", "21 колода", "4,5 колоды"]);
    assert.deepEqual([plays.worthCoins(0.0167), plays.worthCoins(0.00004)], ["1,67", "<0,01"]);
    assert.equal(plays.sectionName("soft"), "Мягкие суммы");
    setLanguage("hr");
    assert.equal(plays.indexWords(stand16), "16 protiv 10: dosta na +2 ili više (tablica kaže: karta)");
    assert.equal(
      plays.indexWords({ ...stand16, section: "pairs", row: "T", up: "6", basic: "stand", play: "split", index: 0 }),
      "10,10 protiv 6: podijeli na 0 ili više (tablica kaže: dosta)",
    );
    assert.equal(plays.indexWords({ ...insurance, direction: "at_or_below" }), "Osiguranje: uzmite ga na +4 ili manje (tablica ga odbija)");
    assert.deepEqual([1, 3, 6, 22].map(plays.deckCount), ["1 špil", "3 špila", "6 špilova", "22 špila"]);
    assert.equal(plays.firstDecisionBound(4), "0,76");
    assert.equal(plays.playWord("surrender"), "predaja");
  } finally {
    setLanguage("en");
  }
});

test("a bankroll typed with the separators of each language", () => {
  assert.deepEqual(["10.000", "1.250.000", "10\u00a0000", "10\u202f000", "1.5", "10.00", "1.0000"].map(plays.parseBankroll), [
    10000,
    1250000,
    10000,
    10000,
    null,
    null,
    null,
  ]);
});
