// History and statistics.
import { api, loadTables } from "./api.js";
import { card, clear, dealerRow, h } from "./dom.js";
import { formatCoins, formatSigned, handTotalLabel, insuranceLine, resultLabel, resultTone } from "./format.js";
import { formatDateTime, formatNumber, t } from "./i18n.js";
import { tableName } from "./tablenames.js";
import { errorText, reportError, setBalance } from "./ui.js";

/** "30 Nov 2026, 12:34" in the player's time zone, or null without a time. */
function roundTime(round) {
  const at = round.settled_at || round.started_at;
  if (!at) return null;
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? null : formatDateTime(d, { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });
}

function miniRound(r, tablesById) {
  const name = tableName(r.table, tablesById[r.table]?.name);
  const user = (r.boxes || []).filter((b) => b.player === "user");
  const when = roundTime(r);
  const graded = user.some((b) => b.hands.some((hd) => (hd.decisions || []).length > 0));
  return h(
    "li",
    { class: "history-item", testid: "history-item", dataset: { roundId: r.round_id } },
    h(
      "div",
      { class: "hi-head" },
      h("strong", {}, name),
      // written by Intl in the player's language already: nothing for a translator to do
      when ? h("time", { class: "muted small", datetime: r.settled_at || r.started_at, testid: "history-time", translate: "no" }, when) : null,
      h("span", { class: `net ${r.net > 0 ? "pos" : r.net < 0 ? "neg" : ""}`, testid: "history-net" }, formatSigned(r.net)),
    ),
    h(
      "div",
      { class: "hi-body" },
      dealerRow(r.dealer),
      user.map((b) => [
        b.hands.map((hd) =>
          h(
            "div",
            { class: "hi-hand" },
            h("span", { class: "muted small" }, t("history.hand", { box: b.box + 1, total: handTotalLabel(hd), bet: formatCoins(hd.bet) })),
            h(
              "div",
              { class: "cards" },
              hd.cards.map((c) => card(c, { small: true })),
            ),
            hd.result ? h("span", { class: `result result-${resultTone(hd.result)}` }, resultLabel(hd)) : null,
          ),
        ),
        b.insurance != null
          ? h(
              "p",
              { class: "hi-insurance small", testid: "history-insurance" },
              t("history.insurance", { box: b.box + 1, insurance: insuranceLine(b, null, r.dealer) }),
            )
          : null,
      ]),
    ),
    h(
      "div",
      { class: "hi-links" },
      graded
        ? h("a", { href: `#/trainer/${encodeURIComponent(r.round_id)}`, class: "btn btn-ghost btn-small", testid: "history-decisions" }, t("history.graded"))
        : null,
      h("a", { href: `#/verify/${encodeURIComponent(r.shoe_id)}`, class: "btn btn-ghost btn-small", testid: "history-verify" }, t("history.verify")),
    ),
  );
}

export async function showHistory(main, isCurrent) {
  clear(main);
  const statsBox = h(
    "section",
    { class: "panel stats", testid: "stats", "aria-labelledby": "stats-title" },
    h("h2", { id: "stats-title" }, t("history.stats")),
    h("p", { class: "loading" }, t("history.loading")),
  );
  let tables = [];
  try {
    tables = await loadTables();
  } catch {
    tables = [];
  }
  if (!isCurrent()) return;
  const rounds = roundList(tables, isCurrent);
  main.appendChild(h("div", { class: "history-page" }, h("h1", {}, t("nav.history")), statsBox, rounds.section));
  loadStats(statsBox, isCurrent);
  rounds.reload();
}

async function loadStats(statsBox, isCurrent) {
  try {
    const me = await api.me();
    if (!isCurrent()) return;
    setBalance(me.balance, { flash: false });
    const s = me.stats || {};
    clear(statsBox).append(
      h("h2", { id: "stats-title" }, t("history.statsOf", { nick: me.nick })),
      h(
        "dl",
        { class: "stat-grid" },
        stat(t("history.balance"), formatCoins(me.balance), "stats-balance"),
        stat(t("history.rounds"), formatNumber(s.rounds ?? 0), "stats-rounds"),
        stat(t("history.won"), formatNumber(s.hands_won ?? 0), "stats-won"),
        stat(t("history.lost"), formatNumber(s.hands_lost ?? 0), "stats-lost"),
        stat(t("history.pushed"), formatNumber(s.hands_pushed ?? 0), "stats-pushed"),
        stat(t("history.net"), formatSigned(s.net ?? 0), "stats-net"),
      ),
    );
  } catch (e) {
    if (!isCurrent()) return;
    clear(statsBox).append(h("h2", {}, t("history.stats")), h("p", {}, errorText(e)));
    reportError(e);
  }
}

/** The settled rounds, newest first, a page at a time, filtered by table. */
function roundList(tables, isCurrent) {
  const byId = Object.fromEntries(tables.map((table) => [table.id, table]));
  const list = h("ul", { class: "history-list", testid: "history-list", "aria-live": "polite" });
  const more = h("button", { type: "button", class: "btn", testid: "history-more", hidden: true }, t("history.more"));
  const empty = h("p", { class: "muted", testid: "history-empty", hidden: true }, t("history.empty"));
  const filter = h(
    "select",
    { testid: "history-table" },
    h("option", { value: "" }, t("history.allTables")),
    tables.map((table) => h("option", { value: table.id }, tableName(table.id, table.name))),
  );
  let cursor = null;
  let gen = 0;
  async function page(reset) {
    const my = reset ? ++gen : gen;
    more.disabled = true;
    try {
      const res = await api.rounds({ table: filter.value || undefined, limit: 20, cursor: reset ? undefined : cursor });
      if (!isCurrent() || my !== gen) return;
      if (reset) clear(list);
      for (const r of res.rounds || []) list.appendChild(miniRound(r, byId));
      cursor = res.next_cursor;
      more.hidden = !cursor;
      empty.hidden = list.children.length > 0;
    } catch (e) {
      reportError(e);
    } finally {
      more.disabled = false;
    }
  }
  const reload = () => {
    cursor = null;
    page(true);
  };
  filter.addEventListener("change", reload);
  more.addEventListener("click", () => cursor && page(false));
  const head = h(
    "div",
    { class: "history-head" },
    h("h2", { id: "history-title" }, t("history.last")),
    h("label", { class: "inline-field" }, t("history.table"), " ", filter),
  );
  return { section: h("section", { class: "panel", "aria-labelledby": "history-title" }, head, list, empty, more), reload };
}

function stat(label, value, testid) {
  return h("div", { class: "stat" }, h("dt", {}, label), h("dd", { testid }, String(value)));
}
