// The checkout at the table: when it asks, how answers are read and graded against the
// service's figures (GET …/edge), why each right answer is right, and the figures kept.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  answerError,
  answerText,
  betRange,
  CHECKOUT_RATE,
  checkoutFigures,
  checkoutRecords,
  gradeCheckout,
  KEPT,
  keepCheckout,
  parseBet,
  parseRunning,
  parseTrue,
  QUESTIONS,
  recordOf,
  shouldAsk,
} from "./checkout.js";
import { formatCoins, formatEdgePercent, formatPercent } from "./format.js";
import { freshCount, shiftCount } from "./hilo.js";
import { setLanguage } from "./i18n.js";

const LAST_ROUND = ["5H", "KD", "2C", "6S", "9D", "4C"]; // +1 −1 +1 +1 0 +1 = +3
const COUNT = shiftCount(shiftCount(freshCount(6), ["2S", "3S", "4S", "KS", "8S", "5D", "6D"]), LAST_ROUND); // +4, then +3
const TRUTH = { count: COUNT, edge: 0.5231, bet: { kelly: 39, advised: 39 }, balance: 10000, roundCards: LAST_ROUND };

test("the count the checkout grades against: +7 over 13 cards", () => {
  assert.equal(COUNT.running, 7);
  assert.equal(COUNT.cards_unseen, 299);
  assert.equal(COUNT.true, 1.22);
});

test("it asks about one round in eight, never twice in a row, never at a shoe just shuffled", () => {
  assert.equal(CHECKOUT_RATE, 1 / 8);
  assert.equal(shouldAsk({ draw: 0, roundsSince: null, count: COUNT }), true);
  assert.equal(shouldAsk({ draw: 0.124, roundsSince: 5, count: COUNT }), true);
  assert.equal(shouldAsk({ draw: 0.125, roundsSince: 5, count: COUNT }), false);
  assert.equal(shouldAsk({ draw: 0, roundsSince: 1, count: COUNT }), false, "asked after the round before");
  assert.equal(shouldAsk({ draw: 0, roundsSince: 2, count: COUNT }), true, "a round between");
  assert.equal(shouldAsk({ draw: 0, roundsSince: null, count: freshCount(6) }), false, "a shoe just shuffled");
  assert.equal(shouldAsk({ draw: 0, roundsSince: null, count: null }), false, "no count known");
  // over many rounds, about one in eight asks
  let asked = 0;
  let since = null; // rounds settled since the last checkout, this one included
  for (let i = 0; i < 8000; i++) {
    if (since !== null) since += 1;
    if (shouldAsk({ draw: (i * 0.6180339887) % 1, roundsSince: since, count: COUNT })) {
      asked += 1;
      since = 0;
    }
  }
  assert.ok(asked > 800 && asked < 1100, String(asked));
});

test("answers read as a player types them", () => {
  assert.equal(parseRunning("+3"), 3);
  assert.equal(parseRunning("-3"), -3);
  assert.equal(parseRunning("−3"), -3);
  assert.equal(parseRunning(" 0 "), 0);
  assert.equal(parseRunning("-0"), 0);
  assert.equal(parseRunning("2.5"), null);
  assert.equal(parseRunning(""), null);
  assert.equal(parseTrue("1.5"), 1.5);
  assert.equal(parseTrue("−1,25"), -1.25);
  assert.equal(parseTrue("+.5"), 0.5);
  assert.equal(parseTrue("2"), 2);
  assert.equal(parseTrue("1.234"), null);
  assert.equal(parseTrue("abc"), null);
  assert.equal(parseBet("1,000"), 1000);
  assert.equal(parseBet("40"), 40);
  assert.equal(parseBet("-40"), null);
  assert.equal(parseBet("4.5"), null);
  assert.equal(answerError("running", ""), "Type your answer.");
  assert.match(answerError("running", "x"), /whole number/);
  assert.match(answerError("true", "x"), /number like/);
  assert.match(answerError("bet", "x"), /Whole coins/);
  assert.equal(answerError("bet", "40"), null);
});

test("right answers: the running count exactly, the true count within 0.5, the bet within the tolerance", () => {
  const graded = gradeCheckout({ running: "+7", true: "1.5", bet: "42" }, TRUTH, 10);
  assert.deepEqual(Object.fromEntries(Object.entries(graded).map(([name, g]) => [name, [g.right, g.given, g.expected]])), {
    running: [true, 7, 7],
    true: [true, 1.5, 1.22],
    bet: [true, 42, 39],
  });
  assert.equal(gradeCheckout({ running: "7", true: "0.72", bet: "35.1" }, TRUTH).true.right, true, "exactly 0.5 away");
});

test("wrong answers: off by one, past half a point, outside the tolerance, unread", () => {
  const graded = gradeCheckout({ running: "+6", true: "1.75", bet: "44" }, TRUTH, 10);
  assert.deepEqual([graded.running.right, graded.true.right, graded.bet.right], [false, false, false]);
  assert.equal(gradeCheckout({ running: "", true: "x", bet: "" }, TRUTH).bet.given, null);
  assert.equal(gradeCheckout({ running: "7", true: "1", bet: "44" }, TRUTH, 20).bet.right, true, "±20% takes 44");
});

test("the bet's range: whole coins within the tolerance of the advised bet", () => {
  assert.deepEqual(betRange(39, 10), [36, 42]);
  assert.deepEqual(betRange(10, 5), [10, 10]);
  assert.deepEqual(betRange(100, 10), [90, 110]);
  assert.deepEqual(betRange(1000, 50), [500, 1500]);
});

test("why each answer is right, in words", () => {
  const graded = gradeCheckout({ running: "7", true: "1", bet: "39" }, TRUTH, 10);
  assert.equal(graded.running.why, "+4 before the last round, whose 6 cards counted +3 (Hi-Lo: 2–6 +1, 7–9 0, tens and aces −1).");
  assert.equal(graded.true.why, "Running +7 ÷ 5.75 decks left (299 cards unseen ÷ 52); right within ±0.5.");
  assert.equal(graded.bet.why, "Kelly's bet: balance 10,000 × edge +0.52% ÷ the game's variance, rounded down; right from 36 to 42 (±10%).");
  const known = gradeCheckout({ running: "7", true: "1", bet: "39" }, { ...TRUTH, variance: 1.3249 }, 10);
  assert.equal(known.bet.why, "Kelly's bet: balance 10,000 × edge +0.52% ÷ variance 1.3249, rounded down; right from 36 to 42 (±10%).");
  const minimum = gradeCheckout({ running: "7", true: "1", bet: "10" }, { ...TRUTH, edge: -0.4, bet: { kelly: 0, advised: 10 } }, 10);
  assert.equal(minimum.bet.why, "The edge is −0.40%, the house's: Kelly bets nothing, so the table minimum; right from 9 to 11 (±10%).");
  const below = gradeCheckout({ running: "7", true: "1", bet: "10" }, { ...TRUTH, bet: { kelly: 5, advised: 10 } }, 5);
  assert.equal(below.bet.why, "Kelly's bet (balance 10,000 × edge +0.52% ÷ the game's variance) is 5, below the table minimum; right at 10 exactly.");
  const above = gradeCheckout({ running: "7", true: "1", bet: "1000" }, { ...TRUTH, bet: { kelly: 1500, advised: 1000 } }, 10);
  assert.match(above.bet.why, /is 1,500, above the table maximum; right from 900 to 1,100/);
  const first = gradeCheckout({ running: "3", true: "1", bet: "10" }, { ...TRUTH, count: shiftCount(freshCount(6), LAST_ROUND) });
  assert.match(first.running.why, /^The shoe's first round: its 6 cards counted \+3 \(Hi-Lo/);
  const unknown = gradeCheckout({ running: "7", true: "1", bet: "10" }, { ...TRUTH, roundCards: null });
  assert.match(unknown.running.why, /^The 13 cards seen since the shuffle/);
});

test("why each answer is right, in Russian and in Croatian", () => {
  const truth = { ...TRUTH, variance: 1.3249 };
  try {
    setLanguage("ru");
    let graded = gradeCheckout({ running: "7", true: "1", bet: "39" }, truth, 10);
    assert.deepEqual(
      QUESTIONS.map((q) => q.label),
      ["Текущий счёт", "Истинный счёт", "Ставка"],
    );
    assert.equal(graded.running.why, "+4 до последнего раунда, в котором 6 карт дали +3 (Hi-Lo: 2–6 +1, 7–9 0, десятки и тузы −1).");
    assert.equal(graded.true.why, "Текущий +7 ÷ 5,75 колоды в остатке (299 невышедших карт ÷ 52); верно в пределах ±0,5.");
    const kellyOf = `баланс ${formatCoins(10000)} × преимущество ${formatEdgePercent(0.5231)} ÷ дисперсия 1,3249`;
    assert.equal(graded.bet.why, `Ставка по Келли: ${kellyOf}, с округлением вниз; верно от 36 до 42 (±${formatPercent(0.1)}).`);
    const below = gradeCheckout({ running: "7", true: "1", bet: "10" }, { ...truth, bet: { kelly: 5, advised: 10 } }, 5);
    assert.equal(below.bet.why, `Ставка по Келли (${kellyOf}) — 5, ниже минимума стола; верно только 10.`);
    assert.equal(answerError("true", "x"), "Число, например +1,5 или −0,75.");
    assert.equal(answerError("bet", ""), "Введите ответ.");
    setLanguage("hr");
    graded = gradeCheckout({ running: "7", true: "1", bet: "39" }, { ...truth, roundCards: ["5H", "KD", "2C"] }, 10);
    assert.equal(graded.running.why, "+6 prije zadnje runde, čije su 3 karte dale +1 (Hi-Lo: 2–6 +1, 7–9 0, desetke i asovi −1).");
    assert.equal(graded.true.why, "Tekući +7 ÷ 5,75 preostalih špilova (299 neviđenih karata ÷ 52); točno unutar ±0,5.");
    const house = gradeCheckout({ running: "7", true: "1", bet: "10" }, { ...truth, edge: -0.4, bet: { kelly: 0, advised: 10 } }, 10);
    assert.equal(
      house.bet.why,
      `Prednost je ${formatEdgePercent(-0.4)}, u korist kuće: Kelly ne ulaže ništa, pa minimum stola; točno od 9 do 11 (±${formatPercent(0.1)}).`,
    );
    assert.equal(answerError("running", "+1.5"), "Cijeli broj s predznakom, npr. +3 ili −2.");
  } finally {
    setLanguage("en");
  }
});

test("an answer beside the right one", () => {
  assert.equal(answerText("running", -3), "−3");
  assert.equal(answerText("true", 1.2), "+1.20");
  assert.equal(answerText("bet", 1200), "1,200");
  assert.equal(answerText("bet", null), "—");
});

test("the figures over the kept answers, per table", () => {
  const right = gradeCheckout({ running: "7", true: "1.22", bet: "39" }, TRUTH);
  const wrong = gradeCheckout({ running: "6", true: "1.22", bet: "80" }, TRUTH);
  const records = [recordOf(right, "casino", 1), recordOf(wrong, "casino", 2), recordOf(right, "european", 3)];
  assert.deepEqual(records[1], { at: 2, table: "casino", running: false, true: true, bet: false });
  assert.deepEqual(checkoutFigures(records), {
    checkouts: 3,
    allRight: 2,
    running: { asked: 3, right: 2 },
    true: { asked: 3, right: 3 },
    bet: { asked: 3, right: 2 },
  });
  assert.equal(checkoutFigures(records, "casino").checkouts, 2);
  assert.equal(checkoutFigures([]).running.right, 0);
});

test("the answers are kept per account in localStorage, the newest KEPT", () => {
  const store = new Map();
  globalThis.localStorage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, String(v)) };
  try {
    assert.deepEqual(checkoutRecords("Ann1"), []);
    keepCheckout("Ann1", { at: 1, table: "casino", running: true, true: true, bet: false });
    assert.deepEqual(checkoutRecords("ann1"), [{ at: 1, table: "casino", running: true, true: true, bet: false }], "a login in any case");
    assert.deepEqual(checkoutRecords("Bob1"), [], "another account's are its own");
    for (let i = 0; i < KEPT + 5; i++) keepCheckout("Bob1", { at: i, table: "casino", running: true, true: true, bet: true });
    const kept = checkoutRecords("Bob1");
    assert.equal(kept.length, KEPT);
    assert.equal(kept[0].at, 5);
    store.set("blackjack.checkout_answers.carl", "{not json");
    assert.deepEqual(checkoutRecords("carl"), []);
  } finally {
    delete globalThis.localStorage;
  }
});
