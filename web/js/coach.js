// Pure (no DOM): why the coach names its move, in one sentence a player reads once, at
// each level of API.md's hint: `medium` reads its chart, `hard` takes the highest EV for a
// fresh shoe, `expert` the highest EV for the cards not yet seen (and says where that
// leaves the table's strategy card), `counter` the card changed by an index play at the
// true count (RULES.md, "AI levels" and "Index plays").

import { actionLabel, cardsTotal, formatSigned } from "./format.js";

/** A card's chart label: "T" for every ten-value card, "A", else its rank. */
const chartLabel = (code) => {
  const rank = String(code).slice(0, -1).toUpperCase();
  return "TJQK".includes(rank) ? "T" : rank;
};

/** A dealer's up card (a card, "KH", or a chart label, "T") the way a player says it: "a ten", "an ace", "an 8", "a 6". */
export function upWords(up) {
  const label = String(up).length === 1 ? String(up).toUpperCase() : chartLabel(up);
  if (label === "T") return "a ten";
  if (label === "A") return "an ace";
  return label === "8" ? "an 8" : `a ${label}`;
}

const PAIR_WORDS = { T: "tens", A: "aces" };

/** A chart cell's row as a sentence starts it: "Hard 16", "Soft 18", "A pair of 8s". */
export function cellWords(section, row) {
  if (section === "pairs") return `A pair of ${PAIR_WORDS[row] || `${row}s`}`;
  return `${section === "soft" ? "Soft" : "Hard"} ${row}`;
}

/** A chart row inside a sentence, the short way counters name an index: "16", "soft 18" (one unbroken word), "8,8". */
export function indexRowWords(section, row) {
  if (section === "hard") return String(row);
  if (section === "soft") return `soft\u00a0${row}`;
  const r = row === "T" ? "10" : row;
  return `${r},${r}`;
}

/** A true count as the hint gives it (two decimals), with its sign: "+1.3", "0", "−0.25". */
export const trueWords = (t) => formatSigned(Math.round(Number(t) * 100) / 100);

/**
 * The chart cell the `counter` reads a hand by (RULES.md, "AI levels"; the engine's
 * `chart_cell`): its pair row for a two-card pair (of one rank at `same_rank` tables), else
 * its hard or soft total whatever its number of cards; null where the card has no such row
 * (hard 20, soft 21), when the card (`chart`) is known.
 */
export function chartCell(cards, up, rules, chart) {
  const [first, second] = cards;
  const oneRank = rules?.split !== "same_rank" || String(first)[0] === String(cards.at(-1))[0];
  if (cards.length === 2 && chartLabel(first) === chartLabel(second) && oneRank) return { section: "pairs", row: chartLabel(first), up: chartLabel(up) };
  const { total, soft } = cardsTotal(cards);
  const section = soft ? "soft" : "hard";
  if (chart && !Object.hasOwn(chart[section] || {}, String(total))) return null;
  return { section, row: String(total), up: chartLabel(up) };
}

/** Whether an index play holds at true count `t`. */
export const indexApplies = (index, t) => (index.direction === "at_or_below" ? Number(t) <= index.index : Number(t) >= index.index);

/** "true count +1.3 is at or above 0": a count where the index applies, against it. */
function against(index, t) {
  return `true count ${trueWords(t)} is ${index.direction === "at_or_below" ? "at or below" : "at or above"} ${formatSigned(index.index)}`;
}

/** Where an index play holds: "−6 or below", "+3 or above". */
const onlyAt = (index) => `${formatSigned(index.index)} or ${index.direction === "at_or_below" ? "below" : "above"}`;

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const isInsurance = (legal) => legal.includes("decline_insurance");

/**
 * Why the hint names its action, as one sentence. `spot` holds what the table shows: the
 * hint (`action`, `level`, `ev`, `count`, `index`), the hand's `cards` and the `up` card, the
 * `legal` actions, the table's `rules`, and, where they are loaded, the strategy card's
 * `chart` and the table's `indices` (GET …/strategy, GET …/indices); without them the
 * sentence says less, never something else.
 */
export function coachWhy(spot) {
  const { hint } = spot;
  const legal = spot.legal || [];
  const why = { medium: chartWhy, hard: freshWhy, expert: shoeWhy, counter: counterWhy }[hint.level];
  return why ? why({ ...spot, legal }) : "";
}

/** `medium`: the cell of its chart, read by the split it names or else by the hand's total. */
function chartWhy({ hint, cards, up, legal }) {
  const play = actionLabel(hint.action, legal);
  if (isInsurance(legal)) return `${legal.includes("even_money") ? "Even money" : "Insurance"} against an ace: the chart says ${play}.`;
  const { total, soft } = cardsTotal(cards);
  const row = hint.action === "split" ? cellWords("pairs", chartLabel(cards[0])) : cellWords(soft ? "soft" : "hard", total);
  return `${row} against ${upWords(up)}: the chart says ${play}.`;
}

/** The named action's lead over the next best legal action, from the hint's EVs: "0.012 of the bet above hit". */
function lead({ hint, legal }) {
  const evs = Object.entries(hint.ev || {})
    .filter(([name]) => name !== hint.action && legal.includes(name))
    .sort((a, b) => b[1] - a[1]);
  const mine = hint.ev?.[hint.action];
  if (mine === undefined || mine === null || evs.length === 0) return "";
  const [next, value] = evs[0];
  const gap = Math.round((Number(mine) - Number(value)) * 1000) / 1000;
  const name = actionLabel(next, legal).toLowerCase();
  return gap > 0 ? `, ${gap.toFixed(3)} of the bet above ${name}` : `, level with ${name} to three decimals`;
}

/** `hard`: the highest EV for the hand off a fresh shoe. */
function freshWhy(spot) {
  return `The highest EV for your hand off a fresh shoe${lead(spot)}.`;
}

/** The strategy card's play for this spot (insurance: the card declines it); null where not known. */
function cardPlay({ cards, up, legal, rules, chart }) {
  if (isInsurance(legal)) return "decline_insurance";
  const cell = chart ? chartCell(cards, up, rules, chart) : null;
  return cell ? (chart[cell.section]?.[cell.row]?.[cell.up] ?? null) : null;
}

/** `expert`: the highest EV for the cards not yet seen, and where the card plays otherwise. */
function shoeWhy(spot) {
  const { hint, legal } = spot;
  const chartPlay = cardPlay(spot);
  const differs = chartPlay && chartPlay !== hint.action && legal.includes(chartPlay);
  const card = differs ? `; the chart says ${actionLabel(chartPlay, legal)}` : "";
  return `The highest EV for the cards not yet seen${lead(spot)}${card}.`;
}

/** `counter`: the index play that changed the card's action, or why the card's action stands. */
function counterWhy(spot) {
  const { hint, legal, indices } = spot;
  const t = hint.count?.true;
  if (hint.index) {
    const ix = hint.index;
    const of = ix.section === "insurance" ? "the insurance index" : `the index of ${indexRowWords(ix.section, ix.row)} against ${upWords(ix.up)}`;
    return `${capital(against(ix, t))}, ${of}.`;
  }
  if (isInsurance(legal)) {
    const ix = (indices || []).find((x) => x.section === "insurance");
    if (ix) return `The chart declines insurance: take it only at ${onlyAt(ix)}, and the true count is ${trueWords(t)}.`;
    return indices ? "This table has no insurance index: the chart declines it." : `No index applies at true count ${trueWords(t)}: the chart declines it.`;
  }
  const cell = chartCell(spot.cards, spot.up, spot.rules, spot.chart);
  if (!cell) return `The chart's play: no index applies at true count ${trueWords(t)}.`;
  const name = `${indexRowWords(cell.section, cell.row)} against ${upWords(cell.up)}`;
  const own = (indices || []).filter((x) => x.section === cell.section && x.row === cell.row && x.up === cell.up);
  const reached = own.find((x) => indexApplies(x, t));
  // Where the play so named is not legal (a double after the first card drawn), the counter plays as medium.
  if (reached)
    return `${capital(against(reached, t))}, the index of ${name}, but ${actionLabel(reached.play, legal).toLowerCase()} is not allowed now: the chart's play.`;
  const chartPlay = spot.chart?.[cell.section]?.[cell.row]?.[cell.up];
  if (chartPlay && chartPlay !== hint.action) return `The chart's ${actionLabel(chartPlay, legal).toLowerCase()} for ${name} is not allowed now.`;
  if (own.length === 0)
    return indices ? `The chart's play for ${name}, which has no index.` : `The chart's play for ${name}: no index applies at true count ${trueWords(t)}.`;
  const nearest = own.reduce((a, b) => (Math.abs(a.index - t) <= Math.abs(b.index - t) ? a : b));
  // What would change the play, not the count against the index: "is above −6, its index
  // to hit" read as if the index applied.
  return `The chart's play for ${name}: ${actionLabel(nearest.play, legal).toLowerCase()} only at ${onlyAt(nearest)}, and the true count is ${trueWords(t)}.`;
}
