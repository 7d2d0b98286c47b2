// The Count page's drills: the shoe, its grading and the bests, the trays.

import assert from "node:assert/strict";
import { test } from "node:test";
import * as counting from "./countdrills.js";
import { formatCount, runningCount, trueCount } from "./hilo.js";
import { speaking } from "./speaking.mjs";

test("the shoe: six decks, every card once per deck, shuffled with the random source given", () => {
  const shoe = counting.shuffledShoe(6);
  assert.equal(shoe.length, 312);
  const copies = {};
  for (const c of shoe) copies[c] = (copies[c] || 0) + 1;
  assert.equal(Object.keys(copies).length, 52);
  assert.ok(Object.values(copies).every((n) => n === 6));
  // j = i at every step leaves the order as built
  assert.deepEqual(counting.shuffledShoe(1, (n) => n - 1).slice(0, 3), ["2S", "3S", "4S"]);
  assert.deepEqual(counting.groupsOf(["a", "b", "c", "d", "e"], 2), [["a", "b"], ["c", "d"], ["e"]]);
});

test("randomBelow draws again past the last whole multiple of n (no modulo bias)", () => {
  const words = [2 ** 32 - 1, 7];
  const fill = (a) => {
    a[0] = words.shift();
  };
  assert.equal(counting.randomBelow(10, fill), 7);
  for (let i = 0; i < 200; i++) {
    const v = counting.randomBelow(6);
    assert.ok(Number.isInteger(v) && v >= 0 && v < 6);
  }
});

test("typed counts: signs, a typographic minus, a decimal comma; anything else is none", () => {
  assert.equal(counting.parseCount("3"), 3);
  assert.equal(counting.parseCount("+3"), 3);
  assert.equal(counting.parseCount("−2"), -2);
  assert.equal(counting.parseCount("-1.5"), -1.5);
  assert.equal(counting.parseCount("1,5"), 1.5);
  assert.equal(counting.parseCount(""), null);
  assert.equal(counting.parseCount("three"), null);
});

test("a pass is right when the running count is exact and a true count, if given, within 0.5", () => {
  const cards = ["2S", "3H", "KD", "5C", "9S"]; // +2, 307 unseen: true 0.34
  const right = counting.gradePass(cards, 6, { running: 2, true: null });
  assert.deepEqual(right, { running: 2, true: 0.34, unseen: 307, runningRight: true, trueRight: null, right: true });
  assert.equal(counting.gradePass(cards, 6, { running: 2, true: 0.5 }).right, true);
  assert.equal(counting.gradePass(cards, 6, { running: 2, true: 0.84 }).right, true);
  assert.equal(counting.gradePass(cards, 6, { running: 2, true: 1 }).right, false);
  const wrong = counting.gradePass(cards, 6, { running: 1, true: 0.3 });
  assert.equal(wrong.runningRight, false);
  assert.equal(wrong.trueRight, true);
  assert.equal(wrong.right, false);
});

test("bests: per setup, the fastest right answer and the longest run of right passes", () => {
  const setup = { cards: 52, group: 2, pace: "brisk" };
  assert.equal(counting.setupKey(setup), "52:2:brisk");
  const ok = { right: true };
  const miss = { right: false };
  const key = counting.setupKey(setup);
  let b = counting.withPass({}, key, ok, 4000);
  b = counting.withPass(b, key, ok, 2500);
  b = counting.withPass(b, key, miss, 1000);
  b = counting.withPass(b, key, ok, 3000);
  assert.deepEqual(b["52:2:brisk"], { passes: 4, right: 3, fastest: 2500, streak: 1, bestStreak: 2 });
  const other = counting.withPass(b, counting.setupKey({ ...setup, group: 4 }), miss, 900);
  assert.deepEqual(other["52:4:brisk"], { passes: 1, right: 0, fastest: null, streak: 0, bestStreak: 0 });
  assert.deepEqual(other["52:2:brisk"], b["52:2:brisk"]);
});

test("the remembered setup and bests survive bad storage", () => {
  const fresh = { drill: "running", cards: 52, group: 1, pace: "steady", decks: 6 };
  assert.deepEqual(counting.parseSetup(null), fresh);
  assert.deepEqual(counting.parseSetup('{"cards":10,"group":4,"pace":"fast"}'), { ...fresh, cards: 10, group: 4, pace: "fast" });
  assert.deepEqual(counting.parseSetup('{"drill":"decks","decks":1}'), { ...fresh, drill: "decks", decks: 1 });
  assert.deepEqual(counting.parseSetup('{"cards":11,"group":3,"pace":"toString","drill":"hasOwnProperty","decks":2.5}'), fresh);
  assert.deepEqual(counting.parseSetup("{oops"), fresh);
  assert.deepEqual(counting.parseBests("[1]"), {});
  assert.deepEqual(counting.parseBests('{"10:1:slow":{"passes":1}}'), { "10:1:slow": { passes: 1 } });
});

const TABLES = [
  { id: "classic", name: "Classic", rules: { decks: 4 } },
  { id: "bicycle", name: "Bicycle", rules: { decks: 1 } },
  { id: "casino", name: "Casino", rules: { decks: 6 } },
  { id: "european", name: "European", rules: { decks: 6 } },
];

test("the tray drills' shoes: one a number of decks the tables deal from, named by their tables", () => {
  const shoes = counting.shoeChoices(TABLES);
  assert.deepEqual(shoes, [
    { decks: 1, label: "1 deck: Bicycle" },
    { decks: 4, label: "4 decks: Classic" },
    { decks: 6, label: "6 decks: Casino, European" },
  ]);
  assert.deepEqual(counting.shoeChoices([{ id: "x", rules: {} }, null]), []);
  assert.equal(counting.pickDecks(4, shoes), 4);
  assert.equal(counting.pickDecks(8, shoes), 6, "a shoe no table deals from any more: six decks");
  assert.equal(counting.pickDecks(8, shoes.slice(0, 2)), 4, "no six-deck table: the largest shoe");
  assert.equal(counting.formatDecks(1), "1 deck");
  assert.equal(counting.formatDecks(2.6346), "2.63 decks");
  assert.equal(counting.formatDecks(0.5), "0.5 decks");
});

test("a tray holds a twentieth to four fifths of the shoe, and a running count past ±1", () => {
  assert.deepEqual(counting.dealtRange(6), [16, 250]);
  assert.deepEqual(counting.dealtRange(1), [4, 42]);
  for (const decks of [1, 4, 6]) {
    const [low, high] = counting.dealtRange(decks);
    for (let i = 0; i < 50; i++) {
      const cards = counting.dealDiscards(decks);
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
  const cards = counting.dealDiscards(6, () => 0);
  assert.equal(cards.length, 16);
  assert.deepEqual(cards.slice(0, 3), ["3S", "4S", "5S"]);
  assert.equal(runningCount(cards), 3);
  // a count of −1, 0 or +1 is dealt again: eight draws in a row that low are all but never seen
  for (let i = 0; i < 200; i++) assert.ok(Math.abs(runningCount(counting.dealDiscards(6))) > 1);
});

test("the tray is drawn to scale: the stack's share of the shoe, a mark at every whole deck", () => {
  assert.deepEqual(counting.trayScale(156, 6), { stack: 50, marks: [100 / 6, 200 / 6, 50, 400 / 6, 500 / 6] });
  assert.deepEqual(counting.trayScale(13, 1), { stack: 25, marks: [50] }, "one deck: a mark at its half");
  assert.deepEqual(counting.trayScale(0, 4).stack, 0);
  assert.equal(counting.trayWords(206, 6), "206 of 312 cards dealt: 3.96 decks gone, 2.04 decks left.");
  assert.equal(counting.trayWords(26, 1), "26 of 52 cards dealt: 0.5 decks gone, 0.5 decks left.");
  assert.doesNotMatch(counting.trayLabel(6), /\d+ cards|left/, "what is asked is not said");
  assert.equal(counting.trayLabel(6), "The discard tray of a 6-deck shoe, a mark at every deck; the stack is the cards dealt.");
  assert.match(counting.trayLabel(1), /1-deck shoe, a mark at the half deck;/);
});

test("the true count asked is graded against the service's (half-even), within 0.5", () => {
  // +7 with 137 cards left (2.63 decks): 7 × 5200 / 137 = 265.69… → +2.66
  const g = counting.gradeTrue(7, 175, 6, 3);
  assert.equal(g.true, trueCount(7, 137));
  assert.equal(g.true, 2.66);
  assert.equal(g.unseen, 137);
  assert.equal(g.right, true);
  assert.equal(counting.gradeTrue(7, 175, 6, 2.16).right, true, "0.5 off is right");
  assert.equal(counting.gradeTrue(7, 175, 6, 2).right, false);
  assert.equal(counting.gradeTrue(-5, 52, 6, -1).right, true); // −5 ÷ 5 decks = −1
  assert.equal(counting.trueVerdict(g), "✓ Right: the true count is +2.66 (+7 ÷ 2.63 decks left).");
  assert.equal(counting.trueVerdict(counting.gradeTrue(7, 175, 6, 1.5)), "✗ Wrong: you said +1.50; the true count is +2.66 (+7 ÷ 2.63 decks left).");
  assert.equal(counting.trueVerdict(counting.gradeTrue(-4, 208, 6, 0)), "✗ Wrong: you said 0; the true count is −2.00 (−4 ÷ 2 decks left).");
});

test("the decks left are graded to the half deck (the quarter from one deck)", () => {
  assert.equal(counting.estimateStep(6), 0.5);
  assert.equal(counting.estimateStep(1), 0.25);
  assert.equal(counting.stepWords(0.5), "to the half deck");
  assert.equal(counting.stepWords(0.25), "to the quarter deck");
  const g = counting.gradeDecks(175, 6, 2.5); // 137 left: 2.63 decks
  assert.equal(g.nearest, 2.5);
  assert.equal(g.right, true);
  assert.equal(counting.gradeDecks(175, 6, 3).right, false);
  assert.equal(counting.gradeDecks(182, 6, 2.75).right, true, "2.5 decks left: a quarter over is still right");
  assert.equal(counting.gradeDecks(182, 6, 2).right, false);
  assert.equal(counting.gradeDecks(39, 1, 0.25).right, true);
  assert.equal(counting.gradeDecks(39, 1, 0.5).right, false);
  assert.equal(counting.decksVerdict(g), "✓ Right: 2.63 decks are left, 2.5 to the half deck.");
  assert.equal(counting.decksVerdict(counting.gradeDecks(260, 6, 2)), "✗ Wrong: you said 2; 1 deck is left, 1 to the half deck.");
  assert.equal(counting.decksVerdict(counting.gradeDecks(26, 1, 0.5)), "✓ Right: 0.5 decks are left, 0.5 to the quarter deck.");
  assert.equal(counting.gradeDecks(26, 1, 0.75).right, false);
});

test("typed decks: decimals, a decimal comma, halves and quarters as fractions; nothing below 0", () => {
  assert.equal(counting.parseDecks("2.5"), 2.5);
  assert.equal(counting.parseDecks("2,5"), 2.5);
  assert.equal(counting.parseDecks("2½"), 2.5);
  assert.equal(counting.parseDecks("3 ¼"), 3.25);
  assert.equal(counting.parseDecks("¾"), 0.75);
  assert.equal(counting.parseDecks("4"), 4);
  assert.equal(counting.parseDecks("-1"), null);
  assert.equal(counting.parseDecks("1.5½"), null);
  assert.equal(counting.parseDecks("two"), null);
  assert.equal(counting.parseDecks(""), null);
});

test("each drill says what it asks and whose bests are shown", () => {
  assert.equal(counting.shoeKey("true", 6), "true:6");
  assert.equal(
    counting.bestsWords({ drill: "running", cards: 52, group: 2, pace: "brisk", decks: 6 }),
    "For 52 cards, 2 at a time, brisk; kept in this browser.",
  );
  assert.equal(counting.bestsWords({ drill: "true", decks: 6 }), "True counts from a 6-deck shoe; kept in this browser.");
  assert.equal(counting.bestsWords({ drill: "decks", decks: 1 }), "Decks left in a 1-deck shoe; kept in this browser.");
  assert.match(counting.drillIntro("true"), /a mark at every deck\); right within 0\.5\.$/);
  assert.match(counting.drillIntro("true", 1), /a mark at the half deck\)/);
  assert.match(counting.drillIntro("decks", 6), /, to the half deck\.$/);
  assert.match(counting.drillIntro("decks", 1), /, to the quarter deck\.$/);
  assert.match(counting.drillIntro("running"), /six-deck shoe/);
});

test("decks, trays and verdicts in Russian: a decimal comma, the plural form of each count", () => {
  speaking("ru", () => {
    assert.deepEqual([1, 4, 6, 2.6346, 0.5].map(counting.formatDecks), ["1 колода", "4 колоды", "6 колод", "2,63 колоды", "0,5 колоды"]);
    assert.equal(counting.formatSeconds(2345), "2,3 с");
    assert.equal(counting.trayWords(206, 6), "Сдано 206 из 312 карт: ушло 3,96 колоды, осталось 2,04 колоды.");
    assert.equal(counting.decksVerdict(counting.gradeDecks(175, 6, 2.5)), "✓ Верно: осталось 2,63 колоды — 2,5 с точностью до половины колоды.");
    assert.equal(counting.decksVerdict(counting.gradeDecks(260, 6, 2)), "✗ Неверно: вы ответили 2; осталась 1 колода — 1 с точностью до половины колоды.");
    const g = counting.gradeTrue(7, 175, 6, 1.5);
    assert.equal(
      counting.trueVerdict(g),
      `✗ Неверно: вы ответили ${formatCount(1.5, 2)}; истинный счёт ${formatCount(2.66, 2)} (${formatCount(7)} ÷ 2,63 колоды в остатке).`,
    );
    assert.equal(counting.bestsWords({ drill: "running", cards: 52, group: 2, pace: "brisk", decks: 6 }), "52 карты по 2, бодро; хранится в этом браузере.");
    assert.equal(counting.bestsWords({ drill: "true", decks: 6 }), "Истинный счёт, шуз из 6 колод; хранится в этом браузере.");
    assert.equal(counting.bestsWords({ drill: "decks", decks: 1 }), "Остаток колод, шуз из 1 колоды; хранится в этом браузере.");
    assert.match(counting.drillIntro("true"), /с отметкой на каждой колоде\); верно в пределах 0,5\.$/);
    assert.equal(counting.drillLabel("decks"), "Остаток колод");
  });
});

test("decks, trays and verdicts in Croatian: a decimal comma, the plural form of each count", () => {
  speaking("hr", () => {
    assert.deepEqual([1, 4, 6, 2.6346].map(counting.formatDecks), ["1 špil", "4 špila", "6 špilova", "2,63 špila"]);
    assert.equal(counting.trayWords(26, 1), "Podijeljeno 26 od 52 karata: otišlo 0,5 špilova, preostalo 0,5 špilova.");
    assert.equal(counting.decksVerdict(counting.gradeDecks(175, 6, 2.5)), "✓ Točno: preostala su 2,63 špila, 2,5 zaokruženo na pola špila.");
    assert.equal(counting.trayLabel(6), "Pladanj odbačenih karata šua od 6 špilova, s oznakom na svakom špilu; hrpa su podijeljene karte.");
    assert.match(counting.trayLabel(1), /šua od 1 špila, s oznakom na pola špila;/);
    assert.equal(counting.bestsWords({ drill: "running", cards: 10, group: 1, pace: "slow", decks: 6 }), "10 karata, po 1, sporo; čuva se u ovom pregledniku.");
    assert.match(counting.drillIntro("decks", 1), /, zaokruženo na četvrtinu špila\.$/);
    assert.equal(counting.formatSeconds(350), "0,4 s");
  });
});
