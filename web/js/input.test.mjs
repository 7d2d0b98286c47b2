// input.js: what the player enters, checked before it is sent.

import assert from "node:assert/strict";
import { test } from "node:test";
import { setLanguage } from "./i18n.js";
import { addChip, buildRoundRequest, chipValues, clientSeedError, credentialError, fundsReason, insuranceAmounts, isShoeFresh, whyNot } from "./input.js";

const casino = { id: "casino", boxes: 5, min_bet: 10, max_bet: 1000, rules: { decks: 6, ai_players: true, cut_range: [0.5, 0.85], cut_default: 0.75 } };
const bicycle = { id: "bicycle", boxes: 1, min_bet: 5, max_bet: 200, rules: { decks: 1, ai_players: false, cut_range: null } };

test("chips start at the table minimum", () => {
  assert.deepEqual(chipValues(10, 1000), [10, 25, 50, 100, 250, 500]);
  assert.deepEqual(chipValues(5, 200), [5, 10, 25, 50, 100]);
  assert.deepEqual(chipValues(10, 500), [10, 25, 50, 100, 250, 500]);
});

test("insurance amounts in steps of 0.5 up to half the bet", () => {
  assert.deepEqual(insuranceAmounts(5), [0.5, 1, 1.5, 2, 2.5]);
  assert.deepEqual(insuranceAmounts(1), [0.5]);
  assert.equal(insuranceAmounts(200).at(-1), 100);
});

test("credentials and client seeds validated like the API", () => {
  assert.equal(credentialError("Login", "abcd"), null);
  assert.ok(credentialError("Login", "abc"));
  assert.ok(credentialError("Login", "ab cd"));
  assert.ok(credentialError("Login", "a".repeat(33)));
  assert.ok(credentialError("Login", "äbcd"));
  assert.equal(clientSeedError(""), null);
  assert.equal(clientSeedError("my-seed!~"), null);
  assert.ok(clientSeedError("has space"));
  assert.ok(clientSeedError("x".repeat(65)));
});

test("fresh shoe = nothing dealt yet", () => {
  assert.equal(isShoeFresh({ decks: 6, cards_remaining: 312 }), true);
  assert.equal(isShoeFresh({ decks: 6, cards_remaining: 300 }), false);
  assert.equal(isShoeFresh(null), false);
});

test("round request: bets, AI boxes, seed and cut only on a fresh shoe", () => {
  const fresh = { decks: 6, cards_remaining: 312 };
  const used = { decks: 6, cards_remaining: 290 };
  const slip = { bets: { 0: 100, 2: 25 }, ai: { 1: "hard", 2: "easy" } };
  let r = buildRoundRequest(casino, slip, 10000, { shoe: fresh, clientSeed: "lucky", cut: 0.6, cutTouched: true });
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.body, {
    bets: [
      { box: 0, amount: 100 },
      { box: 2, amount: 25 },
    ],
    ai: [{ box: 1, level: "hard" }],
    client_seed: "lucky",
    cut: 0.6,
  });
  r = buildRoundRequest(casino, slip, 10000, { shoe: used, clientSeed: "lucky", cut: 0.6, cutTouched: true });
  assert.deepEqual(r.body, {
    bets: [
      { box: 0, amount: 100 },
      { box: 2, amount: 25 },
    ],
    ai: [{ box: 1, level: "hard" }],
  });
  r = buildRoundRequest(casino, slip, 10000, { shoe: fresh, clientSeed: "", cut: 0.6, cutTouched: false });
  assert.equal(r.body.cut, undefined);
  assert.equal(r.body.client_seed, undefined);
  // no cut where the player may not place it, no AI where the table has none
  r = buildRoundRequest(bicycle, { bets: { 0: 5 }, ai: { 1: "hard" } }, 100, { shoe: { decks: 1, cards_remaining: 52 }, cut: 0.6, cutTouched: true });
  assert.deepEqual(r.body, { bets: [{ box: 0, amount: 5 }] });
});

test("round request: limits and balance", () => {
  assert.ok(buildRoundRequest(casino, { bets: { 0: 5 } }, 10000).errors.length);
  assert.ok(buildRoundRequest(casino, { bets: { 0: 1001 } }, 10000).errors.length);
  assert.ok(buildRoundRequest(casino, { bets: {} }, 10000).errors.length);
  assert.ok(buildRoundRequest(casino, { bets: { 0: 600, 1: 600 } }, 1000).errors.length);
  assert.equal(buildRoundRequest(casino, { bets: { 0: 600, 1: 400 } }, 1000).errors.length, 0);
  assert.ok(buildRoundRequest(casino, { bets: { 0: 100 } }, 10000, { shoe: { decks: 6, cards_remaining: 312 }, clientSeed: "bad seed" }).errors.length);
});

test("a chip added: a word when a bet is capped", () => {
  assert.deepEqual(addChip(500, 500, 1000), { amount: 1000, capped: false });
  assert.deepEqual(addChip(1000, 500, 1000), { amount: 1000, capped: true });
  assert.deepEqual(addChip(undefined, 25, 1000), { amount: 25, capped: false });
});

test("why an action cannot be taken, and the slip's errors, in Russian and Croatian", () => {
  const round = {
    status: "insurance",
    turn: { box: 0, hand: 0 },
    legal_actions: ["insurance", "decline_insurance"],
    boxes: [{ box: 0, bet: 1000, hands: [{ cards: ["9S", "7D"], bet: 1000 }] }],
  };
  try {
    setLanguage("ru");
    assert.equal(whyNot(round, casino, 100, "hit"), "Сначала ответьте на вопрос о страховке: Страховка (I) или Без страховки (N).");
    assert.equal(fundsReason(round, casino, 100, "insurance"), "Не хватает монет на страховку: нужно 500, ваш баланс 100.");
    assert.deepEqual(buildRoundRequest(casino, { bets: { 1: 5 } }, 2000).errors, ["Бокс 2: минимальная ставка 10."]);
    setLanguage("hr");
    assert.equal(whyNot(null, casino, 100, "double"), "Udvostruči: nijedna runda nije u tijeku. Postavite uloge, pa Dijeli.");
    assert.deepEqual(buildRoundRequest(casino, { bets: { 0: 1500 } }, 1000).errors, [
      "Boks 1: najveći ulog je 1.000.",
      "Vaši ulozi (1.500) veći su od stanja (1.000).",
    ]);
  } finally {
    setLanguage("en");
  }
});
