// Under the felt: the decisions while a round is in play, the chips and Deal between rounds.
import { api } from "./api.js";
import { coachWhy } from "./coach.js";
import { h } from "./dom.js";
import { ACTIONS, actionLabel, CHIP_KEYS, evLabel, formatCoins, kellyBox, kellyLabel, kellyNote, levelName } from "./format.js";
import { t } from "./i18n.js";
import { buildRoundRequest, capBet, chipValues, fundsReason, insuranceAmounts } from "./input.js";

export function renderActions(ctl) {
  const S = ctl.state;
  const r = S.round;
  const legal = S.pace ? [] : r.legal_actions || [];
  const hint = S.hint && S.hint.version === r.version ? S.hint : null;
  const offered = ACTIONS.filter((a) => legal.includes(a.name));
  // What the balance cannot cover stays in sight, disabled, with its reason (API.md: 409 `insufficient_funds`).
  const blocked = Object.fromEntries(offered.map((a) => [a.name, fundsReason(r, S.table, S.balance, a.name)]).filter(([, why]) => why));
  const buttons = offered.map((a) => actionButton(ctl, a, legal, hint, blocked[a.name]));
  return h(
    "section",
    { class: "controls actions-panel", "aria-label": t("controls.yourDecision") },
    h("div", { class: "actions", testid: "actions" }, buttons),
    Object.keys(blocked).length
      ? h(
          "ul",
          { class: "action-blocked", testid: "action-blocked" },
          Object.entries(blocked).map(([name, why]) => h("li", { id: `blocked-${name}` }, why)),
        )
      : null,
    S.actionNote ? h("p", { class: "action-note", testid: "action-note" }, S.actionNote) : null,
    renderInsurance(S, legal),
    renderCoach(ctl, hint, legal),
  );
}

function actionButton(ctl, a, legal, hint, blocked) {
  const advised = hint && hint.action === a.name;
  const ev = hint?.ev ? hint.ev[a.name] : undefined;
  const described = [blocked ? `blocked-${a.name}` : null, ev !== undefined && ev !== null ? `ev-${a.name}` : null].filter(Boolean).join(" ");
  return h(
    "div",
    { class: "action-cell" },
    h(
      "button",
      {
        type: "button",
        class: `btn action ${advised ? "advised" : ""}`,
        testid: `action-${a.name}`,
        "data-lock": blocked ? "disabled" : "on",
        disabled: blocked ? true : null,
        "aria-keyshortcuts": a.key.toUpperCase(),
        "aria-describedby": described || null,
        onclick: () => ctl.act(a.name),
      },
      advised ? h("span", { class: "star", "aria-label": t("controls.advised") }, "★ ") : null,
      actionLabel(a.name, legal),
      h("kbd", { "aria-hidden": "true", translate: "no" }, a.key.toUpperCase()),
    ),
    ev !== undefined && ev !== null
      ? h("span", { class: `ev ${ev >= 0 ? "pos" : "neg"}`, id: `ev-${a.name}`, testid: `action-ev-${a.name}` }, evLabel(ev))
      : null,
  );
}

function renderInsurance(S, legal) {
  if (!legal.includes("insurance")) return null;
  const turn = S.round.turn;
  const box = turn ? (S.round.boxes || []).find((b) => b.box === turn.box) : null;
  if (S.table.rules?.insurance !== "up_to_half") {
    return h("p", { class: "muted small" }, t("controls.insuranceCosts", { cost: formatCoins(box ? box.bet / 2 : null) }));
  }
  const opts = box ? insuranceAmounts(box.bet).filter((v) => v <= Number(S.balance)) : [];
  if (opts.length === 0) return null; // the balance covers none: the button says so
  if (S.insuranceAmount === null || !opts.includes(S.insuranceAmount)) S.insuranceAmount = opts.at(-1) ?? null;
  return h(
    "label",
    { class: "inline-field" },
    `${t("controls.insuranceAmount")} `,
    h(
      "select",
      { testid: "insurance-amount", "data-lock": "on", onchange: (e) => (S.insuranceAmount = Number(e.target.value)) },
      opts.map((v) => h("option", { value: String(v), selected: v === S.insuranceAmount ? true : null }, formatCoins(v))),
    ),
    h("span", { class: "muted" }, ` ${t("controls.upToHalf", { bet: formatCoins(box?.bet) })}`),
  );
}

/** The coach: its button is disabled while nothing is asked (the cards landing, the dealer's play). */
function renderCoach(ctl, hint, legal) {
  const S = ctl.state;
  const asked = legal.length > 0;
  return h(
    "div",
    { class: "coach" },
    h(
      "button",
      {
        type: "button",
        class: "btn btn-ghost btn-small",
        testid: "hint",
        "data-lock": asked ? "on" : "disabled",
        disabled: asked ? null : true,
        "aria-keyshortcuts": "C",
        onclick: ctl.hint,
      },
      `${t("controls.coachHint")} `,
      h("kbd", { "aria-hidden": "true", translate: "no" }, "C"),
    ),
    h(
      "label",
      { class: "toggle" },
      h("input", { type: "checkbox", testid: "coach-toggle", checked: S.coach, onchange: (e) => ctl.setCoach(e.target.checked) }),
      ` ${t("controls.coachMode")}`,
    ),
    h(
      "div",
      { class: "hint", "aria-live": "polite" },
      h(
        "p",
        { class: "hint-output", testid: "hint-output" },
        hint ? t("controls.coachSays", { level: levelName(hint.level), action: actionLabel(hint.action, legal) }) : "",
      ),
      hint ? h("p", { class: "hint-why", testid: "hint-why" }, coachWhy(coachSpot(ctl, hint, legal))) : null,
    ),
  );
}

/** What the coach's words read of the table: the hint, the hand in turn, the up card, and the table's documents. */
function coachSpot(ctl, hint, legal) {
  const { round: r, table } = ctl.state;
  const box = (r.boxes || []).find((b) => b.box === r.turn?.box);
  const cards = box?.hands[r.turn.hand]?.cards || [];
  return { hint, cards, up: r.dealer?.cards?.[0], legal, rules: table.rules, ...tableDocs(ctl, hint.level) };
}

// The documents a table ships (its strategy card's chart, its index plays) never change
// while a tab lives: each is asked once, by the first hint whose words need it.
const docs = new Map(); // table id -> {chart, indices}, null until loaded

/** The table's chart and index plays for the coach's words at `level` (`expert`, `counter`); {} for the others. */
function tableDocs(ctl, level) {
  if (level !== "expert" && level !== "counter") return {};
  const id = ctl.state.table.id;
  if (!docs.has(id)) {
    const entry = { chart: null, indices: null };
    docs.set(id, entry);
    Promise.allSettled([api.strategy(id), api.indices(id)]).then(([card, indices]) => {
      if (card.status === "fulfilled") entry.chart = card.value.chart;
      if (indices.status === "fulfilled") entry.indices = indices.value.indices;
      if (ctl.state?.table.id === id) ctl.render();
    });
  }
  return docs.get(id);
}

/** Between rounds: the chip to place, the slip's total, Clear, Double, and Deal (Rebet when unchanged). */
export function renderBetting(ctl) {
  const S = ctl.state;
  const table = S.table;
  const { errors, total } = buildRoundRequest(table, S.slip, S.balance, { shoe: S.shoe, clientSeed: S.clientSeed, cut: S.cut, cutTouched: S.cutTouched });
  const rebet = !!S.round && sameBets(S.slip, S.round);
  const chips = chipValues(table.min_bet, table.max_bet);
  // One Tab stop for the tray (a toolbar: the arrows move along it), so Deal comes soon after.
  const chipTray = h(
    "div",
    {
      class: "chips",
      role: "toolbar",
      "aria-label": t("controls.chipTray"),
      onkeydown: (e) => stepChip(ctl, chips, e),
    },
    chips.map((v, i) =>
      h(
        "button",
        {
          type: "button",
          class: `chip chip-${v} ${S.chip === v ? "active" : ""}`,
          "aria-pressed": S.chip === v ? "true" : "false",
          "aria-keyshortcuts": CHIP_KEYS[i]?.toUpperCase() ?? null,
          tabindex: S.chip === v ? "0" : "-1",
          testid: `chip-${v}`,
          onclick: () => pickChip(ctl, v),
        },
        h("span", { class: "chip-value" }, formatCoins(v)),
        CHIP_KEYS[i] ? h("kbd", { "aria-hidden": "true", translate: "no" }, CHIP_KEYS[i].toUpperCase()) : null,
      ),
    ),
  );
  const note = [S.actionNote, S.betNote, ...errors].filter(Boolean).join(" ");
  return h(
    "section",
    { class: "controls bet-panel", "aria-label": t("controls.bets") },
    chipTray,
    kellyButton(ctl),
    h(
      "div",
      { class: "deal-row" },
      h("span", { class: "bet-total", testid: "bet-total" }, t("controls.total", { total: formatCoins(total) })),
      h(
        "button",
        { type: "button", class: "btn btn-ghost btn-small", testid: "bets-clear", "data-lock": "on", onclick: () => clearAll(ctl) },
        t("controls.clear"),
      ),
      h("button", { type: "button", class: "btn btn-small", testid: "bets-double", "data-lock": "on", onclick: () => doubleBets(ctl) }, "×2"),
      h(
        "button",
        {
          type: "button",
          class: "btn btn-primary",
          testid: "deal",
          "data-lock": errors.length ? "disabled" : "on",
          disabled: errors.length ? true : null,
          "aria-keyshortcuts": "Enter",
          onclick: ctl.deal,
        },
        ctl.pass ? t("controls.bet") : rebet ? t("controls.rebet") : t("controls.deal"),
      ),
      // At a shared table (room.js) the bets go in with Bet, the cards come when all have
      // bet or the window closes, and Pass sits the round out.
      ctl.pass ? h("button", { type: "button", class: "btn", testid: "pass", "data-lock": "on", onclick: ctl.pass }, t("controls.pass")) : null,
    ),
    note ? h("p", { class: "bet-note", testid: errors.length ? "bet-errors" : "bet-note", role: "status" }, note) : null,
  );
}

/**
 * The advised bet one click away, with the edge (GET …/edge) between rounds while the count
 * is shown. Kelly's bet is one round's at one box (API.md: the edge is one box's), so it is
 * bet once: on the box bet when one is, else on box 1, and the other boxes are cleared.
 */
function kellyButton(ctl) {
  const edge = ctl.edgeShown();
  if (!edge) return null;
  const S = ctl.state;
  const box = kellyBox(S.slip.bets);
  const onclick = () => {
    const others = Object.keys(S.slip.bets).filter((b) => Number(b) !== box && Number(S.slip.bets[b]) > 0);
    for (const b of others) delete S.slip.bets[b];
    placeBets(ctl, { [box]: Number(edge.bet.advised) }, { note: others.length ? kellyNote(others) : "" });
  };
  return h(
    "button",
    { type: "button", class: "btn btn-small kelly-bet", testid: "kelly-bet", "data-lock": "on", "aria-describedby": "edge-line", onclick },
    kellyLabel(edge.bet),
  );
}

/**
 * Sets the bets of some boxes (box -> wanted amount), each capped at the table maximum with a
 * word: what a chip placed on a circle, ×2 and the Kelly bet all do to the slip.
 */
export function placeBets(ctl, wanted, { chipBox = null, note = "" } = {}) {
  const S = ctl.state;
  const max = S.table.max_bet;
  const capped = [];
  for (const [box, amount] of Object.entries(wanted)) {
    const bet = capBet(amount, max);
    S.slip.bets[box] = bet.amount;
    delete S.slip.ai[box];
    if (bet.capped) capped.push(t("box.label", { box: Number(box) + 1 }));
  }
  S.betNote = capped.length ? t("controls.capped", { boxes: capped.join(", "), max: formatCoins(max) }) : note;
  if (chipBox !== null) S.fresh = { chipBox };
  ctl.chipSound();
  ctl.render();
}

function sameBets(slip, round) {
  const last = (round.boxes || []).filter((b) => b.player === "user");
  const now = Object.entries(slip.bets).filter(([, v]) => Number(v) > 0);
  return last.length === now.length && last.every((b) => Number(slip.bets[b.box]) === Number(b.bet));
}

export function pickChip(ctl, value) {
  ctl.state.chip = value;
  ctl.chipSound();
  ctl.render();
}

/** The arrows along the chip tray pick the next chip, and the focus follows it. */
function stepChip(ctl, chips, e) {
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
  if (!step) return;
  e.preventDefault();
  const at = Math.min(chips.length - 1, Math.max(0, chips.indexOf(ctl.state.chip) + step));
  pickChip(ctl, chips[at]);
  document.querySelector(`[data-testid="chip-${chips[at]}"]`)?.focus();
}

function clearAll(ctl) {
  ctl.state.slip.bets = {};
  ctl.state.slip.ai = {};
  ctl.state.betNote = "";
  ctl.render();
}

/** Every bet twice over, each capped at the table maximum with a word. */
function doubleBets(ctl) {
  placeBets(ctl, Object.fromEntries(Object.entries(ctl.state.slip.bets).map(([box, amount]) => [box, Number(amount) * 2])));
}
