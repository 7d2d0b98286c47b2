// A table's strategy card.
import { api, loadTables } from "./api.js";
import { clear, h } from "./dom.js";
import { actionLabel, CHART_LETTER, chartRowKeys, chartRowLabel, formatCoins, formatEv, formatSigned, rowHandEvs, UP_CARDS, varianceLabel } from "./format.js";
import { t } from "./i18n.js";
import { playWord, sectionName, upWord } from "./indexplays.js";
import { tableName } from "./tablenames.js";
import { errorText } from "./ui.js";

export async function showStrategy(main, id, isCurrent) {
  clear(main).appendChild(h("p", { class: "loading" }, t("strategy.loading")));
  let tables = [];
  try {
    tables = await loadTables();
  } catch {
    /* the name is optional */
  }
  const title = t("strategy.title", { table: tableName(id, tables.find((x) => x.id === id)?.name) });
  let data;
  try {
    data = await api.strategy(id);
  } catch (e) {
    if (isCurrent()) clear(main).appendChild(unavailable(title, e));
    return;
  }
  if (isCurrent()) clear(main).appendChild(strategyCard(id, title, data));
}

function unavailable(title, e) {
  const words = e.status === 404 || e.status === 501 ? t("strategy.notYet") : t("strategy.unavailable", { problem: errorText(e) });
  return h(
    "section",
    { class: "panel strategy" },
    h("h1", {}, title),
    h("p", { testid: "strategy-unavailable" }, words),
    h("a", { href: "#/lobby", class: "btn btn-ghost" }, t("strategy.lobby")),
  );
}

function strategyCard(id, title, data) {
  const pe = Number(data.player_ev);
  const sections = ["hard", "soft", "pairs"].filter((s) => data.chart?.[s]);
  const hasEv = data.ev && Object.keys(data.ev).length > 0;
  const detail = h("div", { class: "panel ev-detail", testid: "strategy-ev", "aria-live": "polite", hidden: true });
  const links = h(
    "div",
    { class: "table-links" },
    h("a", { href: "#/lobby", class: "btn btn-ghost" }, t("strategy.lobby")),
    h("a", { href: `#/table/${encodeURIComponent(id)}`, class: "btn btn-primary" }, t("strategy.toTable")),
  );
  return h(
    "section",
    { class: "strategy", testid: "strategy" },
    h("div", { class: "table-head" }, h("h1", {}, title), links),
    h(
      "p",
      { class: "player-ev", testid: "strategy-player-ev" },
      pe < 0
        ? t("strategy.playerEvHouse", { ev: formatSigned(Math.round(pe * 1000) / 1000), edge: formatCoins(Math.round(-pe * 1000) / 1000) })
        : t("strategy.playerEv", { ev: formatSigned(Math.round(pe * 1000) / 1000) }),
      data.variance !== undefined && data.variance !== null ? [", ", h("span", { testid: "strategy-variance" }, varianceLabel(data.variance))] : null,
      ".",
    ),
    // Under the card's figures, not in its head: a phone's head holds two links only.
    h(
      "p",
      { class: "small" },
      // The link is the sentence's last words, after a colon, so it reads whole in every language.
      `${t("strategy.countsChange")} `,
      h("a", { href: `#/indices/${encodeURIComponent(id)}`, testid: "strategy-indices-link" }, t("strategy.indicesLink")),
      ".",
    ),
    h(
      "ul",
      { class: "legend", "aria-label": t("strategy.legend") },
      chartActions(data.chart).map((a) => h("li", { testid: `legend-${a}` }, h("span", { class: `cell act-${a}` }, CHART_LETTER[a]), ` ${playWord(a)}`)),
    ),
    hasEv ? h("p", { class: "muted small" }, t("strategy.pickCell")) : null,
    sections.map((s) => chartTable(s, data.chart[s], hasEv ? (section, row, up) => showCell(detail, data, section, row, up) : null)),
    detail,
  );
}

/** The EVs of every action for the two-card hands of a chart cell's row. */
function showCell(detail, data, section, row, up) {
  const hands = rowHandEvs(data.ev, section, row, up);
  const evRow = (x) =>
    h(
      "tr",
      {},
      h("th", { scope: "row" }, x.hand.replace(/T/g, "10")),
      h(
        "td",
        {},
        x.evs.map(([a, v], i) => h("span", { class: i === 0 ? "best" : "" }, `${actionLabel(a)} ${formatEv(v)}`)),
      ),
    );
  const table = h(
    "table",
    { class: "ev-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("strategy.hand")), h("th", { scope: "col" }, t("strategy.evPerUnit")))),
    h("tbody", {}, hands.map(evRow)),
  );
  detail.hidden = false;
  clear(detail).append(
    h("h2", {}, cellWords(section, row, up, data.chart[section][row][up])),
    hands.length ? table : h("p", { class: "muted" }, t("strategy.noHandValues")),
  );
  detail.scrollIntoView({ block: "nearest" });
}

/** The actions this table's chart uses, in the legend's order. */
function chartActions(chart) {
  const used = new Set(Object.values(chart || {}).flatMap((rows) => Object.values(rows).flatMap((cells) => Object.values(cells))));
  return Object.keys(CHART_LETTER).filter((a) => used.has(a));
}

/** A chart cell in words: "Hard 16 against 10: stand". */
const cellWords = (section, row, up, action) => t("strategy.cell", { row: chartRowLabel(section, row), up: upWord(up), play: playWord(action) });

function chartTable(section, rows, onPick) {
  return h(
    "div",
    { class: "chart-wrap" },
    h(
      "table",
      { class: "chart", testid: `strategy-chart-${section}` },
      h("caption", {}, sectionName(section)),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, t("strategy.handDealer")),
          UP_CARDS.map((u) => h("th", { scope: "col" }, upWord(u))),
        ),
      ),
      h(
        "tbody",
        {},
        chartRowKeys(section, rows).map((k) =>
          h(
            "tr",
            {},
            h("th", { scope: "row" }, chartRowLabel(section, k)),
            UP_CARDS.map((u) => {
              const a = rows[k]?.[u];
              const words = a ? cellWords(section, k, u, a) : null;
              const letter = a ? CHART_LETTER[a] || a : "";
              return h(
                "td",
                { class: `cell act-${a || "none"}`, title: words },
                onPick && a ? h("button", { type: "button", class: "cell-btn", "aria-label": words, onclick: () => onPick(section, k, u) }, letter) : letter,
              );
            }),
          ),
        ),
      ),
    ),
  );
}
