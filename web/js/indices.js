// The Indices page (`#/indices/{table}`, API.md GET …/indices): a table's Hi-Lo index plays
// ranked by what each is worth (the top 18 first, all on demand) and on its chart, the
// insurance index, the edge by true count as a plot, and the Kelly bet at each true count
// for a bankroll the player types. The words, the ranking, the plot's geometry and the
// Kelly arithmetic are in indexplays.js.
import { api, getSession, loadTables } from "./api.js";
import { clear, h } from "./dom.js";
import { CHART_LETTER, chartRowKeys, formatCoins, UP_CARDS } from "./format.js";
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
  plotScales,
  rankedPlays,
  shortRow,
  signedCount,
  signedEdge,
  TOP_PLAYS,
  upWord,
  worthCoins,
} from "./indexplays.js";
import { errorText } from "./ui.js";

const SECTION_NAMES = { hard: "Hard totals", soft: "Soft totals", pairs: "Pairs" };
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
  clear(main).appendChild(h("p", { class: "loading" }, "Loading the index plays…"));
  let tables = [];
  try {
    tables = await loadTables();
  } catch {
    /* the name is optional */
  }
  const table = tables.find((x) => x.id === id);
  const name = table?.name || id;
  const [indices, card] = await Promise.allSettled([api.indices(id), api.strategy(id)]);
  if (!isCurrent()) return;
  if (indices.status === "rejected") {
    const e = indices.reason;
    const words = e?.status === 404 ? "This table has no index plays." : `The index plays could not be loaded: ${errorText(e)}`;
    clear(main).appendChild(
      h("section", { class: "panel indices" }, h("h1", {}, `Index plays: ${name}`), h("p", { testid: "indices-unavailable" }, words), links(id)),
    );
    return;
  }
  clear(main).appendChild(page(id, name, table?.rules, indices.value, card.status === "fulfilled" ? card.value : null));
}

function links(id) {
  return h(
    "div",
    { class: "table-links" },
    h("a", { href: "#/lobby", class: "btn btn-ghost btn-small" }, "← Tables"),
    h("a", { href: `#/strategy/${encodeURIComponent(id)}`, class: "btn btn-ghost btn-small", testid: "indices-strategy-link" }, "Strategy card"),
    h("a", { href: `#/table/${encodeURIComponent(id)}`, class: "btn btn-primary btn-small" }, "Play"),
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
    h("div", { class: "table-head indices-head" }, h("h1", {}, `Index plays: ${name}`), links(id)),
    h(
      "p",
      { class: "indices-intro" },
      `Hi-Lo, true count = running count ÷ decks unseen. ${count} index plays, computed for this table's rules on ${deckCount(decks)} unseen: at that true count or beyond it, play the index instead of the strategy card.`,
    ),
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
          h("h2", { id: "indices-chart-title" }, "The chart's index plays"),
          insuranceLine(byCell.insurance),
          h(
            "p",
            { class: "muted small" },
            `A square with a true count is an index: its play (letter) and the true count from which you take it, in colour for the top ${Math.min(TOP_PLAYS, count)} (every one once all are shown). A letter alone is the card's play, which no count changes. Rows without an index are left out.`,
          ),
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
    h("strong", {}, "Counting gains almost nothing here. "),
    `This table shuffles every round, so the count is only of your round's cards: at your first decision at most ±${bound} (three cards of ${deckCount(decks)}), and no index further out ever applies. All ${ranked.length} plays together add ${worthCoins(total)} coins per 100 rounds at a bet of 100: play the strategy card.`,
  );
}

/** The ranking's title: none worth anything (a table shuffled every round), or the top 18. */
function rankedTitle(ranked) {
  if (!ranked.some((ix) => ix.worth > 0)) return "The plays: none adds anything here";
  return ranked.length > TOP_PLAYS ? `The ${TOP_PLAYS} plays worth most` : "The plays by what they are worth";
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
              toggle.textContent = all ? `Show the top ${TOP_PLAYS}` : `Show all ${ranked.length} plays`;
              items.slice(TOP_PLAYS).forEach((li) => {
                li.hidden = !all;
              });
              onShown(all);
            },
          },
          `Show all ${ranked.length} plays`,
        )
      : null;
  return h(
    "section",
    { class: "panel indices-ranked", testid: "indices-ranked", "aria-labelledby": "indices-ranked-title" },
    h("h2", { id: "indices-ranked-title" }, rankedTitle(ranked)),
    h(
      "p",
      { class: "muted small", id: "ranked-key" },
      "What each adds, in coins per 100 rounds at a flat bet of 100 (more with a bet spread), over the true counts this table deals: learn them from the top.",
    ),
    h("ol", { class: "ranked-plays", id: "ranked-plays", testid: "ranked-plays", "aria-describedby": "ranked-key" }, items),
    toggle,
  );
}

function insuranceLine(insurance) {
  if (!insurance.length) return h("p", { class: "indices-insurance", testid: "indices-insurance" }, "Insurance: no index play at this table.");
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
    { class: "legend indices-legend", "aria-label": "The plays' letters" },
    Object.keys(CHART_LETTER)
      .filter((a) => used.has(a))
      .map((a) => h("li", {}, h("span", { class: `cell act-${a}`, "aria-hidden": "true" }, CHART_LETTER[a]), ` ${a}`)),
  );
}

function chartTable(section, rows, chartRows, top) {
  const keys = chartRowKeys(section, Object.fromEntries([...rows.keys()].map((k) => [k, true])));
  return h(
    "table",
    { class: "chart index-chart", testid: `indices-chart-${section}` },
    h("caption", {}, SECTION_NAMES[section]),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, h("span", { class: "sr-only" }, "Hand, against the dealer's up card")),
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
              return h(
                "td",
                { class: "ix-basic", title: basic ? `${shortRow(section, row)} v ${upWord(up)}: ${basic}, at every count` : null },
                basic ? [h("span", { "aria-hidden": "true" }, CHART_LETTER[basic] || basic), h("span", { class: "sr-only" }, `${basic}, at every count`)] : "",
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
    note.textContent = bankroll === null ? "A bankroll is a whole number of coins." : "";
    clear(body).append(
      ...edge.map((p) => {
        const bet = bankroll === null ? null : kellyBet(bankroll, p.edge, variance);
        return h(
          "tr",
          { testid: `kelly-${p.true_count}`, class: Number(p.edge) > 0 ? "plus" : "" },
          h("th", { scope: "row" }, signedCount(p.true_count)),
          h("td", {}, signedEdge(p.edge)),
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
    h("h2", { id: "indices-edge-title" }, "Your edge by true count"),
    h(
      "p",
      { class: "small indices-edge-note", testid: "indices-edge-note" },
      `An average shoe at each true count (${deckCount(decks)} unseen). The edge beside the count at the table is your shoe's own, from its exact cards left: at the same true count it can differ from this by tenths of a percent.`,
    ),
    plot(edge),
    h(
      "div",
      { class: "field bankroll-field" },
      h("label", { for: "bankroll" }, "Bankroll (coins)"),
      input,
      h(
        "span",
        { class: "field-hint", id: "bankroll-hint" },
        known
          ? `Kelly bet = bankroll × edge ÷ variance (${Number(variance).toFixed(2)}), rounded down; 0 where the edge is not positive.`
          : "The table's variance could not be loaded: no Kelly bet.",
      ),
      note,
    ),
    h(
      "table",
      { class: "kelly-table", testid: "kelly-table" },
      h("caption", { class: "sr-only" }, "Edge and Kelly bet at each true count"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "True count"), h("th", { scope: "col" }, "Edge"), h("th", { scope: "col" }, "Kelly bet"))),
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
      ? `From ${signedEdge(first.edge)} at true count ${signedCount(first.true_count)} to ${signedEdge(last.edge)} at ${signedCount(last.true_count)}.`
      : "";
  const zero = edge.find((p, i) => i > 0 && Number(edge[i - 1].edge) <= 0 && Number(p.edge) > 0);
  return s(
    "svg",
    { class: "edge-plot", viewBox: `0 0 ${f.width} ${f.height}`, role: "img", "aria-labelledby": "edge-plot-title edge-plot-desc", testid: "edge-plot" },
    s("title", { id: "edge-plot-title" }, "The player's edge, in percent of the bet, at each true count from −10 to +10"),
    s("desc", { id: "edge-plot-desc" }, `${desc}${zero ? ` The edge turns positive at ${signedCount(zero.true_count)}.` : ""}`),
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
    s("text", { class: "axis-label", x: f.left + (right - f.left) / 2, y: f.height - 4, "text-anchor": "middle" }, "True count"),
    s(
      "text",
      { class: "axis-label", x: 11, y: f.top + (bottom - f.top) / 2, "text-anchor": "middle", transform: `rotate(-90 11 ${f.top + (bottom - f.top) / 2})` },
      "Edge, % of the bet",
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
        s("title", {}, `True count ${signedCount(p.true_count)}: edge ${signedEdge(p.edge)}`),
      ),
    ),
  );
}
