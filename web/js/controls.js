// Under the felt: the decisions while a round is in play, the chips and Deal between rounds.
import { h } from "./dom.js";
import { ACTION_LABEL, ACTIONS, buildRoundRequest, chipValues, formatCoins, formatEv, insuranceAmounts } from "./view.js";

export function renderActions(ctl) {
  const S = ctl.state;
  const r = S.round;
  const legal = S.pace ? [] : r.legal_actions || [];
  const hint = S.hint && S.hint.version === r.version ? S.hint : null;
  const buttons = ACTIONS.filter((a) => legal.includes(a.name)).map((a) => actionButton(ctl, a, hint));
  return h(
    "section",
    { class: "controls actions-panel", "aria-label": "Your decision" },
    h("div", { class: "actions", testid: "actions" }, buttons),
    renderInsurance(S, legal),
    renderCoach(ctl, hint),
  );
}

function actionButton(ctl, a, hint) {
  const advised = hint && hint.action === a.name;
  const ev = hint?.ev ? hint.ev[a.name] : undefined;
  return h(
    "div",
    { class: "action-cell" },
    h(
      "button",
      {
        type: "button",
        class: `btn action ${advised ? "advised" : ""}`,
        testid: `action-${a.name}`,
        "data-lock": "on",
        "aria-keyshortcuts": a.key.toUpperCase(),
        "aria-describedby": ev !== undefined ? `ev-${a.name}` : null,
        onclick: () => ctl.act(a.name),
      },
      advised ? h("span", { class: "star", "aria-label": "advised" }, "★ ") : null,
      a.label,
      h("kbd", { "aria-hidden": "true" }, a.key.toUpperCase()),
    ),
    ev !== undefined && ev !== null
      ? h("span", { class: `ev ${ev >= 0 ? "pos" : "neg"}`, id: `ev-${a.name}`, testid: `action-ev-${a.name}` }, `EV ${formatEv(ev)}`)
      : null,
  );
}

function renderInsurance(S, legal) {
  if (!legal.includes("insurance")) return null;
  const t = S.round.turn;
  const box = t ? (S.round.boxes || []).find((b) => b.box === t.box) : null;
  if (S.table.rules?.insurance !== "up_to_half") {
    return h("p", { class: "muted small" }, `Insurance costs ${formatCoins(box ? box.bet / 2 : null)} and pays 2:1 if the dealer has blackjack.`);
  }
  const opts = box ? insuranceAmounts(box.bet) : [];
  if (S.insuranceAmount === null || !opts.includes(S.insuranceAmount)) S.insuranceAmount = opts.at(-1) ?? null;
  return h(
    "label",
    { class: "inline-field" },
    "Insurance amount ",
    h(
      "select",
      { testid: "insurance-amount", "data-lock": "on", onchange: (e) => (S.insuranceAmount = Number(e.target.value)) },
      opts.map((v) => h("option", { value: String(v), selected: v === S.insuranceAmount ? true : null }, formatCoins(v))),
    ),
    h("span", { class: "muted" }, ` (up to half of ${formatCoins(box?.bet)})`),
  );
}

function renderCoach(ctl, hint) {
  const S = ctl.state;
  return h(
    "div",
    { class: "coach" },
    h(
      "button",
      { type: "button", class: "btn btn-ghost btn-small", testid: "hint", "data-lock": "on", "aria-keyshortcuts": "C", onclick: ctl.hint },
      "Coach hint ",
      h("kbd", { "aria-hidden": "true" }, "C"),
    ),
    h(
      "label",
      { class: "toggle" },
      h("input", { type: "checkbox", testid: "coach-toggle", checked: S.coach, onchange: (e) => ctl.setCoach(e.target.checked) }),
      " Coach mode",
    ),
    h(
      "p",
      { class: "hint-output", testid: "hint-output", "aria-live": "polite" },
      hint ? `Coach (${hint.level}): ${ACTION_LABEL[hint.action] || hint.action}.` : "",
    ),
  );
}

/** Between rounds: the chip to place, the slip's total, Clear, Double, and Deal (Rebet when unchanged). */
export function renderBetting(ctl) {
  const S = ctl.state;
  const t = S.table;
  const { errors, total } = buildRoundRequest(t, S.slip, S.balance, { shoe: S.shoe, clientSeed: S.clientSeed, cut: S.cut, cutTouched: S.cutTouched });
  const rebet = !!S.round && sameBets(S.slip, S.round);
  const chipTray = h(
    "div",
    { class: "chips", role: "group", "aria-label": "Chip to place: pick one, then a box's circle" },
    chipValues(t.min_bet, t.max_bet).map((v) =>
      h(
        "button",
        {
          type: "button",
          class: `chip chip-${v} ${S.chip === v ? "active" : ""}`,
          "aria-pressed": S.chip === v ? "true" : "false",
          testid: `chip-${v}`,
          onclick: () => pickChip(ctl, v),
        },
        formatCoins(v),
      ),
    ),
  );
  const note = [S.betNote, ...errors].filter(Boolean).join(" ");
  return h(
    "section",
    { class: "controls bet-panel", "aria-label": "Bets" },
    chipTray,
    h(
      "div",
      { class: "deal-row" },
      h("span", { class: "bet-total", testid: "bet-total" }, `Total ${formatCoins(total)}`),
      h("button", { type: "button", class: "btn btn-ghost btn-small", testid: "bets-clear", "data-lock": "on", onclick: () => clearAll(ctl) }, "Clear"),
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
        rebet ? "Rebet" : "Deal",
      ),
    ),
    note ? h("p", { class: "bet-note", testid: errors.length ? "bet-errors" : "bet-note", role: "status" }, note) : null,
  );
}

function sameBets(slip, round) {
  const last = (round.boxes || []).filter((b) => b.player === "user");
  const now = Object.entries(slip.bets).filter(([, v]) => Number(v) > 0);
  return last.length === now.length && last.every((b) => Number(slip.bets[b.box]) === Number(b.bet));
}

function pickChip(ctl, value) {
  ctl.state.chip = value;
  ctl.chipSound();
  ctl.render();
}

function clearAll(ctl) {
  ctl.state.slip.bets = {};
  ctl.state.slip.ai = {};
  ctl.state.betNote = "";
  ctl.render();
}

/** Every bet twice over, each capped at the table maximum with a word. */
function doubleBets(ctl) {
  const S = ctl.state;
  const capped = [];
  for (const [box, amount] of Object.entries(S.slip.bets)) {
    const doubled = Number(amount) * 2;
    S.slip.bets[box] = Math.min(doubled, S.table.max_bet);
    if (doubled > S.table.max_bet) capped.push(`Box ${Number(box) + 1}`);
  }
  S.betNote = capped.length ? `${capped.join(", ")}: capped at the table maximum, ${formatCoins(S.table.max_bet)}.` : "";
  ctl.chipSound();
  ctl.render();
}
