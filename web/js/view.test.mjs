import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ACTION_BY_KEY,
  ACTIONS,
  addChip,
  buildRoundRequest,
  cardsTotal,
  chartRowKeys,
  chartRowLabel,
  chipStack,
  chipValues,
  clientSeedError,
  credentialError,
  dealerTotalLabel,
  decisionMark,
  formatCoins,
  formatEv,
  formatPercent,
  formatSigned,
  handNet,
  handTotalLabel,
  insuranceAmounts,
  insuranceSentence,
  isShoeFresh,
  netSentence,
  parseCard,
  resultLabel,
  roundStatusLabel,
} from "./view.js";

const casino = { id: "casino", boxes: 5, min_bet: 10, max_bet: 1000, rules: { decks: 6, ai_players: true, cut_range: [0.5, 0.85], cut_default: 0.75 } };
const bicycle = { id: "bicycle", boxes: 1, min_bet: 5, max_bet: 200, rules: { decks: 1, ai_players: false, cut_range: null } };

test("money keeps halves", () => {
  assert.equal(formatCoins(7.5), "7.5");
  assert.equal(formatCoins(10000), "10,000");
  assert.equal(formatCoins(10062.5), "10,062.5");
  assert.equal(formatSigned(-12.5), "−12.5");
  assert.equal(formatSigned(150), "+150");
  assert.equal(formatSigned(0), "0");
  assert.equal(formatPercent(0.75), "75%");
  assert.equal(formatEv(-0.0984), "−0.098");
  assert.equal(formatEv(0.5), "+0.500");
});

test("cards parse to words and symbols", () => {
  assert.deepEqual(parseCard("TD"), { rank: "T", suit: "D", label: "10", sym: "♦", red: true, name: "Ten of diamonds" });
  assert.equal(parseCard("AS").name, "Ace of spades");
  assert.equal(parseCard("QC").red, false);
  assert.equal(parseCard("XX"), null);
});

test("totals mark soft hands", () => {
  assert.equal(handTotalLabel({ total: 17, soft: true, status: "playing" }), "soft 17");
  assert.equal(handTotalLabel({ total: 17, soft: false, status: "standing" }), "17");
  assert.equal(handTotalLabel({ total: 24, soft: false, status: "bust" }), "bust (24)");
  assert.equal(handTotalLabel({ total: 21, soft: true, status: "blackjack" }), "Blackjack");
  assert.equal(dealerTotalLabel({ cards: ["TC"], hidden: 1, total: 10, soft: false }), "showing 10");
  assert.equal(dealerTotalLabel({ cards: ["AC"], hidden: 0, total: 11, soft: true }), "showing an ace");
  assert.equal(dealerTotalLabel({ cards: ["TC", "7D"], hidden: 0, total: 17, soft: false }), "17");
  assert.equal(dealerTotalLabel({ cards: ["TC", "AD"], hidden: 0, total: 21, soft: true }), "Blackjack");
});

test("results and net in words", () => {
  assert.equal(resultLabel({ result: "blackjack", bet: 5, payout: 12.5 }), "Blackjack! +7.5");
  assert.equal(resultLabel({ result: "win", bet: 10, payout: 20 }), "Win +10");
  assert.equal(resultLabel({ result: "lose", bet: 20, payout: 0 }), "Lose −20");
  assert.equal(resultLabel({ result: "push", bet: 10, payout: 10 }), "Push 0");
  assert.equal(resultLabel({ result: null }), null);
  assert.equal(netSentence(7.5), "You won 7.5 coins this round.");
  assert.equal(netSentence(-100), "You lost 100 coins this round.");
  assert.equal(netSentence(0), "Even round: no gain, no loss.");
  assert.match(roundStatusLabel(null), /place your bets/);
  assert.equal(
    roundStatusLabel({ status: "insurance", turn: { box: 1, hand: 0 }, boxes: [], legal_actions: ["insurance"] }),
    "Box 2: insurance? The dealer shows an ace.",
  );
  const split = { status: "player_turn", turn: { box: 1, hand: 1 }, boxes: [{ box: 1, hands: [{}, {}] }] };
  assert.equal(roundStatusLabel(split), "Your turn: box 2, hand 2.");
});

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

test("keyboard shortcuts", () => {
  assert.equal(ACTION_BY_KEY.h, "hit");
  assert.equal(ACTION_BY_KEY.s, "stand");
  assert.equal(ACTION_BY_KEY.d, "double");
  assert.equal(ACTION_BY_KEY.p, "split");
  assert.equal(ACTION_BY_KEY.r, "surrender");
  assert.equal(new Set(ACTIONS.map((a) => a.key)).size, ACTIONS.length);
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

test("round request: bets, AI seats, seed and cut only on a fresh shoe", () => {
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

test("chart rows in reading order", () => {
  assert.deepEqual(chartRowKeys("hard", { 10: {}, 5: {}, 19: {}, 9: {} }), ["5", "9", "10", "19"]);
  assert.deepEqual(chartRowKeys("pairs", { A: {}, T: {}, 2: {}, 9: {} }), ["2", "9", "T", "A"]);
  assert.equal(chartRowLabel("soft", "17"), "Soft 17 (A,6)");
  assert.equal(chartRowLabel("soft", "21"), "Soft 21 (A,T)");
  assert.equal(chartRowLabel("pairs", "T"), "10,10");
});

import { chartRowOfHand, rowHandEvs } from "./view.js";

test("two-card hands map to chart rows", () => {
  assert.deepEqual(chartRowOfHand("2,9"), { section: "hard", row: "11" });
  assert.deepEqual(chartRowOfHand("7,A"), { section: "soft", row: "18" });
  assert.deepEqual(chartRowOfHand("T,T"), { section: "pairs", row: "T" });
  assert.deepEqual(chartRowOfHand("A,A"), { section: "pairs", row: "A" });
  assert.equal(chartRowOfHand("T,A"), null);
  const ev = { "2,T": { 4: { hit: -0.25, stand: -0.21 } }, "3,9": { 4: { hit: -0.23, stand: -0.2 } }, "6,6": { 4: { split: 0.1 } } };
  const rows = rowHandEvs(ev, "hard", "12", "4");
  assert.deepEqual(
    rows.map((r) => r.hand),
    ["2,T", "3,9"],
  );
  assert.deepEqual(rows[0].evs[0], ["stand", -0.21]);
});

test("each hand's net, and insurance in words", () => {
  assert.equal(handNet({ bet: 20, payout: 50 }), 30);
  assert.equal(handNet({ bet: 20, payout: 0 }), -20);
  assert.equal(insuranceSentence({ insurance: null }), null);
  assert.equal(insuranceSentence({ insurance: 5, insurance_payout: null }), "Insured for 5.");
  assert.equal(insuranceSentence({ insurance: 5, insurance_payout: 15 }, true), "Insurance won +10: the dealer has blackjack.");
  assert.equal(insuranceSentence({ insurance: 5, insurance_payout: 0 }, false), "Insurance lost −5: the dealer has no blackjack.");
});

test("decision marks: a tick, or the better action and what it was worth", () => {
  assert.deepEqual(decisionMark({ action: "hit", best: "hit", loss: 0 }), { ok: true, text: "✓" });
  assert.deepEqual(decisionMark({ action: "stand", best: "hit", loss: 0.0612 }), { ok: false, text: "hit was better: −0.06 of the bet" });
  assert.deepEqual(decisionMark({ action: "insurance", best: "decline_insurance", loss: 0.004 }), {
    ok: false,
    text: "no insurance was better: −0.0040 of the bet",
  });
  assert.equal(decisionMark({ action: "stand", best: "hit", loss: 0.0004 }).ok, true);
});

test("chips: stacks largest first, a word when a bet is capped", () => {
  assert.deepEqual(chipStack(30, [5, 10, 25, 50]), [25, 5]);
  assert.deepEqual(chipStack(0, [5, 10]), []);
  assert.equal(chipStack(1000, [1, 5]).length, 8);
  assert.deepEqual(addChip(500, 500, 1000), { amount: 1000, capped: false });
  assert.deepEqual(addChip(1000, 500, 1000), { amount: 1000, capped: true });
  assert.deepEqual(addChip(undefined, 25, 1000), { amount: 25, capped: false });
});

test("the total of the cards landed so far", () => {
  assert.deepEqual(cardsTotal(["AS", "6D"]), { total: 17, soft: true });
  assert.deepEqual(cardsTotal(["AS", "6D", "KC"]), { total: 17, soft: false });
  assert.deepEqual(cardsTotal(["AS", "AD"]), { total: 12, soft: true });
  assert.deepEqual(cardsTotal(["TS", "QD", "2C"]), { total: 22, soft: false });
});
