// The Drills page (API.md "Drills"): one first decision at a time off the user's schedule,
// graded at once with the EV of every action, and a heat map of the table's chart coloured
// by each cell's Leitner box. The chart's rows come from the public strategy card; the
// boxes from GET …/drills, then from each answer's `cell`. The figures and the keys are in
// drillcells.js.
import { api, loadTables } from "./api.js";
import { card, clear, h } from "./dom.js";
import {
  afterMiss,
  answerRows,
  CHART_SECTIONS,
  cellKey,
  dealCell,
  drillHandWords,
  drillKey,
  drillKeyNote,
  drillQuestion,
  HEAT,
  heatLabel,
  heatMark,
  heatRowLabel,
  heatState,
  heatWords,
  indexCell,
  indexOf,
  missedCells,
  missesWords,
  noMissesWords,
  offeredActions,
  parseChoice,
  recordWords,
  SECTIONS,
  sameCardWords,
  sectionAccuracy,
  sectionLabel,
  trueCountWords,
  verdict,
  withAnswer,
} from "./drillcells.js";
import { chartRowKeys, formatAccuracy, formatEv, isMistake, UP_CARDS } from "./format.js";
import { formatNumber, t } from "./i18n.js";
import { indexWords, upWord } from "./indexplays.js";
import { remember, remembered } from "./settings.js";
import { tableName } from "./tablenames.js";
import { errorText, lockControls, reportError } from "./ui.js";

const CHOICE_KEY = "blackjack.drills";
/** The index drills' heat map, by the index's own chart section (captions `drills.indexSection.<name>`). */
const INDEX_SECTIONS = ["hard", "soft", "pairs", "insurance"];

let S = null; // the page on screen
let keyHandler = null;

export async function showDrills(main, isCurrent) {
  if (keyHandler) document.removeEventListener("keydown", keyHandler);
  clear(main).appendChild(h("p", { class: "loading" }, t("drills.loading")));
  let tables;
  try {
    tables = await loadTables();
  } catch (e) {
    if (isCurrent()) clear(main).appendChild(h("p", { class: "panel", testid: "drills-error" }, t("drills.noTables", { error: errorText(e) })));
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
      h("div", { class: "drills-head" }, h("h1", {}, t("drills.title")), choiceForm()),
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
    S.tables.map((t) => h("option", { value: t.id, selected: t.id === S.table ? true : null }, tableName(t.id, t.name))),
  );
  return h(
    "form",
    { class: "drills-choice", onsubmit: (e) => e.preventDefault() },
    h("label", { class: "inline-field", for: "drills-table" }, t("drills.table"), tableSelect),
    h(
      "fieldset",
      { class: "segmented" },
      h("legend", {}, t("drills.hands")),
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
          h("span", {}, sectionName(s)),
        ),
      ),
    ),
  );
}

/** A section's name in the form: where its short name begins it, a phone shows only that ("Index" of "Index plays"). */
function sectionName(s) {
  const label = sectionLabel(s.name);
  const short = s.short ? sectionLabel(s.name, true) : label;
  if (short === label || !label.startsWith(short)) return label;
  return [short, h("span", { class: "seg-more" }, label.slice(short.length).replace(" ", "\u00a0"))];
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
  S.note = { testid: "drill-pick", text: t(`drills.pick.${section}`, { square: heatWords(cell, where) }) };
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
      S.problem = t("drills.noChart", { error: errorText(e) });
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
      S.problem = t("drills.noProgress", { error: errorText(e) });
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
  renderDrill(t("drills.dealing"));
  let drill;
  try {
    drill = await api.drillNext(S.table, S.section);
  } catch (e) {
    if (S?.isCurrent() && S.drillGen === gen) renderDrill(t("drills.noDrill", { error: errorText(e) }));
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
  box.append(h("h2", { id: "drill-title" }, t("drills.decision")));
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
      h(
        "div",
        { class: "drill-spot", testid: "drill-dealer" },
        h("div", { class: "label" }, t("drills.dealer")),
        h("div", { class: "cards" }, card(d.up_card)),
      ),
      h(
        "div",
        { class: "drill-spot", testid: "drill-hand" },
        h("div", { class: "label" }, t("drills.yourHand"), " ", h("span", { class: "total", testid: "drill-hand-label" }, drillHandWords(d))),
        h(
          "div",
          { class: "cards" },
          d.cards.map((c) => card(c)),
        ),
      ),
    ),
    ...sameCardLine(d),
    ...(S.answer
      ? [gradedAnswer(S.answer)]
      : [h("p", { class: "drill-question", testid: "drill-question" }, drillQuestion(d)), actionButtons(d.legal_actions)]),
  );
}

/** Under the felt, where the hand shows a card twice: why a shoe deals it; else nothing
 * (an empty list, since the DOM's own append would write a null as "null"). */
function sameCardLine(d) {
  const words = sameCardWords(d, S.tables.find((t) => t.id === S.table)?.rules?.decks);
  return words ? [h("p", { class: "muted small drill-same-card", testid: "drill-same-card" }, words)] : [];
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
        t("drills.backToSchedule"),
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
      h("caption", {}, t("drills.ev.caption")),
      h(
        "thead",
        { class: "sr-only" },
        h(
          "tr",
          {},
          h("th", { scope: "col" }, t("drills.ev.play")),
          h("th", { scope: "col" }, t("drills.ev.average")),
          h("th", { scope: "col" }, t("drills.ev.note")),
        ),
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
            h("td", { class: "note" }, [r.best ? t("drills.ev.best") : null, r.taken ? t("drills.ev.yours") : null].filter(Boolean).join(" · ")),
          ),
        ),
      ),
    ),
    h(
      "button",
      { type: "button", class: "btn btn-primary drill-next", testid: "drill-next", "aria-keyshortcuts": "N", onclick: () => nextDrill(true) },
      t("drills.next"),
      h("kbd", { "aria-hidden": "true" }, "N"),
    ),
  );
}

// ---------------------------------------------------------------- the heat map

function renderHeat() {
  const name = tableName(S.table, S.tables.find((t) => t.id === S.table)?.name);
  const stats = clear(S.statsBox);
  stats.append(h("h2", { id: "drill-stats-title" }, t("drills.accuracyAt", { table: name })));
  const box = clear(S.heatBox);
  box.append(h("h2", { id: "heat-title" }, t("drills.chartAt", { table: name })), h("p", { class: "muted small" }, t("drills.heatHelp")));
  if (S.problem) {
    box.append(h("p", { testid: "heatmap-error" }, S.problem));
    stats.append(h("p", {}, S.problem));
    return;
  }
  if (!S.chart || !S.progress) {
    box.append(h("p", { class: "loading" }, t("drills.loadingChart")));
    stats.append(h("p", { class: "loading" }, t("drills.loadingAccuracy")));
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
    h("h3", { class: "heat-indices-title" }, t("drills.indexHeatTitle")),
    INDEX_SECTIONS.map((section) => {
      const mine = indices.filter((ix) => ix.section === section);
      if (!mine.length) return null;
      const rows = {};
      for (const ix of mine) {
        rows[ix.row] ??= {};
        rows[ix.row][ix.up] = [...(rows[ix.row][ix.up] || []), ix];
      }
      const insurance = section === "insurance";
      return heatGrid(
        `heat-indices-${section}`,
        t(`drills.indexSection.${section}`),
        insurance ? ["insurance"] : chartRowKeys(section, rows),
        (row) => (insurance ? t("drills.insuranceRow") : heatRowLabel(section, row)),
        (row) =>
          UP_CARDS.map((up) => {
            const found = rows[row]?.[up];
            if (!found) return h("td", {});
            return h(
              "td",
              { class: "heat-index-cell" },
              found.map((ix) => heatSquare(indexCell(ix), byKey, current, indexWords(ix))),
            );
          }),
      );
    }),
  );
}

/** The chart's squares of a section, one per cell the chart has. */
function heatTable(section, rows, byKey, current) {
  return heatGrid(
    `heat-${section.name}`,
    t(`drills.chartSection.${section.name}`),
    chartRowKeys(section.name, rows),
    (row) => heatRowLabel(section.name, row),
    (row) => UP_CARDS.filter((up) => rows[row]?.[up]).map((up) => h("td", {}, heatSquare({ section: section.name, row, up }, byKey, current))),
  );
}

/** A heat map's table: a row per hand (`rowLabel` names it), a column per up card; `cells(row)` are the row's. */
function heatGrid(testid, caption, rows, rowLabel, cells) {
  return h(
    "table",
    { class: "heat-table", testid },
    h("caption", {}, caption),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, h("span", { class: "sr-only" }, t("drills.heatCorner"))),
        UP_CARDS.map((u) => h("th", { scope: "col", translate: "no" }, upWord(u))),
      ),
    ),
    h(
      "tbody",
      {},
      // the card ranks ("A,6", "10") are the cards' own marks in every language
      rows.map((row) => h("tr", {}, h("th", { scope: "row", translate: "no" }, rowLabel(row)), cells(row))),
    ),
  );
}

/**
 * A cell's square: a button named by the cell and its record in `byKey` (the sign and colour
 * are for the eye), an index play's by the `play` in words first; pressing it drills that
 * hand (`drillSquare`).
 */
function heatSquare(where, byKey, current, play = null) {
  const key = cellKey(where);
  const cell = byKey.get(key);
  const words = play ? t("drills.indexSquare", { play, record: recordWords(cell || where) }) : heatWords(cell || where, where);
  const isCurrent = key === current;
  const state = heatState(cell);
  return h(
    "button",
    {
      type: "button",
      class: `heat-square heat-${state}${isCurrent ? " heat-current" : ""}`,
      testid: `heat-${key.replaceAll(/[: ]/g, "-")}`,
      title: t("drills.squareTitle", { square: words }),
      dataset: { state, box: String(cell?.box ?? 0) },
      onclick: () => drillSquare(where),
    },
    h("span", { "aria-hidden": "true" }, heatMark(cell)),
    h("span", { class: "sr-only" }, isCurrent ? t("drills.squareCurrent", { square: words }) : words),
  );
}

/** "Drill my misses", with how many there are. */
function missesControl() {
  const n = missedCells(S.progress).length;
  return h(
    "div",
    { class: "heat-actions" },
    h("button", { type: "button", class: "btn btn-small", testid: "drill-misses", onclick: drillMisses }, t("drills.misses.drill", { misses: n })),
    h("span", { class: "muted small" }, t("drills.misses.orSquare")),
  );
}

function legend() {
  return h(
    "ul",
    { class: "heat-legend", testid: "heat-legend", "aria-label": t("drills.legend") },
    Object.entries(HEAT).map(([state, mark]) =>
      h("li", { testid: `heat-legend-${state}` }, h("span", { class: `heat-square heat-${state}`, "aria-hidden": "true" }, mark), heatLabel(state)),
    ),
    h("li", {}, h("span", { class: "heat-square heat-never heat-current", "aria-hidden": "true" }), t("drills.thisHand")),
  );
}

function accuracyTable(rows) {
  return h(
    "table",
    { class: "drill-accuracy", testid: "drill-accuracy" },
    h("caption", { class: "sr-only" }, t("drills.accuracy.caption")),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ["hands", "answers", "right", "accuracy", "known"].map((column) => h("th", { scope: "col" }, t(`drills.accuracy.${column}`))),
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
          h("td", {}, formatNumber(r.attempts)),
          h("td", {}, formatNumber(r.correct)),
          h("td", { testid: `drill-accuracy-${r.name}-value` }, formatAccuracy(r.accuracy)),
          h(
            "td",
            { title: t("drills.accuracy.knownTitle", { known: r.known, count: r.cells }) },
            t("drills.accuracy.knownOf", { known: r.known, cells: r.cells }),
          ),
        ),
      ),
    ),
  );
}
