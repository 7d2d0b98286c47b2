// The Count page's drills: the shoe, its grading and the bests, the trays.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  bestsWords,
  dealDiscards,
  dealtRange,
  decksVerdict,
  drillIntro,
  estimateStep,
  formatDecks,
  gradeDecks,
  gradePass,
  gradeTrue,
  groupsOf,
  parseBests,
  parseCount,
  parseDecks,
  parseSetup,
  pickDecks,
  randomBelow,
  setupKey,
  shoeChoices,
  shoeKey,
  shuffledShoe,
  stepWords,
  trayLabel,
  trayScale,
  trayWords,
  trueVerdict,
  withPass,
} from "./countdrills.js";
import { runningCount, trueCount } from "./hilo.js";

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
  const key = setupKey(setup);
  let b = withPass({}, key, ok, 4000);
  b = withPass(b, key, ok, 2500);
  b = withPass(b, key, miss, 1000);
  b = withPass(b, key, ok, 3000);
  assert.deepEqual(b["52:2:brisk"], { passes: 4, right: 3, fastest: 2500, streak: 1, bestStreak: 2 });
  const other = withPass(b, setupKey({ ...setup, group: 4 }), miss, 900);
  assert.deepEqual(other["52:4:brisk"], { passes: 1, right: 0, fastest: null, streak: 0, bestStreak: 0 });
  assert.deepEqual(other["52:2:brisk"], b["52:2:brisk"]);
});

test("the remembered setup and bests survive bad storage", () => {
  const fresh = { drill: "running", cards: 52, group: 1, pace: "steady", decks: 6 };
  assert.deepEqual(parseSetup(null), fresh);
  assert.deepEqual(parseSetup('{"cards":10,"group":4,"pace":"fast"}'), { ...fresh, cards: 10, group: 4, pace: "fast" });
  assert.deepEqual(parseSetup('{"drill":"decks","decks":1}'), { ...fresh, drill: "decks", decks: 1 });
  assert.deepEqual(parseSetup('{"cards":11,"group":3,"pace":"toString","drill":"hasOwnProperty","decks":2.5}'), fresh);
  assert.deepEqual(parseSetup("{oops"), fresh);
  assert.deepEqual(parseBests("[1]"), {});
  assert.deepEqual(parseBests('{"10:1:slow":{"passes":1}}'), { "10:1:slow": { passes: 1 } });
});

const TABLES = [
  { id: "classic", name: "Classic", rules: { decks: 4 } },
  { id: "bicycle", name: "Bicycle", rules: { decks: 1 } },
  { id: "casino", name: "Casino", rules: { decks: 6 } },
  { id: "european", name: "European", rules: { decks: 6 } },
];

test("the tray drills' shoes: one a number of decks the tables deal from, named by their tables", () => {
  const shoes = shoeChoices(TABLES);
  assert.deepEqual(shoes, [
    { decks: 1, label: "1 deck: Bicycle" },
    { decks: 4, label: "4 decks: Classic" },
    { decks: 6, label: "6 decks: Casino, European" },
  ]);
  assert.deepEqual(shoeChoices([{ id: "x", rules: {} }, null]), []);
  assert.equal(pickDecks(4, shoes), 4);
  assert.equal(pickDecks(8, shoes), 6, "a shoe no table deals from any more: six decks");
  assert.equal(pickDecks(8, shoes.slice(0, 2)), 4, "no six-deck table: the largest shoe");
  assert.equal(formatDecks(1), "1 deck");
  assert.equal(formatDecks(2.6346), "2.63 decks");
  assert.equal(formatDecks(0.5), "0.5 decks");
});

test("a tray holds a twentieth to four fifths of the shoe, and a running count past ±1", () => {
  assert.deepEqual(dealtRange(6), [16, 250]);
  assert.deepEqual(dealtRange(1), [4, 42]);
  for (const decks of [1, 4, 6]) {
    const [low, high] = dealtRange(decks);
    for (let i = 0; i < 50; i++) {
      const cards = dealDiscards(decks);
      assert.ok(cards.length >= low && cards.length <= high, `${cards.length} of ${decks} decks`);
      const copies = {};
      for (const c of cards) copies[c] = (copies[c] || 0) + 1;
      assert.ok(
        Object.values(copies).every((n) => n <= decks),
        "no card more often than the shoe holds it",
      );
    }
  }
  // the random source decides the order and the depth: always 0 gives the least depth
  const cards = dealDiscards(6, () => 0);
  assert.equal(cards.length, 16);
  assert.deepEqual(cards.slice(0, 3), ["3S", "4S", "5S"]);
  assert.equal(runningCount(cards), 3);
  // a count of −1, 0 or +1 is dealt again: eight draws in a row that low are all but never seen
  for (let i = 0; i < 200; i++) assert.ok(Math.abs(runningCount(dealDiscards(6))) > 1);
});

test("the tray is drawn to scale: the stack's share of the shoe, a mark at every whole deck", () => {
  assert.deepEqual(trayScale(156, 6), { stack: 50, marks: [100 / 6, 200 / 6, 50, 400 / 6, 500 / 6] });
  assert.deepEqual(trayScale(13, 1), { stack: 25, marks: [50] }, "one deck: a mark at its half");
  assert.deepEqual(trayScale(0, 4).stack, 0);
  assert.equal(trayWords(206, 6), "206 of 312 cards dealt: 3.96 decks gone, 2.04 decks left.");
  assert.equal(trayWords(26, 1), "26 of 52 cards dealt: 0.5 decks gone, 0.5 decks left.");
  assert.doesNotMatch(trayLabel(6), /\d+ cards|left/, "what is asked is not said");
  assert.equal(trayLabel(6), "The discard tray of a 6-deck shoe, a mark at every deck; the stack is the cards dealt.");
  assert.match(trayLabel(1), /1-deck shoe, a mark at the half deck;/);
});

test("the true count asked is graded against the service's (half-even), within 0.5", () => {
  // +7 with 137 cards left (2.63 decks): 7 × 5200 / 137 = 265.69… → +2.66
  const g = gradeTrue(7, 175, 6, 3);
  assert.equal(g.true, trueCount(7, 137));
  assert.equal(g.true, 2.66);
  assert.equal(g.unseen, 137);
  assert.equal(g.right, true);
  assert.equal(gradeTrue(7, 175, 6, 2.16).right, true, "0.5 off is right");
  assert.equal(gradeTrue(7, 175, 6, 2).right, false);
  assert.equal(gradeTrue(-5, 52, 6, -1).right, true); // −5 ÷ 5 decks = −1
  assert.equal(trueVerdict(g), "✓ Right: the true count is +2.66 (+7 ÷ 2.63 decks left).");
  assert.equal(trueVerdict(gradeTrue(7, 175, 6, 1.5)), "✗ Wrong: you said +1.50; the true count is +2.66 (+7 ÷ 2.63 decks left).");
  assert.equal(trueVerdict(gradeTrue(-4, 208, 6, 0)), "✗ Wrong: you said 0; the true count is −2.00 (−4 ÷ 2 decks left).");
});

test("the decks left are graded to the half deck (the quarter from one deck)", () => {
  assert.equal(estimateStep(6), 0.5);
  assert.equal(estimateStep(1), 0.25);
  assert.equal(stepWords(0.5), "to the half deck");
  assert.equal(stepWords(0.25), "to the quarter deck");
  const g = gradeDecks(175, 6, 2.5); // 137 left: 2.63 decks
  assert.equal(g.nearest, 2.5);
  assert.equal(g.right, true);
  assert.equal(gradeDecks(175, 6, 3).right, false);
  assert.equal(gradeDecks(182, 6, 2.75).right, true, "2.5 decks left: a quarter over is still right");
  assert.equal(gradeDecks(182, 6, 2).right, false);
  assert.equal(gradeDecks(39, 1, 0.25).right, true);
  assert.equal(gradeDecks(39, 1, 0.5).right, false);
  assert.equal(decksVerdict(g), "✓ Right: 2.63 decks are left, 2.5 to the half deck.");
  assert.equal(decksVerdict(gradeDecks(260, 6, 2)), "✗ Wrong: you said 2; 1 deck is left, 1 to the half deck.");
  assert.equal(decksVerdict(gradeDecks(26, 1, 0.5)), "✓ Right: 0.5 decks are left, 0.5 to the quarter deck.");
  assert.equal(gradeDecks(26, 1, 0.75).right, false);
});

test("typed decks: decimals, a decimal comma, halves and quarters as fractions; nothing below 0", () => {
  assert.equal(parseDecks("2.5"), 2.5);
  assert.equal(parseDecks("2,5"), 2.5);
  assert.equal(parseDecks("2½"), 2.5);
  assert.equal(parseDecks("3 ¼"), 3.25);
  assert.equal(parseDecks("¾"), 0.75);
  assert.equal(parseDecks("4"), 4);
  assert.equal(parseDecks("-1"), null);
  assert.equal(parseDecks("1.5½"), null);
  assert.equal(parseDecks("two"), null);
  assert.equal(parseDecks(""), null);
});

test("each drill says what it asks and whose bests are shown", () => {
  assert.equal(shoeKey("true", 6), "true:6");
  assert.equal(bestsWords({ drill: "running", cards: 52, group: 2, pace: "brisk", decks: 6 }), "For 52 cards, 2 at a time, brisk; kept in this browser.");
  assert.equal(bestsWords({ drill: "true", decks: 6 }), "True counts from a 6-deck shoe; kept in this browser.");
  assert.equal(bestsWords({ drill: "decks", decks: 1 }), "Decks left in a 1-deck shoe; kept in this browser.");
  assert.match(drillIntro("true"), /a mark at every deck\); right within 0\.5\.$/);
  assert.match(drillIntro("true", 1), /a mark at the half deck\)/);
  assert.match(drillIntro("decks", 6), /, to the half deck\.$/);
  assert.match(drillIntro("decks", 1), /, to the quarter deck\.$/);
  assert.match(drillIntro("running"), /six-deck shoe/);
});
