// The table's head, the count badge and the drawers: the rules, the provably fair shoe
// (client seed, cut card, verification) and the settings. Kept off the felt so a round
// fits one screen.
import { api } from "./api.js";
import { h } from "./dom.js";
import { formatEdgePercent, formatPercent } from "./format.js";
import { formatCount } from "./hilo.js";
import { formatNumber, t } from "./i18n.js";
import { clientSeedError, isShoeFresh } from "./input.js";
import { SPEEDS } from "./pacing.js";
import { ruleSentences, tableCapabilities, tableSummary } from "./rules.js";
import { COACH_LEVELS, settings } from "./settings.js";
import { tableName } from "./tablenames.js";
import { languagePicker } from "./ui.js";

/** The drawers, each named in the language spoken when it shows (panels.drawer.<name>). */
const PANELS = ["rules", "fairness", "settings"].map((name) => ({
  name,
  get label() {
    return t(`panels.drawer.${name}`);
  },
}));

export function renderToolbar(ctl) {
  const table = ctl.state.table;
  return h(
    "div",
    { class: "table-head" },
    h(
      "div",
      { class: "table-title" },
      h("h1", { id: "table-title", testid: "table-name" }, tableName(table.id, table.name)),
      h("p", { class: "muted small summary" }, tableSummary(table)),
    ),
    h(
      "div",
      { class: "table-links" },
      renderPanelButtons(ctl),
      h("a", { href: `#/strategy/${encodeURIComponent(table.id)}`, class: "btn btn-ghost btn-small", testid: "strategy-link" }, t("panels.strategy")),
      lobbyLink(),
    ),
  );
}

/** The way back to the lobby, from a table's head or a shared table's. */
export const lobbyLink = () => h("a", { href: "#/lobby", class: "btn btn-ghost btn-small", testid: "back-to-lobby" }, t("panels.lobby"));

/** The drawers' buttons (a table's head, a shared table's). */
export function renderPanelButtons(ctl) {
  return PANELS.map((p) =>
    h(
      "button",
      {
        type: "button",
        class: "btn btn-ghost btn-small",
        testid: `open-${p.name}`,
        "aria-expanded": ctl.state.panel === p.name ? "true" : "false",
        "aria-controls": `panel-${p.name}`,
        onclick: () => ctl.togglePanel(p.name),
      },
      p.label,
    ),
  );
}

export function renderPanels(ctl) {
  const S = ctl.state;
  const bodies = { rules: renderRules(S), fairness: renderFairness(ctl), settings: renderSettings(ctl) };
  return PANELS.map((p) =>
    h(
      "aside",
      { class: "drawer", id: `panel-${p.name}`, testid: `panel-${p.name}`, hidden: S.panel !== p.name, "aria-labelledby": `panel-${p.name}-title` },
      h(
        "div",
        { class: "drawer-head" },
        h("h2", { id: `panel-${p.name}-title`, tabindex: "-1" }, p.label),
        h(
          "button",
          {
            type: "button",
            class: "btn btn-ghost btn-small",
            testid: `close-${p.name}`,
            "aria-label": t("panels.close", { drawer: p.label }),
            onclick: () => ctl.togglePanel(p.name),
          },
          "×",
        ),
      ),
      bodies[p.name],
    ),
  );
}

/** The Hi-Lo count of the cards on the felt and before them (null: not known yet). */
export function renderCountBadge(count, table) {
  const words = count
    ? t("panels.countWords", { running: formatCount(count.running), true: formatCount(count.true, 2), count: count.cards_unseen })
    : t("panels.countBeingRead");
  const item = (label, value, testid) => h("span", { class: "count-item" }, h("span", { class: "count-label" }, label), h("b", { testid }, value));
  return h(
    "div",
    {
      class: "count-badge",
      testid: "count-badge",
      role: "group",
      "aria-label": words,
      title: t(table.rules?.shuffle === "every_round" ? "panels.countEveryRound" : "panels.countSinceShuffle"),
      dataset: count ? { running: String(count.running), true: String(count.true), unseen: String(count.cards_unseen) } : {},
    },
    h("span", { class: "count-system", "aria-hidden": "true", translate: "no" }, "Hi-Lo"),
    count
      ? [
          item(t("panels.running"), formatCount(count.running), "badge-running"),
          item(t("panels.true"), formatCount(count.true, 2), "badge-true"),
          item(t("panels.cardsLeft"), formatNumber(count.cards_unseen), "badge-unseen"),
        ]
      : h("span", { class: "count-item muted" }, "…"),
  );
}

/**
 * Beside the badge, between rounds: the edge of the next round, and of a fresh shoe (GET …/edge),
 * with a line saying whose it is: the Indices page's edge at a true count is an average shoe's,
 * so the two differ at the same true count (issue 42). A line, not a tooltip: touch shows no title.
 */
export function renderEdge(edge) {
  if (!edge) return null;
  return h(
    "p",
    {
      class: `edge-line ${Number(edge.edge) > 0 ? "edge-player" : "edge-house"}`,
      id: "edge-line",
      testid: "edge",
      title: t("panels.edgeTitle"),
      dataset: { edge: String(edge.edge), fresh: String(edge.fresh_edge) },
    },
    // "Edge −0.51% · fresh −0.51%", in parts a wide screen stacks beside the badge
    h("span", { class: "edge-item" }, t("panels.edge"), " ", h("b", {}, formatEdgePercent(edge.edge))),
    h("span", { class: "edge-sep" }, " · "),
    h("span", { class: "edge-item" }, t("panels.edgeFresh"), " ", h("b", {}, formatEdgePercent(edge.fresh_edge))),
    " ",
    // What the edge beside the count is, against the Indices page's at the same true count.
    h("span", { class: "edge-note", testid: "edge-note" }, t("panels.edgeNote")),
  );
}

function renderRules(S) {
  const id = encodeURIComponent(S.table.id);
  return [
    // What these rules make of a count, first: a phone's list of rules is longer than its screen.
    h("p", { class: "small" }, h("a", { href: `#/indices/${id}`, class: "btn btn-small", testid: "indices-link" }, t("panels.indicesLink"))),
    h(
      "ul",
      { class: "rule-list", testid: "table-rules" },
      ruleSentences(S.table).map((s) => h("li", {}, s)),
    ),
  ];
}

function renderFairness(ctl) {
  const S = ctl.state;
  const sh = S.shoe;
  if (!sh) return null;
  return h(
    "div",
    { class: "fairness", testid: "fairness" },
    isShoeFresh(sh) ? renderShoeOptions(S) : null,
    h(
      "dl",
      {},
      h("dt", {}, t("panels.serverSeedHash")),
      h("dd", { class: "mono break", testid: "shoe-hash", translate: "no" }, sh.server_seed_hash),
      h("dt", {}, t("panels.clientSeed")),
      h("dd", { class: "mono break", testid: "shoe-client-seed", translate: "no" }, sh.client_seed ?? "—"),
      h("dt", {}, t("panels.nonce")),
      h("dd", { class: "mono", testid: "shoe-nonce" }, String(sh.nonce)),
      h("dt", {}, t("panels.cardsLeft")),
      h("dd", { testid: "shoe-remaining" }, t(sh.cut_card_out ? "panels.cardsOfCutOut" : "panels.cardsOf", { left: sh.cards_remaining, total: 52 * sh.decks })),
    ),
    h("p", { class: "small", testid: "shoe-retires" }, retireSentence(S.table, sh)),
    h("p", { class: "muted small" }, t("panels.hashNote")),
    S.lastRetired
      ? h("a", { href: `#/verify/${encodeURIComponent(S.lastRetired)}`, class: "btn btn-small", testid: "verify-last-shoe" }, t("panels.verifyLast"))
      : h("p", { class: "muted small", testid: "no-retired-shoe" }, t("panels.noRetiredShoe")),
  );
}

/** When the shoe in play is retired, in words. */
function retireSentence(table, shoe) {
  if (table.rules?.shuffle === "every_round") return t("panels.retiresEveryRound");
  if (shoe.cut_card_out) return t("panels.retiresCutOut");
  return t("panels.retiresAtCut");
}

function renderShoeOptions(S) {
  const caps = tableCapabilities(S.table);
  const seedErr = clientSeedError(S.clientSeed.trim());
  const seedErrEl = h("span", { class: "field-error", testid: "client-seed-error", "aria-live": "polite" }, seedErr || "");
  const onSeed = (e) => {
    S.clientSeed = e.target.value;
    const err = clientSeedError(S.clientSeed.trim());
    seedErrEl.textContent = err || "";
    e.target.setAttribute("aria-invalid", err ? "true" : "false");
  };
  const cutValue = h("output", { testid: "cut-value" }, formatPercent(S.cut));
  const onCut = (e) => {
    S.cut = Number(e.target.value);
    S.cutTouched = true;
    cutValue.textContent = formatPercent(S.cut);
  };
  return h(
    "div",
    { class: "shoe-options" },
    h("p", { class: "muted small" }, t(caps.cutRange ? "panels.newShoeSeedAndCut" : "panels.newShoeSeed")),
    h(
      "label",
      { class: "field" },
      t("panels.clientSeedOptional"),
      // No re-render while typing: it would swallow the next click.
      h("input", {
        type: "text",
        testid: "client-seed",
        translate: "no", // its placeholder is the shoe's seed
        value: S.clientSeed,
        maxlength: "64",
        autocomplete: "off",
        spellcheck: "false",
        placeholder: S.shoe?.client_seed || "",
        "aria-invalid": seedErr ? "true" : "false",
        oninput: onSeed,
      }),
      seedErrEl,
    ),
    caps.cutRange
      ? h(
          "label",
          { class: "field" },
          h("span", {}, t("panels.cutAt"), " ", cutValue),
          h("input", {
            type: "range",
            testid: "cut",
            min: String(caps.cutRange[0]),
            max: String(caps.cutRange[1]),
            step: "0.01",
            value: String(S.cut),
            oninput: onCut,
          }),
        )
      : null,
  );
}

function renderSettings(ctl) {
  const change = (apply) => (e) => {
    apply(e.target);
    ctl.render();
  };
  return h(
    "div",
    { class: "settings", testid: "settings" },
    h(
      "label",
      { class: "field" },
      t("panels.speed"),
      h(
        "select",
        { testid: "speed", onchange: change((el) => (settings.speed = el.value)) },
        Object.keys(SPEEDS).map((s) => h("option", { value: s, selected: settings.speed === s ? true : null }, t(`panels.speed.${s}`))),
      ),
      h("span", { class: "field-hint" }, t("panels.speedHint")),
    ),
    h(
      "label",
      { class: "toggle" },
      h("input", { type: "checkbox", testid: "sound-toggle", checked: settings.sound, onchange: change((el) => (settings.sound = el.checked)) }),
      " ",
      t("panels.sound"),
    ),
    h(
      "label",
      { class: "toggle" },
      h("input", { type: "checkbox", testid: "hold-marks", checked: settings.holdMarks, onchange: change((el) => (settings.holdMarks = el.checked)) }),
      " ",
      t("panels.holdMarks"),
    ),
    h(
      "label",
      { class: "toggle" },
      h("input", { type: "checkbox", testid: "count-toggle", checked: settings.showCount, onchange: (e) => ctl.setShowCount(e.target.checked) }),
      " ",
      t("panels.showCount"),
    ),
    h(
      "label",
      { class: "field" },
      t("panels.coachLevel"),
      h(
        "select",
        { testid: "coach-level", onchange: change((el) => ctl.setCoachLevel(el.value)) },
        Object.entries(COACH_LEVELS).map(([level, label]) => h("option", { value: level, selected: settings.coachLevel === level ? true : null }, t(label))),
      ),
      h("span", { class: "field-hint" }, t("panels.coachLevelHint")),
    ),
    languagePicker(),
  );
}

/** The newest of the user's shoes at a table that has been retired (its seed revealed), or null. */
export async function lastRetiredShoe(tableId, currentShoeId) {
  const { rounds } = await api.rounds({ table: tableId, limit: 20 });
  const ids = [...new Set((rounds || []).map((r) => r.shoe_id))].filter((id) => id !== currentShoeId);
  for (const id of ids.slice(0, 3)) {
    const shoe = await api.shoe(id);
    if (shoe.retired) return id;
  }
  return null;
}
