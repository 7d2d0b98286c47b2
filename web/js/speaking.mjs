// For the node tests: a test's sentences rendered in another language.
import { setLanguage } from "./i18n.js";

/** What `run` returns with `lang` spoken, English again after it whatever happens (the tests' default). */
export function speaking(lang, run) {
  try {
    setLanguage(lang);
    return run();
  } finally {
    setLanguage("en");
  }
}
