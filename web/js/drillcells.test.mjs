// The Drills page's pure parts: a cell's square, the accuracy per section, the keys.

import assert from "node:assert/strict";
import { test } from "node:test";
import * as drills from "./drillcells.js";
import { actionLabel, chartRowLabel } from "./format.js";
import { indexWords } from "./indexplays.js";
import { speaking } from "./speaking.mjs";

const cell = (section, row, up, box, attempts, correct) => ({ section, row, up, box, attempts, correct });
const ups = (letter) => Object.fromEntries(["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"].map((u) => [u, letter]));
const chart = {
  hard: { 12: ups("H"), 16: ups("S") },
  soft: { 18: ups("S") },
  pairs: { 8: ups("P") },
};

test("a cell's square: never answered, missed, learning or known, with a sign besides its colour", () => {
  assert.equal(drills.heatState(undefined), "never");
  assert.equal(drills.heatState(cell("hard", "12", "6", 0, 0, 0)), "never");
  const missed = cell("hard", "12", "6", 0, 1, 0);
  assert.equal(drills.heatState(missed), "missed");
  // right once, then wrong: box 0 again, still missed
  assert.equal(drills.heatState(cell("hard", "12", "6", 0, 2, 1)), "missed");
  assert.equal(drills.heatState(cell("hard", "12", "6", 1, 1, 1)), "learning");
  assert.equal(drills.heatState(cell("hard", "12", "6", 3, 3, 3)), "learning");
  assert.equal(drills.heatState(cell("hard", "12", "6", 4, 5, 4)), "known");
  assert.deepEqual([undefined, missed, cell("soft", "18", "9", 2, 2, 2), cell("pairs", "8", "T", 4, 4, 4)].map(drills.heatMark), ["", "✗", "2", "✓"]);
  assert.equal(drills.heatWords(missed), "Hard 12 against 6: missed, 0 of 1 right.");
  assert.equal(drills.heatWords(cell("pairs", "T", "A", 2, 3, 2)), "10,10 against A: learning (2 in a row), 2 of 3 right.");
  const where = { section: "soft", row: "17", up: "T" };
  assert.equal(drills.heatWords(undefined ?? where, where), "Soft 17 (A,6) against 10: not asked yet.");
});

test("the heat map's row labels are short: the total, the soft hand, the pair", () => {
  assert.deepEqual(
    [drills.heatRowLabel("hard", "12"), drills.heatRowLabel("soft", "13"), drills.heatRowLabel("soft", "20"), drills.heatRowLabel("pairs", "T")],
    ["12", "A,2", "A,9", "10,10"],
  );
});

test("accuracy per section from the cells' attempts and right answers, and overall", () => {
  const cells = [cell("hard", "12", "6", 0, 2, 1), cell("hard", "16", "T", 4, 4, 4), cell("soft", "18", "9", 1, 3, 1)];
  const rows = Object.fromEntries(drills.sectionAccuracy(cells, chart).map((r) => [r.name, r]));
  assert.deepEqual(Object.keys(rows), ["hard", "soft", "pairs", "all"]);
  assert.deepEqual(rows.hard, { name: "hard", label: "Hard", attempts: 6, correct: 5, known: 1, cells: 20, accuracy: 5 / 6 });
  assert.equal(rows.soft.accuracy, 1 / 3);
  assert.equal(rows.soft.cells, 10);
  assert.equal(rows.pairs.accuracy, null);
  assert.equal(rows.pairs.attempts, 0);
  assert.deepEqual([rows.all.attempts, rows.all.correct, rows.all.known, rows.all.cells, rows.all.accuracy], [9, 6, 1, 40, 6 / 9]);
});

test("an answer's cell replaces the one it had, and the totals follow", () => {
  const progress = { table: "classic", attempts: 3, correct: 2, cells: [cell("hard", "12", "6", 1, 2, 2), cell("soft", "18", "9", 0, 1, 0)] };
  const wrong = drills.withAnswer(progress, cell("hard", "12", "6", 0, 3, 2));
  assert.deepEqual([wrong.attempts, wrong.correct], [4, 2]);
  assert.equal(wrong.cells.length, 2);
  assert.equal(drills.heatState(wrong.cells.find((c) => drills.cellKey(c) === "hard:12:6")), "missed");
  const first = drills.withAnswer(wrong, cell("pairs", "8", "T", 1, 1, 1));
  assert.deepEqual([first.attempts, first.correct, first.cells.length], [5, 3, 3]);
  assert.equal(progress.cells.length, 2, "the progress it came from is left as it was");
});

test("keys: H, S, D, P, R take the legal actions; N is the next hand once answered", () => {
  assert.deepEqual(
    drills.DRILL_ACTIONS.map((a) => a.key),
    ["h", "s", "d", "p", "r"],
  );
  const legal = ["hit", "stand", "double", "split"];
  assert.equal(drills.drillKey("h", { legal, answered: false }), "hit");
  assert.equal(drills.drillKey("S", { legal, answered: false }), "stand");
  assert.equal(drills.drillKey("d", { legal, answered: false }), "double");
  assert.equal(drills.drillKey("p", { legal, answered: false }), "split");
  assert.equal(drills.drillKey("r", { legal, answered: false }), null, "surrender is not legal here");
  assert.equal(drills.drillKey("r", { legal: [...legal, "surrender"], answered: false }), "surrender");
  assert.equal(drills.drillKey("i", { legal, answered: false }), null, "no insurance on a chart drill");
  // an insurance index drill: I takes it, N declines it until answered, then deals the next hand
  const insured = ["insurance", "decline_insurance"];
  assert.equal(drills.drillKey("i", { legal: insured, answered: false }), "insurance");
  assert.equal(drills.drillKey("n", { legal: insured, answered: false }), "decline_insurance");
  assert.equal(drills.drillKey("n", { legal: insured, answered: true }), "next");
  assert.equal(drills.drillKey("h", { legal: insured, answered: false }), null);
  assert.equal(drills.drillKey("n", { legal, answered: false }), null);
  assert.equal(drills.drillKey("n", { legal, answered: true }), "next");
  assert.equal(drills.drillKey("h", { legal, answered: true }), null, "one answer a drill");
  assert.equal(drills.drillKey("Enter", { legal, answered: true }), null, "Enter presses the focused Next button itself");
});

test("a key the hand does not allow says so, and what is offered", () => {
  const legal = ["hit", "stand", "double"];
  assert.equal(drills.drillKeyNote("p", { legal, answered: false }), "Split is not offered on this hand: hit, stand or double.");
  assert.equal(drills.drillKeyNote("R", { legal, answered: false }), "Surrender is not offered on this hand: hit, stand or double.");
  assert.equal(drills.drillKeyNote("h", { legal, answered: false }), null, "a legal key acts");
  assert.equal(drills.drillKeyNote("h", { legal, answered: true }), "This hand is answered: N deals the next one.");
  assert.equal(drills.drillKeyNote("x", { legal, answered: false }), null, "not a decision's key");
  assert.equal(drills.drillKeyNote("i", { legal, answered: false }), "Insurance is not offered on this hand: hit, stand or double.");
  assert.equal(drills.drillKeyNote("e", { legal, answered: false }), "Even money is not offered on this hand: hit, stand or double.");
  assert.equal(drills.drillKeyNote("n", { legal, answered: false }), "Answer this hand first (N then deals the next one): hit, stand or double.");
  const insured = ["insurance", "decline_insurance"];
  assert.equal(drills.drillKeyNote("h", { legal: insured, answered: false }), "Hit is not offered on this hand: insurance or no insurance.");
  assert.equal(drills.drillKeyNote("n", { legal: insured, answered: false }), null, "N declines insurance where it is asked");
});

test("the remembered table and section, while they exist", () => {
  const ids = ["classic", "bicycle"];
  assert.deepEqual(drills.parseChoice(null, ids), { table: "classic", section: "any" });
  assert.deepEqual(drills.parseChoice('{"table":"bicycle","section":"pairs"}', ids), { table: "bicycle", section: "pairs" });
  assert.deepEqual(drills.parseChoice('{"table":"gone","section":"tens"}', ids), { table: "classic", section: "any" });
  assert.deepEqual(drills.parseChoice("not json", ids), { table: "classic", section: "any" });
});

test("an answer graded: the verdict and every action's EV, best first", () => {
  const wrong = { action: "stand", best: "hit", loss: 0.0612, ev: { stand: -0.2136, hit: -0.1524, double: -0.3048 } };
  assert.deepEqual(drills.verdict(wrong), { right: false, text: "✗ Hit was better: −0.06 of the bet." });
  assert.deepEqual(
    drills.answerRows(wrong).map((r) => [r.action, r.label, r.best, r.taken]),
    [
      ["hit", "Hit", true, false],
      ["stand", "Stand", false, true],
      ["double", "Double", false, false],
    ],
  );
  assert.deepEqual(drills.verdict({ ...wrong, action: "hit", loss: 0 }), { right: true, text: "✓ Right: hit is the best play." });
  assert.equal(drills.verdict({ ...wrong, loss: 0.0004 }).right, true, "under 0.0005 is right (API.md)");
});

test("a drill in words: the hand as the Trainer says it, against the up card", () => {
  const drill = (section, row, up, cards) => ({ cards, cell: cell(section, row, up, 0, 0, 0) });
  assert.equal(drills.drillQuestion(drill("hard", "12", "6", ["TS", "2H"])), "Your hard 12 against a 6: what do you play?");
  assert.equal(drills.drillQuestion(drill("soft", "17", "A", ["AS", "6H"])), "Your soft 17 against an ace: what do you play?");
  assert.equal(drills.drillQuestion(drill("pairs", "8", "8", ["8S", "8D"])), "Your pair of 8s against an 8: what do you play?");
  assert.equal(drills.drillQuestion(drill("pairs", "T", "T", ["KS", "KD"])), "Your pair of 10s against a 10: what do you play?");
});

const stand16 = { section: "hard", row: "16", up: "T", basic: "hit", play: "stand", index: 2, direction: "at_or_above" };
const insuranceIndex = { section: "insurance", row: "insurance", up: "A", basic: "decline_insurance", play: "insurance", index: 4, direction: "at_or_above" };

test("index drills: an index's cell, its key and words", () => {
  const cell = drills.indexCell(stand16);
  assert.deepEqual(cell, { section: "indices", row: "hard 16", up: "T", direction: "at_or_above" });
  assert.equal(drills.cellKey(cell), "indices:hard 16:T:at_or_above");
  assert.equal(drills.cellKey({ section: "hard", row: "16", up: "T" }), "hard:16:T", "a chart cell has no direction");
  assert.deepEqual(drills.indexPlace(cell), { section: "hard", row: "16" });
  assert.deepEqual(drills.indexPlace(drills.indexCell(insuranceIndex)), { section: "insurance", row: "insurance" });
  assert.equal(drills.cellWords(cell), "Hard 16 against 10, index play");
  assert.equal(drills.cellWords(drills.indexCell(insuranceIndex)), "Insurance index");
  assert.equal(drills.indexOf([insuranceIndex, stand16], { ...cell, box: 1, attempts: 1, correct: 1 }), stand16);
  assert.equal(drills.indexOf([stand16], { section: "hard", row: "16", up: "T" }), null);
  assert.deepEqual(
    drills.offeredActions(["insurance", "decline_insurance"]).map((a) => a.label),
    ["Insurance", "No insurance"],
  );
});

test("index drills: the question says the true count, the verdict the counter's play and the index", () => {
  const drill = { cards: ["TS", "6H"], up_card: "KD", legal_actions: ["hit", "stand", "surrender"], cell: drills.indexCell(stand16), true_count: 3 };
  assert.equal(drills.trueCountWords(-2), "True count −2");
  assert.equal(drills.drillQuestion(drill), "True count +3. Your hard 16 against a 10: what do you play?");
  const insured = {
    cards: ["9S", "3H"],
    up_card: "AD",
    legal_actions: ["insurance", "decline_insurance"],
    cell: drills.indexCell(insuranceIndex),
    true_count: 0,
  };
  assert.equal(drills.drillQuestion(insured), "True count 0. Your hard 12 against an ace: insurance?");
  const right = { action: "stand", best: "stand", loss: 0, ev: { hit: -0.52, stand: -0.5 } };
  assert.deepEqual(drills.indexVerdict(right, 3, stand16), { right: true, text: "✓ Right: at +3, stand. 16 v 10: stand at +2 or more (the card says hit)." });
  // right is the counter's play, even where this very hand's EV says otherwise
  const wrong = { action: "stand", best: "hit", loss: -0.001, ev: { hit: -0.5, stand: -0.499 } };
  assert.deepEqual(drills.verdict(wrong, -1, stand16), { right: false, text: "✗ At −1, hit. 16 v 10: stand at +2 or more (the card says hit)." });
  assert.equal(drills.verdict(wrong).right, true, "a chart drill grades by the loss");
});

test("the accuracy adds the index plays' row where the table has some", () => {
  const cells = [cell("hard", "12", "6", 0, 2, 1), { ...drills.indexCell(stand16), box: 4, attempts: 4, correct: 4 }];
  const rows = Object.fromEntries(drills.sectionAccuracy(cells, chart, [stand16, insuranceIndex]).map((r) => [r.name, r]));
  assert.deepEqual(Object.keys(rows), ["hard", "soft", "pairs", "indices", "all"]);
  assert.deepEqual(rows.indices, { name: "indices", label: "Index plays", attempts: 4, correct: 4, known: 1, cells: 2, accuracy: 1 });
  assert.equal(rows.all.attempts, 6);
  assert.equal(rows.all.cells, 42);
});

// A strategy card's `ev`, cut down: hard 12 against 6 and an ace, a pair of tens, soft 18, a natural.
const evs = (actions) => ({ 6: actions, A: actions, T: actions });
const card = {
  ev: {
    "2,T": evs({ hit: -0.25, stand: -0.21, double: -0.5 }),
    "4,8": evs({ hit: -0.24, stand: -0.21, double: -0.5 }),
    "T,T": evs({ hit: -0.8, stand: 0.7, double: -1.6, split: 0.1 }),
    "7,A": evs({ hit: 0.1, stand: 0.2, double: 0.15 }),
    "T,A": evs({ stand: 1.5 }),
  },
};
/** A fixed run of numbers in [0, 1), so a deal is the same every time. */
const seq = (...xs) => {
  let i = 0;
  return () => xs[i++ % xs.length];
};

test("a cell's hands are the card's two-card hands of that chart cell", () => {
  assert.deepEqual(drills.cellHands(card.ev, { section: "hard", row: "12", up: "6" }), ["2,T", "4,8"]);
  assert.deepEqual(drills.cellHands(card.ev, { section: "pairs", row: "T", up: "T" }), ["T,T"]);
  assert.deepEqual(drills.cellHands(card.ev, { section: "soft", row: 18, up: "A" }), ["7,A"]);
  assert.deepEqual(drills.cellHands(card.ev, { section: "hard", row: "12", up: "5" }), [], "no EVs against a 5 here");
});

test("a cell dealt here: a hand of it, three suits, the card's legal actions, a ten pair of one rank", () => {
  for (const r of [0, 0.3, 0.6, 0.99]) {
    const d = drills.dealCell({ section: "hard", row: "12", up: "6" }, card, [], seq(r, 0.5, 0.2, 0.9, 0.1));
    assert.equal(d.up_card[0], "6");
    const ranks = d.cards.map((c) => c[0]).sort();
    assert.ok(["2", "T", "J", "Q", "K", "4", "8"].includes(ranks[0]), d.cards.join());
    assert.equal(new Set([...d.cards, d.up_card].map((c) => c[1])).size, 3, "three suits");
    assert.deepEqual(d.legal_actions, ["hit", "stand", "double"]);
    assert.deepEqual(d.cell, { box: 0, attempts: 0, correct: 0, section: "hard", row: "12", up: "6" });
    assert.equal(d.true_count, undefined);
  }
  const tens = drills.dealCell({ section: "pairs", row: "T", up: "T" }, card, [], seq(0.7));
  assert.equal(new Set([...tens.cards, tens.up_card].map((c) => c[0])).size, 1, tens.cards.join());
  assert.deepEqual(tens.legal_actions, ["hit", "stand", "double", "split"]);
  assert.equal(drills.dealCell({ section: "hard", row: "5", up: "6" }, card, []), null, "no such hand on the card");
});

test("an index cell dealt here: its chart cell's hand, a true count within 3 of the index and -10 to +10", () => {
  const indices = [
    { section: "hard", row: "12", up: "6", basic: "stand", play: "hit", index: -1, direction: "at_or_below" },
    { section: "insurance", row: "insurance", up: "A", basic: "decline_insurance", play: "insurance", index: 9, direction: "at_or_above" },
  ];
  const where = { section: "indices", row: "hard 12", up: "6", direction: "at_or_below" };
  assert.equal(drills.dealCell(where, card, indices, seq(0)).true_count, -4);
  assert.equal(drills.dealCell(where, card, indices, seq(0.999)).true_count, 2);
  const d = drills.dealCell(where, card, indices, seq(0.5));
  assert.equal(d.up_card[0], "6");
  assert.deepEqual(d.legal_actions, ["hit", "stand", "double"]);
  const insurance = drills.dealCell({ section: "indices", row: "insurance", up: "A", direction: "at_or_above" }, card, indices, seq(0.999));
  assert.equal(insurance.true_count, 10, "9 + 3 is past +10");
  assert.equal(insurance.up_card[0], "A");
  assert.notDeepEqual(insurance.cards.map((c) => c[0]).sort(), ["A", "T"], "never a natural");
  assert.deepEqual(insurance.legal_actions, ["insurance", "decline_insurance"]);
  assert.equal(drills.dealCell({ ...where, up: "5" }, card, indices), null, "no such index");
});

test("drilling the misses: the cells marked wrong; a right answer leaves the queue, a wrong one waits at its end", () => {
  const progress = {
    cells: [cell("hard", "12", "6", 0, 2, 1), cell("hard", "16", "T", 2, 2, 2), cell("soft", "18", "9", 0, 1, 0), cell("pairs", "8", "A", 4, 4, 4)],
  };
  assert.deepEqual(drills.missedCells(progress).map(drills.cellKey), ["hard:12:6", "soft:18:9"]);
  assert.deepEqual(drills.missedCells({ cells: [] }), []);
  const queue = ["hard:12:6", "soft:18:9", "pairs:8:A"];
  assert.deepEqual(drills.afterMiss(queue, "hard:12:6", false), ["soft:18:9", "pairs:8:A", "hard:12:6"]);
  assert.deepEqual(drills.afterMiss(queue, "hard:12:6", true), ["soft:18:9", "pairs:8:A"]);
  assert.deepEqual(drills.afterMiss(["soft:18:9"], "soft:18:9", true), []);
  assert.equal(drills.missesWords(3), "Drilling your misses: 3 hands left.");
  assert.equal(drills.missesWords(1), "Drilling your misses: 1 hand left.");
  assert.match(drills.noMissesWords(false), /^No misses to drill/);
  assert.match(drills.noMissesWords(true), /^No misses left/);
});

test("a cell's hand comes as a fresh deck deals it: hard 12 is mostly a ten and a 2", () => {
  const hands = ["2,T", "3,9", "4,8", "5,7"]; // 2·4·16 = 128 ways, then 32 each
  assert.equal(
    drills.pickDealt(hands, () => 0),
    "2,T",
  );
  assert.equal(
    drills.pickDealt(hands, () => 127.9 / 224),
    "2,T",
  );
  assert.equal(
    drills.pickDealt(hands, () => 128.1 / 224),
    "3,9",
  );
  assert.equal(
    drills.pickDealt(hands, () => 0.999),
    "5,7",
  );
  assert.equal(
    drills.pickDealt(["T,T"], () => 0.5),
    "T,T",
  );
});

test("a card dealt twice is explained: a shoe of several decks holds several of it", () => {
  assert.equal(drills.sameCardWords({ cards: ["KD", "KD"], up_card: "5S" }, 6), "Two K♦: six decks hold six of each card.");
  assert.equal(drills.sameCardWords({ cards: ["TH", "6C"], up_card: "TH" }, 8), "Two 10♥: eight decks hold eight of each card.");
  assert.equal(drills.sameCardWords({ cards: ["KD", "KS"], up_card: "KH" }, 6), null);
  assert.equal(drills.sameCardWords(null, 6), null);
});

/** An action's label as a sentence goes on with it, in the language spoken now. */
const lower = (name, lang) => actionLabel(name).toLocaleLowerCase(lang);

test("the squares, the misses and the accuracy in Russian and Croatian, counts in their plural forms", () => {
  const missed = cell("hard", "12", "6", 0, 1, 0);
  speaking("ru", () => {
    assert.equal(drills.heatWords(missed), `${chartRowLabel("hard", "12")} против 6: ошибка, верно 0 из 1.`);
    assert.match(drills.heatWords(cell("hard", "12", "6", 1, 1, 1)), /: изучается \(1 раз подряд\), верно 1 из 1\.$/);
    assert.match(drills.heatWords(cell("hard", "12", "6", 2, 3, 2)), /: изучается \(2 раза подряд\), верно 2 из 3\.$/);
    assert.equal(drills.heatLabel("known"), "Выучено: верно 4 раза подряд");
    assert.deepEqual([1, 3, 5, 21].map(drills.missesWords), [
      "Повтор ошибок: осталась 1 рука.",
      "Повтор ошибок: осталось 3 руки.",
      "Повтор ошибок: осталось 5 рук.",
      "Повтор ошибок: осталась 21 рука.",
    ]);
    assert.equal(drills.sectionAccuracy([], chart).find((r) => r.name === "hard").label, "Жёсткие");
    assert.equal(drills.sectionLabel("indices", true), "Индексные");
  });
  speaking("hr", () => {
    assert.equal(drills.heatWords(missed), `${chartRowLabel("hard", "12")} protiv 6: promašaj, točno 0 od 1.`);
    assert.match(drills.heatWords(cell("soft", "18", "9", 1, 1, 1)), /: u učenju \(1 put zaredom\), točno 1 od 1\.$/);
    assert.match(drills.heatWords(cell("soft", "18", "9", 3, 5, 3)), /: u učenju \(3 puta zaredom\), točno 3 od 5\.$/);
    assert.deepEqual([1, 3, 5].map(drills.missesWords), [
      "Vježbate promašaje: ostala je još 1 ruka.",
      "Vježbate promašaje: ostale su još 3 ruke.",
      "Vježbate promašaje: ostalo je još 5 ruku.",
    ]);
    assert.equal(drills.cellWords(drills.indexCell(insuranceIndex)), "Indeks osiguranja");
  });
});

test("the question, the keys' notes and the verdicts in Russian and Croatian", () => {
  const drill = { cards: ["TS", "6H"], up_card: "KD", legal_actions: ["hit", "stand", "surrender"], cell: drills.indexCell(stand16), true_count: 3 };
  const legal = ["hit", "stand", "double"];
  const wrong = { action: "stand", best: "hit", loss: 0.0612, ev: { stand: -0.2136, hit: -0.1524, double: -0.3048 } };
  speaking("ru", () => {
    const hand = drills.drillHandWords(drill);
    assert.equal(drills.drillQuestion(drill), `Истинный счёт +3. У вас ${hand}, у дилера 10: ваш ход?`);
    assert.equal(drills.drillQuestion({ ...drill, cell: { ...drill.cell, up: "A" }, true_count: undefined }), `У вас ${hand}, у дилера туз: ваш ход?`);
    const choices = `${lower("hit", "ru")}, ${lower("stand", "ru")} или ${lower("double", "ru")}`;
    assert.equal(drills.drillKeyNote("p", { legal, answered: false }), `«${actionLabel("split")}» для этой руки недоступно: ${choices}.`);
    assert.equal(drills.drillKeyNote("n", { legal, answered: false }), `Сначала ответьте на эту руку (потом N — следующая): ${choices}.`);
    assert.equal(drills.verdict({ ...wrong, action: "hit", loss: 0 }).text, `✓ Верно: лучший ход — ${lower("hit", "ru")}.`);
    assert.match(drills.verdict(wrong).text, /^✗ \S.*\.$/);
    assert.deepEqual(drills.indexVerdict({ action: "stand", best: "stand" }, 3, stand16), {
      right: true,
      text: `✓ Верно: при +3 — ${lower("stand", "ru")}. ${indexWords(stand16)}.`,
    });
    assert.equal(drills.sameCardWords({ cards: ["KD", "KD"], up_card: "5S" }, 6), "Две карты K♦: шесть колод — это по шесть каждой карты.");
    assert.equal(drills.sameCardWords({ cards: ["KD", "KD"], up_card: "5S" }, 4), "Две карты K♦: четыре колоды — это по четыре каждой карты.");
  });
  speaking("hr", () => {
    const hand = drills.drillHandWords(drill);
    assert.equal(drills.drillQuestion(drill), `Pravi broj +3. Vaša ruka: ${hand}, djelitelj: 10. Što igrate?`);
    const choices = `${lower("hit", "hr")}, ${lower("stand", "hr")} ili ${lower("double", "hr")}`;
    assert.equal(drills.drillKeyNote("r", { legal, answered: false }), `„${actionLabel("surrender")}” nije ponuđeno za ovu ruku: ${choices}.`);
    assert.equal(drills.drillKeyNote("h", { legal, answered: true }), "Odgovor je dan: N dijeli sljedeću ruku.");
    assert.deepEqual(drills.indexVerdict({ action: "hit", best: "stand" }, -1, null), { right: false, text: `✗ Pri −1 – ${lower("stand", "hr")}.` });
    assert.equal(drills.sameCardWords({ cards: ["KD", "KD"], up_card: "5S" }, 6), "Dvije karte K♦: šu od šest špilova ima svaku kartu šest puta.");
    assert.equal(drills.sameCardWords({ cards: ["TH", "6C"], up_card: "TH" }, 2), "Dvije karte 10♥: šu od dva špila ima svaku kartu dva puta.");
  });
});
