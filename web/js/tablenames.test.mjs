import assert from "node:assert/strict";
import { test } from "node:test";
import { setLanguage } from "./i18n.js";
import { tableDescription, tableName } from "./tablenames.js";

test("a table the catalogs name reads in the player's language; another as the API names it", () => {
  assert.equal(tableName("classic", "Classic"), "Classic");
  assert.match(tableDescription("casino", "whatever the API says"), /^Six decks with a cut card/);
  assert.equal(tableName("newtable", "New table"), "New table");
  assert.equal(tableName("newtable"), "newtable");
  assert.equal(tableDescription("newtable", ""), "");
  try {
    setLanguage("ru");
    assert.equal(tableName("european", "European"), "Европейский");
    assert.match(tableDescription("classic"), /^Четыре колоды/);
    setLanguage("hr");
    assert.equal(tableName("european", "European"), "Europski");
    assert.match(tableDescription("bicycle"), /^Jedan špil/);
    assert.equal(tableName("newtable", "New table"), "New table");
  } finally {
    setLanguage("en");
  }
});
