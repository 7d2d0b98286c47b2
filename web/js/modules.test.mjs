// The modules and their layers. Every module but the entry points (the scripts an HTML page
// loads, which need a document) loads: no missing export, no typo. The pages are the modules
// app.js routes to (it imports their `show…`); app.js alone imports a page, so no page imports
// another, and a page exports only what app.js routes to: what it computes without the DOM
// is a module of its own, unit-tested here.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

const HERE = new URL(".", import.meta.url);
const read = (path) => readFileSync(new URL(path, HERE), "utf8");
const MODULES = readdirSync(HERE).filter((file) => file.endsWith(".js"));
const ENTRY_POINTS = readdirSync(new URL("..", HERE))
  .filter((file) => file.endsWith(".html"))
  .flatMap((page) => [...read(`../${page}`).matchAll(/<script type="module" src="js\/([\w-]+\.js)"/g)].map((m) => m[1]));

/** A module's imports of its siblings, from its source: {file: the names it imports from it, "*" for all}. */
function importsIn(source) {
  const imports = {};
  for (const [, names, all, file] of source.matchAll(/^import\s*(?:(?:\{([^}]*)\}|(\*)\s*as\s+\w+)\s*from\s*)?"\.\/([\w-]+\.js)";/gm)) {
    const imported = (all || names || "").split(",").map((name) => name.trim().split(/\s+as\s+/)[0]);
    imports[file] = [...(imports[file] || []), ...imported.filter(Boolean)];
  }
  return imports;
}
const importsOf = (module) => importsIn(read(module));

const APP = "app.js";
const ROUTED = importsOf(APP);
const PAGES = Object.keys(ROUTED).filter((file) => ROUTED[file].some((name) => name.startsWith("show")));

test("the entry points and the pages are found", () => {
  assert.deepEqual(ENTRY_POINTS.sort(), ["app.js", "offline.js", "pwa.js"]);
  assert.ok(PAGES.includes("drills.js") && PAGES.includes("counting.js") && PAGES.includes("table.js"), PAGES.join(", "));
});

for (const module of MODULES.filter((file) => !ENTRY_POINTS.includes(file))) {
  test(`module ${module} loads`, async () => {
    const loaded = await import(`./${module}`);
    assert.ok(Object.keys(loaded).length > 0);
  });
}

test("no page imports another page", () => {
  const crossed = PAGES.flatMap((page) =>
    Object.keys(importsOf(page))
      .filter((file) => PAGES.includes(file) && file !== page)
      .map((file) => `${page} → ${file}`),
  );
  assert.deepEqual(crossed, []);
});

test("app.js alone imports a page: pure modules and a page's parts sit below the pages", () => {
  const importers = MODULES.filter((module) => module !== APP).flatMap((module) =>
    Object.keys(importsOf(module))
      .filter((file) => PAGES.includes(file))
      .map((file) => `${module} → ${file}`),
  );
  assert.deepEqual(importers, []);
});

test("a page exports only what app.js routes to", async () => {
  for (const page of PAGES) {
    const exported = Object.keys(await import(`./${page}`)).sort();
    assert.deepEqual(exported, [...ROUTED[page]].sort(), page);
  }
});

test("an import is read over several lines, renamed, whole or bare", () => {
  const source = [
    'import { api } from "./api.js";',
    'import {\n  indexWords,\n  signedCount as signed,\n} from "./indices.js";',
    'import * as drills from "./drills.js";',
    'import "./pwa.js";',
  ].join("\n");
  assert.deepEqual(importsIn(source), { "api.js": ["api"], "indices.js": ["indexWords", "signedCount"], "drills.js": ["*"], "pwa.js": [] });
});

test("api base comes from window.BLACKJACK_CONFIG, same origin by default", async () => {
  const { apiBase } = await import("./api.js");
  globalThis.window = {};
  assert.equal(apiBase(), "");
  globalThis.window = { BLACKJACK_CONFIG: { apiBase: "https://api.example.com/" } };
  assert.equal(apiBase(), "https://api.example.com");
  delete globalThis.window;
});
