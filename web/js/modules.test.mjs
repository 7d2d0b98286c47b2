// Every module (but the entry point, which needs a document) loads: no missing export, no typo.

import assert from "node:assert/strict";
import { test } from "node:test";

for (const m of [
  "api",
  "dom",
  "ui",
  "rules",
  "format",
  "input",
  "stats",
  "fairness",
  "table",
  "felt",
  "controls",
  "panels",
  "pacing",
  "settings",
  "sound",
  "login",
  "drills",
  "lobby",
  "history",
  "strategy",
  "verify",
  "trainer",
  "counting",
  "coach",
  "indices",
]) {
  test(`module ${m}.js loads`, async () => {
    const mod = await import(`./${m}.js`);
    assert.ok(Object.keys(mod).length > 0);
  });
}

test("api base comes from window.BLACKJACK_CONFIG, same origin by default", async () => {
  const { apiBase } = await import("./api.js");
  globalThis.window = {};
  assert.equal(apiBase(), "");
  globalThis.window = { BLACKJACK_CONFIG: { apiBase: "https://api.example.com/" } };
  assert.equal(apiBase(), "https://api.example.com");
  delete globalThis.window;
});
