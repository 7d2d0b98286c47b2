// The table view: bets, the deal, the round, actions, coach, fairness commitments.
import { api } from "./api.js";
import { h, card, clear } from "./dom.js";
import { toast, reportError, errorText, setBalance, lockControls } from "./ui.js";
import { ruleSentences, tableSummary, tableCapabilities } from "./rules.js";
import {
  ACTIONS, ACTION_BY_KEY, ACTION_LABEL, formatCoins, formatPercent, formatEv,
  handTotalLabel, dealerTotalLabel, resultLabel, resultTone, statusLabel, netSentence,
  roundStatusLabel, chipValues, insuranceAmounts, isShoeFresh, buildRoundRequest, clientSeedError,
} from "./view.js";

const slips = new Map(); // table id -> bet slip, kept while the tab lives
const COACH_KEY = "blackjack.coach";

let S = null; // state of the table on screen
let keyHandler = null;

export function leaveTable() {
  if (keyHandler) document.removeEventListener("keydown", keyHandler);
  keyHandler = null;
  S = null;
}

export async function showTable(main, id, isCurrent) {
  leaveTable();
  clear(main).appendChild(h("p", { class: "loading", testid: "loading" }, "Loading the table…"));
  let view;
  try {
    view = await api.table(id);
  } catch (e) {
    if (!isCurrent()) return;
    clear(main).appendChild(h("div", { class: "panel" }, h("p", { testid: "table-error" }, errorText(e)), h("a", { href: "#/lobby" }, "Back to the lobby")));
    reportError(e);
    return;
  }
  if (!isCurrent()) return;
  S = {
    id,
    main,
    table: view.table,
    balance: view.balance,
    shoe: view.shoe,
    round: view.round,
    slip: slips.get(id) || initialSlip(view.table, view.round),
    chip: null,
    clientSeed: "",
    cut: view.table.rules?.cut_default ?? null,
    cutTouched: false,
    busy: false,
    hint: null,
    coach: sessionStorage.getItem(COACH_KEY) === "1",
    insuranceAmount: null,
    seen: new Set(),
  };
  slips.set(id, S.slip);
  const chips = chipValues(S.table.min_bet, S.table.max_bet);
  S.chip = chips.includes(S.table.min_bet) ? S.table.min_bet : chips[0];
  setBalance(S.balance);
  markSeen(S.round);
  keyHandler = onKey;
  document.addEventListener("keydown", keyHandler);
  render();
  maybeCoach();
}

function initialSlip(table, round) {
  const slip = { bets: {}, ai: {} };
  if (round && round.boxes) {
    for (const b of round.boxes) {
      if (b.player === "user") slip.bets[b.box] = b.bet;
      else if (b.player.startsWith("ai:")) slip.ai[b.box] = b.player.slice(3);
    }
  }
  if (Object.keys(slip.bets).length === 0) slip.bets[0] = table.min_bet;
  return slip;
}

// Cards already on screen are not animated again.
function cardKeys(round) {
  const keys = [];
  if (!round) return keys;
  (round.dealer?.cards || []).forEach((c, i) => keys.push(`${round.round_id}:d:${i}:${c}`));
  for (const b of round.boxes || []) b.hands.forEach((hd, hi) => hd.cards.forEach((c, i) => keys.push(`${round.round_id}:${b.box}:${hi}:${i}:${c}`)));
  return keys;
}
function markSeen(round) {
  for (const k of cardKeys(round)) S.seen.add(k);
}

// ---------------------------------------------------------------- requests
async function withBusy(fn) {
  if (!S || S.busy) return;
  const me = S;
  me.busy = true;
  lockControls(me.main, true);
  try {
    await fn();
  } finally {
    me.busy = false;
    if (S === me) render();
  }
}

async function refresh() {
  const me = S;
  const view = await api.table(me.id);
  if (S !== me) return;
  S.table = view.table;
  S.shoe = view.shoe;
  if (!S.round || !view.round || view.round.round_id !== S.round.round_id || view.round.version >= S.round.version) S.round = view.round;
  S.balance = view.balance;
  setBalance(S.balance);
}

function applyRound(round) {
  S.round = round;
  S.hint = null;
  S.insuranceAmount = null;
  if (round.balance !== undefined) {
    S.balance = round.balance;
    setBalance(round.balance);
  }
}

async function deal() {
  const fresh = isShoeFresh(S.shoe);
  const { body, errors } = buildRoundRequest(S.table, S.slip, S.balance, { shoe: S.shoe, clientSeed: S.clientSeed, cut: S.cut, cutTouched: S.cutTouched });
  if (errors.length) {
    toast(errors.join(" "));
    return;
  }
  const me = S;
  await withBusy(async () => {
    try {
      const round = await api.deal(me.id, body);
      if (S !== me) return;
      applyRound(round);
      S.clientSeed = "";
      S.cutTouched = false;
      try {
        await refresh();
      } catch (e) {
        /* the round is shown; the shoe line refreshes next time */
      }
      announce(round);
    } catch (e) {
      if (S !== me) return;
      if (e.status === 422 && e.code === "validation_error" && (body.client_seed || body.cut !== undefined)) {
        toast(`${errorText(e)} This shoe has already started (perhaps in another tab), so its client seed and cut can no longer be chosen: the table is refreshed, deal again.`);
        S.clientSeed = "";
        S.cutTouched = false;
        await refresh().catch(() => {});
      } else if (e.code === "round_in_progress" || e.code === "conflict" || e.code === "shoe_not_committed") {
        toast(errorText(e));
        await refresh().catch(() => {});
      } else {
        reportError(e, fresh ? "Could not deal" : "");
      }
    }
  });
  maybeCoach();
}

async function act(name) {
  if (!S || S.busy || !S.round || !(S.round.legal_actions || []).includes(name)) return;
  let amount;
  if (name === "insurance" && S.table.rules?.insurance === "up_to_half") {
    const box = currentBox();
    amount = S.insuranceAmount ?? (box ? insuranceAmounts(box.bet).at(-1) : undefined);
  }
  const me = S;
  await withBusy(async () => {
    try {
      const round = await api.act(me.id, name, me.round.version, amount);
      if (S !== me) return;
      applyRound(round);
      if (round.status === "settled") await refresh().catch(() => {});
      announce(round);
    } catch (e) {
      if (S !== me) return;
      if (e.status === 412 || e.code === "conflict" || e.code === "no_round") {
        const why = e.status === 412 ? "The round moved on elsewhere (another tab?)" : "The table changed meanwhile";
        toast(`${why}. ${errorText(e)} The table has been refreshed.`, { tone: "info" });
        await refresh().catch((e2) => reportError(e2));
      } else reportError(e);
    }
  });
  maybeCoach();
}

async function fetchHint() {
  if (!S || !S.round || S.round.status === "settled") return;
  const me = S;
  const version = S.round.version;
  const roundId = S.round.round_id;
  try {
    const hint = await api.hint(me.id, "hard");
    if (S !== me || !S.round || S.round.version !== version || S.round.round_id !== roundId) return;
    S.hint = { ...hint, version };
    render();
  } catch (e) {
    if (e.code === "no_round") return;
    reportError(e, "Coach");
  }
}

function maybeCoach() {
  if (S && S.coach && S.round && S.round.status !== "settled" && (!S.hint || S.hint.version !== S.round.version)) fetchHint();
}

// A persistent live region (outside the re-rendered view) so screen readers hear every result.
function announce(round) {
  const live = document.getElementById("announcer");
  if (!live) return;
  if (round.status === "settled") {
    const parts = [];
    for (const b of round.boxes || []) {
      if (b.player !== "user") continue;
      b.hands.forEach((hd, i) => parts.push(`Box ${b.box + 1}${b.hands.length > 1 ? ` hand ${i + 1}` : ""}: ${resultLabel(hd) || statusLabel(hd.status)}.`));
    }
    live.textContent = `${parts.join(" ")} ${netSentence(round.net)}`;
  } else {
    live.textContent = roundStatusLabel(round);
  }
}

function currentBox() {
  const t = S.round?.turn;
  return t ? (S.round.boxes || []).find((b) => b.box === t.box) : null;
}

function onKey(ev) {
  if (!S || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const el = ev.target || {};
  const tag = el.tagName || "";
  const typing = tag === "TEXTAREA" || tag === "SELECT" || (tag === "INPUT" && !["checkbox", "radio", "range", "button"].includes(el.type)) || el.isContentEditable;
  if (typing) return;
  const name = ACTION_BY_KEY[ev.key.toLowerCase()];
  if (name && S.round && (S.round.legal_actions || []).includes(name)) {
    ev.preventDefault();
    act(name);
  } else if (ev.key.toLowerCase() === "c" && S.round && S.round.status !== "settled") {
    ev.preventDefault();
    fetchHint();
  }
}

// ---------------------------------------------------------------- render
function render() {
  if (!S) return;
  const main = S.main;
  const focused = document.activeElement?.dataset?.testid;
  clear(main);
  const t = S.table;
  const inPlay = S.round && S.round.status !== "settled";
  main.appendChild(
    h(
      "section",
      { class: "table-view", testid: "table-view", "aria-labelledby": "table-title", dataset: { table: t.id } },
      h(
        "div",
        { class: "table-head" },
        h("div", {}, h("h1", { id: "table-title", testid: "table-name" }, t.name || t.id), h("p", { class: "muted" }, tableSummary(t))),
        h(
          "div",
          { class: "table-links" },
          h("a", { href: "#/lobby", class: "btn btn-ghost", testid: "back-to-lobby" }, "← Lobby"),
          h("a", { href: `#/strategy/${encodeURIComponent(t.id)}`, class: "btn btn-ghost", testid: "strategy-link" }, "Strategy card"),
        ),
      ),
      h("details", { class: "rules" }, h("summary", {}, "Rules of this table"), h("ul", { testid: "table-rules" }, ruleSentences(t).map((s) => h("li", {}, s)))),
      renderFelt(),
      inPlay ? renderActions() : renderBetting(),
      renderFairness(),
    ),
  );
  let target = focused && main.querySelector(`[data-testid="${CSS.escape(focused)}"]`);
  // The action just used has gone (round settled): put the focus on Deal, so Enter deals again.
  if (!target && focused && focused.startsWith("action-")) target = main.querySelector('[data-testid="deal"]') || main.querySelector('[data-testid^="action-"]');
  if (target && !target.disabled) target.focus({ preventScroll: true });
  if (S.busy) lockControls(main, true);
  else main.setAttribute("aria-busy", "false");
  markSeen(S.round);
}

function renderFelt() {
  const r = S.round;
  const status = h("p", { class: "round-status", testid: "round-status", dataset: { status: r ? r.status : "none" } }, roundStatusLabel(r));
  const result = h(
    "p",
    { class: `round-net ${r && r.net != null ? (r.net > 0 ? "pos" : r.net < 0 ? "neg" : "") : ""}`, testid: "round-result" },
    r && r.status === "settled" ? netSentence(r.net) : "",
  );
  if (!r) {
    return h("div", { class: "felt", testid: "felt" }, h("div", { class: "dealer-area", testid: "dealer" }, h("div", { class: "cards empty" }, h("span", { class: "muted" }, "Dealer"))), status, result);
  }
  const d = r.dealer || { cards: [], hidden: 0 };
  const dealerCards = [
    ...d.cards.map((c, i) => card(c, { fresh: !S.seen.has(`${r.round_id}:d:${i}:${c}`) })),
    ...Array.from({ length: d.hidden || 0 }, () => card(null)),
  ];
  const dealer = h(
    "div",
    { class: "dealer-area", testid: "dealer" },
    h("div", { class: "label" }, "Dealer ", h("span", { class: "total", testid: "dealer-total" }, dealerTotalLabel(d))),
    h("div", { class: "cards" }, dealerCards),
  );
  const boxes = h("div", { class: "boxes", testid: "boxes" }, (r.boxes || []).map((b) => renderBox(r, b)));
  return h("div", { class: "felt", testid: "felt" }, dealer, boxes, status, result);
}

function renderBox(r, b) {
  const isUser = b.player === "user";
  const who = isUser ? "You" : b.player.startsWith("ai:") ? `AI · ${b.player.slice(3)}` : b.player;
  const turnBox = r.turn && r.turn.box === b.box;
  const extras = [];
  if (b.insurance != null) extras.push(`insured ${formatCoins(b.insurance)}`);
  if (b.insurance_payout != null) extras.push(`insurance paid ${formatCoins(b.insurance_payout)}`);
  return h(
    "div",
    { class: `box ${isUser ? "box-user" : "box-ai"} ${turnBox ? "box-turn" : ""}`, testid: `box-${b.box}`, "aria-label": `Box ${b.box + 1}, ${who}` },
    h("div", { class: "box-head" }, h("span", { class: "box-no" }, `Box ${b.box + 1}`), h("span", { class: "who" }, who), h("span", { class: "box-bet" }, `bet ${formatCoins(b.bet)}`)),
    extras.length ? h("div", { class: "box-extra", testid: `box-insurance-${b.box}` }, extras.join(" · ")) : null,
    h("div", { class: "hands" }, b.hands.map((hd, hi) => renderHand(r, b, hd, hi))),
  );
}

function renderHand(r, b, hd, hi) {
  const isTurn = r.turn && r.turn.box === b.box && r.turn.hand === hi && r.status === "player_turn";
  const res = resultLabel(hd);
  return h(
    "div",
    { class: `hand ${isTurn ? "hand-turn" : ""}`, testid: `hand-${b.box}-${hi}`, "aria-current": isTurn ? "true" : null, dataset: { status: hd.status, result: hd.result || "" } },
    h("div", { class: "cards" }, hd.cards.map((c, i) => card(c, { fresh: !S.seen.has(`${r.round_id}:${b.box}:${hi}:${i}:${c}`) }))),
    h(
      "div",
      { class: "hand-info" },
      h("span", { class: "total", testid: `hand-total-${b.box}-${hi}` }, handTotalLabel(hd)),
      h("span", { class: "muted" }, ` · ${formatCoins(hd.bet)}${hd.doubled ? " (doubled)" : ""}`),
      hd.status !== "playing" && !hd.result && hd.status !== "blackjack" && hd.status !== "bust" ? h("span", { class: "muted" }, ` · ${statusLabel(hd.status)}`) : null,
    ),
    res ? h("div", { class: `result result-${resultTone(hd.result)}`, testid: `hand-result-${b.box}-${hi}` }, res) : null,
  );
}

function renderActions() {
  const r = S.round;
  const legal = r.legal_actions || [];
  const hint = S.hint && S.hint.version === r.version ? S.hint : null;
  const buttons = ACTIONS.filter((a) => legal.includes(a.name)).map((a) => {
    const advised = hint && hint.action === a.name;
    const ev = hint && hint.ev ? hint.ev[a.name] : undefined;
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
          onclick: () => act(a.name),
        },
        advised ? h("span", { class: "star", "aria-label": "advised" }, "★ ") : null,
        a.label,
        h("kbd", { "aria-hidden": "true" }, a.key.toUpperCase()),
      ),
      ev !== undefined && ev !== null ? h("span", { class: `ev ${ev >= 0 ? "pos" : "neg"}`, id: `ev-${a.name}`, testid: `action-ev-${a.name}` }, `EV ${formatEv(ev)}`) : null,
    );
  });
  let insurance = null;
  if (legal.includes("insurance") && S.table.rules?.insurance === "up_to_half") {
    const box = currentBox();
    const opts = box ? insuranceAmounts(box.bet) : [];
    if (S.insuranceAmount === null || !opts.includes(S.insuranceAmount)) S.insuranceAmount = opts.at(-1) ?? null;
    insurance = h(
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
  } else if (legal.includes("insurance")) {
    const box = currentBox();
    insurance = h("p", { class: "muted" }, `Insurance costs ${formatCoins(box ? box.bet / 2 : null)} and pays 2:1 if the dealer has blackjack.`);
  }
  const coach = h(
    "div",
    { class: "coach" },
    h("button", { type: "button", class: "btn btn-ghost", testid: "hint", "data-lock": "on", "aria-keyshortcuts": "C", onclick: () => withBusy(fetchHint) }, "Coach hint ", h("kbd", { "aria-hidden": "true" }, "C")),
    h(
      "label",
      { class: "toggle" },
      h("input", {
        type: "checkbox",
        testid: "coach-toggle",
        checked: S.coach,
        onchange: (e) => {
          S.coach = e.target.checked;
          sessionStorage.setItem(COACH_KEY, S.coach ? "1" : "0");
          if (S.coach) maybeCoach();
          else render();
        },
      }),
      " Coach mode",
    ),
    h("p", { class: "hint-output", testid: "hint-output", "aria-live": "polite" }, hint ? `Coach (${hint.level}): ${ACTION_LABEL[hint.action] || hint.action}.` : ""),
  );
  return h("section", { class: "actions-panel", "aria-label": "Your decision" }, h("div", { class: "actions", testid: "actions" }, buttons), insurance, coach);
}

function renderBetting() {
  const t = S.table;
  const caps = tableCapabilities(t);
  const chips = chipValues(t.min_bet, t.max_bet);
  const chipTray = h(
    "div",
    { class: "chips", role: "group", "aria-label": "Chip value to add" },
    chips.map((v) =>
      h(
        "button",
        { type: "button", class: `chip chip-${v} ${S.chip === v ? "active" : ""}`, "aria-pressed": S.chip === v ? "true" : "false", testid: `chip-${v}`, onclick: () => { S.chip = v; render(); } },
        formatCoins(v),
      ),
    ),
  );
  const boxes = [];
  for (let b = 0; b < caps.boxes; b++) {
    const amount = Number(S.slip.bets[b] || 0);
    const ai = S.slip.ai[b] || "";
    boxes.push(
      h(
        "div",
        { class: `bet-box ${amount ? "has-bet" : ""}`, testid: `bet-box-${b}` },
        h("div", { class: "bet-box-title" }, `Box ${b + 1}`),
        h("div", { class: "bet-amount", testid: `bet-amount-${b}`, "aria-live": "polite" }, amount ? formatCoins(amount) : ai ? `AI ${ai}` : "—"),
        h(
          "div",
          { class: "bet-controls" },
          h("button", {
            type: "button", class: "btn btn-small", testid: `bet-add-${b}`, "data-lock": "on", "aria-label": `Add ${S.chip} to box ${b + 1}`,
            onclick: () => { S.slip.bets[b] = Math.min(amount + S.chip, t.max_bet); delete S.slip.ai[b]; render(); },
          }, `+${formatCoins(S.chip)}`),
          h("button", {
            type: "button", class: "btn btn-small btn-ghost", testid: `bet-clear-${b}`, "data-lock": "on", "aria-label": `Clear box ${b + 1}`,
            onclick: () => { delete S.slip.bets[b]; render(); },
          }, "Clear"),
        ),
        caps.canAi && !amount
          ? h(
              "label",
              { class: "ai-pick" },
              h("span", { class: "sr-only" }, `AI player on box ${b + 1}`),
              h(
                "select",
                { testid: `ai-level-${b}`, "data-lock": "on", onchange: (e) => { if (e.target.value) S.slip.ai[b] = e.target.value; else delete S.slip.ai[b]; render(); } },
                h("option", { value: "", selected: !ai ? true : null }, "Empty seat"),
                ["easy", "medium", "hard"].map((l) => h("option", { value: l, selected: ai === l ? true : null }, `AI: ${l}`)),
              ),
            )
          : null,
      ),
    );
  }
  const { errors, total } = buildRoundRequest(t, S.slip, S.balance, { shoe: S.shoe, clientSeed: S.clientSeed, cut: S.cut, cutTouched: S.cutTouched });
  const fresh = isShoeFresh(S.shoe);
  let shoeOpts = null;
  if (fresh) {
    const seedErr = clientSeedError(S.clientSeed.trim());
    const seedErrEl = h("span", { class: "field-error", testid: "client-seed-error", "aria-live": "polite" }, seedErr || "");
    shoeOpts = h(
      "div",
      { class: "shoe-options" },
      h("p", { class: "muted" }, "A new shoe starts with this deal: you may choose its client seed", caps.cutRange ? " and place the cut card." : "."),
      h(
        "label",
        { class: "field" },
        "Client seed (optional)",
        h("input", {
          type: "text", testid: "client-seed", value: S.clientSeed, maxlength: "64", autocomplete: "off", spellcheck: "false",
          placeholder: S.shoe?.client_seed || "", "aria-invalid": seedErr ? "true" : "false",
          // No re-render while typing or on blur: a re-render on blur would swallow the click on Deal.
          oninput: (e) => {
            S.clientSeed = e.target.value;
            const err = clientSeedError(S.clientSeed.trim());
            seedErrEl.textContent = err || "";
            e.target.setAttribute("aria-invalid", err ? "true" : "false");
          },
        }),
        seedErrEl,
      ),
      caps.cutRange
        ? h(
            "label",
            { class: "field" },
            h("span", {}, "Cut card at ", h("output", { testid: "cut-value" }, formatPercent(S.cut))),
            h("input", {
              type: "range", testid: "cut", min: String(caps.cutRange[0]), max: String(caps.cutRange[1]), step: "0.01", value: String(S.cut),
              oninput: (e) => { S.cut = Number(e.target.value); S.cutTouched = true; e.target.previousElementSibling.querySelector("output").textContent = formatPercent(S.cut); },
            }),
          )
        : null,
    );
  }
  return h(
    "section",
    { class: "bet-panel", "aria-label": "Bets" },
    h("div", { class: "bet-head" }, h("h2", {}, "Your bets"), chipTray),
    h("div", { class: "bet-boxes" }, boxes),
    shoeOpts,
    h(
      "div",
      { class: "deal-row" },
      h("span", { class: "muted", testid: "bet-total" }, `Total ${formatCoins(total)}`),
      h("button", { type: "button", class: "btn btn-ghost", testid: "bets-clear", "data-lock": "on", onclick: () => { S.slip.bets = {}; S.slip.ai = {}; render(); } }, "Clear all"),
      h("button", { type: "button", class: "btn btn-primary", testid: "deal", "data-lock": errors.length ? "disabled" : "on", disabled: errors.length ? true : null, title: errors.join(" ") || null, onclick: deal }, "Deal"),
    ),
    errors.length ? h("p", { class: "muted small", testid: "bet-errors" }, errors.join(" ")) : null,
  );
}

function renderFairness() {
  const sh = S.shoe;
  if (!sh) return null;
  const total = 52 * sh.decks;
  const r = S.round;
  return h(
    "details",
    { class: "fairness", open: true, testid: "fairness" },
    h("summary", {}, "Provably fair shoe"),
    h(
      "dl",
      {},
      h("dt", {}, "Server seed hash"),
      h("dd", { class: "mono break", testid: "shoe-hash" }, sh.server_seed_hash),
      h("dt", {}, "Client seed"),
      h("dd", { class: "mono break", testid: "shoe-client-seed" }, sh.client_seed ?? "—"),
      h("dt", {}, "Nonce"),
      h("dd", { class: "mono", testid: "shoe-nonce" }, String(sh.nonce)),
      h("dt", {}, "Cards left"),
      h("dd", { testid: "shoe-remaining" }, `${sh.cards_remaining} of ${total}${sh.cut_card_out ? " · cut card is out: last round of this shoe" : ""}`),
    ),
    h("p", { class: "muted small" }, "The hash is committed before any bet on this shoe; the server seed is revealed when the shoe is retired, so you can recompute every card."),
    r && r.shoe_id
      ? h("a", { href: `#/verify/${encodeURIComponent(r.shoe_id)}`, class: "btn btn-ghost btn-small", testid: "verify-last-shoe" }, "Verify the last round's shoe")
      : null,
  );
}
