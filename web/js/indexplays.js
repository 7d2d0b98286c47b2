// The Indices page's pure parts (tested with node): index plays in words and by chart cell,
// a chart's plays and sections in words, the signed count, the edge plot's axis and scales,
// the Kelly bet for a bankroll.

import { formatFixed } from "./format.js";
import { t } from "./i18n.js";
import { KINDS } from "./stats.js";

/** A true count with its sign: "+2", "0", "−3". */
export function signedCount(t) {
  const v = Number(t);
  if (v > 0) return `+${v}`;
  if (v < 0) return `−${-v}`;
  return "0";
}

/** A chart row the short way a player says it: "16", "A,7", "8,8", "10,10". */
export function shortRow(section, row) {
  if (section === "hard") return String(row);
  if (section === "soft") return `A,${Number(row) - 11}`;
  const r = row === "T" ? "10" : row;
  return `${r},${r}`;
}

/** An up card as a player says it: "10" for a ten. */
export const upWord = (up) => (up === "T" ? "10" : up);

/** A chart's play in words, lower case as a chart's legend and cells say it: "stand". */
export const playWord = (action) => t(`indexplays.play.${action}`);

/** A chart section's name: "Hard totals". */
export const sectionName = (section) => KINDS.find((k) => k.name === section)?.label ?? section;

/** An index's threshold the short way: "≥+2", "≤−1". */
export function indexMark(index) {
  return `${index.direction === "at_or_below" ? "≤" : "≥"}${signedCount(index.index)}`;
}

/**
 * An index play in words: "16 v 10: stand at +2 or more (the card says hit)"; insurance:
 * "Insurance: take it at +4 or more (the card declines it)".
 */
export function indexWords(index) {
  const below = index.direction === "at_or_below";
  const at = signedCount(index.index);
  if (index.section === "insurance") return t(below ? "indexplays.insuranceOrLess" : "indexplays.insuranceOrMore", { at });
  return t(below ? "indexplays.wordsOrLess" : "indexplays.wordsOrMore", {
    row: shortRow(index.section, index.row),
    up: upWord(index.up),
    play: playWord(index.play),
    at,
    basic: playWord(index.basic),
  });
}

/** The Kelly bet: bankroll × edge/100 / variance, rounded down; 0 where the edge is not positive (or nothing is known). */
export function kellyBet(bankroll, edge, variance) {
  const b = Number(bankroll);
  const e = Number(edge);
  const v = Number(variance);
  if (!(b > 0) || !(e > 0) || !(v > 0)) return 0;
  return Math.floor((b * e) / 100 / v + 1e-9);
}

/**
 * A typed bankroll: a whole number of coins, else null. Spaces, commas and underscores may
 * separate thousands, and dots too where they do ("10.000", as Croatian writes it; "1.5" is no whole number).
 */
export function parseBankroll(text) {
  let s = String(text ?? "").replace(/[\s,_]/g, "");
  if (/^\d{1,3}(\.\d{3})+$/.test(s)) s = s.replace(/\./g, "");
  if (!/^\d{1,12}$/.test(s)) return null;
  return Number(s);
}

/** The index plays by chart section and row: {hard: Map(row → Map(up → [index…]))}, insurance apart. */
export function indicesByCell(indices) {
  const out = { hard: new Map(), soft: new Map(), pairs: new Map(), insurance: [] };
  for (const ix of indices || []) {
    if (ix.section === "insurance") {
      out.insurance.push(ix);
      continue;
    }
    const rows = out[ix.section];
    if (!rows) continue;
    if (!rows.has(ix.row)) rows.set(ix.row, new Map());
    const ups = rows.get(ix.row);
    ups.set(ix.up, [...(ups.get(ix.up) || []), ix]);
  }
  return out;
}

/** "Nice" steps for the plot's edge axis: the range in whole percents, padded, with a tick step. */
export function edgeAxis(edges) {
  const values = edges.map(Number).filter(Number.isFinite);
  const lo = Math.min(0, ...values);
  const hi = Math.max(0, ...values);
  const step = hi - lo > 8 ? 2 : 1;
  const min = Math.floor(lo / step) * step;
  const max = Math.ceil(hi / step) * step;
  const ticks = [];
  for (let v = min; v <= max + 1e-9; v += step) ticks.push(v);
  return { min, max: max === min ? min + step : max, ticks };
}

/** The plot's frame (viewBox units) and its scales. */
export const PLOT = { width: 340, height: 220, left: 42, right: 10, top: 12, bottom: 40 };
export function plotScales(axis, frame = PLOT) {
  const w = frame.width - frame.left - frame.right;
  const ht = frame.height - frame.top - frame.bottom;
  return {
    x: (t) => frame.left + ((Number(t) + 10) / 20) * w,
    y: (e) => frame.top + ((axis.max - Number(e)) / (axis.max - axis.min)) * ht,
  };
}

/** How many plays the page opens on: as many as the Illustrious 18. */
export const TOP_PLAYS = 18;

/**
 * The index plays with their `worth` (API.md: the EV each adds per 100 rounds, in bets, in
 * the order of `indices`), the most worth first; plays of equal worth in chart order.
 */
export function rankedPlays(indices, worth) {
  const valued = (indices || []).map((ix, i) => ({ ...ix, worth: Number(worth?.[i] ?? 0) }));
  return valued.sort((a, b) => b.worth - a.worth); // a stable sort: ties keep chart order
}

/** A play's worth as coins per 100 rounds at a flat bet of 100 (worth × 100): "1.67", "<0.01", "0". */
export function worthCoins(worth) {
  const coins = Number(worth) * 100;
  if (!(coins > 0)) return "0";
  if (coins < 0.005) return `<${formatFixed(0.01, 2)}`;
  return formatFixed(coins, 2);
}

/** A play's cell and direction, one key per index play: "hard 16 T at_or_above". */
export const playKey = (ix) => `${ix.section} ${ix.row} ${ix.up} ${ix.direction}`;

/** A number of decks in words: "1 deck", "3 decks" (decks unseen may be a fraction: "4.5 decks"). */
export const deckCount = (decks) => t("indexplays.decks", { count: Number(decks) });

/**
 * The furthest true count a table that shuffles every round reaches at the first decision:
 * its round's three cards (two of the player's, the up card) all of one sign, over the
 * decks they leave: 3 × 52 / (52 × decks − 3), two decimals ("0.76" for four decks).
 */
export function firstDecisionBound(decks) {
  const cards = 52 * Number(decks);
  return formatFixed((3 * 52) / (cards - 3), 2);
}
