// Pure (no DOM): the client's words in the player's language. Every string the client shows
// is a message of a catalog (web/i18n/<language>.js), looked up by its key and filled with
// its values here; numbers, coins and dates are formatted by the platform's Intl for the
// language, plural forms picked by Intl.PluralRules (Russian: one, few, many; Croatian:
// one, few, other). The language is read once, when this module loads (before any page
// draws): the one remembered, else the browser's. A change in Settings is remembered and
// reloads the page. No module computes a message when it loads: always at the time it shows.

import en from "../i18n/en.js";
import hr from "../i18n/hr.js";
import ru from "../i18n/ru.js";

/** The languages a player may pick, each named in itself, with the locale Intl formats for. */
export const LANGUAGES = {
  en: { name: "English", locale: "en-US", catalog: en },
  ru: { name: "Русский", locale: "ru-RU", catalog: ru },
  hr: { name: "Hrvatski", locale: "hr-HR", catalog: hr },
};

// A test language: every message in English between ⟦ and ⟧, so a browser test finds any
// text on a page that does not come from a catalog. Settings never offers it.
const PSEUDO = "qps";

/** Where the player's pick is remembered (settings.js keeps the others). */
export const LANGUAGE_KEY = "blackjack.lang";

let language = "en";

/**
 * The language to speak: the one the player picked (`saved`), else the browser's first
 * that we have (`ru*` Russian; `hr*`, `bs*` and Serbian in Latin script Croatian), else English.
 */
export function pickLanguage(saved, browserLanguages = []) {
  if (saved === PSEUDO || Object.hasOwn(LANGUAGES, saved ?? "")) return saved;
  for (const tag of browserLanguages) {
    const lower = String(tag).toLowerCase();
    if (lower.startsWith("ru")) return "ru";
    if (lower.startsWith("hr") || lower.startsWith("bs") || lower.startsWith("sr-latn")) return "hr";
    if (lower.startsWith("en")) return "en";
  }
  return "en";
}

/** Speak `lang` from now on (app.js, once at start; tests). */
export function setLanguage(lang) {
  language = lang === PSEUDO || Object.hasOwn(LANGUAGES, lang) ? lang : "en";
}

/** The language spoken now: "en", "ru" or "hr" (the test language speaks English). */
export const currentLanguage = () => (language === PSEUDO ? "en" : language);

/** The BCP 47 locale Intl formats for in the language spoken now. */
export const locale = () => LANGUAGES[currentLanguage()].locale;

const plurals = new Map();
/** The plural category of `count` in the language spoken now ("one", "few", "many", "other"). */
export function pluralOf(count) {
  const tag = locale();
  if (!plurals.has(tag)) plurals.set(tag, new Intl.PluralRules(tag));
  return plurals.get(tag).select(Number(count));
}

const numbers = new Map();
/** `n` written for the language: "1,000.5" in English, "1 000,5" in Russian, "1.000,5" in Croatian. */
export function formatNumber(n, options = {}) {
  const key = `${locale()}|${JSON.stringify(options)}`;
  if (!numbers.has(key)) numbers.set(key, new Intl.NumberFormat(locale(), { maximumFractionDigits: 2, ...options }));
  return numbers.get(key).format(Number(n));
}

/** A date and time written for the language (history, the verify page). */
export function formatDateTime(value, options = { dateStyle: "medium", timeStyle: "short" }) {
  return new Intl.DateTimeFormat(locale(), options).format(new Date(value));
}

/** A list written for the language: "a, b and c", "a, b и c", "a, b i c". */
export function formatList(items, type = "conjunction") {
  return new Intl.ListFormat(locale(), { style: "long", type }).format(items.map(String));
}

/**
 * The message `key` in the language spoken now, its `{name}` places filled from `values`
 * (numbers written for the language). A message with plural forms ({one, few, many, other})
 * takes the form of `values.count`. A key no catalog has is a bug the catalog tests catch;
 * it shows as the key rather than nothing.
 */
export function t(key, values = {}) {
  const catalog = LANGUAGES[currentLanguage()].catalog;
  let message = Object.hasOwn(catalog, key) ? catalog[key] : Object.hasOwn(en, key) ? en[key] : key;
  if (typeof message === "object") message = message[pluralOf(values.count)] ?? message.other;
  const filled = message.replace(/\{(\w+)\}/g, (place, name) => {
    if (!Object.hasOwn(values, name)) return place;
    const value = values[name];
    return typeof value === "number" ? formatNumber(value) : String(value);
  });
  return language === PSEUDO ? `⟦${filled}⟧` : filled;
}

/** The language remembered in this browser, or null (none yet, storage closed, or not a browser). */
function rememberedLanguage() {
  try {
    return globalThis.localStorage?.getItem(LANGUAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

// Node (the unit tests) has no browser languages: it speaks English unless a test says otherwise.
setLanguage(pickLanguage(rememberedLanguage(), globalThis.document ? navigator.languages : []));
