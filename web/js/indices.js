// The Indices page (`#/indices/{table}`, API.md GET …/indices): a table's Hi-Lo index plays
// ranked by what each is worth (the top 18 first, all on demand) and on its chart, the
// insurance index, the edge by true count as a plot, and the Kelly bet at each true count
// for a bankroll the player types. The words, the ranking, the plot's geometry and the
// Kelly arithmetic are in indexplays.js.
import { api, getSession, loadTables } from "./api.js";
import { clear, h } from "./dom.js";
import { CHART_LETTER, chartRowKeys, formatCoins, formatEdgePercent, UP_CARDS } from "./format.js";
import { formatNumber, t } from "./i18n.js";
import {
  deckCount,
  edgeAxis,
  firstDecisionBound,
  indexMark,
  indexWords,
  indicesByCell,
  kellyBet,
  PLOT,
  parseBankroll,
  playKey,
  playWord,
  plotScales,
  rankedPlays,
  sectionName,
  shortRow,
  signedCount,
  TOP_PLAYS,
  upWord,
  worthCoins,
} from "./indexplays.js";
import { tableName } from "./tablenames.js";
import { errorText } from "./ui.js";

const SVG = "http://www.w3.org/2000/svg";

function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined) continue;
    if (k === "testid") el.setAttribute("data-testid", v);
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export async function showIndices(main, id, isCurrent) {
  clear(main).appendChild(h("p", { class: "loading" }, t("indices.loading")));
  let tables = [];
  try {
    tables = await loadTables();
  } catch {
    /* the name is optional */
  }
  const table = tables.find((x) => x.id === id);
  const name = tableName(id, table?.name);
  const [indices, card] = await Promise.allSettled([api.indices(id), api.strategy(id)]);
  if (!isCurrent()) return;
  if (indices.status === "rejected") {
    const e = indices.reason;
    const words = e?.status === 404 ? t("indices.none") : t("indices.unavailable", { problem: errorText(e) });
    clear(main).appendChild(
      h("section", { class: "panel indices" }, h("h1", {}, t("indices.title", { table: name })), h("p", { testid: "indices-unavailable" }, words), links(id)),
    );
    return;
  }
  clear(main).appendChild(page(id, name, table?.rules, indices.value, card.status === "fulfilled" ? card.value : null));
}

function links(id) {
  return h(
    "div",
    { class: "table-links" },
    h("a", { href: "#/lobby", class: "btn btn-ghost btn-small" }, t("indices.tables")),
    h("a", { href: `#/strategy/${encodeURIComponent(id)}`, class: "btn btn-ghost btn-small", testid: "indices-strategy-link" }, t("indices.strategyCard")),
    h("a", { href: `#/table/${encodeURIComponent(id)}`, class: "btn btn-primary btn-small" }, t("indices.toTable")),
  );
}

function page(id, name, rules, data, card) {
  const byCell = indicesByCell(data.indices);
  const ranked = rankedPlays(data.indices, data.worth);
  const top = new Set(ranked.slice(0, TOP_PLAYS).map(playKey));
  const count = ranked.length;
  const decks = data.decks_unseen;
  const root = h(
    "div",
    { class: "indices", testid: "indices", dataset: { table: id, shown: "top" } },
    h("div", { class: "table-head indices-head" }, h("h1", {}, t("indices.title", { table: name })), links(id)),
    h("p", { class: "indices-intro" }, t("indices.intro", { count, decks: deckCount(decks) })),
    rules?.shuffle === "every_round" ? shuffleNote(rules, ranked) : null,
    h(
      "div",
      { class: "indices-grid" },
      h(
        "div",
        { class: "indices-plays" },
        rankedPanel(ranked, (all) => {
          root.dataset.shown = all ? "all" : "top";
        }),
        h(
          "section",
          { class: "panel indices-chart", testid: "indices-chart", "aria-labelledby": "indices-chart-title" },
          h("h2", { id: "indices-chart-title" }, t("indices.chartTitle")),
          insuranceLine(byCell.insurance),
          h("p", { class: "muted small" }, t("indices.chartNote", { top: Math.min(TOP_PLAYS, count) })),
          legend(data.indices),
          ["hard", "soft", "pairs"].filter((sec) => byCell[sec].size).map((sec) => chartTable(sec, byCell[sec], card?.chart?.[sec], top)),
        ),
      ),
      edgePanel(data.edge || [], card, decks),
    ),
  );
  return root;
}

/** At a table that shuffles every round: why counting gains almost nothing there. */
function shuffleNote(rules, ranked) {
  const decks = Number(rules.decks);
  const bound = firstDecisionBound(decks);
  const total = ranked.reduce((sum, ix) => sum + ix.worth, 0);
  return h(
    "p",
    { class: "indices-shuffle-note", testid: "indices-shuffle-note" },
    h("strong", {}, t("indices.shuffleGains")),
    " ",
    t("indices.shuffleNote", { bound, decks: deckCount(decks), count: ranked.length, coins: worthCoins(total) }),
  );
}

/** The ranking's title: none worth anything (a table shuffled every round), or the top 18. */
function rankedTitle(ranked) {
  if (!ranked.some((ix) => ix.worth > 0)) return t("indices.rankedNone");
  return ranked.length > TOP_PLAYS ? t("indices.rankedTop", { count: TOP_PLAYS }) : t("indices.rankedAll");
}

/** The plays by what each is worth, the top 18 first; "Show all" lists the rest (and colours them on the chart). */
function rankedPanel(ranked, onShown) {
  const rest = ranked.length - TOP_PLAYS;
  const items = ranked.map((ix, i) =>
    h(
      "li",
      {
        class: "ranked-play",
        testid: "ranked-play",
        hidden: i >= TOP_PLAYS,
        dataset: { section: ix.section, row: ix.row, up: ix.up, direction: ix.direction, index: String(ix.index), worth: String(ix.worth) },
      },
      h("span", { class: "ranked-row" }, h("span", {}, indexWords(ix)), h("span", { class: "ranked-worth", testid: "ranked-worth" }, worthCoins(ix.worth))),
    ),
  );
  const toggle =
    rest > 0
      ? h(
          "button",
          {
            type: "button",
            class: "btn btn-small",
            testid: "indices-show-all",
            "aria-expanded": "false",
            "aria-controls": "ranked-plays",
            onclick: () => {
              const all = toggle.getAttribute("aria-expanded") !== "true";
              toggle.setAttribute("aria-expanded", String(all));
              toggle.textContent = all ? t("indices.showTop", { count: TOP_PLAYS }) : t("indices.showAll", { count: ranked.length });
              items.slice(TOP_PLAYS).forEach((li) => {
                li.hidden = !all;
              });
              onShown(all);
            },
          },
          t("indices.showAll", { count: ranked.length }),
        )
      : null;
  return h(
    "section",
    { class: "panel indices-ranked", testid: "indices-ranked", "aria-labelledby": "indices-ranked-title" },
    h("h2", { id: "indices-ranked-title" }, rankedTitle(ranked)),
    h("p", { class: "muted small", id: "ranked-key" }, t("indices.rankedKey")),
    h("ol", { class: "ranked-plays", id: "ranked-plays", testid: "ranked-plays", "aria-describedby": "ranked-key" }, items),
    toggle,
  );
}

function insuranceLine(insurance) {
  if (!insurance.length) return h("p", { class: "indices-insurance", testid: "indices-insurance" }, t("indices.noInsurance"));
  return h(
    "p",
    { class: "indices-insurance", testid: "indices-insurance" },
    insurance.map((ix) =>
      h(
        "span",
        {
          class: "index-entry",
          dataset: { section: ix.section, row: ix.row, up: ix.up, play: ix.play, basic: ix.basic, index: String(ix.index), direction: ix.direction },
        },
        indexWords(ix),
        ".",
      ),
    ),
  );
}

function legend(indices) {
  const used = new Set((indices || []).filter((ix) => ix.section !== "insurance").map((ix) => ix.play));
  return h(
    "ul",
    { class: "legend indices-legend", "aria-label": t("indices.legend") },
    Object.keys(CHART_LETTER)
      .filter((a) => used.has(a))
      .map((a) => h("li", {}, h("span", { class: `cell act-${a}`, "aria-hidden": "true" }, CHART_LETTER[a]), ` ${playWord(a)}`)),
  );
}

function chartTable(section, rows, chartRows, top) {
  const keys = chartRowKeys(section, Object.fromEntries([...rows.keys()].map((k) => [k, true])));
  return h(
    "table",
    { class: "chart index-chart", testid: `indices-chart-${section}` },
    h("caption", {}, sectionName(section)),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, h("span", { class: "sr-only" }, t("indices.handColumn"))),
        UP_CARDS.map((u) => h("th", { scope: "col" }, upWord(u))),
      ),
    ),
    h(
      "tbody",
      {},
      keys.map((row) =>
        h(
          "tr",
          {},
          h("th", { scope: "row" }, shortRow(section, row)),
          UP_CARDS.map((up) => {
            const found = rows.get(row)?.get(up);
            const basic = chartRows?.[row]?.[up];
            if (!found) {
              const always = basic ? t("indices.everyCount", { play: playWord(basic) }) : null;
              return h(
                "td",
                { class: "ix-basic", title: basic ? t("indices.cell", { row: shortRow(section, row), up: upWord(up), play: always }) : null },
                basic ? [h("span", { "aria-hidden": "true" }, CHART_LETTER[basic] || basic), h("span", { class: "sr-only" }, always)] : "",
              );
            }
            return h(
              "td",
              {
                class: `cell ix-cell act-${found[0].play}${found.some((ix) => top.has(playKey(ix))) ? " ix-top" : ""}`,
                title: found.map(indexWords).join("; "),
              },
              found.map((ix) =>
                h(
                  "span",
                  {
                    class: "index-entry",
                    testid: `index-${section}-${row}-${up}-${ix.direction}`,
                    dataset: { section, row, up, play: ix.play, basic: ix.basic, index: String(ix.index), direction: ix.direction },
                  },
                  h("span", { class: "ix-play", "aria-hidden": "true" }, CHART_LETTER[ix.play] || ix.play),
                  h("span", { class: "ix-at", "aria-hidden": "true" }, indexMark(ix)),
                  h("span", { class: "sr-only" }, indexWords(ix)),
                ),
              ),
            );
          }),
        ),
      ),
    ),
  );
}

function edgePanel(edge, card, decks) {
  const variance = card?.variance;
  const balance = getSession()?.user?.balance;
  const start = Number.isFinite(Number(balance)) && Number(balance) > 0 ? Math.floor(Number(balance)) : 10000;
  const body = h("tbody", {});
  const note = h("p", { class: "field-error", testid: "bankroll-error", "aria-live": "polite" });
  const input = h("input", {
    id: "bankroll",
    type: "text",
    inputmode: "numeric",
    autocomplete: "off",
    value: String(start),
    testid: "bankroll",
    "aria-describedby": "bankroll-hint",
    oninput: (e) => fill(e.target.value),
  });
  const fill = (text) => {
    const bankroll = parseBankroll(text);
    input.setAttribute("aria-invalid", bankroll === null ? "true" : "false");
    note.textContent = bankroll === null ? t("indices.bankrollError") : "";
    clear(body).append(
      ...edge.map((p) => {
        const bet = bankroll === null ? null : kellyBet(bankroll, p.edge, variance);
        return h(
          "tr",
          { testid: `kelly-${p.true_count}`, class: Number(p.edge) > 0 ? "plus" : "" },
          h("th", { scope: "row" }, signedCount(p.true_count)),
          h("td", {}, formatEdgePercent(p.edge)),
          h("td", { testid: `kelly-bet-${p.true_count}` }, bet === null ? "—" : formatCoins(bet)),
        );
      }),
    );
  };
  fill(String(start));
  const known = variance !== undefined && variance !== null;
  return h(
    "section",
    { class: "panel indices-edge", testid: "indices-edge", "aria-labelledby": "indices-edge-title" },
    h("h2", { id: "indices-edge-title" }, t("indices.edgeTitle")),
    h("p", { class: "small indices-edge-note", testid: "indices-edge-note" }, t("indices.edgeNote", { decks: deckCount(decks) })),
    plot(edge),
    h(
      "div",
      { class: "field bankroll-field" },
      h("label", { for: "bankroll" }, t("indices.bankroll")),
      input,
      h(
        "span",
        { class: "field-hint", id: "bankroll-hint" },
        known ? t("indices.kellyHint", { variance: formatNumber(variance, { minimumFractionDigits: 2, maximumFractionDigits: 2 }) }) : t("indices.noVariance"),
      ),
      note,
    ),
    h(
      "table",
      { class: "kelly-table", testid: "kelly-table" },
      h("caption", { class: "sr-only" }, t("indices.kellyCaption")),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, t("indices.trueCount")),
          h("th", { scope: "col" }, t("indices.edge")),
          h("th", { scope: "col" }, t("indices.kellyBet")),
        ),
      ),
      body,
    ),
  );
}

function plot(edge) {
  const axis = edgeAxis(edge.map((p) => p.edge));
  const { x, y } = plotScales(axis);
  const f = PLOT;
  const bottom = f.height - f.bottom;
  const right = f.width - f.right;
  const first = edge[0];
  const last = edge.at(-1);
  const desc =
    first && last
      ? t("indices.plotFromTo", {
          first: formatEdgePercent(first.edge),
          from: signedCount(first.true_count),
          last: formatEdgePercent(last.edge),
          to: signedCount(last.true_count),
        })
      : "";
  const zero = edge.find((p, i) => i > 0 && Number(edge[i - 1].edge) <= 0 && Number(p.edge) > 0);
  return s(
    "svg",
    { class: "edge-plot", viewBox: `0 0 ${f.width} ${f.height}`, role: "img", "aria-labelledby": "edge-plot-title edge-plot-desc", testid: "edge-plot" },
    s("title", { id: "edge-plot-title" }, t("indices.plotTitle", { from: signedCount(-10), to: signedCount(10) })),
    s("desc", { id: "edge-plot-desc" }, zero ? `${desc} ${t("indices.plotPositive", { at: signedCount(zero.true_count) })}` : desc),
    // the grid and the axes
    axis.ticks.map((v) =>
      s(
        "g",
        { class: v === 0 ? "zero" : "tick" },
        s("line", { x1: f.left, x2: right, y1: y(v), y2: y(v), testid: v === 0 ? "edge-zero" : null }),
        s("text", { x: f.left - 5, y: y(v) + 3.5, "text-anchor": "end" }, v === 0 ? "0" : `${v > 0 ? "+" : "−"}${Math.abs(v)}`),
      ),
    ),
    [-10, -5, 0, 5, 10].map((t) =>
      s(
        "g",
        { class: "xtick" },
        s("line", { x1: x(t), x2: x(t), y1: bottom, y2: bottom + 4 }),
        s("text", { x: x(t), y: bottom + 15, "text-anchor": "middle" }, signedCount(t)),
      ),
    ),
    s("line", { class: "axis", x1: f.left, x2: f.left, y1: f.top, y2: bottom }),
    s("line", { class: "axis", x1: f.left, x2: right, y1: bottom, y2: bottom }),
    s("text", { class: "axis-label", x: f.left + (right - f.left) / 2, y: f.height - 4, "text-anchor": "middle" }, t("indices.trueCount")),
    s(
      "text",
      { class: "axis-label", x: 11, y: f.top + (bottom - f.top) / 2, "text-anchor": "middle", transform: `rotate(-90 11 ${f.top + (bottom - f.top) / 2})` },
      t("indices.edgeAxis"),
    ),
    s("polyline", { class: "edge-line", points: edge.map((p) => `${x(p.true_count).toFixed(1)},${y(p.edge).toFixed(1)}`).join(" ") }),
    edge.map((p) =>
      s(
        "circle",
        {
          class: Number(p.edge) > 0 ? "edge-point plus" : "edge-point",
          cx: x(p.true_count).toFixed(1),
          cy: y(p.edge).toFixed(1),
          r: 3,
          testid: "edge-point",
          "data-true-count": p.true_count,
          "data-edge": p.edge,
        },
        s("title", {}, t("indices.pointTitle", { at: signedCount(p.true_count), edge: formatEdgePercent(p.edge) })),
      ),
    ),
  );
}
