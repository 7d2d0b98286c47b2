// The checkout at the table, its pure parts (tested with node): when the table asks the
// running count, the true count and the bet between rounds, the answers read and graded
// against the service's figures (GET /v1/tables/{id}/edge: `count` and `bet`), why each
// right answer is right, and the figures over the answers kept. The panel that asks is
// checkoutpanel.js; the answers are kept in the browser, per account (see web/README.md).
import { formatCoins, formatEdgePercent, formatPercent } from "./format.js";
import { DECK, formatCount, runningCount } from "./hilo.js";
import { formatNumber, t } from "./i18n.js";
import { parseBankroll } from "./indexplays.js";
import { DEFAULT_BET_TOLERANCE, remember, remembered } from "./settings.js";

/** About one round in eight asks, never two rounds in a row. */
export const CHECKOUT_RATE = 1 / 8;
/** The true count is right within half a point of the service's; the running count exactly. */
export const TRUE_TOLERANCE = 0.5;
/** The answers kept per account: the newest this many. */
export const KEPT = 1000;
/** The questions, in the order the panel asks them, each labelled in the language spoken when it shows. */
export const QUESTIONS = ["running", "true", "bet"].map((name) => ({
  name,
  get label() {
    return t(`checkout.question.${name}`);
  },
}));

/**
 * Whether the table asks now, between rounds: `draw` is a random number in [0, 1),
 * `roundsSince` the rounds settled since the last checkout (this one included; null when
 * none was asked), `count` the service's count before the next round. Never at a shoe just
 * shuffled (no card seen: its count is 0 by itself, as at a table that shuffles every round).
 */
export function shouldAsk({ draw, roundsSince, count }) {
  if (!count || !(count.cards_seen > 0)) return false;
  if (roundsSince !== null && roundsSince < 2) return false;
  return draw < CHECKOUT_RATE;
}

/** A count as a player types it: "+3", "-3", "−3", "3", a true count "2.5" or "-1,25"; else null. */
function parseSigned(text, decimals) {
  const s = String(text ?? "")
    .trim()
    .replace(/^[−–]/, "-")
    .replace(",", ".");
  const pattern = decimals ? /^[+-]?(\d+(\.\d{0,2})?|\.\d{1,2})$/ : /^[+-]?\d+$/;
  if (!pattern.test(s)) return null;
  const value = Number(s);
  return Object.is(value, -0) ? 0 : value;
}
/** The running count typed: a whole number with its sign, else null. */
export const parseRunning = (text) => parseSigned(text, false);
/** The true count typed: a number with up to two decimals, else null. */
export const parseTrue = (text) => parseSigned(text, true);
/** The bet typed: whole coins (thousands separators allowed), else null. */
export const parseBet = (text) => parseBankroll(text);

/** Why an answer cannot be read, in words (null when it reads). */
export function answerError(name, text) {
  if (String(text ?? "").trim() === "") return t("checkout.typeAnswer");
  const read = { running: parseRunning, true: parseTrue, bet: parseBet }[name](text);
  if (read !== null) return null;
  return t(`checkout.unread.${name}`);
}

/** The bets within `tolerance` percent of `advised`, as [lowest, highest] whole coins. */
export function betRange(advised, tolerance) {
  const a = Number(advised);
  const slack = (a * tolerance) / 100;
  return [Math.ceil(a - slack - 1e-9), Math.floor(a + slack + 1e-9)];
}

/**
 * Each answer graded against the service's figures: `truth` is GET …/edge's answer (`count`,
 * `edge`, `bet`) with the balance it was asked at, the table's `variance` (null when unknown)
 * and the settled round's face-up cards (`roundCards`, to say what that round did to the
 * count; null when unknown). Each grade is
 * {right, given, expected, why}.
 */
export function gradeCheckout(answers, truth, tolerance = DEFAULT_BET_TOLERANCE) {
  const { count } = truth;
  const running = parseRunning(answers.running);
  const trueGiven = parseTrue(answers.true);
  const bet = parseBet(answers.bet);
  const advised = Number(truth.bet.advised);
  const [low, high] = betRange(advised, tolerance);
  return {
    running: { right: running === count.running, given: running, expected: count.running, why: runningWhy(count, truth.roundCards) },
    true: {
      right: trueGiven !== null && Math.abs(trueGiven - count.true) <= TRUE_TOLERANCE + 1e-9,
      given: trueGiven,
      expected: count.true,
      why: trueWhy(count),
    },
    bet: { right: bet !== null && bet >= low && bet <= high, given: bet, expected: advised, why: betWhy(truth, tolerance) },
  };
}

/** "+4 before the last round, whose 9 cards counted +3 (Hi-Lo: …)"; the shoe's first round is all there is. */
export function runningWhy(count, cards) {
  const tags = t("checkout.hiLoTags");
  if (!cards?.length) return t("checkout.whySinceShuffle", { count: count.cards_seen, tags });
  const last = runningCount(cards);
  const before = count.running - last;
  if (count.cards_seen === cards.length) return t("checkout.whyFirstRound", { count: cards.length, last: formatCount(last), tags });
  return t("checkout.whyLastRound", { before: formatCount(before), count: cards.length, last: formatCount(last), tags });
}

/** "Running +7 ÷ 2.87 decks left (149 cards): right within ±0.5." */
export function trueWhy(count) {
  const decks = count.cards_unseen / DECK;
  return t("checkout.whyTrue", {
    running: formatCount(count.running),
    decks: formatNumber(decks, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
    count: count.cards_unseen,
    deck: DECK,
    tolerance: TRUE_TOLERANCE,
  });
}

/** Why the advised bet is the bet (Kelly's, or the table's limit), and the range graded right. */
export function betWhy(truth, tolerance) {
  const kelly = Number(truth.bet.kelly);
  const advised = Number(truth.bet.advised);
  const edge = formatEdgePercent(truth.edge);
  const [low, high] = betRange(advised, tolerance);
  const range =
    low === high
      ? t("checkout.rightAt", { bet: formatCoins(low) })
      : t("checkout.rightFromTo", { low: formatCoins(low), high: formatCoins(high), tolerance: formatPercent(tolerance / 100) });
  const variance = truth.variance
    ? t("checkout.variance", { variance: formatNumber(truth.variance, { minimumFractionDigits: 4, maximumFractionDigits: 4 }) })
    : t("checkout.gamesVariance");
  const kellyOf = t("checkout.kellyOf", { balance: formatCoins(truth.balance), edge, variance });
  const kellyBet = formatCoins(kelly);
  let why;
  if (kelly <= 0) why = t("checkout.whyHouseEdge", { edge });
  else if (kelly < advised) why = t("checkout.whyBelowMinimum", { kellyOf, kelly: kellyBet });
  else if (kelly > advised) why = t("checkout.whyAboveMaximum", { kellyOf, kelly: kellyBet });
  else why = t("checkout.whyKelly", { kellyOf });
  return t("checkout.whyBet", { why, range });
}

/** An answer as shown beside the right one: a count with its sign, a bet in coins; "—" unread. */
export function answerText(name, value) {
  if (value === null || value === undefined) return "—";
  if (name === "bet") return formatCoins(value);
  return formatCount(value, name === "true" ? 2 : 0);
}

/** What one checkout leaves in the record: when, where, and which answers were right. */
export function recordOf(graded, table, at) {
  return { at, table, running: graded.running.right, true: graded.true.right, bet: graded.bet.right };
}

/** The figures over the kept answers (at one table, or all when `table` is empty): each question's right and asked. */
export function checkoutFigures(records, table = "") {
  const kept = (records || []).filter((r) => !table || r.table === table);
  const figures = { checkouts: kept.length, allRight: kept.filter((r) => r.running && r.true && r.bet).length };
  for (const { name } of QUESTIONS) figures[name] = { asked: kept.length, right: kept.filter((r) => r[name]).length };
  return figures;
}

// ---- the answers kept, per account ---------------------------------------------------
// In localStorage: a checkout is the browser's own exercise, graded against figures the API
// already gives, so the API need not keep it (API.md is unchanged). Each account its own key.

const recordsKey = (login) => `blackjack.checkout_answers.${String(login).toLowerCase()}`;

/** The answers kept for `login`, oldest first ([] when none, or unreadable). */
export function checkoutRecords(login) {
  try {
    const saved = JSON.parse(remembered(recordsKey(login)) || "[]");
    return Array.isArray(saved) ? saved.filter((r) => r && typeof r === "object") : [];
  } catch {
    return [];
  }
}

/** Keeps one checkout's record for `login` (the newest KEPT). */
export function keepCheckout(login, record) {
  remember(recordsKey(login), JSON.stringify([...checkoutRecords(login), record].slice(-KEPT)));
}
