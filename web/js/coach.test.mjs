// coach.js: why the coach names its move, in one sentence, at every level.

import assert from "node:assert/strict";
import { test } from "node:test";
import { cellWords, chartCell, coachWhy, indexApplies, indexRowWords, trueWords, upWords } from "./coach.js";
import { setLanguage } from "./i18n.js";

const RULES = { split: "same_value" };
// A piece of a strategy card's chart (API.md GET …/strategy `chart`).
const CHART = {
  hard: { 12: { 4: "stand" }, 16: { T: "hit", 9: "hit" }, 11: { 6: "double" }, 19: { 6: "stand" } },
  soft: { 18: { 6: "double" } },
  pairs: { 8: { T: "split" }, T: { 6: "stand" } },
};
const SIXTEEN_TEN = { section: "hard", row: "16", up: "T", basic: "hit", play: "stand", index: 0, direction: "at_or_above" };
const TWELVE_FOUR = { section: "hard", row: "12", up: "4", basic: "stand", play: "hit", index: 0, direction: "at_or_below" };
const INSURANCE = { section: "insurance", row: "insurance", up: "A", basic: "decline_insurance", play: "insurance", index: 3, direction: "at_or_above" };
const INDICES = [TWELVE_FOUR, SIXTEEN_TEN, INSURANCE];
const count = (t) => ({ system: "hi_lo", running: 0, true: t, cards_seen: 0, cards_unseen: 312 });

const spot = (hint, more = {}) => ({ cards: ["9S", "7D"], up: "KH", legal: ["hit", "stand", "surrender"], rules: RULES, ...more, hint });

test("the words of a spot: up cards, rows, true counts", () => {
  assert.deepEqual(["TD", "KH", "AS", "8C", "6D", "T", "9"].map(upWords), ["a ten", "a ten", "an ace", "an 8", "a 6", "a ten", "a 9"]);
  assert.deepEqual(
    [cellWords("hard", "16"), cellWords("soft", "18"), cellWords("pairs", "8"), cellWords("pairs", "T"), cellWords("pairs", "A")],
    ["Hard 16", "Soft 18", "A pair of 8s", "A pair of tens", "A pair of aces"],
  );
  assert.deepEqual([indexRowWords("hard", "16"), indexRowWords("soft", "18"), indexRowWords("pairs", "T")], ["16", "soft\u00a018", "10,10"]);
  assert.deepEqual([1.3, 0, -0.25, 4.999].map(trueWords), ["+1.3", "0", "−0.25", "+5"]);
});

test("the chart cell a counter reads a hand by, as the engine's chart_cell", () => {
  assert.deepEqual(chartCell(["8S", "8D"], "TH", RULES, CHART), { section: "pairs", row: "8", up: "T" });
  assert.deepEqual(chartCell(["KS", "QD"], "6H", RULES, CHART), { section: "pairs", row: "T", up: "6" }, "K,Q is a pair where the value splits");
  assert.deepEqual(chartCell(["KS", "QD"], "6H", { split: "same_rank" }, null), { section: "hard", row: "20", up: "6" }, "not where the rank must match");
  assert.equal(chartCell(["KS", "QD"], "6H", { split: "same_rank" }, CHART), null, "hard 20 has no row on the card");
  assert.deepEqual(chartCell(["AS", "4D", "3C"], "6H", RULES, CHART), { section: "soft", row: "18", up: "6" }, "a soft total of three cards");
  assert.deepEqual(chartCell(["9S", "4D", "3C"], "JH", RULES, CHART), { section: "hard", row: "16", up: "T" });
});

test("an index holds from its true count on, up or down", () => {
  assert.equal(indexApplies(SIXTEEN_TEN, 0), true);
  assert.equal(indexApplies(SIXTEEN_TEN, -0.01), false);
  assert.equal(indexApplies(TWELVE_FOUR, -1), true);
  assert.equal(indexApplies(TWELVE_FOUR, 0.5), false);
});

test("medium: the chart's cell, and what it says", () => {
  assert.equal(coachWhy(spot({ level: "medium", action: "stand", ev: null })), "Hard 16 against a ten: the chart says Stand.");
  const pair = { cards: ["8S", "8D"], legal: ["hit", "stand", "double", "split"] };
  assert.equal(coachWhy(spot({ level: "medium", action: "split" }, pair)), "A pair of 8s against a ten: the chart says Split.");
  const fives = { cards: ["5S", "5D"], up: "6C", legal: ["hit", "stand", "double", "split"] };
  assert.equal(coachWhy(spot({ level: "medium", action: "double" }, fives)), "Hard 10 against a 6: the chart says Double.", "a pair played by its total");
  const soft = { cards: ["AS", "7D"], up: "6C", legal: ["hit", "stand", "double"] };
  assert.equal(coachWhy(spot({ level: "medium", action: "double" }, soft)), "Soft 18 against a 6: the chart says Double.");
  const ace = { cards: ["AS", "KD"], up: "AC", legal: ["even_money", "decline_insurance"] };
  assert.equal(coachWhy(spot({ level: "medium", action: "decline_insurance" }, ace)), "Even money against an ace: the chart says Decline even money.");
});

test("hard: the highest EV for a fresh shoe, and by how much", () => {
  const ev = { hit: -0.5401, stand: -0.5282, surrender: -0.5 };
  assert.equal(coachWhy(spot({ level: "hard", action: "surrender", ev })), "The highest EV for your hand off a fresh shoe, 0.028 of the bet above stand.");
  assert.equal(
    coachWhy(spot({ level: "hard", action: "stand", ev: { hit: -0.5401, stand: -0.54 } }, { legal: ["hit", "stand"] })),
    "The highest EV for your hand off a fresh shoe, level with hit to three decimals.",
  );
  const insurance = { legal: ["insurance", "decline_insurance"], up: "AC" };
  assert.equal(
    coachWhy(spot({ level: "hard", action: "decline_insurance", ev: { insurance: -0.0769, decline_insurance: 0 } }, insurance)),
    "The highest EV for your hand off a fresh shoe, 0.077 of the bet above insurance.",
  );
});

test("expert: the highest EV for the cards not yet seen, and where the chart plays otherwise", () => {
  const ev = { hit: -0.52, stand: -0.49, surrender: -0.5 };
  assert.equal(
    coachWhy(spot({ level: "expert", action: "stand", ev }, { chart: CHART })),
    "The highest EV for the cards not yet seen, 0.010 of the bet above surrender; the chart says Hit.",
  );
  assert.equal(
    coachWhy(spot({ level: "expert", action: "hit", ev: { hit: -0.5, stand: -0.53 } }, { chart: CHART, legal: ["hit", "stand"] })),
    "The highest EV for the cards not yet seen, 0.030 of the bet above stand.",
    "the chart agrees: no more words",
  );
  assert.equal(
    coachWhy(spot({ level: "expert", action: "stand", ev }, { chart: null })),
    "The highest EV for the cards not yet seen, 0.010 of the bet above surrender.",
    "the card not loaded yet",
  );
  const threeCards = { cards: ["AS", "4D", "3C"], up: "6C", legal: ["hit", "stand"], chart: CHART };
  assert.equal(
    coachWhy(spot({ level: "expert", action: "stand", ev: { hit: 0.1, stand: 0.12 } }, threeCards)),
    "The highest EV for the cards not yet seen, 0.020 of the bet above hit.",
    "the card's double is not legal now: nothing to compare",
  );
  const insurance = { legal: ["insurance", "decline_insurance"], up: "AC", chart: CHART };
  assert.equal(
    coachWhy(spot({ level: "expert", action: "insurance", ev: { insurance: 0.02, decline_insurance: 0 } }, insurance)),
    "The highest EV for the cards not yet seen, 0.020 of the bet above no insurance; the chart says No insurance.",
  );
});

test("counter: the index and the true count against it (issue 34's sentence)", () => {
  const docs = { chart: CHART, indices: INDICES };
  assert.equal(
    coachWhy(spot({ level: "counter", action: "stand", ev: null, count: count(1.3), index: SIXTEEN_TEN }, docs)),
    "True count +1.3 is at or above 0, the index of 16 against a ten.",
  );
  const twelve = { cards: ["TS", "2D"], up: "4C", legal: ["hit", "stand"] };
  assert.equal(
    coachWhy(spot({ level: "counter", action: "hit", count: count(-1.5), index: TWELVE_FOUR }, { ...docs, ...twelve })),
    "True count −1.5 is at or below 0, the index of 12 against a 4.",
  );
  const ace = { cards: ["9S", "7D"], up: "AC", legal: ["insurance", "decline_insurance"] };
  assert.equal(
    coachWhy(spot({ level: "counter", action: "insurance", count: count(3.25), index: INSURANCE }, { ...docs, ...ace })),
    "True count +3.25 is at or above +3, the insurance index.",
  );
});

test("counter: where no index applies, the chart's play and why", () => {
  const docs = { chart: CHART, indices: INDICES };
  assert.equal(
    coachWhy(spot({ level: "counter", action: "hit", count: count(-0.4), index: null }, docs)),
    "The chart's play for 16 against a ten: stand only at 0 or above, and the true count is −0.4.",
  );
  const twelve = { cards: ["TS", "2D"], up: "4C", legal: ["hit", "stand"] };
  assert.equal(
    coachWhy(spot({ level: "counter", action: "stand", count: count(1.5), index: null }, { ...docs, ...twelve })),
    "The chart's play for 12 against a 4: hit only at 0 or below, and the true count is +1.5.",
    "issue 42: what would change the play, not 'true count +1.5 is above 0, its index to hit'",
  );
  const nine = { up: "9C" };
  assert.equal(
    coachWhy(spot({ level: "counter", action: "hit", count: count(2), index: null }, { ...docs, ...nine })),
    "The chart's play for 16 against a 9, which has no index.",
  );
  assert.equal(
    coachWhy(spot({ level: "counter", action: "hit", count: count(2), index: null })),
    "The chart's play for 16 against a ten: no index applies at true count +2.",
    "the table's documents not loaded yet",
  );
  const ace = { up: "AC", legal: ["insurance", "decline_insurance"] };
  assert.equal(
    coachWhy(spot({ level: "counter", action: "decline_insurance", count: count(1.2), index: null }, { ...docs, ...ace })),
    "The chart declines insurance: take it only at +3 or above, and the true count is +1.2.",
  );
  assert.equal(
    coachWhy(spot({ level: "counter", action: "decline_insurance", count: count(1.2), index: null }, { ...docs, indices: [], ...ace })),
    "This table has no insurance index: the chart declines it.",
  );
  const threeCards = { cards: ["AS", "4D", "3C"], up: "6C", legal: ["hit", "stand"] };
  assert.equal(
    coachWhy(spot({ level: "counter", action: "stand", count: count(0), index: null }, { ...docs, ...threeCards })),
    "The chart's double for soft\u00a018 against a 6 is not allowed now.",
  );
  const drawn = { cards: ["9S", "4D", "3C"], legal: ["hit", "stand"] };
  const late = { ...SIXTEEN_TEN, play: "surrender", index: 1 };
  assert.equal(
    coachWhy(spot({ level: "counter", action: "hit", count: count(2), index: null }, { chart: CHART, indices: [late], ...drawn })),
    "True count +2 is at or above +1, the index of 16 against a ten, but surrender is not allowed now: the chart's play.",
  );
  const twenty = { cards: ["KS", "QD"], legal: ["hit", "stand"], rules: { split: "same_rank" } };
  assert.equal(
    coachWhy(spot({ level: "counter", action: "stand", count: count(2), index: null }, { ...docs, ...twenty })),
    "The chart's play: no index applies at true count +2.",
  );
});

test("in Russian: whole sentences, the up card after «против» in the genitive", () => {
  setLanguage("ru");
  try {
    assert.deepEqual(["TD", "AS", "8C", "6D"].map(upWords), ["десятки", "туза", "восьмёрки", "шестёрки"]);
    assert.equal(cellWords("pairs", "8"), "Пара восьмёрок");
    assert.equal(coachWhy(spot({ level: "medium", action: "stand", ev: null })), "Жёсткие 16 против десятки: по таблице — Хватит.");
    const pair = { cards: ["8S", "8D"], legal: ["hit", "stand", "split"] };
    assert.equal(coachWhy(spot({ level: "medium", action: "split" }, pair)), "Пара восьмёрок против десятки: по таблице — Сплит.");
    const ev = { hit: -0.54, stand: -0.528, surrender: -0.5 };
    assert.equal(
      coachWhy(spot({ level: "hard", action: "surrender", ev })),
      "Наибольший EV для вашей руки из нового шуза, на 0,028 ставки выше, чем «хватит».",
    );
    const docs = { chart: CHART, indices: INDICES };
    assert.equal(
      coachWhy(spot({ level: "counter", action: "stand", ev: null, count: count(1.3), index: SIXTEEN_TEN }, docs)),
      "Истинный счёт +1,3 не ниже 0: индексная игра (16 против десятки).",
    );
    assert.equal(
      coachWhy(spot({ level: "counter", action: "hit", count: count(-0.4), index: null }, docs)),
      "Ход по таблице (16 против десятки): «хватит» только при 0 и выше, а истинный счёт −0,4.",
    );
  } finally {
    setLanguage("en");
  }
});

test("in Croatian: whole sentences, the up card after «protiv» in the genitive", () => {
  setLanguage("hr");
  try {
    assert.deepEqual(["TD", "AS", "8C", "6D"].map(upWords), ["desetke", "asa", "osmice", "šestice"]);
    const soft = { cards: ["AS", "7D"], up: "6H", legal: ["hit", "stand", "double"] };
    assert.equal(coachWhy(spot({ level: "medium", action: "double" }, soft)), "Meka 18 protiv šestice: tablica kaže Udvostruči.");
    const ace = { cards: ["AS", "TD"], up: "AC", legal: ["even_money", "decline_insurance"] };
    assert.equal(coachWhy(spot({ level: "medium", action: "decline_insurance" }, ace)), "Isplata 1:1 protiv asa: tablica kaže Bez isplate 1:1.");
    const twelve = { cards: ["TS", "2D"], up: "4C", legal: ["hit", "stand"] };
    assert.equal(
      coachWhy(spot({ level: "counter", action: "hit", count: count(-1.5), index: TWELVE_FOUR }, { chart: CHART, indices: INDICES, ...twelve })),
      "Pravi broj −1,5 je 0 ili manje: indeksna igra (12 protiv četvorke).",
    );
    assert.equal(
      coachWhy(spot({ level: "expert", action: "hit", ev: { hit: -0.5, stand: -0.53 } }, { chart: CHART, legal: ["hit", "stand"] })),
      "Najveći EV za karte koje još nisu izašle, 0,030 uloga više nego „dosta”.",
    );
  } finally {
    setLanguage("en");
  }
});
