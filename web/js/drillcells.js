// The Drills page's cells, pure (tested with node): a cell's key, its square on the heat map
// (state, sign, words), the accuracy per section, the progress after an answer, the keys, a
// drill's question and verdict, the hands dealt here for a square or a miss, the misses.
import {
  ACTION_BY_KEY,
  ACTIONS,
  actionLabel,
  betterPlay,
  CHART_LETTER,
  chartRowLabel,
  chartRowOfHand,
  decisionHandLabel,
  isMistake,
  parseCard,
} from "./format.js";
import { formatList, locale, t } from "./i18n.js";
import { indexWords, signedCount, upWord } from "./indexplays.js";
import { savedObject } from "./settings.js";
import { accuracy, KINDS } from "./stats.js";

/** The sections a drill is dealt from; `short` ones have a shorter name a phone shows. */
export const SECTIONS = [{ name: "any" }, { name: "hard" }, { name: "soft" }, { name: "pairs" }, { name: "indices", short: true }];
/** A section's name: "All", "Hard", "Index plays"; `short`: what a phone shows of it ("Index"). */
export const sectionLabel = (name, short = false) => (short ? t(`drills.sectionShort.${name}`) : t(`drills.section.${name}`));
/** The chart's sections, as the Trainer names them. */
export const CHART_SECTIONS = KINDS.filter((k) => k.name !== "insurance");
/** The first decisions a drill offers: the chart's actions, with the table's keys. */
export const DRILL_ACTIONS = ACTIONS.filter((a) => a.name in CHART_LETTER);
/** An insurance index drill's answers (API.md: `insurance`, `decline_insurance`). */
const INSURANCE_ACTIONS = ACTIONS.filter((a) => a.name === "insurance" || a.name === "decline_insurance");
/** The buttons a drill's hand offers, in the table's order, each with its label in the language spoken now. */
export const offeredActions = (legal) =>
  [...DRILL_ACTIONS, ...INSURANCE_ACTIONS].filter((a) => legal.includes(a.name)).map((a) => ({ ...a, label: actionLabel(a.name) }));
const TOP_BOX = 4;
/** How far from its index an index drill's true count is drawn, and the counts drilled (API.md "Drills"). */
const INDEX_NEAR = 3;
const TRUE_COUNT_RANGE = [-10, 10];
const SUITS = ["S", "H", "D", "C"];
const TEN_RANKS = ["T", "J", "Q", "K"];

/** A chart cell's key: "hard:12:6"; an index cell's adds its direction: "indices:hard 16:T:at_or_above". */
export const cellKey = (cell) => `${cell.section}:${cell.row}:${cell.up}${cell.direction ? `:${cell.direction}` : ""}`;

/** An index cell's own chart section and row: "hard 16" → {section: "hard", row: "16"}; insurance's is {section: "insurance"}. */
export function indexPlace(cell) {
  const [section, row] = String(cell.row).split(" ");
  return { section, row: row ?? section };
}

/** The index cell of an index play (GET …/indices), as the drills name it. */
export const indexCell = (ix) => ({
  section: "indices",
  row: ix.section === "insurance" ? "insurance" : `${ix.section} ${ix.row}`,
  up: ix.up,
  direction: ix.direction,
});

/** How the heat map shows a cell: never answered, missed (answered, back in box 0), learning (boxes 1–3) or known (box 4). */
export function heatState(cell) {
  if (!cell?.attempts) return "never";
  if (cell.box >= TOP_BOX) return "known";
  return cell.box > 0 ? "learning" : "missed";
}

/** Each state's sign (the legend's words are the catalog's `drills.heat.<state>`). */
export const HEAT = { never: "", missed: "✗", learning: "1–3", known: "✓" };
/** A state in the legend's words: "Missed: asked again soon". */
export const heatLabel = (state) => t(`drills.heat.${state}`);

/** The sign in a cell's square, so the colour is never the only signal: ✗, the box (1–3), ✓, or nothing. */
export function heatMark(cell) {
  const state = heatState(cell);
  return state === "learning" ? String(cell.box) : HEAT[state];
}

/** A cell in words: "Hard 12 against 6". */
export function cellWords(cell) {
  if (cell.section === "indices") {
    const { section, row } = indexPlace(cell);
    if (section === "insurance") return t("drills.cell.insurance");
    return t("drills.cell.index", { hand: chartRowLabel(section, row), up: upWord(cell.up) });
  }
  return t("drills.cell.chart", { hand: chartRowLabel(cell.section, cell.row), up: upWord(cell.up) });
}

/**
 * A cell's square in words, for screen readers and the tooltip: "Hard 12 against 6: missed,
 * 0 of 1 right." A cell's box is how many times in a row it was answered right (at most 4).
 */
export function heatWords(cell, where = cell) {
  return t("drills.square", { cell: cellWords(where), record: recordWords(cell) });
}

/** A cell's record in words: "missed, 0 of 1 right", "learning (2 in a row), 2 of 3 right". */
export function recordWords(cell) {
  const state = heatState(cell);
  if (state === "never") return t("drills.record.never");
  return t(`drills.record.${state}`, { count: cell.box, correct: cell.correct, attempts: cell.attempts });
}

/** The heat map's short row labels: "12", "A,6", "8,8" (the section is the table's caption). */
export function heatRowLabel(section, row) {
  if (section === "hard") return row;
  if (section === "soft") return `A,${Number(row) - 11}`;
  return chartRowLabel(section, row);
}

/**
 * Answers per section and overall: attempts, right answers, accuracy (null without answers)
 * and how many cells are known; `cells` is how many the chart has in the section.
 */
export function sectionAccuracy(answered, chart, indices = []) {
  const names = CHART_SECTIONS.map((s) => s.name);
  if (indices?.length) names.push("indices");
  const rows = names.map((name) => {
    const label = sectionLabel(name);
    const mine = answered.filter((c) => c.section === name);
    const attempts = mine.reduce((n, c) => n + c.attempts, 0);
    const correct = mine.reduce((n, c) => n + c.correct, 0);
    const known = mine.filter((c) => heatState(c) === "known").length;
    const cells = name === "indices" ? indices.length : Object.values(chart?.[name] || {}).reduce((n, ups) => n + Object.keys(ups).length, 0);
    return { name, label, attempts, correct, known, cells, accuracy: accuracy(attempts, attempts - correct) };
  });
  const total = (field) => rows.reduce((n, r) => n + r[field], 0);
  const attempts = total("attempts");
  const correct = total("correct");
  rows.push({
    name: "all",
    label: sectionLabel("any"),
    attempts,
    correct,
    known: total("known"),
    cells: total("cells"),
    accuracy: accuracy(attempts, attempts - correct),
  });
  return rows;
}

/** The progress once an answer came back: its `cell` replaces the one it had, and the totals follow. */
export function withAnswer(progress, cell) {
  const before = progress.cells.find((c) => cellKey(c) === cellKey(cell));
  return {
    ...progress,
    attempts: progress.attempts + cell.attempts - (before?.attempts ?? 0),
    correct: progress.correct + cell.correct - (before?.correct ?? 0),
    cells: before ? progress.cells.map((c) => (c === before ? cell : c)) : [...progress.cells, cell],
  };
}

/** What a key does: an action while the drill waits for one (the table's keys), "next" once it is answered, else null. */
export function drillKey(key, { legal, answered }) {
  const k = String(key).toLowerCase();
  if (answered) return k === "n" ? "next" : null;
  const name = ACTION_BY_KEY[k];
  return name && offeredActions([name]).length && legal.includes(name) ? name : null;
}

/**
 * Why a key did nothing, in words, or null: an action's key the drill's hand does not allow
 * ("Split is not offered on this hand: hit, stand or double.", insurance's and even money's
 * keys on a chart drill too), N before the hand is answered, or a decision's key once it is.
 */
export function drillKeyNote(key, { legal, answered }) {
  const name = ACTION_BY_KEY[String(key).toLowerCase()];
  if (!name) return null;
  if (answered) return t("drills.key.answered");
  if (legal.includes(name)) return null;
  const actions = orList(offeredActions(legal).map((a) => a.label.toLocaleLowerCase(locale())));
  // N is "no insurance" only where insurance is asked; elsewhere it is the next hand's key
  if (name === "decline_insurance") return t("drills.key.answerFirst", { actions });
  return t("drills.key.notOffered", { action: actionLabel(name), actions });
}

/**
 * "hit, stand or double", as the language writes a choice; English as the client writes it
 * everywhere, without a comma before "or" (the en-GB style: en-US would add one).
 */
const orList = (items) => (locale() === "en-US" ? new Intl.ListFormat("en-GB", { type: "disjunction" }).format(items) : formatList(items, "disjunction"));

/** The table and section to drill: the remembered ones while they still exist, else the first table and all hands. */
export function parseChoice(raw, tableIds) {
  const saved = savedObject(raw);
  return {
    table: tableIds.includes(saved.table) ? saved.table : tableIds[0],
    section: SECTIONS.some((s) => s.name === saved.section) ? saved.section : "any",
  };
}

/** A drill's hand in words, as the Trainer says it: "hard 12", "soft 17", "pair of 8s". */
export function drillHandWords(drill) {
  const kind = drill.cell.section === "indices" ? indexPlace(drill.cell).section : drill.cell.section;
  return decisionHandLabel({ kind, cards: drill.cards });
}

/** An index drill's true count in words: "True count +3". */
export const trueCountWords = (count) => t("drills.trueCount", { trueCount: signedCount(count) });

/**
 * A drill in words: "Your hard 12 against a 6: what do you play?"; an index drill's says
 * the count first: "True count +3. Your hard 16 against a 10: what do you play?", and
 * insurance's "True count +3. Your hard 12 against an ace: insurance?"
 */
export function drillQuestion(drill) {
  const up = drill.cell.up;
  const upName = up === "A" ? t("drills.up.ace") : up === "8" ? t("drills.up.eight") : t("drills.up.card", { up: upWord(up) });
  const asked = drill.legal_actions?.includes("insurance") ? "insurance" : "play";
  const question = t(`drills.question.${asked}`, { hand: drillHandWords(drill), up: upName });
  if (typeof drill.true_count !== "number") return question;
  return t("drills.question.counted", { trueCount: trueCountWords(drill.true_count), question });
}

/** The answer's actions, best first: label, EV, and whether it is the best and the one taken. */
export function answerRows(answer) {
  return Object.entries(answer.ev || {})
    .sort((x, y) => y[1] - x[1])
    .map(([action, ev]) => ({ action, label: actionLabel(action), ev, best: action === answer.best, taken: action === answer.action }));
}

/** The verdict in words: "✓ Right: stand is the best play." or "✗ Hit was better: −0.06 of the bet." */
export function verdict(answer, trueCount = null, index = null) {
  if (trueCount !== null && trueCount !== undefined) return indexVerdict(answer, trueCount, index);
  if (!isMistake(answer)) return { right: true, text: t("drills.verdict.right", { action: lowerLabel(answer.action) }) };
  const text = betterPlay(answer);
  return { right: false, text: t("drills.verdict.wrong", { better: `${text[0].toLocaleUpperCase(locale())}${text.slice(1)}` }) };
}

/** An action's label as a sentence goes on with it: "stand". */
const lowerLabel = (action) => actionLabel(action).toLocaleLowerCase(locale());

/**
 * An index drill's verdict: right when the answer is the counter's play at that count (API.md
 * "Drills"), e.g. "✓ Right: at +3, stand. 16 v 10: stand at +2 or more (the card says hit)."
 * or "✗ At −1, hit: 16 v 10: stand at +2 or more (the card says hit)."
 */
export function indexVerdict(answer, trueCount, index) {
  const right = answer.action === answer.best;
  const values = { trueCount: signedCount(trueCount), action: lowerLabel(answer.best), rule: index ? indexWords(index) : "" };
  return { right, text: t(`drills.verdict.${right ? "indexRight" : "indexWrong"}${index ? "Rule" : ""}`, values) };
}

/** The index play (GET …/indices) an index cell drills, or null. */
export function indexOf(indices, cell) {
  if (cell?.section !== "indices") return null;
  return (indices || []).find((ix) => cellKey(indexCell(ix)) === cellKey(cell)) || null;
}

/**
 * The strategy card's two-card hands (`ev`'s keys: "2,T", "7,A", "8,8") that a chart cell
 * holds against its up card: hard 12 against 6 is "2,T", "3,9", "4,8" and "5,7".
 */
export function cellHands(ev, cell) {
  return Object.keys(ev || {}).filter((key) => {
    const place = chartRowOfHand(key);
    return place?.section === cell.section && place.row === String(cell.row) && !!ev[key]?.[cell.up];
  });
}

/**
 * A drill of one cell, dealt here, as `next` deals one (API.md "Drills": any legal two-card
 * hand with a cell may be answered): a hand of the cell against its up card, three cards of
 * three suits (so never more copies than a single deck holds, and a ten pair one rank), the
 * legal first decisions as the strategy card's `ev` lists them. An index cell adds a true
 * count within 3 of its index; insurance's hand is any hand that is not a natural, ace up.
 * Null when the card has no such hand.
 */
export function dealCell(cell, card, indices, random = Math.random) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const ev = card?.ev || {};
  let where = cell;
  let counted = {};
  if (cell.section === "indices") {
    const ix = indexOf(indices, cell);
    if (!ix) return null;
    const low = Math.max(TRUE_COUNT_RANGE[0], ix.index - INDEX_NEAR);
    const high = Math.min(TRUE_COUNT_RANGE[1], ix.index + INDEX_NEAR);
    counted = { true_count: low + Math.floor(random() * (high - low + 1)) };
    where = ix.section === "insurance" ? null : { section: ix.section, row: ix.row, up: ix.up };
  }
  const up = where ? where.up : "A";
  const hands = where ? cellHands(ev, where) : Object.keys(ev).filter((key) => chartRowOfHand(key) && ev[key].A);
  if (!hands.length) return null;
  const hand = pickDealt(hands, random);
  const suits = [...SUITS];
  for (let i = suits.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [suits[i], suits[j]] = [suits[j], suits[i]];
  }
  const ten = pick(TEN_RANKS);
  const [a, b, u] = [...hand.split(","), up].map((rank, i) => `${rank === "T" ? ten : rank}${suits[i]}`);
  const legal = where ? Object.keys(ev[hand][up]) : INSURANCE_ACTIONS.map((x) => x.name);
  return { cards: [a, b], up_card: u, legal_actions: legal, cell: { box: 0, attempts: 0, correct: 0, ...cell }, ...counted };
}

/** A deck's cards of a rank: sixteen ten-value cards, four of any other. */
const perDeck = (rank) => (rank === "T" ? 16 : 4);

/**
 * One of a cell's hands, as often as a fresh deck deals it (as `next` does): hard 12 is
 * mostly a ten and a 2. Two ranks a and b come in 2·a·b ways, a pair of a in a·(a−1).
 */
export function pickDealt(hands, random = Math.random) {
  const ways = hands.map((key) => {
    const [a, b] = key.split(",");
    return a === b ? perDeck(a) * (perDeck(a) - 1) : 2 * perDeck(a) * perDeck(b);
  });
  let at = random() * ways.reduce((n, w) => n + w, 0);
  for (let i = 0; i < hands.length; i++) {
    at -= ways[i];
    if (at < 0) return hands[i];
  }
  return hands.at(-1);
}

/** The cells marked wrong (answered, back in box 0), as the progress lists them. */
export const missedCells = (progress) => (progress?.cells || []).filter((c) => heatState(c) === "missed");

/** "Drill my misses" after an answer on the cell `key`: a right one leaves the queue, a wrong one waits at its end. */
export function afterMiss(queue, key, right) {
  const rest = queue.filter((k) => k !== key);
  return right ? rest : [...rest, key];
}

/** The shoes whose decks a sentence says in words ("six decks"); others in figures. */
const DECKS_IN_WORDS = [2, 4, 6, 8];

/**
 * Why a drill shows one card twice ("K♦ K♦"), which looks odd to a player: `next` deals as a
 * shoe of the table's decks would (API.md), and a shoe of several decks holds that many of
 * every card. Null when no card shows twice.
 */
export function sameCardWords(drill, decks) {
  const codes = [...(drill?.cards || []), drill?.up_card];
  const twice = codes.find((code, i) => code && codes.indexOf(code) !== i);
  const card = twice ? parseCard(twice) : null;
  if (!card) return null;
  const words = DECKS_IN_WORDS.includes(decks) ? t(`drills.decksWord.${decks}`) : decks;
  return t("drills.sameCard", { card: `${card.label}${card.sym}`, count: decks, decks: words });
}

/** What "Drill my misses" says over each of its hands: "Drilling your misses: 3 hands left." */
export function missesWords(left) {
  return left ? t("drills.missesLeft", { count: left }) : null;
}

/** What "Drill my misses" says when there is none: before any drill, or once all are answered right. */
export function noMissesWords(hadSome) {
  return t(hadSome ? "drills.misses.done" : "drills.misses.none");
}
