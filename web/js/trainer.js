// The Trainer page: every decision graded by its exact EV (API.md, hand `decisions`), at a
// fresh shoe (`best`, `loss`) and against perfect play for the shoe (`expert_best`,
// `expert_loss`), and by its move against the counter's and the chart's (`counter_best`,
// `medium_best`); the coach's level picks the grade the marks, the mistakes and "By kind"
// follow. Reads GET /v1/me `stats` and the history (GET /v1/rounds);
// `#/trainer/{round_id}` shows one round's graded decisions. The figures below the stats
// come from stats.js, pure functions over the history's decisions. Beside them, the count
// and the bet as the table's checkout graded them (kept in this browser, checkout.js).
import { api, getSession, loadTables } from "./api.js";
import { checkoutFigures, checkoutRecords, QUESTIONS } from "./checkout.js";
import { card, clear, dealerRow, h } from "./dom.js";
import {
  betterPlay,
  decisionActionLabel,
  decisionHandLabel,
  formatAccuracy,
  formatCoins,
  formatLoss,
  formatPercent,
  formatSigned,
  GRADES,
  graded,
  gradedAs,
  gradeOf,
  gradeWords,
  isMistake,
  levelPlay,
  parseCard,
} from "./format.js";
import { formatCount } from "./hilo.js";
import { formatDateTime, t } from "./i18n.js";
import { COACH_LEVELS, settings } from "./settings.js";
import {
  accuracy,
  countAt,
  decisionsOf,
  deviationsOf,
  deviationWorth,
  isExpertMistake,
  KINDS,
  kindFigures,
  moveFigures,
  recentAccuracy,
  rollingAccuracy,
  spotsTaken,
  statsOf,
} from "./stats.js";
import { tableName } from "./tablenames.js";
import { errorText, reportError, setBalance } from "./ui.js";

const WINDOWS = [50, 200, 1000];
const MAX_PAGES = 10; // 100 rounds a page: enough for the last 1,000 decisions
const LATEST_MISTAKES = 10;
const LATEST_DEVIATIONS = 10;
/** At most this many rounds fetched one by one to count the shoes of the deviation spots. */
const MAX_ROUND_FETCHES = 30;

// The table the Trainer is filtered to ("" for every table), kept while the tab lives.
let filteredTable = "";

export async function showTrainer(main, roundId, isCurrent) {
  if (roundId) return showGradedRound(main, roundId, isCurrent);
  const level = settings.coachLevel; // the marks', the mistakes' and the recent accuracy's grade
  clear(main);
  const panel = (testid, id, title) =>
    h("section", { class: "panel", testid, "aria-labelledby": id }, h("h2", { id }, title), h("p", { class: "loading" }, t("trainer.loading")));
  const statsBox = panel("trainer-stats", "trainer-stats-title", t("trainer.accuracy"));
  const checkoutBox = panel("trainer-checkout", "trainer-checkout-title", t("trainer.countAndBet"));
  const chartBox = panel("trainer-recent", "trainer-recent-title", t("trainer.recentAccuracy"));
  const perfectBox = panel("trainer-perfect", "trainer-perfect-title", t("trainer.perfectPlay"));
  const deviationsBox = panel("trainer-deviations-box", "trainer-deviations-title", t("trainer.latestDeviations"));
  const mistakesBox = panel("trainer-mistakes", "trainer-mistakes-title", t("trainer.latestMistakes"));
  const names = {};
  const filter = h(
    "select",
    {
      testid: "trainer-table-filter",
      onchange: (e) => {
        filteredTable = e.target.value;
        fill(filteredTable);
      },
    },
    h("option", { value: "" }, t("trainer.allTables")),
  );
  main.appendChild(
    h(
      "div",
      { class: "trainer", testid: "trainer" },
      h("h1", {}, t("trainer.title")),
      gradingIntro(level),
      h("label", { class: "field trainer-filter" }, t("trainer.table"), filter),
      statsBox,
      checkoutBox,
      h("div", { class: "trainer-grid" }, chartBox, mistakesBox),
      perfectBox,
      deviationsBox,
    ),
  );
  loadTables().then(
    (tables) => {
      for (const table of tables) {
        names[table.id] = tableName(table.id, table.name);
        filter.append(h("option", { value: table.id, selected: table.id === filteredTable ? true : null }, names[table.id]));
      }
    },
    () => {}, // the filter offers every table only; the figures load anyway
  );

  let generation = 0;
  const fill = async (table) => {
    const mine = ++generation;
    const current = () => isCurrent() && mine === generation;
    const put = (box, id, title, ...body) => clear(box).append(h("h2", { id }, title), ...body.filter(Boolean));
    const checkouts = checkoutRecords(getSession()?.login ?? "");
    put(checkoutBox, "trainer-checkout-title", t("trainer.countAndBet"), ...checkoutTable(checkoutFigures(checkouts, table)));
    // The server's figures (GET /v1/me, or the history's at one table), and the counter's
    // and the chart's, which only the history gives (API.md counts neither's mistakes):
    // each shown once known.
    const shown = { stats: null, where: null, moves: null, kinds: null };
    const putStats = (fields) => {
      Object.assign(shown, fields);
      if (!shown.stats) return;
      const note = () => (shown.where ? h("p", { class: "muted small" }, shown.where) : null);
      put(statsBox, "trainer-stats-title", t("trainer.accuracy"), note(), accuracyFigures(shown.stats, level, shown.moves, shown.kinds));
      put(perfectBox, "trainer-perfect-title", t("trainer.perfectPlay"), note(), perfectPlayFigures(shown.stats));
    };
    if (!table) {
      api.me().then(
        (me) => {
          if (!current()) return;
          setBalance(me.balance, { flash: false });
          putStats({ stats: me.stats || {} });
        },
        (e) => {
          if (!current()) return;
          put(statsBox, "trainer-stats-title", t("trainer.accuracy"), h("p", {}, errorText(e)));
          put(perfectBox, "trainer-perfect-title", t("trainer.perfectPlay"), h("p", {}, errorText(e)));
          reportError(e);
        },
      );
    }

    let decisions = [];
    const rounds = new Map(); // round id -> round, to count the deviation spots' shoes
    try {
      let cursor;
      for (let page = 0; page < MAX_PAGES && decisions.length < WINDOWS.at(-1); page++) {
        const res = await api.rounds({ table: table || undefined, limit: 100, cursor });
        for (const r of res.rounds || []) rounds.set(r.round_id, r);
        decisions = decisions.concat(decisionsOf(res.rounds));
        cursor = res.next_cursor;
        if (!cursor) break;
      }
    } catch (e) {
      if (!current()) return;
      reportError(e);
    }
    if (!current()) return;
    if (table) {
      const where = t("trainer.atTable", { table: names[table] || tableName(table), count: decisions.length, most: WINDOWS.at(-1) });
      putStats({ stats: statsOf(decisions), where, moves: moveFigures(decisions), kinds: kindFigures(decisions, level) });
    } else putStats({ moves: moveFigures(decisions), kinds: kindFigures(decisions, level) });
    put(
      chartBox,
      "trainer-recent-title",
      t("trainer.recentAccuracy"),
      recentChart(WINDOWS.map((n) => recentAccuracy(decisions, n, level))),
      trendChart(rollingAccuracy(decisions, WINDOWS[0], WINDOWS.at(-1), level)),
    );
    put(
      mistakesBox,
      "trainer-mistakes-title",
      t("trainer.latestMistakes"),
      h("p", { class: "muted small", testid: "trainer-mistakes-against" }, gradedAs(level)),
      mistakesTable(decisions.filter((d) => isMistake(d, level)).slice(0, LATEST_MISTAKES), level),
    );
    const spots = deviationsOf(decisions).slice(0, LATEST_DEVIATIONS);
    const counts = await spotCounts(spots, rounds);
    if (!current()) return;
    put(deviationsBox, "trainer-deviations-title", t("trainer.latestDeviations"), deviationSpotsTable(spots, counts));
  };
  await fill(filteredTable);
}

/**
 * The count at each spot, from its shoe's round list (GET /v1/shoes/{id}) and those rounds
 * (the history loaded, else fetched, at most MAX_ROUND_FETCHES); null where unknown.
 */
async function spotCounts(spots, rounds) {
  const decks = {};
  const shoes = new Map();
  let fetches = 0;
  try {
    for (const table of await loadTables()) decks[table.id] = table.rules.decks;
  } catch {
    return spots.map(() => null);
  }
  const roundById = async (id) => {
    if (!rounds.has(id) && fetches < MAX_ROUND_FETCHES) {
      fetches++;
      rounds.set(id, await api.round(id));
    }
    return rounds.get(id) ?? null;
  };
  const out = [];
  for (const d of spots) {
    try {
      if (!shoes.has(d.shoe_id)) shoes.set(d.shoe_id, (await api.shoe(d.shoe_id)).rounds || []);
      const order = shoes.get(d.shoe_id);
      const at = order.indexOf(d.round_id);
      const earlier = at < 0 ? null : await Promise.all(order.slice(0, at).map(roundById));
      out.push(countAt(decks[d.table], earlier?.includes(null) ? null : earlier, rounds.get(d.round_id), d));
    } catch {
      out.push(null);
    }
  }
  return out;
}

function perfectPlayFigures(s) {
  const deviations = s.deviations ?? 0;
  const taken = s.deviations_taken ?? 0;
  return h(
    "div",
    {},
    h("p", { class: "muted small" }, t("trainer.perfectPlayNote")),
    h(
      "dl",
      { class: "stat-grid" },
      h("div", { class: "stat" }, h("dt", {}, t("trainer.deviationsMet")), h("dd", { testid: "trainer-deviations" }, String(deviations))),
      h(
        "div",
        { class: "stat" },
        h("dt", {}, t("trainer.deviationsTaken")),
        h(
          "dd",
          {},
          h("span", { testid: "trainer-deviations-taken" }, String(taken)),
          deviations ? h("span", { class: "share" }, ` (${formatAccuracy(taken / deviations)})`) : null,
        ),
      ),
    ),
  );
}

function deviationSpotsTable(spots, counts) {
  if (spots.length === 0) return h("p", { class: "muted", testid: "trainer-no-deviations" }, t("trainer.noDeviations"));
  const row = (d, count) => {
    const play = (action) => decisionActionLabel(d, action);
    const worth = deviationWorth(d);
    const up = parseCard(d.up)?.label ?? "—";
    return h(
      "tr",
      { testid: "trainer-deviation", dataset: { roundId: d.round_id } },
      h(
        "td",
        {},
        h(
          "div",
          { class: "cards spot-cards" },
          (d.cards || []).map((c) => card(c, { small: true })),
          h("span", { class: "versus", "aria-hidden": "true" }, t("trainer.versus")),
          d.up ? card(d.up, { small: true }) : null,
        ),
        h("span", { class: "muted small" }, `${t("trainer.spotAgainst", { hand: decisionHandLabel(d), up })} · `),
        roundLink(d, { class: "small", testid: "trainer-deviation-round" }),
      ),
      h(
        "td",
        {
          testid: "trainer-deviation-true",
          dataset: { label: t("trainer.trueCount") },
          title: count ? t("trainer.countAtSpot", { running: formatCount(count.running), count: count.cards_unseen }) : null,
        },
        count ? formatCount(count.true, 2) : "—",
      ),
      h("td", { dataset: { label: t("trainer.basicToPerfect") } }, play(d.best), " → ", h("strong", { class: "perfect" }, play(d.expert_best))),
      h(
        "td",
        { dataset: { label: t("trainer.you") } },
        d.action === d.expert_best ? `${play(d.action)} ✓` : play(d.action),
        worth === null
          ? null
          : h(
              "span",
              { class: "worth", testid: "trainer-deviation-worth" },
              h("br"),
              `${formatLoss(worth)}`,
              h("br"),
              h("span", { class: "muted small" }, coinsWords(worth * d.bet)),
            ),
      ),
    );
  };
  return h(
    "div",
    {},
    h(
      "div",
      { class: "table-scroll", role: "region", tabindex: "0", "aria-label": t("trainer.deviationsRegion") },
      h(
        "table",
        { class: "trainer-table deviation-table", testid: "trainer-deviation-list" },
        h("caption", { class: "sr-only" }, t("trainer.latestDeviations")),
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            [t("trainer.spot"), t("trainer.trueCount"), t("trainer.basicToPerfect"), t("trainer.you")].map((head) => h("th", { scope: "col" }, head)),
          ),
        ),
        h(
          "tbody",
          {},
          spots.map((d, i) => row(d, counts[i])),
        ),
      ),
    ),
    h("p", { class: "muted small" }, t("trainer.deviationsNote")),
  );
}

/**
 * Each graded level's figures side by side, the coach's level marked: `hard` and `expert`
 * as the figures count them; the chart's and the counter's mistakes over the history's
 * decisions (`moves`, from moveFigures; null while loading), the counter's index spots as
 * /v1/me counts them. Those two have no EV lost: the hint values their plays by no EV.
 */
function levelsTable(s, level, moves) {
  const decisions = s.decisions ?? 0;
  const loading = "…";
  const byMove = (grade) => ({
    grade,
    accuracy: moves ? formatAccuracy(accuracy(moves.decisions, moves[grade])) : loading,
    mistakes: moves ? String(moves[grade]) : loading,
    evLost: "—",
  });
  const columns = [
    {
      ...byMove("medium"),
      spots: "—",
      testids: ["trainer-medium-accuracy", "trainer-medium-mistakes", "trainer-medium-ev-lost", "trainer-medium-spots"],
    },
    {
      grade: "hard",
      accuracy: formatAccuracy(accuracy(decisions, s.mistakes ?? 0)),
      mistakes: String(s.mistakes ?? 0),
      evLost: formatCoins(s.ev_lost ?? 0),
      spots: "—",
      testids: ["trainer-accuracy", "trainer-mistake-count", "trainer-ev-lost", "trainer-hard-spots"],
    },
    {
      grade: "expert",
      accuracy: formatAccuracy(accuracy(decisions, s.expert_mistakes ?? 0)),
      mistakes: String(s.expert_mistakes ?? 0),
      evLost: formatCoins(s.expert_ev_lost ?? 0),
      spots: spotsTaken(s.deviations_taken, s.deviations),
      testids: ["trainer-expert-accuracy", "trainer-expert-mistakes", "trainer-expert-ev-lost", "trainer-expert-spots"],
    },
    {
      ...byMove("counter"),
      spots: spotsTaken(s.index_spots_taken, s.index_spots),
      testids: ["trainer-counter-accuracy", "trainer-counter-mistakes", "trainer-counter-ev-lost", "trainer-index-spots"],
    },
  ];
  const coach = gradeOf(level);
  const mark = (c) => (c.grade === coach ? "coach-level" : null);
  const row = (label, key, i) =>
    h(
      "tr",
      {},
      h("th", { scope: "row" }, label),
      columns.map((c) => h("td", { testid: c.testids[i], class: mark(c) }, c[key])),
    );
  return h(
    "div",
    { class: "table-scroll", role: "region", tabindex: "0", "aria-label": t("trainer.levelsRegion") },
    h(
      "table",
      { class: "trainer-table levels-table", testid: "trainer-levels" },
      h("caption", { class: "sr-only" }, t("trainer.levelsCaption")),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, h("span", { class: "sr-only" }, t("trainer.figure"))),
          columns.map((c) =>
            h(
              "th",
              { scope: "col", class: mark(c), testid: `trainer-level-${c.grade}` },
              t(`trainer.levelHead.${c.grade}`),
              c.grade === coach ? h("span", { class: "coach-tag" }, t("trainer.yourCoach")) : null,
            ),
          ),
        ),
      ),
      h(
        "tbody",
        {},
        row(t("trainer.accuracy"), "accuracy", 0),
        row(t("trainer.mistakes"), "mistakes", 1),
        row(t("trainer.evLostCoins"), "evLost", 2),
        row(t("trainer.spotsTakenRow"), "spots", 3),
      ),
    ),
  );
}

/** The words under the levels' figures: where they come from. */
function levelsNotes(s, moves) {
  const notes = [t("trainer.spotsNote")];
  if (moves && moves.decisions !== (s.decisions ?? 0)) notes.push(t("trainer.movesNote", { count: moves.decisions }));
  return notes.map((text) => h("p", { class: "muted small" }, text));
}

/**
 * What each level grades against: the coach's in a line, all four under "How each level
 * grades" (every decision is graded at each; the coach's level picks the one the marks, the
 * recent accuracy, the latest mistakes and "By kind" follow).
 */
function gradingIntro(level) {
  const coach = gradeOf(level);
  return h(
    "div",
    { class: "trainer-intro", testid: "trainer-intro" },
    h("p", { class: "muted" }, t("trainer.intro", { level: t(COACH_LEVELS[coach]), how: GRADES[coach].how })),
    h(
      "details",
      { class: "muted small grading-levels" },
      h("summary", {}, t("trainer.howEachLevel")),
      h(
        "ul",
        {},
        Object.entries(COACH_LEVELS).map(([name, title]) =>
          h(
            "li",
            { testid: `trainer-grading-${name}`, class: name === coach ? "coach-level" : null },
            h("strong", {}, t(title)),
            name === coach ? ` ${t("trainer.yourCoachAside")}` : "",
            `: ${GRADES[name].how}`,
          ),
        ),
      ),
    ),
  );
}

/**
 * The figures by kind at the coach's level: at `hard` as the figures count them (GET
 * /v1/me's `by_kind`, or the history's at one table); at the other levels over the history's
 * decisions (`kinds`, from kindFigures; null while loading), the API counting them at `hard`
 * only. The chart and the counter have no EV lost.
 */
function kindTable(s, level, kinds) {
  const grade = gradeOf(level);
  const byKind = grade === "hard" ? s.by_kind || {} : kinds;
  const shown = (text) => (byKind ? text() : "…");
  const row = (label, g, testid) =>
    h(
      "tr",
      { testid },
      h("th", { scope: "row" }, label),
      h(
        "td",
        { testid: `${testid}-decisions` },
        shown(() => String(g?.decisions ?? 0)),
      ),
      h(
        "td",
        { testid: `${testid}-mistakes` },
        shown(() => String(g?.mistakes ?? 0)),
      ),
      h(
        "td",
        { testid: `${testid}-accuracy` },
        shown(() => formatAccuracy(accuracy(g?.decisions ?? 0, g?.mistakes ?? 0))),
      ),
      h(
        "td",
        { testid: `${testid}-ev-lost` },
        shown(() => (g?.ev_lost === null ? "—" : formatCoins(g?.ev_lost ?? 0))),
      ),
    );
  const from = grade !== "hard" && kinds ? Object.values(kinds).reduce((n, g) => n + g.decisions, 0) : null;
  return [
    h("h3", { class: "by-kind-title", testid: "trainer-by-kind-title" }, t("trainer.byKindTitle", { against: gradeWords(grade), level: levelName(grade) })),
    h(
      "div",
      { class: "table-scroll", role: "region", tabindex: "0", "aria-label": t("trainer.byKindRegion") },
      h(
        "table",
        { class: "trainer-table", testid: "trainer-by-kind" },
        h("caption", { class: "sr-only" }, t("trainer.byKindCaption", { against: gradeWords(grade) })),
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            [t("trainer.kind"), t("trainer.decisions"), t("trainer.mistakes"), t("trainer.accuracy"), t("trainer.evLost")].map((head) =>
              h("th", { scope: "col" }, head),
            ),
          ),
        ),
        h(
          "tbody",
          {},
          KINDS.map((k) => row(k.label, byKind?.[k.name], `trainer-kind-${k.name}`)),
        ),
      ),
    ),
    h(
      "p",
      { class: "muted small", testid: "trainer-by-kind-note" },
      from === null ? t("trainer.byKindNote") : t(GRADES[grade].loss === null ? "trainer.byKindNoteByMove" : "trainer.byKindNoteHistory", { count: from }),
    ),
  ];
}

/**
 * The count and the bet beside the decisions: each checkout question's right answers over
 * those asked at the table (Settings: "Checkout at the table"), kept in this browser.
 */
function checkoutTable(f) {
  if (f.checkouts === 0) return [h("p", { class: "muted", testid: "trainer-checkout-none" }, t("trainer.noCheckout"))];
  const row = (label, testid, right, asked, against) =>
    h(
      "tr",
      { testid },
      h("th", { scope: "row" }, label, h("span", { class: "graded-as" }, against)),
      h("td", { testid: `${testid}-right` }, t("trainer.rightOf", { right, asked })),
      h("td", { testid: `${testid}-accuracy` }, formatAccuracy(accuracy(asked, asked - right))),
    );
  return [
    h(
      "div",
      { class: "table-scroll", role: "region", tabindex: "0", "aria-label": t("trainer.checkoutRegion") },
      h(
        "table",
        { class: "trainer-table checkout-figures", testid: "trainer-checkout-table" },
        h("caption", { class: "sr-only" }, t("trainer.checkoutCaption")),
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            [t("trainer.question"), t("trainer.right"), t("trainer.accuracy")].map((head) => h("th", { scope: "col" }, head)),
          ),
        ),
        h(
          "tbody",
          {},
          QUESTIONS.map(({ name, label }) => row(label, `trainer-checkout-${name}`, f[name].right, f[name].asked, t(`trainer.checkoutGrade.${name}`))),
          row(t("trainer.allThree"), "trainer-checkout-all", f.allRight, f.checkouts, t("trainer.inOneCheckout")),
        ),
      ),
    ),
    h("p", { class: "muted small", testid: "trainer-checkout-note" }, t("trainer.checkoutNote", { count: f.checkouts })),
  ];
}

function accuracyFigures(s, level, moves, kinds) {
  return h(
    "div",
    {},
    h(
      "dl",
      { class: "stat-grid" },
      h("div", { class: "stat" }, h("dt", {}, t("trainer.decisions")), h("dd", { testid: "trainer-decisions" }, String(s.decisions ?? 0))),
    ),
    levelsTable(s, level, moves),
    levelsNotes(s, moves),
    kindTable(s, level, kinds),
  );
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

/** One bar per window: accuracy over the last 50, 200 and 1,000 decisions. */
function recentChart(windows) {
  const width = 420;
  const barHeight = 30;
  const gap = 14;
  const left = 130;
  const right = 76; // room for "100.0%" in bold
  const height = windows.length * (barHeight + gap) + 22;
  const scale = width - left - right;
  const soFar = (w) => t("trainer.soFar", { count: w.count });
  const summary = t("trainer.recentSummary", {
    windows: windows
      .map((w) =>
        w.count < w.n
          ? t("trainer.recentWindowSoFar", { count: w.n, accuracy: formatAccuracy(w.accuracy), soFar: soFar(w) })
          : t("trainer.recentWindow", { count: w.n, accuracy: formatAccuracy(w.accuracy) }),
      )
      .join("; "),
  });
  const chart = svg(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, class: "trainer-chart", role: "img", "aria-label": summary, "data-testid": "trainer-chart" },
    svg("title", {}, summary),
  );
  windows.forEach((w, i) => {
    const y = i * (barHeight + gap) + 4;
    const value = w.accuracy ?? 0;
    chart.append(
      svg("text", { x: 0, y: y + barHeight / 2 + 5, class: "chart-label" }, t("trainer.lastN", { count: w.n })),
      svg("text", { x: 0, y: y + barHeight / 2 + 19, class: "chart-note" }, w.count < w.n ? soFar(w) : ""),
      svg("rect", { x: left, y, width: scale, height: barHeight, rx: 4, class: "chart-track" }),
      svg("rect", { x: left, y, width: Math.max(0, value * scale), height: barHeight, rx: 4, class: "chart-bar", "data-testid": `trainer-bar-${w.n}` }),
      svg("text", { x: left + scale + 8, y: y + barHeight / 2 + 5, class: "chart-value" }, formatAccuracy(w.accuracy)),
    );
  });
  const axis = windows.length * (barHeight + gap) + 12;
  for (const tick of [0, 0.5, 1]) {
    chart.append(
      svg(
        "text",
        { x: left + tick * scale, y: axis + 6, class: "chart-tick", "text-anchor": tick === 0 ? "start" : tick === 1 ? "end" : "middle" },
        formatPercent(tick),
      ),
    );
  }
  return h("figure", { class: "trainer-figure" }, chart, h("figcaption", { class: "muted small" }, t("trainer.recentCaption")));
}

/** A line: the accuracy of every run of 50 decisions among the last 1,000. */
function trendChart(values) {
  const caption = t("trainer.trendCaption", { count: WINDOWS[0], most: WINDOWS.at(-1) });
  if (values.length < 2) return h("p", { class: "muted small", testid: "trainer-trend-empty" }, t("trainer.trendEmpty", { count: WINDOWS[0] + 1 }));
  const width = 420;
  const height = 120;
  const left = 40;
  const top = 8;
  const plot = { w: width - left - 8, h: height - top - 20 };
  const x = (i) => left + (i / (values.length - 1)) * plot.w;
  const y = (v) => top + (1 - v) * plot.h;
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const last = values.at(-1);
  const chart = svg(
    "svg",
    {
      viewBox: `0 0 ${width} ${height}`,
      class: "trainer-chart",
      role: "img",
      "aria-label": `${caption} ${t("trainer.trendLatest", { accuracy: formatAccuracy(last) })}`,
      "data-testid": "trainer-trend",
    },
    svg("title", {}, `${caption} ${t("trainer.trendLatest", { accuracy: formatAccuracy(last) })}`),
  );
  for (const tick of [0, 0.5, 1]) {
    chart.append(
      svg("line", { x1: left, x2: left + plot.w, y1: y(tick), y2: y(tick), class: "chart-grid" }),
      svg("text", { x: left - 6, y: y(tick) + 4, class: "chart-tick", "text-anchor": "end" }, formatPercent(tick)),
    );
  }
  chart.append(svg("polyline", { points, class: "chart-line" }), svg("circle", { cx: x(values.length - 1), cy: y(last), r: 3.5, class: "chart-dot" }));
  return h("figure", { class: "trainer-figure" }, chart, h("figcaption", { class: "muted small" }, caption));
}

function mistakesTable(mistakes, level) {
  if (mistakes.length === 0) return h("p", { class: "muted", testid: "trainer-no-mistakes" }, t("trainer.noMistakes"));
  return h(
    "div",
    { class: "table-scroll", role: "region", tabindex: "0", "aria-label": t("trainer.mistakesRegion") },
    h(
      "table",
      { class: "trainer-table", testid: "trainer-mistake-list" },
      h("caption", { class: "sr-only" }, t("trainer.latestMistakes")),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          [t("trainer.hand"), t("trainer.upCard"), t("trainer.you"), t("trainer.best"), t("trainer.loss")].map((head) => h("th", { scope: "col" }, head)),
          h("th", { scope: "col" }, h("span", { class: "sr-only" }, t("trainer.round"))),
        ),
      ),
      h(
        "tbody",
        {},
        mistakes.map((d) =>
          h(
            "tr",
            { testid: "trainer-mistake", dataset: { roundId: d.round_id } },
            h(
              "td",
              {},
              h(
                "div",
                { class: "cards" },
                (d.cards || []).map((c) => card(c, { small: true })),
              ),
              h("span", { class: "muted small" }, decisionHandLabel(d)),
            ),
            h("td", {}, d.up ? card(d.up, { small: true }) : "—"),
            h("td", {}, decisionActionLabel(d, d.action)),
            h("td", {}, decisionActionLabel(d, graded(d, level).best)),
            lossCell(graded(d, level).loss, d.bet, level),
            h("td", {}, roundLink(d, { testid: "trainer-mistake-round" })),
          ),
        ),
      ),
    ),
  );
}

/** A mistake's loss per unit bet and in coins; against the counter or the chart, which value no play, "—". */
function lossCell(loss, bet, level) {
  if (loss === null) return h("td", { class: "loss" }, "—", h("span", { class: "sr-only" }, ` ${t("trainer.noEv", { play: levelPlay(level) })}`));
  return h("td", { class: "loss" }, formatLoss(loss), h("br"), h("span", { class: "muted small" }, coinsWords(loss * bet)));
}

/** An amount in coins in words: "0.27 coins". */
const coinsWords = (amount) => t("trainer.coins", { count: Math.round(amount * 100) / 100 });

/** The link to a decision's graded round: "Round", and to a screen reader which hand against which card. */
function roundLink(d, attrs) {
  const card = parseCard(d.up)?.name;
  const hand = decisionHandLabel(d);
  return h(
    "a",
    { href: `#/trainer/${encodeURIComponent(d.round_id)}`, ...attrs },
    t("trainer.round"),
    h("span", { class: "sr-only" }, ` ${card ? t("trainer.roundOf", { hand, card }) : t("trainer.roundOfHand", { hand })}`),
  );
}

/** A level's name as the API has it ("expert"), in words. */
const levelName = (level) => t(`trainer.levelName.${level}`);

// ---------------------------------------------------------------- one round, graded

const capitalized = (text) => `${text[0].toUpperCase()}${text.slice(1)}`;

async function showGradedRound(main, roundId, isCurrent) {
  clear(main).appendChild(h("p", { class: "loading" }, t("trainer.loadingRound")));
  let r;
  try {
    r = await api.round(roundId);
  } catch (e) {
    if (!isCurrent()) return;
    clear(main).appendChild(h("p", { class: "panel", testid: "trainer-round-error" }, t("trainer.roundUnavailable", { problem: errorText(e) })));
    return;
  }
  const tables = await loadTables().catch(() => []); // the table's name is optional
  if (!isCurrent()) return;
  const level = settings.coachLevel;
  const user = (r.boxes || []).filter((b) => b.player === "user");
  clear(main).appendChild(
    h(
      "section",
      { class: "trainer panel", testid: "trainer-round", "aria-labelledby": "trainer-round-title" },
      h("h1", { id: "trainer-round-title" }, t("trainer.roundAt", { table: tableName(r.table, tables.find((x) => x.id === r.table)?.name) })),
      h(
        "p",
        { class: "muted small" },
        r.settled_at ? t("trainer.roundSettled", { when: formatDateTime(r.settled_at), net: formatSigned(r.net) }) : t("trainer.inPlay"),
      ),
      h("p", { class: "muted small", testid: "trainer-round-against" }, gradedAs(level)),
      dealerRow(r.dealer),
      user.map((b) =>
        b.hands.map((hand, i) =>
          h(
            "div",
            { class: "trainer-hand" },
            h("h2", {}, t("trainer.boxHand", { box: b.box + 1, hand: i + 1 })),
            h(
              "div",
              { class: "cards" },
              hand.cards.map((c) => card(c, { small: true })),
            ),
            h(
              "ol",
              { class: "trainer-decisions", testid: `trainer-decisions-${b.box}-${i}` },
              (hand.decisions || []).map((d) =>
                h(
                  "li",
                  {},
                  `${decisionHandLabel(d)}: ${decisionActionLabel(d, d.action)}`,
                  isMistake(d, level) ? ` · ${capitalized(betterPlay(d, level))}` : " ✓",
                  gradeOf(level) === "hard" && d.expert_best !== undefined && d.expert_best !== d.best
                    ? h(
                        "span",
                        { class: "deviation", testid: "trainer-round-deviation" },
                        ` · ${t("trainer.perfectForShoe", {
                          play: decisionActionLabel(d, d.expert_best),
                          mark: isExpertMistake(d) ? `(${formatLoss(d.expert_loss)})` : "✓",
                        })}`,
                      )
                    : null,
                ),
              ),
            ),
          ),
        ),
      ),
      h("p", {}, h("a", { href: "#/trainer", class: "btn btn-ghost btn-small" }, t("trainer.back"))),
    ),
  );
}
