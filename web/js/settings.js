// The player's table settings, remembered in localStorage: pace, sound, when marks show,
// whether the count badge shows, the coach's level.
import { SPEEDS } from "./pacing.js";

const KEYS = {
  speed: "blackjack.speed",
  sound: "blackjack.sound",
  holdMarks: "blackjack.hold_marks",
  showCount: "blackjack.show_count",
  coachLevel: "blackjack.coach_level",
};
/** The hint's levels (API.md), as the coach offers them; `hard` unless the player picks another. */
export const COACH_LEVELS = { medium: "Chart (medium)", hard: "Exact, fresh shoe (hard)", expert: "Perfect play for this shoe (expert)" };

function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function write(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* private mode: the setting lasts for this page only */
  }
}

export const settings = {
  get speed() {
    const s = read(KEYS.speed);
    return s in SPEEDS ? s : "normal";
  },
  set speed(value) {
    write(KEYS.speed, value);
  },
  get sound() {
    return read(KEYS.sound) === "on";
  },
  set sound(on) {
    write(KEYS.sound, on ? "on" : "off");
  },
  get holdMarks() {
    return read(KEYS.holdMarks) === "on";
  },
  set holdMarks(on) {
    write(KEYS.holdMarks, on ? "on" : "off");
  },
  /** The count badge: hidden unless the player shows it. */
  get showCount() {
    return read(KEYS.showCount) === "on";
  },
  set showCount(on) {
    write(KEYS.showCount, on ? "on" : "off");
  },
  get coachLevel() {
    const level = read(KEYS.coachLevel);
    return level !== null && Object.hasOwn(COACH_LEVELS, level) ? level : "hard";
  },
  set coachLevel(level) {
    write(KEYS.coachLevel, level);
  },
};

export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}
