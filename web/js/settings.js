// The player's table settings, remembered in localStorage: pace, sound, when marks show,
// whether the count badge shows, the coach's level, the checkout and its bet's tolerance.
import { SPEEDS } from "./pacing.js";

const KEYS = {
  speed: "blackjack.speed",
  sound: "blackjack.sound",
  holdMarks: "blackjack.hold_marks",
  showCount: "blackjack.show_count",
  coachLevel: "blackjack.coach_level",
  checkout: "blackjack.checkout",
  betTolerance: "blackjack.checkout_bet_tolerance",
};
/**
 * The hint's levels (API.md), as the coach offers them, each with the catalog key of its
 * name (`t(COACH_LEVELS[level])` where it shows); `hard` unless the player picks another.
 */
export const COACH_LEVELS = {
  medium: "settings.coachLevel.medium",
  hard: "settings.coachLevel.hard",
  expert: "settings.coachLevel.expert",
  counter: "settings.coachLevel.counter",
};
/** The levels an AI box can play (API.md, POST …/rounds `ai`). */
export const AI_LEVELS = ["easy", "medium", "hard", "expert", "counter"];

/** The checkout's bet tolerances a player may pick (percent of the advised bet), and the default. */
export const BET_TOLERANCES = [5, 10, 20, 50];
export const DEFAULT_BET_TOLERANCE = 10;

/** What is remembered under `key`: null when nothing is, or storage is closed (private mode). */
export function remembered(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
/** Remember `value` under `key`; in private mode it lasts for this page only. */
export function remember(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* private mode */
  }
}
/** A remembered JSON object, or {} when it is missing, unreadable or not an object. */
export function savedObject(raw) {
  try {
    const saved = JSON.parse(raw || "{}");
    return saved && typeof saved === "object" && !Array.isArray(saved) ? saved : {};
  } catch {
    return {};
  }
}

export const settings = {
  get speed() {
    const s = remembered(KEYS.speed);
    return s in SPEEDS ? s : "normal";
  },
  set speed(value) {
    remember(KEYS.speed, value);
  },
  get sound() {
    return remembered(KEYS.sound) === "on";
  },
  set sound(on) {
    remember(KEYS.sound, on ? "on" : "off");
  },
  get holdMarks() {
    return remembered(KEYS.holdMarks) === "on";
  },
  set holdMarks(on) {
    remember(KEYS.holdMarks, on ? "on" : "off");
  },
  /** The count badge: hidden unless the player shows it. */
  get showCount() {
    return remembered(KEYS.showCount) === "on";
  },
  set showCount(on) {
    remember(KEYS.showCount, on ? "on" : "off");
  },
  get coachLevel() {
    const level = remembered(KEYS.coachLevel);
    return level !== null && Object.hasOwn(COACH_LEVELS, level) ? level : "hard";
  },
  set coachLevel(level) {
    remember(KEYS.coachLevel, level);
  },
  /** The checkout at the table (checkoutpanel.js): off unless the player turns it on. */
  get checkout() {
    return remembered(KEYS.checkout) === "on";
  },
  set checkout(on) {
    remember(KEYS.checkout, on ? "on" : "off");
  },
  /** How far from the advised bet (in percent) the checkout grades a bet right. */
  get betTolerance() {
    const tolerance = Number(remembered(KEYS.betTolerance));
    return BET_TOLERANCES.includes(tolerance) ? tolerance : DEFAULT_BET_TOLERANCE;
  },
  set betTolerance(tolerance) {
    remember(KEYS.betTolerance, String(tolerance));
  },
};

export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}
