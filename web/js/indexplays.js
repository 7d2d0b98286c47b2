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
