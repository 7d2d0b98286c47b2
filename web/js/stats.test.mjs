// stats.js: the Trainer's statistics over the history's graded decisions.

import assert from "node:assert/strict";
import { test } from "node:test";
import { formatAccuracy } from "./format.js";
import { trueCount } from "./hilo.js";
import { setLanguage, t } from "./i18n.js";
import {
  accuracy,
  cardsSeenAt,
  countAt,
  decisionsOf,
  deviationsOf,
  deviationWorth,
  isExpertMistake,
  KINDS,
  kindFigures,
  moveFigures,
  recentAccuracy,
  rollingAccuracy,
  spotsTaken,
  statsOf,
} from "./stats.js";

const round = (id, decisions) => ({
  round_id: id,
  table: "european",
  dealer: { cards: ["6D", "9C"] },
  boxes: [
    { box: 0, player: "user", bet: 100, hands: [{ decisions }] },
    { box: 1, player: "ai:hard", bet: 10, hands: [{ decisions: [] }] },
  ],
});
const stand8 = { action: "stand", best: "hit", loss: 0.2699, kind: "hard", cards: ["2S", "6H"] };
const hit = { action: "hit", best: "hit", loss: 0, kind: "hard", cards: ["2S", "6H"] };

test("decisions come latest first, with their round, up card and bet", () => {
  const ds = decisionsOf([round("b", [hit, stand8]), round("a", [hit])]);
  assert.deepEqual(
    ds.map((d) => [d.round_id, d.action]),
    [
      ["b", "stand"],
      ["b", "hit"],
      ["a", "hit"],
    ],
  );
  assert.equal(ds[0].up, "6D");
  assert.equal(ds[0].bet, 100);
});

test("accuracy over the last n decisions, fewer when there are fewer", () => {
  const ds = decisionsOf([round("b", [hit, stand8]), round("a", [hit, hit])]);
  assert.deepEqual(recentAccuracy(ds, 2), { n: 2, count: 2, accuracy: 0.5 });
  assert.deepEqual(recentAccuracy(ds, 50), { n: 50, count: 4, accuracy: 0.75 });
  assert.equal(accuracy(0, 0), null);
  assert.equal(formatAccuracy(null), "—");
  assert.equal(formatAccuracy(0.75), "75.0%");
});

test("rolling accuracy: each run of `window` decisions of the last `span`, oldest first", () => {
  const ds = [stand8, hit, hit, hit, stand8]; // latest first
  assert.deepEqual(rollingAccuracy(ds, 2, 4), [1, 1, 0.5]);
  assert.deepEqual(rollingAccuracy(ds, 3, 5), [2 / 3, 1, 2 / 3]);
  assert.deepEqual(rollingAccuracy(ds.slice(0, 1), 2, 6), []);
});

// A casino round (no hole card) of three boxes: an AI box before the user's, one after.
const casinoRound = {
  round_id: "s-2",
  shoe_id: "s",
  table: "casino",
  dealer: { cards: ["5D", "KC", "9H"] },
  boxes: [
    { box: 0, player: "ai:expert", bet: 10, hands: [{ cards: ["2S", "4H", "TD"], decisions: [] }] },
    {
      box: 1,
      player: "user",
      bet: 10,
      hands: [
        {
          cards: ["9S", "3C", "2D", "6H"],
          decisions: [
            { action: "hit", best: "hit", loss: 0, expert_best: "hit", expert_loss: 0, kind: "hard", cards: ["9S", "3C"] },
            { action: "hit", best: "stand", loss: 0.01, expert_best: "hit", expert_loss: 0, kind: "hard", cards: ["9S", "3C", "2D"] },
          ],
        },
      ],
    },
    { box: 2, player: "ai:hard", bet: 10, hands: [{ cards: ["8C", "8D"] }, { cards: ["8H", "QS"] }] },
  ],
};

test("the public cards at a decision: the up card, the boxes before, the hand then, the boxes after as dealt", () => {
  const [first, second] = casinoRound.boxes[1].hands[0].decisions.map((d) => ({ ...d, box: 1, hand: 0 }));
  assert.deepEqual(cardsSeenAt(casinoRound, first), ["5D", "2S", "4H", "TD", "9S", "3C", "8C", "8H"]);
  assert.deepEqual(cardsSeenAt(casinoRound, second), ["5D", "2S", "4H", "TD", "9S", "3C", "2D", "8C", "8H"]);
  const insurance = { action: "decline_insurance", kind: "insurance", cards: ["9S", "3C"], box: 1, hand: 0 };
  assert.deepEqual(cardsSeenAt(casinoRound, insurance), ["5D", "2S", "4H", "9S", "3C", "8C", "8H"]);
  const splitBox = { ...casinoRound, boxes: [casinoRound.boxes[2]] };
  assert.equal(cardsSeenAt(splitBox, { kind: "hard", cards: ["8C", "8D"], box: 2, hand: 0 }), null, "a split box's draws cannot be told apart");
});

test("the count at a decision adds the shoe's earlier rounds, all their cards public", () => {
  const earlier = { dealer: { cards: ["AS", "7D"] }, boxes: [{ box: 0, player: "user", hands: [{ cards: ["6S", "5H", "QD"] }] }] };
  const d = { ...casinoRound.boxes[1].hands[0].decisions[1], box: 1, hand: 0 };
  // earlier: −1 0 +1 +1 −1 = 0 over 5; now: +1 +1 +1 −1 0 +1 +1 0 0 = +4 over 9
  const count = countAt(6, [earlier], casinoRound, d);
  assert.deepEqual(count, { system: "hi_lo", running: 4, true: trueCount(4, 298), cards_seen: 14, cards_unseen: 298 });
  assert.equal(countAt(6, null, casinoRound, d), null, "an earlier round not at hand");
});

test("deviations: perfect play differs from basic; their worth is known where basic was played", () => {
  const ds = decisionsOf([casinoRound]);
  const spots = deviationsOf(ds);
  assert.deepEqual(
    spots.map((d) => [d.best, d.expert_best, d.shoe_id]),
    [["stand", "hit", "s"]],
  );
  assert.equal(deviationWorth(spots[0]), null, "perfect play taken: its edge over basic is not in the grading");
  assert.equal(deviationWorth({ action: "stand", best: "stand", expert_best: "hit", expert_loss: 0.0312 }), 0.0312);
  assert.equal(deviationsOf([{ action: "hit", best: "hit", loss: 0 }]).length, 0, "a decision graded before perfect play");
  assert.equal(isExpertMistake({ expert_loss: 0.0005 }), true);
  assert.equal(isExpertMistake({ expert_loss: 0.0004 }), false);
});

test("the trainer's figures over one table's decisions count as the server's over all", () => {
  const ds = [
    { kind: "hard", loss: 0.2699, bet: 10, action: "stand", best: "hit", expert_best: "hit", expert_loss: 0.25 },
    { kind: "hard", loss: 0, bet: 10, action: "hit", best: "hit", expert_best: "stand", expert_loss: 0.01 },
    { kind: "insurance", loss: 0.0001, bet: 20, action: "insurance", best: "decline_insurance", expert_best: "insurance", expert_loss: 0 },
  ];
  const s = statsOf(ds);
  assert.deepEqual([s.decisions, s.mistakes, s.ev_lost], [3, 1, 2.7]);
  assert.deepEqual(s.by_kind.hard, { decisions: 2, mistakes: 1, ev_lost: 2.7 });
  assert.deepEqual(s.by_kind.pairs, { decisions: 0, mistakes: 0, ev_lost: 0 });
  assert.deepEqual([s.expert_mistakes, s.expert_ev_lost, s.deviations, s.deviations_taken], [2, 2.6, 2, 1]);
});

test("by kind at the coach's level: the chart's and the counter's by the move, with no EV lost", () => {
  const ds = [
    {
      kind: "hard",
      loss: 0.0232,
      bet: 100,
      action: "double",
      best: "hit",
      expert_best: "hit",
      expert_loss: 0.0145,
      counter_best: "hit",
      medium_best: "double",
    },
    { kind: "soft", loss: 0, bet: 10, action: "stand", best: "stand", expert_best: "stand", expert_loss: 0, counter_best: "stand", medium_best: "hit" },
  ];
  assert.deepEqual(kindFigures(ds).hard, { decisions: 1, mistakes: 1, ev_lost: 2.32 });
  assert.deepEqual(kindFigures(ds, "expert").hard, { decisions: 1, mistakes: 1, ev_lost: 1.45 });
  assert.deepEqual(kindFigures(ds, "medium").hard, { decisions: 1, mistakes: 0, ev_lost: null });
  assert.deepEqual(kindFigures(ds, "medium").soft, { decisions: 1, mistakes: 1, ev_lost: null });
  assert.deepEqual(kindFigures(ds, "counter").hard, { decisions: 1, mistakes: 1, ev_lost: null });
  assert.deepEqual(kindFigures(ds, "counter").pairs, { decisions: 0, mistakes: 0, ev_lost: null });
});

test("the counter's and the chart's mistakes: any move but their own, a decision graded before them read at `best`", () => {
  const ds = [
    { action: "stand", best: "hit", loss: 0.01, counter_best: "stand", medium_best: "hit" },
    { action: "hit", best: "hit", loss: 0, counter_best: "stand", medium_best: "hit" },
    { action: "hit", best: "hit", loss: 0 },
    { action: "stand", best: "hit", loss: 0.2 },
  ];
  assert.deepEqual(moveFigures(ds), { decisions: 4, counter: 2, medium: 2 });
  assert.deepEqual(moveFigures([]), { decisions: 0, counter: 0, medium: 0 });
});

test("the kinds of decision are named in the language spoken when they show", () => {
  try {
    assert.deepEqual(
      KINDS.map((k) => k.label),
      ["Hard totals", "Soft totals", "Pairs", "Insurance"],
    );
    setLanguage("ru");
    assert.deepEqual(
      KINDS.map((k) => k.label),
      ["Жёсткие суммы", "Мягкие суммы", "Пары", "Страховка"],
    );
    setLanguage("hr");
    assert.deepEqual(
      KINDS.map((k) => k.label),
      ["Tvrde ruke", "Meke ruke", "Parovi", "Osiguranje"],
    );
  } finally {
    setLanguage("en");
  }
});

test("spots taken, and the trainer's counts, in each language's plural forms", () => {
  assert.deepEqual([spotsTaken(3, 5), spotsTaken(0, 0), spotsTaken(2, undefined)], ["3 of 5 (60.0%)", "0 of 0", "—"]);
  const coins = (n) => t("trainer.coins", { count: n });
  const lastDecisions = (n) => t("trainer.recentWindow", { count: n, accuracy: "—" });
  try {
    assert.deepEqual([1, 2, 0.27].map(coins), ["1 coin", "2 coins", "0.27 coins"]);
    setLanguage("ru");
    assert.equal(spotsTaken(0, 0), "0 из 0");
    assert.match(spotsTaken(3, 5), /^3 из 5 \(60[.,]0\s?%\)$/);
    assert.deepEqual([1, 3, 5, 21, 0.27].map(coins), ["1 монета", "3 монеты", "5 монет", "21 монета", "0,27 монеты"]);
    assert.deepEqual([50, 200, 1000].map(lastDecisions), ["последние 50 решений: —", "последние 200 решений: —", "последние 1\u00a0000 решений: —"]);
    assert.equal(t("trainer.checkoutNote", { count: 2 }).split(" за столом")[0], "По вашим последним 2 проверкам");
    setLanguage("hr");
    assert.equal(spotsTaken(0, 0), "0 od 0");
    assert.deepEqual([1, 3, 5, 21].map(coins), ["1 kovanica", "3 kovanice", "5 kovanica", "21 kovanica"]);
    assert.deepEqual([50, 22].map(lastDecisions), ["zadnjih 50 odluka: —", "zadnje 22 odluke: —"]);
  } finally {
    setLanguage("en");
  }
});
