// The catalogs: every key in every language, none unused, the same places in each
// language's message, the plural forms each language needs, every message rendered with
// sample values; and the language picked from the browser's.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { formatNumber, LANGUAGES, pickLanguage, setLanguage, t } from "./i18n.js";

const HERE = new URL(".", import.meta.url);
const SOURCES = readdirSync(HERE)
  .filter((file) => file.endsWith(".js"))
  .map((file) => readFileSync(new URL(file, HERE), "utf8"))
  .join("\n");
const en = LANGUAGES.en.catalog;
const KEYS = Object.keys(en);
/** The plural categories a message with forms needs in each language. */
const FORMS = Object.fromEntries(
  Object.entries(LANGUAGES).map(([lang, { locale }]) => [lang, new Intl.PluralRules(locale).resolvedOptions().pluralCategories.sort()]),
);
const placesOf = (message) =>
  new Set([...(typeof message === "object" ? Object.values(message) : [message]).join(" ").matchAll(/\{(\w+)\}/g)].map((m) => m[1]));

test("every catalog has every key of the English one, and no other", () => {
  for (const [lang, { catalog }] of Object.entries(LANGUAGES)) {
    assert.deepEqual(
      KEYS.filter((key) => !Object.hasOwn(catalog, key)),
      [],
      `${lang} lacks these`,
    );
    assert.deepEqual(
      Object.keys(catalog).filter((key) => !Object.hasOwn(en, key)),
      [],
      `${lang} has these the English catalog has not`,
    );
  }
});

// A key is used where its name is written in a module, or where a module builds it from a
// prefix written there: t(`action.${name}`) uses every key starting "action.".
const PREFIXES = [...SOURCES.matchAll(/t\(`([\w.]+)\$\{/g)].map((m) => m[1]);
test("every key is used by a module", () => {
  const unused = KEYS.filter((key) => !SOURCES.includes(`"${key}"`) && !PREFIXES.some((prefix) => key.startsWith(prefix)));
  assert.deepEqual(unused, []);
});

test("a message has the same places in every language, and the plural forms of each", () => {
  for (const key of KEYS) {
    const places = placesOf(en[key]);
    for (const [lang, { catalog }] of Object.entries(LANGUAGES)) {
      const message = catalog[key];
      assert.deepEqual(placesOf(message), places, `${lang} ${key}`);
      if (typeof en[key] === "object") {
        assert.equal(typeof message, "object", `${lang} ${key}: plural forms`);
        assert.deepEqual(Object.keys(message).sort(), FORMS[lang], `${lang} ${key}: the plural forms of ${lang}`);
        assert.ok(places.has("count"), `${key}: a message with plural forms takes {count}`);
      } else assert.equal(typeof message, "string", `${lang} ${key}`);
    }
  }
});

test("every message renders in every language with sample values, no place left", () => {
  try {
    for (const lang of Object.keys(LANGUAGES)) {
      setLanguage(lang);
      for (const key of KEYS) {
        const values = Object.fromEntries([...placesOf(en[key])].map((name) => [name, name === "count" ? 3 : `<${name}>`]));
        for (const count of typeof en[key] === "object" ? [1, 2, 5, 21, 1.5] : [3]) {
          const text = t(key, { ...values, ...(values.count !== undefined ? { count } : {}) });
          assert.doesNotMatch(text, /\{\w+\}/, `${lang} ${key}`);
          assert.ok(text.trim().length > 0, `${lang} ${key}`);
        }
      }
    }
  } finally {
    setLanguage("en");
  }
});

test("the language comes from the browser's: Russian, Croatian (and Bosnian, Serbian in Latin), else English", () => {
  assert.equal(pickLanguage(null, ["ru-RU", "en"]), "ru");
  assert.equal(pickLanguage(null, ["hr-HR"]), "hr");
  assert.equal(pickLanguage(null, ["bs"]), "hr");
  assert.equal(pickLanguage(null, ["sr-Latn-RS"]), "hr");
  assert.equal(pickLanguage(null, ["de-DE", "ru"]), "ru");
  assert.equal(pickLanguage(null, ["fr-FR"]), "en");
  assert.equal(pickLanguage(null, ["en-GB", "ru"]), "en");
  assert.equal(pickLanguage("hr", ["ru-RU"]), "hr", "the player's pick wins");
  assert.equal(pickLanguage("xx", ["ru-RU"]), "ru", "a pick we do not have is ignored");
});

test("numbers are written for the language", () => {
  try {
    setLanguage("ru");
    assert.equal(formatNumber(10000.5), "10\u00a0000,5");
    setLanguage("hr");
    assert.equal(formatNumber(10000.5), "10.000,5");
    setLanguage("en");
    assert.equal(formatNumber(10000.5), "10,000.5");
  } finally {
    setLanguage("en");
  }
});
