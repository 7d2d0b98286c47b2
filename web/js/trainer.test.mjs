// The Trainer page's figures over the history's graded decisions.

import assert from "node:assert/strict";
import { test } from "node:test";
import { accuracy, decisionHandLabel, decisionsOf, formatAccuracy, recentAccuracy, rollingAccuracy } from "./trainer.js";
import { formatLoss, isMistake } from "./view.js";

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

test("a mistake is a loss of 0.0005 or more", () => {
  assert.equal(isMistake({ loss: 0.0005 }), true);
  assert.equal(isMistake({ loss: 0.0004 }), false);
  assert.equal(formatLoss(0.2699), "−0.27 of the bet");
  assert.equal(formatLoss(0.0006), "−0.0006 of the bet");
});

test("the hand as decided on, in words", () => {
  assert.equal(decisionHandLabel(stand8), "hard 8");
  assert.equal(decisionHandLabel({ kind: "soft", cards: ["AS", "6D"] }), "soft 17");
  assert.equal(decisionHandLabel({ kind: "pairs", cards: ["8S", "8D"] }), "pair of 8s");
  assert.equal(decisionHandLabel({ kind: "pairs", cards: ["AS", "AD"] }), "pair of aces");
  assert.equal(decisionHandLabel({ kind: "hard", cards: ["TS", "6D", "AC"] }), "hard 17");
});

test("rolling accuracy: each run of `window` decisions of the last `span`, oldest first", () => {
  const ds = [stand8, hit, hit, hit, stand8]; // latest first
  assert.deepEqual(rollingAccuracy(ds, 2, 4), [1, 1, 0.5]);
  assert.deepEqual(rollingAccuracy(ds, 3, 5), [2 / 3, 1, 2 / 3]);
  assert.deepEqual(rollingAccuracy(ds.slice(0, 1), 2, 6), []);
});
