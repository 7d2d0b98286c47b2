// Pure (no DOM): why the coach names its move, in one sentence a player reads once, at
// each level of API.md's hint: `medium` reads its chart, `hard` takes the highest EV for a
// fresh shoe, `expert` the highest EV for the cards not yet seen (and says where that
// leaves the table's strategy card), `counter` the card changed by an index play at the
// true count (RULES.md, "AI levels" and "Index plays").

import { actionLabel, cardsTotal, formatFixed, formatSigned } from "./format.js";
import { t } from "./i18n.js";

/** A card's chart label: "T" for every ten-value card, "A", else its rank. */
const chartLabel = (code) => {
  const rank = String(code).slice(0, -1).toUpperCase();
  return "TJQK".includes(rank) ? "T" : rank;
};

/**
 * A dealer's up card (a card, "KH", or a chart label, "T") the way a player says it after
 * "against": "a ten", "an ace", "an 8", "a 6" (Russian and Croatian: the genitive, "десятки", "desetke").
 */
export function upWords(up) {
  return t(`coach.up.${String(up).length === 1 ? String(up).toUpperCase() : chartLabel(up)}`);
}

/** A chart cell's row as a sentence starts it: "Hard 16", "Soft 18", "A pair of 8s". */
export function cellWords(section, row) {
  if (section === "pairs") return t("coach.cell.pair", { ranks: t(`coach.ranks.${row}`) });
  return section === "soft" ? t("coach.cell.soft", { total: row }) : t("chart.hardRow", { total: row });
}

/** A chart row inside a sentence, the short way counters name an index: "16", "soft 18" (one unbroken word), "8,8". */
export function indexRowWords(section, row) {
  if (section === "hard") return String(row);
  if (section === "soft") return t("coach.softRow", { total: row });
  const r = row === "T" ? "10" : row;
  return `${r},${r}`;
}

/** A true count as the hint gives it (two decimals), with its sign: "+1.3", "0", "−0.25". */
export const trueWords = (count) => formatSigned(Math.round(Number(count) * 100) / 100);

/** A hand's row against an up card: "16 against a ten". */
const spotWords = (section, row, up) => t("coach.spot", { row: indexRowWords(section, row), up: upWords(up) });

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
export const indexApplies = (index, count) => (index.direction === "at_or_below" ? Number(count) <= index.index : Number(count) >= index.index);

/** The values of a sentence naming an index against the true count `count`: the count, the index, and, by its direction, "above" or "below". */
const indexValues = (index, count) => ({ count: trueWords(count), index: formatSigned(index.index), at: onlyAt(index) });

/** Where an index play holds: "−6 or below", "+3 or above". */
const onlyAt = (index) => t(index.direction === "at_or_below" ? "coach.orBelow" : "coach.orAbove", { index: formatSigned(index.index) });

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
  if (isInsurance(legal)) return t(legal.includes("even_money") ? "coach.chart.evenMoney" : "coach.chart.insurance", { play });
  const { total, soft } = cardsTotal(cards);
  const row = hint.action === "split" ? cellWords("pairs", chartLabel(cards[0])) : cellWords(soft ? "soft" : "hard", total);
  return t("coach.chart.says", { row, up: upWords(up), play });
}

/** The named action's lead over the next best legal action, from the hint's EVs: ", 0.012 of the bet above hit"; "" where not known. */
function lead({ hint, legal }) {
  const evs = Object.entries(hint.ev || {})
    .filter(([name]) => name !== hint.action && legal.includes(name))
    .sort((a, b) => b[1] - a[1]);
  const mine = hint.ev?.[hint.action];
  if (mine === undefined || mine === null || evs.length === 0) return "";
  const [next, value] = evs[0];
  const gap = Math.round((Number(mine) - Number(value)) * 1000) / 1000;
  const name = actionLabel(next, legal).toLowerCase();
  return gap > 0 ? t("coach.leadAbove", { gap: formatFixed(gap, 3), next: name }) : t("coach.leadLevel", { next: name });
}

/** `hard`: the highest EV for the hand off a fresh shoe. */
function freshWhy(spot) {
  return t("coach.fresh", { lead: lead(spot) });
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
  const card = differs ? t("coach.shoe.chartSays", { play: actionLabel(chartPlay, legal) }) : "";
  return t("coach.shoe", { lead: lead(spot), card });
}

/** `counter`: the index play that changed the card's action, or why the card's action stands. */
function counterWhy(spot) {
  const { hint, legal, indices } = spot;
  const count = hint.count?.true;
  const below = (index) => index.direction === "at_or_below";
  if (hint.index) {
    const ix = hint.index;
    if (ix.section === "insurance") return t(below(ix) ? "coach.counter.insuranceIndexBelow" : "coach.counter.insuranceIndexAbove", indexValues(ix, count));
    const values = { ...indexValues(ix, count), spot: spotWords(ix.section, ix.row, ix.up) };
    return t(below(ix) ? "coach.counter.indexBelow" : "coach.counter.indexAbove", values);
  }
  if (isInsurance(legal)) {
    const ix = (indices || []).find((x) => x.section === "insurance");
    if (ix) return t("coach.counter.insuranceOnlyAt", indexValues(ix, count));
    return indices ? t("coach.counter.noInsuranceIndex") : t("coach.counter.insuranceNoIndexApplies", { count: trueWords(count) });
  }
  const cell = chartCell(spot.cards, spot.up, spot.rules, spot.chart);
  if (!cell) return t("coach.counter.chartNoIndexApplies", { count: trueWords(count) });
  const where = spotWords(cell.section, cell.row, cell.up);
  const own = (indices || []).filter((x) => x.section === cell.section && x.row === cell.row && x.up === cell.up);
  const reached = own.find((x) => indexApplies(x, count));
  // Where the play so named is not legal (a double after the first card drawn), the counter plays as medium.
  if (reached) {
    const values = { ...indexValues(reached, count), spot: where, play: actionLabel(reached.play, legal).toLowerCase() };
    return t(below(reached) ? "coach.counter.notAllowedBelow" : "coach.counter.notAllowedAbove", values);
  }
  const chartPlay = spot.chart?.[cell.section]?.[cell.row]?.[cell.up];
  if (chartPlay && chartPlay !== hint.action) return t("coach.counter.chartNotAllowed", { spot: where, play: actionLabel(chartPlay, legal).toLowerCase() });
  if (own.length === 0)
    return indices ? t("coach.counter.noIndex", { spot: where }) : t("coach.counter.spotNoIndexApplies", { spot: where, count: trueWords(count) });
  const nearest = own.reduce((a, b) => (Math.abs(a.index - count) <= Math.abs(b.index - count) ? a : b));
  // What would change the play, not the count against the index: "is above −6, its index
  // to hit" read as if the index applied.
  return t("coach.counter.onlyAt", { ...indexValues(nearest, count), spot: where, play: actionLabel(nearest.play, legal).toLowerCase() });
}
