// The table's controls in words: what the balance cannot cover, why a key did nothing,
// the labels that depend on the question asked, the EVs' unit.

import assert from "node:assert/strict";
import { test } from "node:test";
import { actionLabel, decisionMark, evLabel } from "./format.js";
import { setLanguage } from "./i18n.js";
import { actionCost, fundsReason, whyNot } from "./input.js";

const casino = { rules: { double: "any", double_after_split: true, split: "same_value", surrender: "early_not_ace", insurance: "half", even_money: true } };
const bicycle = { rules: { double: "9_10_11", double_after_split: false, split: "same_rank", surrender: "none", insurance: "up_to_half", even_money: false } };
const round = (status, legal, cards = ["8H", "8D"], bet = 1000) => ({
  status,
  legal_actions: legal,
  turn: { box: 0, hand: 0 },
  boxes: [{ box: 0, bet, hands: [{ cards, bet, split: false }] }],
});

test("a double or split stakes the hand's bet again, insurance half the box's (at least 0.5 at up_to_half)", () => {
  const r = round("player_turn", ["hit", "stand", "double", "split"]);
  assert.equal(actionCost(r, casino, "double"), 1000);
  assert.equal(actionCost(r, casino, "split"), 1000);
  assert.equal(actionCost(r, casino, "insurance"), 500);
  assert.equal(actionCost(r, bicycle, "insurance"), 0.5);
  assert.equal(actionCost(r, casino, "hit"), 0);
});

test("what the balance cannot cover has its reason; what it covers has none", () => {
  const r = round("player_turn", ["hit", "stand", "double", "split"]);
  assert.equal(fundsReason(r, casino, 0, "double"), "Not enough coins to double: it costs 1,000, your balance is 0.");
  assert.equal(fundsReason(r, casino, 999.5, "split"), "Not enough coins to split: it costs 1,000, your balance is 999.5.");
  assert.equal(fundsReason(r, casino, 1000, "double"), null);
  assert.equal(fundsReason(r, casino, 0, "stand"), null);
  assert.equal(fundsReason(r, bicycle, 0, "insurance"), "Not enough coins for insurance: it costs at least 0.5, your balance is 0.");
});

test("a key pressed out of turn says why", () => {
  const asked = round("insurance", ["insurance", "decline_insurance"]);
  assert.equal(whyNot(asked, casino, 0, "insurance"), "Not enough coins for insurance: it costs 500, your balance is 0.");
  assert.equal(whyNot(asked, casino, 5000, "insurance"), null);
  assert.equal(whyNot(asked, casino, 5000, "split"), "First answer the insurance question: Insurance (I) or No insurance (N).");
  assert.match(whyNot(asked, casino, 5000, "even_money"), /^Even money is offered only on a blackjack/);
  const playing = round("player_turn", ["hit", "stand"], ["8H", "5D", "2C"]);
  assert.equal(whyNot(playing, casino, 5000, "double"), "Double only on the first two cards of a hand.");
  assert.equal(whyNot(playing, casino, 5000, "split"), "Split only a pair: two first cards of the same value.");
  assert.equal(whyNot(playing, casino, 5000, "insurance"), "Insurance is offered only when the dealer shows an ace, before you play.");
  assert.equal(whyNot(playing, bicycle, 5000, "even_money"), "This table offers no even money.");
  assert.equal(whyNot(round("player_turn", ["hit", "stand"], ["KH", "QD"]), bicycle, 5000, "split"), "Split only a pair: two first cards of the same rank.");
  assert.equal(whyNot(round("player_turn", ["hit", "stand"], ["8H", "4D"]), bicycle, 5000, "double"), "Double only on a hard 9, 10 or 11 at this table.");
  assert.equal(whyNot(null, casino, 5000, "hit"), "Hit: no round is in play. Place your bets, then Deal.");
  assert.equal(whyNot(round("settled", []), casino, 5000, "stand"), "Stand: no round is in play. Place your bets, then Deal.");
});

test("declining even money is named as such, at the table and in the marks", () => {
  assert.equal(actionLabel("decline_insurance", ["insurance", "decline_insurance"]), "No insurance");
  assert.equal(actionLabel("decline_insurance", ["even_money", "decline_insurance"]), "Decline even money");
  assert.equal(
    decisionMark({ action: "even_money", best: "decline_insurance", loss: 0.04 }).text,
    "Even money ✗ decline even money was better: −0.04 of the bet",
  );
  assert.equal(decisionMark({ action: "insurance", best: "decline_insurance", loss: 0.04 }).text, "Insurance ✗ no insurance was better: −0.04 of the bet");
});

test("an EV on the table carries its unit, as the trainer's losses do", () => {
  assert.equal(evLabel(-0.5049), "EV −0.505 of the bet");
  assert.equal(evLabel(0.151), "EV +0.151 of the bet");
});

test("the controls' words in Russian and Croatian: labels, EVs, what the rules forbid", () => {
  const r = round("player_turn", ["hit", "stand"], ["8H", "3D", "2C"]);
  try {
    setLanguage("ru");
    assert.equal(actionLabel("decline_insurance", ["even_money", "decline_insurance"]), "Без выплаты 1:1");
    assert.equal(evLabel(-0.505), "EV −0,505 от ставки");
    assert.equal(whyNot(r, casino, 5000, "double"), "Удвоить можно только на первых двух картах руки.");
    setLanguage("hr");
    assert.equal(whyNot(r, bicycle, 5000, "surrender"), "Za ovim stolom nema predaje.");
    assert.equal(fundsReason(round("player_turn", ["split"]), casino, 10, "split"), "Nema dovoljno kovanica za dijeljenje: treba 1.000, vaše stanje je 10.");
  } finally {
    setLanguage("en");
  }
});
