// The player's table settings, remembered in localStorage: pace, sound, when marks show.
import { SPEEDS } from "./pacing.js";

const KEYS = { speed: "blackjack.speed", sound: "blackjack.sound", holdMarks: "blackjack.hold_marks" };

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
};

export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}
