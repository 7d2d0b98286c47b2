// Short table sounds synthesised with Web Audio (no audio files); silent unless the player turns them on.
import { settings } from "./settings.js";

// Each sound: [frequency Hz, duration s, wave] notes played one after the other.
const SOUNDS = {
  deal: [[900, 0.04, "triangle"]],
  chip: [
    [1800, 0.03, "square"],
    [2400, 0.03, "square"],
  ],
  turn: [
    [520, 0.08, "sine"],
    [780, 0.12, "sine"],
  ],
  win: [
    [660, 0.09, "sine"],
    [880, 0.09, "sine"],
    [1320, 0.16, "sine"],
  ],
};

let audio = null;

export function play(name) {
  if (!settings.sound || typeof AudioContext !== "function") return;
  audio = audio || new AudioContext();
  let at = audio.currentTime;
  for (const [freq, length, type] of SOUNDS[name] || []) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = type;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.08, at);
    gain.gain.exponentialRampToValueAtTime(0.001, at + length);
    osc.connect(gain).connect(audio.destination);
    osc.start(at);
    osc.stop(at + length);
    at += length;
  }
}
