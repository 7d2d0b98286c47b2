// The Drills page (API.md "Drills"): one first decision at a time off the user's schedule,
// graded at once with the EV of every action, and a heat map of the table's chart coloured
// by each cell's Leitner box. The chart's rows come from the public strategy card; the
// boxes from GET …/drills, then from each answer's `cell`. The figures and the keys are
// pure functions (tested with node).
import { api, loadTables } from "./api.js";
import { card, clear, h } from "./dom.js";
import {
  ACTION_BY_KEY,
  ACTION_LABEL,
  ACTIONS,
  betterPlay,
  CHART_LETTER,
  chartRowKeys,
  chartRowLabel,
  chartRowOfHand,
  decisionHandLabel,
  formatAccuracy,
  formatEv,
  isMistake,
  UP_CARDS,
} from "./format.js";
import { indexWords, signedCount } from "./indices.js";
import { remember, remembered, savedObject } from "./settings.js";
import { accuracy, KINDS } from "./stats.js";
import { errorText, lockControls, reportError } from "./ui.js";

const CHOICE_KEY = "blackjack.drills";
export const SECTIONS = [
  { name: "any", label: "All" },
  { name: "hard", label: "Hard" },
  { name: "soft", label: "Soft" },
  { name: "pairs", label: "Pairs" },
  { name: "indices", label: "Index plays", short: "Index" },
];
/** The chart's sections, as the Trainer names them. */
const CHART_SECTIONS = KINDS.filter((k) => k.name !== "insurance");
/** The first decisions a drill offers: the chart's actions, with the table's keys. */
export const DRILL_ACTIONS = ACTIONS.filter((a) => a.name in CHART_LETTER);
/** An insurance index drill's answers (API.md: `insurance`, `decline_insurance`). */
const INSURANCE_ACTIONS = ACTIONS.filter((a) => a.name === "insurance" || a.name === "decline_insurance");
/** The buttons a drill's hand offers, in the table's order. */
export const offeredActions = (legal) => [...DRILL_ACTIONS, ...INSURANCE_ACTIONS].filter((a) => legal.includes(a.name));
/** The index drills' heat map, by the index's own chart section. */
const INDEX_SECTIONS = [
  { name: "hard", label: "Hard index plays" },
  { name: "soft", label: "Soft index plays" },
  { name: "pairs", label: "Pair index plays" },
  { name: "insurance", label: "Insurance" },
];
const TOP_BOX = 4;
/** A section's hands in a sentence: "then soft hands from your schedule". */
const SECTION_WORDS = { hard: "hard hands", soft: "soft hands", pairs: "pairs", indices: "index plays" };
/** How far from its index an index drill's true count is drawn, and the counts drilled (API.md "Drills"). */
const INDEX_NEAR = 3;
const TRUE_COUNT_RANGE = [-10, 10];
const SUITS = ["S", "H", "D", "C"];
const TEN_RANKS = ["T", "J", "Q", "K"];

// ---------------------------------------------------------------- pure parts

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

export const HEAT = {
  never: { label: "Not asked yet", mark: "" },
  missed: { label: "Missed: asked again soon", mark: "✗" },
  learning: { label: "Learning: right 1 to 3 times in a row", mark: "1–3" },
  known: { label: "Known: right 4 times in a row", mark: "✓" },
};

/** The sign in a cell's square, so the colour is never the only signal: ✗, the box (1–3), ✓, or nothing. */
export function heatMark(cell) {
  const state = heatState(cell);
  return state === "learning" ? String(cell.box) : HEAT[state].mark;
}

/** A cell in words: "Hard 12 against 6". */
export function cellWords(cell) {
  if (cell.section === "indices") {
    const { section, row } = indexPlace(cell);
    if (section === "insurance") return "Insurance index";
    return `${chartRowLabel(section, row)} against ${cell.up === "T" ? "10" : cell.up}, index play`;
  }
  return `${chartRowLabel(cell.section, cell.row)} against ${cell.up === "T" ? "10" : cell.up}`;
}

/**
 * A cell's square in words, for screen readers and the tooltip: "Hard 12 against 6: missed,
 * 0 of 1 right." A cell's box is how many times in a row it was answered right (at most 4).
 */
export function heatWords(cell, where = cell) {
  const state = heatState(cell);
  if (state === "never") return `${cellWords(where)}: not asked yet.`;
  const streak = state === "learning" ? ` (${cell.box} in a row)` : "";
  return `${cellWords(where)}: ${state}${streak}, ${cell.correct} of ${cell.attempts} right.`;
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
    const label = SECTIONS.find((s) => s.name === name).label;
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
    label: SECTIONS[0].label,
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
  if (answered) return "This hand is answered: N deals the next one.";
  if (legal.includes(name)) return null;
  const offered = offeredActions(legal).map((a) => a.label.toLowerCase());
  const list = offered.length > 1 ? `${offered.slice(0, -1).join(", ")} or ${offered.at(-1)}` : offered.join("");
  // N is "no insurance" only where insurance is asked; elsewhere it is the next hand's key
  if (name === "decline_insurance") return `Answer this hand first (N then deals the next one): ${list}.`;
  return `${ACTION_LABEL[name]} is not offered on this hand: ${list}.`;
}

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
export const trueCountWords = (t) => `True count ${signedCount(t)}`;

/**
 * A drill in words: "Your hard 12 against a 6: what do you play?"; an index drill's says
 * the count first: "True count +3. Your hard 16 against a 10: what do you play?", and
 * insurance's "True count +3. Your hard 12 against an ace: insurance?"
 */
export function drillQuestion(drill) {
  const up = drill.cell.up;
  const upName = up === "A" ? "an ace" : up === "8" ? "an 8" : `a ${up === "T" ? "10" : up}`;
  const counted = typeof drill.true_count === "number" ? `${trueCountWords(drill.true_count)}. ` : "";
  const insurance = drill.legal_actions?.includes("insurance");
  return `${counted}Your ${drillHandWords(drill)} against ${upName}: ${insurance ? "insurance?" : "what do you play?"}`;
}

/** The answer's actions, best first: label, EV, and whether it is the best and the one taken. */
export function answerRows(answer) {
  return Object.entries(answer.ev || {})
    .sort((x, y) => y[1] - x[1])
    .map(([action, ev]) => ({ action, label: ACTION_LABEL[action] || action, ev, best: action === answer.best, taken: action === answer.action }));
}

/** The verdict in words: "✓ Right: stand is the best play." or "✗ Hit was better: −0.06 of the bet." */
export function verdict(answer, trueCount = null, index = null) {
  if (trueCount !== null && trueCount !== undefined) return indexVerdict(answer, trueCount, index);
  if (!isMistake(answer)) return { right: true, text: `✓ Right: ${(ACTION_LABEL[answer.action] || answer.action).toLowerCase()} is the best play.` };
  const text = betterPlay(answer);
  return { right: false, text: `✗ ${text[0].toUpperCase()}${text.slice(1)}.` };
}

/**
 * An index drill's verdict: right when the answer is the counter's play at that count (API.md
 * "Drills"), e.g. "✓ Right: at +3, stand. 16 v 10: stand at +2 or more (the card says hit)."
 * or "✗ At −1, hit: 16 v 10: stand at +2 or more (the card says hit)."
 */
export function indexVerdict(answer, trueCount, index) {
  const best = (ACTION_LABEL[answer.best] || answer.best).toLowerCase();
  const rule = index ? ` ${indexWords(index)}.` : "";
  const at = signedCount(trueCount);
  if (answer.action === answer.best) return { right: true, text: `✓ Right: at ${at}, ${best}.${rule}` };
  return { right: false, text: `✗ At ${at}, ${best}.${rule}` };
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

/** A count of hands in words: "1 hand", "3 hands". */
const hands = (n) => `${n} hand${n === 1 ? "" : "s"}`;

/** What "Drill my misses" says over each of its hands: "Drilling your misses: 3 hands left." */
export function missesWords(left) {
  return left ? `Drilling your misses: ${hands(left)} left.` : null;
}

/** What "Drill my misses" says when there is none: before any drill, or once all are answered right. */
export function noMissesWords(hadSome) {
  return hadSome
    ? "No misses left: you answered each one right. Back to your schedule."
    : "No misses to drill: no hand you answered here is marked wrong. Your schedule goes on.";
}

// ---------------------------------------------------------------- the page

let S = null; // the page on screen
let keyHandler = null;

export async function showDrills(main, isCurrent) {
  if (keyHandler) document.removeEventListener("keydown", keyHandler);
  clear(main).appendChild(h("p", { class: "loading" }, "Loading the drills…"));
  let tables;
  try {
    tables = await loadTables();
  } catch (e) {
    if (isCurrent()) clear(main).appendChild(h("p", { class: "panel", testid: "drills-error" }, `The tables are not available: ${errorText(e)}`));
    return;
  }
  if (!isCurrent()) return;
  const choice = parseChoice(
    remembered(CHOICE_KEY),
    tables.map((t) => t.id),
  );
  S = {
    main,
    tables,
    isCurrent,
    ...choice,
    tableGen: 0,
    drillGen: 0,
    drill: null,
    answer: null,
    progress: null,
    chart: null,
    card: null,
    indices: null,
    problem: null,
    busy: false,
    misses: null, // "Drill my misses": the missed cells' keys still to drill, or null
    note: null, // over the drill: the square picked, the misses left, or that there are none
  };
  S.drillBox = h("section", { class: "panel drill", testid: "drill", "aria-labelledby": "drill-title" });
  S.statsBox = h("section", { class: "panel drill-stats", testid: "drill-stats", "aria-labelledby": "drill-stats-title" });
  S.heatBox = h("section", { class: "panel heat", testid: "heatmap", "aria-labelledby": "heat-title" });
  clear(main).appendChild(
    h(
      "div",
      { class: "drills", testid: "drills" },
      h("div", { class: "drills-head" }, h("h1", {}, "Drills"), choiceForm()),
      h("div", { class: "drills-grid" }, h("div", { class: "drills-side" }, S.drillBox, S.statsBox), S.heatBox),
    ),
  );
  const handler = (ev) => onKey(ev, isCurrent, handler);
  keyHandler = handler;
  document.addEventListener("keydown", handler);
  loadTable();
}

function choiceForm() {
  const tableSelect = h(
    "select",
    { id: "drills-table", testid: "drills-table", onchange: (e) => choose({ table: e.target.value }) },
    S.tables.map((t) => h("option", { value: t.id, selected: t.id === S.table ? true : null }, t.name || t.id)),
  );
  return h(
    "form",
    { class: "drills-choice", onsubmit: (e) => e.preventDefault() },
    h("label", { class: "inline-field", for: "drills-table" }, "Table", tableSelect),
    h(
      "fieldset",
      { class: "segmented" },
      h("legend", {}, "Hands"),
      SECTIONS.map((s) =>
        h(
          "label",
          {},
          h("input", {
            type: "radio",
            name: "drills-section",
            value: s.name,
            testid: `drills-section-${s.name}`,
            checked: s.name === S.section,
            onchange: () => choose({ section: s.name }),
          }),
          h("span", {}, s.short ? [s.short, h("span", { class: "seg-more" }, s.label.slice(s.short.length).replace(" ", "\u00a0"))] : s.label),
        ),
      ),
    ),
  );
}

function choose(change) {
  Object.assign(S, change);
  remember(CHOICE_KEY, JSON.stringify({ table: S.table, section: S.section }));
  S.misses = null;
  S.note = null;
  if (change.table) loadTable();
  else nextDrill(false);
}

/** The section the drills go on in, checked in the form and remembered, without a new drill. */
function setSection(section) {
  S.section = section;
  remember(CHOICE_KEY, JSON.stringify({ table: S.table, section }));
  const radio = S.main.querySelector(`[data-testid='drills-section-${section}']`);
  if (radio) radio.checked = true;
}

/**
 * A square picked: its hand dealt now, its record over it, and the drills go on in its
 * section (the index plays' for an index square) off the schedule.
 */
function drillSquare(where) {
  if (S.busy) return; // an answer in flight counts first
  const cell = S.progress?.cells.find((c) => cellKey(c) === cellKey(where)) || where;
  const section = where.section === "indices" ? "indices" : where.section;
  S.misses = null;
  setSection(section);
  S.note = { testid: "drill-pick", text: `${heatWords(cell, where)} Here it is, then ${SECTION_WORDS[section]} from your schedule.` };
  dealHere(where);
}

/** "Drill my misses": the cells marked wrong, one after another, until each is answered right. */
function drillMisses() {
  const queue = missedCells(S.progress).map(cellKey);
  if (!queue.length) {
    S.misses = null;
    const note = { testid: "drill-misses-none", text: noMissesWords(false) };
    if (S.drill && !S.answer) {
      S.note = note; // the hand asked stays: nothing to drill instead
      renderDrill();
      focusDrill();
      announce(note.text);
    } else nextDrill(true, note);
    return;
  }
  S.misses = queue;
  nextDrill(true);
}

/** The hand of one cell, dealt here (`dealCell`), asked as a drill of the schedule is. */
function dealHere(where) {
  const drill = dealCell(where, S.card, S.indices);
  if (!drill) {
    // not on the card (it never should be): the schedule deals instead, and no miss waits on it
    if (S.misses) S.misses = S.misses.filter((k) => k !== cellKey(where));
    nextDrill(true);
    return;
  }
  ++S.drillGen;
  const known = S.progress?.cells.find((c) => cellKey(c) === cellKey(where));
  S.drill = { table: S.table, ...drill, cell: known || drill.cell };
  S.answer = null;
  renderDrill();
  renderHeat();
  focusDrill();
  announce(S.note ? `${S.note.text} ${drillQuestion(S.drill)}` : drillQuestion(S.drill));
}

/** The drill in view, and its first decision (or Next) focused. */
function focusDrill() {
  S.drillBox.scrollIntoView({ block: "nearest" });
  S.drillBox.querySelector("[data-testid^='drill-action-'], [data-testid='drill-next']")?.focus({ preventScroll: true });
}

/** The table's chart, the user's boxes there and a first drill, each shown as it comes. */
function loadTable() {
  const gen = ++S.tableGen;
  const table = S.table;
  const fresh = () => S?.isCurrent() && S.tableGen === gen;
  S.chart = null;
  S.card = null;
  S.indices = null;
  S.progress = null;
  S.problem = null;
  renderHeat();
  api.strategy(table).then(
    (card) => {
      if (!fresh()) return;
      S.chart = card.chart;
      S.card = card;
      renderHeat();
    },
    (e) => {
      if (!fresh()) return;
      S.problem = `The table's chart could not be loaded: ${errorText(e)}`;
      renderHeat();
    },
  );
  api.indices(table).then(
    (data) => {
      if (!fresh()) return;
      S.indices = data.indices || [];
      renderHeat();
      if (S.answer && typeof S.drill?.true_count === "number") {
        renderDrill(); // the verdict names the index
        S.drillBox.querySelector("[data-testid='drill-next']")?.focus();
      }
    },
    () => {
      if (!fresh()) return;
      S.indices = []; // the chart's heat map still shows
      renderHeat();
    },
  );
  api.drills(table).then(
    (progress) => {
      if (!fresh()) return;
      S.progress = progress;
      renderHeat();
    },
    (e) => {
      if (!fresh()) return;
      S.problem = `Your progress could not be loaded: ${errorText(e)}`;
      renderHeat();
      reportError(e);
    },
  );
  nextDrill(false);
}

/** The next hand: the next miss while drilling them, else the schedule's within the section. */
async function nextDrill(focus, note = null) {
  S.note = note;
  if (S.misses) {
    const next = S.progress?.cells.find((c) => cellKey(c) === S.misses[0]);
    if (next) {
      S.note = { testid: "drill-misses-left", text: missesWords(S.misses.length), stop: true };
      dealHere(next);
      return;
    }
    S.misses = null;
    S.note = { testid: "drill-misses-none", text: noMissesWords(true) };
  }
  const gen = ++S.drillGen;
  S.drill = null;
  S.answer = null;
  renderDrill("Dealing a hand…");
  let drill;
  try {
    drill = await api.drillNext(S.table, S.section);
  } catch (e) {
    if (S?.isCurrent() && S.drillGen === gen) renderDrill(`No drill could be dealt: ${errorText(e)}`);
    return;
  }
  if (!S?.isCurrent() || S.drillGen !== gen) return;
  S.drill = drill;
  renderDrill();
  renderHeat();
  if (!focus) return;
  S.drillBox.querySelector("[data-testid^='drill-action-']")?.focus();
  announce(S.note ? `${S.note.text} ${drillQuestion(drill)}` : drillQuestion(drill));
}

async function answer(action) {
  const d = S.drill;
  if (!d || S.answer || S.busy) return;
  const gen = S.drillGen;
  S.busy = true;
  lockControls(S.drillBox, true);
  let graded;
  try {
    const counted = typeof d.true_count === "number" ? { true_count: d.true_count } : {};
    graded = await api.drillAnswer(d.table, { cards: d.cards, up_card: d.up_card, action, ...counted });
  } catch (e) {
    if (S?.isCurrent()) reportError(e);
    return;
  } finally {
    if (S) {
      S.busy = false;
      lockControls(S.drillBox, false);
    }
  }
  if (!S?.isCurrent() || S.drillGen !== gen) return;
  S.answer = graded;
  if (S.progress && graded.cell) S.progress = withAnswer(S.progress, graded.cell);
  if (S.misses) S.misses = afterMiss(S.misses, cellKey(d.cell), !isMistake(graded));
  renderDrill();
  renderHeat();
  S.drillBox.querySelector("[data-testid='drill-next']")?.focus();
  announce(drillVerdict(graded).text);
}

function onKey(ev, isCurrent, handler) {
  if (!isCurrent() || !S) {
    document.removeEventListener("keydown", handler);
    return;
  }
  if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.target?.closest?.("select, textarea, input:not([type='radio'])")) return;
  const asked = { legal: S.drill?.legal_actions || [], answered: !!S.answer };
  const what = drillKey(ev.key, asked);
  if (!what && S.drill && !S.busy) {
    const note = drillKeyNote(ev.key, asked);
    if (note) showKeyNote(note);
  }
  if (!what || S.busy) return;
  ev.preventDefault();
  if (what === "next") nextDrill(true);
  else answer(what);
}

// ---------------------------------------------------------------- the drill

/** Under the drill's question (or its answer), said by the live region too. */
function showKeyNote(text) {
  S.drillBox.querySelector("[data-testid='drill-key-note']")?.remove();
  S.drillBox.append(h("p", { class: "drill-key-note", testid: "drill-key-note" }, text));
  announce(text);
}

/** Said by the page's live region: the verdict once answered, the next hand when asked by key or button. */
function announce(text) {
  const live = document.getElementById("announcer");
  if (live) live.textContent = text;
}

/** The verdict on the drill on screen: an index drill's at its true count. */
function drillVerdict(graded) {
  const d = S.drill;
  return verdict(graded, d?.true_count, indexOf(S.indices, d?.cell));
}

function renderDrill(waiting) {
  const d = S.drill;
  const box = clear(S.drillBox);
  box.append(h("h2", { id: "drill-title" }, "Your decision"));
  if (S.note) box.append(noteLine(S.note));
  if (!d) {
    box.append(h("p", { class: "loading", testid: "drill-waiting" }, waiting || ""));
    return;
  }
  if (typeof d.true_count === "number") {
    box.append(h("p", { class: "drill-true-count", testid: "drill-true-count", dataset: { trueCount: String(d.true_count) } }, trueCountWords(d.true_count)));
  }
  box.append(
    h(
      "div",
      { class: "felt drill-felt", testid: "drill-felt", dataset: { section: d.cell.section, row: d.cell.row, up: d.cell.up } },
      h("div", { class: "drill-spot", testid: "drill-dealer" }, h("div", { class: "label" }, "Dealer"), h("div", { class: "cards" }, card(d.up_card))),
      h(
        "div",
        { class: "drill-spot", testid: "drill-hand" },
        h("div", { class: "label" }, "Your hand ", h("span", { class: "total", testid: "drill-hand-label" }, drillHandWords(d))),
        h(
          "div",
          { class: "cards" },
          d.cards.map((c) => card(c)),
        ),
      ),
    ),
    ...(S.answer
      ? [gradedAnswer(S.answer)]
      : [h("p", { class: "drill-question", testid: "drill-question" }, drillQuestion(d)), actionButtons(d.legal_actions)]),
  );
}

/** Over the drill: the square picked and its record, the misses left (and a way back to the schedule), or that there are none. */
function noteLine(note) {
  const stop = note.stop
    ? h(
        "button",
        {
          type: "button",
          class: "btn btn-ghost btn-small",
          testid: "drill-misses-stop",
          onclick: () => {
            S.misses = null;
            nextDrill(true);
          },
        },
        "Back to the schedule",
      )
    : null;
  return h("p", { class: "drill-note", testid: note.testid }, h("span", {}, note.text), stop);
}

function actionButtons(legal) {
  return h(
    "div",
    { class: "actions", testid: "drill-actions" },
    offeredActions(legal).map((a) =>
      h(
        "button",
        {
          type: "button",
          class: "btn action",
          testid: `drill-action-${a.name}`,
          "data-lock": "on",
          "aria-keyshortcuts": a.key.toUpperCase(),
          onclick: () => answer(a.name),
        },
        a.label,
        h("kbd", { "aria-hidden": "true" }, a.key.toUpperCase()),
      ),
    ),
  );
}

function gradedAnswer(graded) {
  const { right, text } = drillVerdict(graded);
  return h(
    "div",
    { class: "drill-answer", testid: "drill-answer" },
    h("p", { class: `drill-verdict ${right ? "right" : "wrong"}`, testid: "drill-verdict", dataset: { right: String(right) } }, text),
    h(
      "table",
      { class: "drill-evs", testid: "drill-evs" },
      h("caption", {}, "EV: what each play wins or loses on average, per coin bet"),
      h(
        "thead",
        { class: "sr-only" },
        h("tr", {}, h("th", { scope: "col" }, "Play"), h("th", { scope: "col" }, "Average per coin bet"), h("th", { scope: "col" }, "Note")),
      ),
      h(
        "tbody",
        {},
        answerRows(graded).map((r) =>
          h(
            "tr",
            { testid: `drill-ev-${r.action}`, class: `${r.best ? "best" : ""} ${r.taken ? "taken" : ""}` },
            h("th", { scope: "row" }, r.label),
            h("td", { class: "ev" }, formatEv(r.ev)),
            h("td", { class: "note" }, [r.best ? "★ best" : null, r.taken ? "your play" : null].filter(Boolean).join(" · ")),
          ),
        ),
      ),
    ),
    h(
      "button",
      { type: "button", class: "btn btn-primary drill-next", testid: "drill-next", "aria-keyshortcuts": "N", onclick: () => nextDrill(true) },
      "Next hand",
      h("kbd", { "aria-hidden": "true" }, "N"),
    ),
  );
}

// ---------------------------------------------------------------- the heat map

function renderHeat() {
  const name = S.tables.find((t) => t.id === S.table)?.name || S.table;
  const stats = clear(S.statsBox);
  stats.append(h("h2", { id: "drill-stats-title" }, `Accuracy at ${name}`));
  const box = clear(S.heatBox);
  box.append(
    h("h2", { id: "heat-title" }, `Your chart at ${name}`),
    h(
      "p",
      { class: "muted small" },
      "One square per hand of the strategy card: your hand down the side, the dealer's card across. The number in a square is how many times in a row you got it right. A hand you miss is asked again at the next hand but one, and the hands you know least are asked first.",
    ),
  );
  if (S.problem) {
    box.append(h("p", { testid: "heatmap-error" }, S.problem));
    stats.append(h("p", {}, S.problem));
    return;
  }
  if (!S.chart || !S.progress) {
    box.append(h("p", { class: "loading" }, "Loading your chart…"));
    stats.append(h("p", { class: "loading" }, "Loading…"));
    return;
  }
  const byKey = new Map(S.progress.cells.map((c) => [cellKey(c), c]));
  const current = S.drill ? cellKey(S.drill.cell) : null;
  stats.append(accuracyTable(sectionAccuracy(S.progress.cells, S.chart, S.indices || [])));
  const charts = h(
    "div",
    { class: "heat-charts" },
    CHART_SECTIONS.filter((s) => S.chart[s.name]).map((s) => heatTable(s, S.chart[s.name], byKey, current)),
  );
  const indexCharts = S.indices?.length ? indexHeat(S.indices, byKey, current) : null;
  // drilling the index plays, their squares come first
  box.append(legend(), missesControl(), ...(S.section === "indices" ? [indexCharts, charts] : [charts, indexCharts]).filter(Boolean));
}

/** The index plays' squares, one per index, on the rows of their own chart sections. */
function indexHeat(indices, byKey, current) {
  return h(
    "div",
    { class: "heat-charts heat-indices", testid: "heat-indices" },
    h("h3", { class: "heat-indices-title" }, "Index plays: the play at a true count"),
    INDEX_SECTIONS.map((section) => {
      const mine = indices.filter((ix) => ix.section === section.name);
      if (!mine.length) return null;
      const rows = {};
      for (const ix of mine) {
        rows[ix.row] ??= {};
        rows[ix.row][ix.up] = [...(rows[ix.row][ix.up] || []), ix];
      }
      const keys = section.name === "insurance" ? ["insurance"] : chartRowKeys(section.name, rows);
      return h(
        "table",
        { class: "heat-table", testid: `heat-indices-${section.name}` },
        h("caption", {}, section.label),
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, h("span", { class: "sr-only" }, "Hand, against the dealer's up card")),
            UP_CARDS.map((u) => h("th", { scope: "col" }, u === "T" ? "10" : u)),
          ),
        ),
        h(
          "tbody",
          {},
          keys.map((row) =>
            h(
              "tr",
              {},
              h("th", { scope: "row" }, section.name === "insurance" ? "Ins." : heatRowLabel(section.name, row)),
              UP_CARDS.map((up) => {
                const found = rows[row]?.[up];
                if (!found) return h("td", {});
                return h(
                  "td",
                  { class: "heat-index-cell" },
                  found.map((ix) => {
                    const where = indexCell(ix);
                    const key = cellKey(where);
                    const cell = byKey.get(key);
                    const words = `${indexWords(ix)}. ${heatWords(cell || where, where).replace(/^[^:]*: /, "")}`;
                    return heatSquare(where, cell, words, key === current, `heat-${key.replaceAll(":", "-").replaceAll(" ", "-")}`);
                  }),
                );
              }),
            ),
          ),
        ),
      );
    }),
  );
}

/**
 * A cell's square: a button named by the cell and its record (the sign and colour are for
 * the eye); pressing it drills that hand (`drillSquare`).
 */
function heatSquare(where, cell, words, isCurrent, testid) {
  const state = heatState(cell);
  return h(
    "button",
    {
      type: "button",
      class: `heat-square heat-${state}${isCurrent ? " heat-current" : ""}`,
      testid,
      title: `${words} Press to drill it.`,
      dataset: { state, box: String(cell?.box ?? 0) },
      onclick: () => drillSquare(where),
    },
    h("span", { "aria-hidden": "true" }, heatMark(cell)),
    h("span", { class: "sr-only" }, isCurrent ? `${words} This hand.` : words),
  );
}

/** "Drill my misses", with how many there are. */
function missesControl() {
  const n = missedCells(S.progress).length;
  return h(
    "div",
    { class: "heat-actions" },
    h("button", { type: "button", class: "btn btn-small", testid: "drill-misses", onclick: drillMisses }, `Drill my misses (${n})`),
    h("span", { class: "muted small" }, "Or press a square to drill that hand."),
  );
}

function legend() {
  return h(
    "ul",
    { class: "heat-legend", testid: "heat-legend", "aria-label": "What the squares mean" },
    Object.entries(HEAT).map(([state, { label, mark }]) =>
      h("li", { testid: `heat-legend-${state}` }, h("span", { class: `heat-square heat-${state}`, "aria-hidden": "true" }, mark), label),
    ),
    h("li", {}, h("span", { class: "heat-square heat-never heat-current", "aria-hidden": "true" }), "This hand"),
  );
}

function accuracyTable(rows) {
  return h(
    "table",
    { class: "drill-accuracy", testid: "drill-accuracy" },
    h("caption", { class: "sr-only" }, "Accuracy by section"),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ["Hands", "Answers", "Right", "Accuracy", "Known hands"].map((t) => h("th", { scope: "col" }, t)),
      ),
    ),
    h(
      "tbody",
      {},
      rows.map((r) =>
        h(
          "tr",
          { testid: `drill-accuracy-${r.name}`, class: r.name === "all" ? "total" : "" },
          h("th", { scope: "row" }, r.label),
          h("td", {}, String(r.attempts)),
          h("td", {}, String(r.correct)),
          h("td", { testid: `drill-accuracy-${r.name}-value` }, formatAccuracy(r.accuracy)),
          h("td", { title: `${r.known} of the ${r.cells} hands in box 4` }, `${r.known} of ${r.cells}`),
        ),
      ),
    ),
  );
}

function heatTable(section, rows, byKey, current) {
  return h(
    "table",
    { class: "heat-table", testid: `heat-${section.name}` },
    h("caption", {}, section.label),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, h("span", { class: "sr-only" }, "Hand, against the dealer's up card")),
        UP_CARDS.map((u) => h("th", { scope: "col" }, u === "T" ? "10" : u)),
      ),
    ),
    h(
      "tbody",
      {},
      chartRowKeys(section.name, rows).map((row) =>
        h(
          "tr",
          {},
          h("th", { scope: "row" }, heatRowLabel(section.name, row)),
          UP_CARDS.filter((up) => rows[row]?.[up]).map((up) => {
            const where = { section: section.name, row, up };
            const key = cellKey(where);
            const cell = byKey.get(key);
            const words = heatWords(cell || where, where);
            return h("td", {}, heatSquare(where, cell, words, key === current, `heat-${key.replaceAll(":", "-")}`));
          }),
        ),
      ),
    ),
  );
}
