// The Indices page's pure parts (tested with node): index plays in words and by chart cell,
// the signed count and edge, the edge plot's axis and scales, the Kelly bet for a bankroll.

/** A true count with its sign: "+2", "0", "−3". */
export function signedCount(t) {
  const v = Number(t);
  if (v > 0) return `+${v}`;
  if (v < 0) return `−${-v}`;
  return "0";
}

/** An edge in percent with its sign, two decimals: "+1.23%", "−0.40%". */
export function signedEdge(edge) {
  const v = Math.round(Number(edge) * 100) / 100;
  if (v === 0) return "0.00%";
  return `${v > 0 ? "+" : "−"}${Math.abs(v).toFixed(2)}%`;
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

/** An index's threshold the short way: "≥+2", "≤−1". */
export function indexMark(index) {
  return `${index.direction === "at_or_below" ? "≤" : "≥"}${signedCount(index.index)}`;
}

/**
 * An index play in words: "16 v 10: stand at +2 or more (the card says hit)"; insurance:
 * "Insurance: take it at +4 or more (the card declines it)".
 */
export function indexWords(index) {
  const where = index.direction === "at_or_below" ? "or less" : "or more";
  const at = `at ${signedCount(index.index)} ${where}`;
  if (index.section === "insurance") return `Insurance: take it ${at} (the card declines it)`;
  return `${shortRow(index.section, index.row)} v ${upWord(index.up)}: ${index.play} ${at} (the card says ${index.basic})`;
}

/** The Kelly bet: bankroll × edge/100 / variance, rounded down; 0 where the edge is not positive (or nothing is known). */
export function kellyBet(bankroll, edge, variance) {
  const b = Number(bankroll);
  const e = Number(edge);
  const v = Number(variance);
  if (!(b > 0) || !(e > 0) || !(v > 0)) return 0;
  return Math.floor((b * e) / 100 / v + 1e-9);
}

/** A typed bankroll: a whole number of coins (spaces and thousands separators allowed), else null. */
export function parseBankroll(text) {
  const s = String(text ?? "").replace(/[\s,_]/g, "");
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
  if (coins < 0.005) return "<0.01";
  return coins.toFixed(2);
}

/** A play's cell and direction, one key per index play: "hard 16 T at_or_above". */
export const playKey = (ix) => `${ix.section} ${ix.row} ${ix.up} ${ix.direction}`;

/** A number of decks in words: "1 deck", "3 decks". */
export const deckCount = (decks) => `${decks} ${Number(decks) === 1 ? "deck" : "decks"}`;

/**
 * The furthest true count a table that shuffles every round reaches at the first decision:
 * its round's three cards (two of the player's, the up card) all of one sign, over the
 * decks they leave: 3 × 52 / (52 × decks − 3), two decimals ("0.76" for four decks).
 */
export function firstDecisionBound(decks) {
  const cards = 52 * Number(decks);
  return ((3 * 52) / (cards - 3)).toFixed(2);
}
