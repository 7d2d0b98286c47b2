// format.js: how the client words and writes what it shows.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ACTION_BY_KEY,
  ACTION_LABEL,
  ACTIONS,
  cardsTotal,
  chartRowKeys,
  chartRowLabel,
  chartRowOfHand,
  chipStack,
  dealerTotalLabel,
  decisionHandLabel,
  decisionMark,
  formatAccuracy,
  formatCoins,
  formatEdgePercent,
  formatEv,
  formatLoss,
  formatPercent,
  formatSigned,
  GRADES,
  graded,
  gradedAs,
  gradeOf,
  gradeWords,
  handNet,
  handTotalLabel,
  insuranceSentence,
  isMistake,
  kellyBox,
  kellyLabel,
  kellyNote,
  netSentence,
  parseCard,
  resultLabel,
  roundStatusLabel,
  rowHandEvs,
  varianceLabel,
} from "./format.js";
import { speaking } from "./speaking.mjs";

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
  assert.equal(netSentence(1), "You won 1 coin this round.");
  assert.equal(netSentence(0), "Even round: no gain, no loss.");
  assert.match(roundStatusLabel(null), /place your bets/);
  assert.equal(
    roundStatusLabel({ status: "insurance", turn: { box: 1, hand: 0 }, boxes: [], legal_actions: ["insurance"] }),
    "Box 2: insurance? The dealer shows an ace.",
  );
  const split = { status: "player_turn", turn: { box: 1, hand: 1 }, boxes: [{ box: 1, hands: [{}, {}] }] };
  assert.equal(roundStatusLabel(split), "Your turn: box 2, hand 2.");
});

test("keyboard shortcuts", () => {
  assert.equal(ACTION_BY_KEY.h, "hit");
  assert.equal(ACTION_BY_KEY.s, "stand");
  assert.equal(ACTION_BY_KEY.d, "double");
  assert.equal(ACTION_BY_KEY.p, "split");
  assert.equal(ACTION_BY_KEY.r, "surrender");
  assert.equal(new Set(ACTIONS.map((a) => a.key)).size, ACTIONS.length);
});

test("chart rows in reading order", () => {
  assert.deepEqual(chartRowKeys("hard", { 10: {}, 5: {}, 19: {}, 9: {} }), ["5", "9", "10", "19"]);
  assert.deepEqual(chartRowKeys("pairs", { A: {}, T: {}, 2: {}, 9: {} }), ["2", "9", "T", "A"]);
  assert.equal(chartRowLabel("soft", "17"), "Soft 17 (A,6)");
  assert.equal(chartRowLabel("soft", "21"), "Soft 21 (A,T)");
  assert.equal(chartRowLabel("pairs", "T"), "10,10");
});

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

/** A mark's words and verdict (its `parts` are the same words, split for a phone). */
const mark = (...args) => {
  const m = decisionMark(...args);
  assert.equal(m.parts.map((p) => p.text).join(""), m.text);
  return { ok: m.ok, text: m.text };
};

test("decision marks: the move taken, a tick or the better action and what it was worth", () => {
  assert.deepEqual(mark({ action: "hit", best: "hit", loss: 0 }), { ok: true, text: "Hit ✓" });
  assert.deepEqual(mark({ action: "stand", best: "hit", loss: 0.0612 }), { ok: false, text: "Stand ✗ hit was better: −0.06 of the bet" });
  assert.deepEqual(mark({ action: "insurance", best: "decline_insurance", loss: 0.004 }), {
    ok: false,
    text: "Insurance ✗ no insurance was better: −0.0040 of the bet",
  });
  assert.equal(mark({ action: "stand", best: "hit", loss: 0.0004 }).ok, true);
});

test("marks grade against the coach's level: perfect play's best is never a mistake at expert", () => {
  // issue 32: T,T split against 6 at a high count, the expert coach's advice
  const split = { action: "split", best: "stand", loss: 0.25, expert_best: "split", expert_loss: 0 };
  assert.deepEqual(mark(split, "expert"), { ok: true, text: "Split ✓" });
  assert.equal(mark(split, "hard").text, "Split ✗ stand was better: −0.25 of the bet");
  assert.equal(isMistake(split, "expert"), false);
  assert.equal(isMistake(split, "medium"), true, "graded before the chart's play was named: hard's");
  const stand = { action: "stand", best: "stand", loss: 0, expert_best: "split", expert_loss: 0.031 };
  assert.equal(mark(stand, "expert").text, "Stand ✗ split was better: −0.03 of the bet");
  assert.deepEqual(graded({ action: "hit", best: "stand", loss: 0.1 }, "expert"), { best: "stand", loss: 0.1 }, "graded before perfect play");
  assert.equal(isMistake({ action: "hit", best: "hit", loss: 0.2 }), false, "the best play taken is never a mistake");
});

test("against the counter a decision is right or wrong by its move: API.md gives its play no EV", () => {
  // the counter's index play taken (stand on 16 against a ten at a positive count), hard's best not
  const stand = { action: "stand", best: "hit", loss: 0.012, expert_best: "stand", expert_loss: 0, counter_best: "stand" };
  assert.deepEqual(mark(stand, "counter"), { ok: true, text: "Stand ✓" });
  assert.equal(mark(stand, "hard").ok, false);
  const hit = { ...stand, action: "hit", loss: 0, expert_loss: 0.0002 };
  assert.deepEqual(mark(hit, "counter"), { ok: false, text: "Hit ✗ stand is the counter's play" });
  assert.equal(mark(hit, "expert").ok, true, "under 0.0005 against perfect play");
  assert.deepEqual(graded(hit, "counter"), { best: "stand", loss: null });
  assert.equal(isMistake(hit, "counter"), true, "any other move than the counter's, however close in EV");
  const before = { action: "hit", best: "hit", loss: 0, expert_best: "hit", expert_loss: 0 };
  assert.deepEqual(graded(before, "counter"), { best: "hit", loss: null }, "graded before the counter: its best is `best`");
  const { parts } = decisionMark(hit, "counter");
  assert.equal(
    parts
      .filter((p) => !p.wordy)
      .map((p) => p.text)
      .join(""),
    "Hit ✗ stand",
  );
  assert.equal(
    decisionMark({ action: "decline_insurance", best: "even_money", loss: 0, counter_best: "even_money" }, "counter").text,
    "Decline even money ✗ even money is the counter's play",
  );
});

test("what the marks grade against, named", () => {
  assert.deepEqual(["hard", "expert", "counter", "medium", "nonsense"].map(gradeOf), ["hard", "expert", "counter", "medium", "hard"]);
  assert.equal(gradedAs("expert"), "Graded against perfect play for the shoe, as your coach (expert).");
  assert.equal(gradedAs("counter"), "Graded against the counter's indices, as your coach (counter).");
  assert.equal(gradedAs("medium"), "Graded against the chart, as your coach (medium).");
  assert.equal(gradeWords("hard"), GRADES.hard.words);
});

test("against the chart a decision is right or wrong by its move: the chart's play taken is never a mistake", () => {
  // T,2 against a 4: the chart stands, exact play for the hand hits
  const stand = { action: "stand", best: "hit", loss: 0.004, expert_best: "hit", expert_loss: 0.004, counter_best: "stand", medium_best: "stand" };
  assert.deepEqual(mark(stand, "medium"), { ok: true, text: "Stand ✓" });
  assert.equal(mark(stand, "hard").ok, false);
  const hit = { ...stand, action: "hit", loss: 0, expert_loss: 0 };
  assert.deepEqual(mark(hit, "medium"), { ok: false, text: "Hit ✗ stand is the chart's play" });
  assert.deepEqual(graded(hit, "medium"), { best: "stand", loss: null });
  assert.equal(isMistake({ action: "hit", best: "hit", loss: 0 }, "medium"), false, "graded before the chart's play: its best is `best`");
});

test("on a phone a mark leaves its wordy parts out", () => {
  const { parts } = decisionMark({ action: "stand", best: "hit", loss: 0.2 });
  assert.equal(
    parts
      .filter((p) => !p.wordy)
      .map((p) => p.text)
      .join(""),
    "Stand ✗ hit −0.20",
  );
});

test("chips: stacks largest first", () => {
  assert.deepEqual(chipStack(30, [5, 10, 25, 50]), [25, 5]);
  assert.deepEqual(chipStack(0, [5, 10]), []);
  assert.equal(chipStack(1000, [1, 5]).length, 8);
});

test("the total of the cards landed so far", () => {
  assert.deepEqual(cardsTotal(["AS", "6D"]), { total: 17, soft: true });
  assert.deepEqual(cardsTotal(["AS", "6D", "KC"]), { total: 17, soft: false });
  assert.deepEqual(cardsTotal(["AS", "AD"]), { total: 12, soft: true });
  assert.deepEqual(cardsTotal(["TS", "QD", "2C"]), { total: 22, soft: false });
});

test("a mistake is a loss of 0.0005 or more", () => {
  assert.equal(isMistake({ loss: 0.0005 }), true);
  assert.equal(isMistake({ loss: 0.0004 }), false);
  assert.equal(formatLoss(0.2699), "−0.27 of the bet");
  assert.equal(formatLoss(0.0006), "−0.0006 of the bet");
});

test("the hand as decided on, in words", () => {
  assert.equal(decisionHandLabel({ kind: "hard", cards: ["2S", "6H"] }), "hard 8");
  assert.equal(decisionHandLabel({ kind: "soft", cards: ["AS", "6D"] }), "soft 17");
  assert.equal(decisionHandLabel({ kind: "pairs", cards: ["8S", "8D"] }), "pair of 8s");
  assert.equal(decisionHandLabel({ kind: "pairs", cards: ["AS", "AD"] }), "pair of aces");
  assert.equal(decisionHandLabel({ kind: "hard", cards: ["TS", "6D", "AC"] }), "hard 17");
});

test("the edge between rounds: percent with two decimals and its sign, the Kelly bet's button, the variance", () => {
  assert.equal(formatEdgePercent(-0.5123), "−0.51%");
  assert.equal(formatEdgePercent(1.0199), "+1.02%");
  assert.equal(formatEdgePercent(0.004), "0.00%");
  assert.equal(formatEdgePercent(-0.004), "0.00%");
  assert.equal(formatEdgePercent(0), "0.00%");
  assert.equal(formatEdgePercent(null), "—");
  assert.equal(formatEdgePercent(0.75), "+0.75%");
  assert.equal(formatEdgePercent(-0.4), "−0.40%");
  assert.equal(kellyLabel({ kelly: 120, advised: 120 }), "Kelly bet: 120");
  assert.equal(kellyLabel({ kelly: 1500, advised: 1000 }), "Table maximum 1,000: Kelly bet 1,500 is above it");
  assert.equal(kellyLabel({ kelly: 5, advised: 10 }), "Table minimum 10: Kelly bet 5 is below it");
  assert.equal(kellyLabel({ kelly: 0, advised: 10 }), "House edge: table minimum 10");
  assert.equal(kellyBox({}), 0);
  assert.equal(kellyBox({ 2: 10 }), 2);
  assert.equal(kellyBox({ 0: 10, 2: 10 }), 0);
  assert.equal(kellyBox({ 1: 0, 3: 20 }), 3);
  assert.equal(kellyNote(["2"]), "Kelly's bet is one box's: box 3 cleared.");
  assert.equal(kellyNote(["1", "2", "4"]), "Kelly's bet is one box's: boxes 2, 3 and 5 cleared.");
  assert.equal(varianceLabel(1.2874), "variance 1.29 per round");
  assert.equal(varianceLabel(1.3), "variance 1.30 per round");
  assert.equal(varianceLabel(undefined), "");
});

test("in Russian: coins, percentages and EVs as Russian writes them, cards and results in the table's words", () => {
  speaking("ru", () => {
    assert.equal(formatCoins(10062.5), "10\u00a0062,5");
    assert.equal(formatSigned(-12.5), "−12,5");
    assert.equal(formatPercent(0.75), "75\u00a0%");
    assert.equal(formatEdgePercent(-0.5123), "−0,51\u00a0%");
    assert.equal(formatEv(0.5), "+0,500");
    assert.equal(ACTIONS.find((a) => a.name === "hit").label, "Ещё");
    assert.equal(ACTION_LABEL.stand, "Хватит");
    assert.equal(parseCard("KH").name, "Король червей");
    assert.equal(parseCard("TD").name, "Десятка бубен");
    assert.equal(handTotalLabel({ total: 17, soft: true, status: "playing" }), "мягкие 17");
    assert.equal(resultLabel({ result: "win", bet: 10, payout: 20 }), "Выигрыш +10");
    assert.equal(netSentence(7.5), "Вы выиграли 7,5 монеты за раунд.");
    assert.equal(netSentence(-5), "Вы проиграли 5 монет за раунд.");
    assert.equal(netSentence(21), "Вы выиграли 21 монету за раунд.");
    assert.equal(insuranceSentence({ insurance: 5, insurance_payout: 15 }, true), "Страховка выиграла +10: у дилера блэкджек.");
    assert.equal(mark({ action: "stand", best: "hit", loss: 0.0612 }).text, "Хватит ✗ ещё было лучше: −0,06 от ставки");
    assert.equal(gradedAs("expert"), "Оценка по идеальной игре для этого шуза, как у вашего тренера (эксперт).");
    assert.equal(kellyNote(["1", "2", "4"]), "Ставка по Келли — на один бокс: боксы 2, 3 и 5 сброшены.");
    assert.equal(
      roundStatusLabel({ status: "insurance", turn: { box: 1, hand: 0 }, boxes: [], legal_actions: ["insurance"] }),
      "Бокс 2: страховка? У дилера туз.",
    );
    assert.equal(chartRowLabel("soft", "17"), "Мягкие 17 (A,6)");
  });
});

test("in Croatian: coins and percentages as Croatian writes them, cards and results in the table's words", () => {
  speaking("hr", () => {
    assert.equal(formatCoins(10062.5), "10.062,5");
    assert.equal(formatAccuracy(0.75), "75,0\u00a0%");
    assert.equal(formatLoss(0.2699), "−0,27 uloga");
    assert.equal(parseCard("AS").name, "As pik");
    assert.equal(parseCard("QC").name, "Dama tref");
    assert.equal(dealerTotalLabel({ cards: ["AC"], hidden: 1, total: 11, soft: true }), "pokazuje asa");
    assert.equal(resultLabel({ result: "push", bet: 10, payout: 10 }), "Neriješeno 0");
    assert.equal(netSentence(-2), "Izgubili ste 2 kovanice u rundi.");
    assert.equal(netSentence(5), "Dobili ste 5 kovanica u rundi.");
    assert.equal(mark({ action: "hit", best: "stand", counter_best: "stand", loss: 0 }, "counter").text, "Karta ✗ dosta je potez brojača");
    assert.equal(kellyLabel({ kelly: 1500, advised: 1000 }), "Maksimum stola 1.000: Kellyjev ulog 1.500 je iznad");
    assert.equal(decisionHandLabel({ kind: "pairs", cards: ["AS", "AD"] }), "par asova");
    assert.equal(varianceLabel(1.3), "varijanca 1,30 po rundi");
  });
});
