// For the node tests: a test's sentences rendered in another language.
import { setLanguage } from "./i18n.js";

/** `run` in the language `lang`, back in English after it, whatever happens (the tests' default). */
export function speaking(lang, run) {
  try {
    setLanguage(lang);
    run();
  } finally {
    setLanguage("en");
  }
}
