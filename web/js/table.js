// The table: its state, the requests, the pace of the cards, the keyboard, the count; what
// is drawn is in felt.js (dealer and boxes), controls.js (bets and decisions), panels.js
// (the head, the count badge, the drawers) and checkoutpanel.js (the checkout between rounds).
import { api, updateSessionUser } from "./api.js";
import { checkoutAsking, checkoutBetweenRounds, checkoutKey, focusCheckout, renderCheckout, withCheckoutSettings } from "./checkoutpanel.js";
import { pickChip, renderActions, renderBetting } from "./controls.js";
import { clear, h } from "./dom.js";
import { renderFelt, showTurnBox } from "./felt.js";
import { heldWhilePressed, keyTaken, labelBoxKeys, landCards, paceCards, restoreFocus, toggleDrawer, whileBusy } from "./feltpage.js";
import { ACTION_BY_KEY, BOX_KEYS, CHIP_KEYS, netSentence, resultLabel, roundStatusLabel, statusLabel } from "./format.js";
import { roundCards, shiftCount } from "./hilo.js";
import { t } from "./i18n.js";
import { buildRoundRequest, chipValues, insuranceAmounts, isShoeFresh, whyNot } from "./input.js";
import { dealOrder, feltCards } from "./pacing.js";
import { lastRetiredShoe, renderCountBadge, renderEdge, renderPanels, renderToolbar } from "./panels.js";
import { settings } from "./settings.js";
import { play as sound } from "./sound.js";
import { errorText, lockControls, reportError, setBalance, toast } from "./ui.js";

const slips = new Map(); // table id -> bet slip, kept while the tab lives
const COACH_KEY = "blackjack.coach";

let S = null; // state of the table on screen
let keyHandler = null;

export function leaveTable() {
  if (keyHandler) document.removeEventListener("keydown", keyHandler);
  keyHandler = null;
  if (S) clearTimeout(S.pace);
  S = null;
}

export async function showTable(main, id, isCurrent) {
  leaveTable();
  clear(main).appendChild(h("p", { class: "loading", testid: "loading" }, "Loading the table…"));
  let seat;
  try {
    seat = await api.table(id);
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
    table: seat.table,
    balance: seat.balance,
    shoe: seat.shoe,
    round: seat.round,
    slip: slips.get(id) || initialSlip(seat.table, seat.round),
    chip: null,
    clientSeed: "",
    cut: seat.table.rules?.cut_default ?? null,
    cutTouched: false,
    busy: false,
    hint: null,
    coach: sessionStorage.getItem(COACH_KEY) === "1",
    insuranceAmount: null,
    shown: new Set(dealOrder(seat.round).map((slot) => slot.key)), // a reload shows the round as it is
    pace: null,
    justLanded: null,
    panel: null,
    betNote: "",
    actionNote: "", // why the last key or click did nothing
    fresh: {}, // what the next renders animate once: a chip just placed, results just shown
    lastRetired: null,
    countBase: null,
    nextShoeCount: null, // the next shoe's count, once the old shoe's last round has landed
    edge: null, // GET …/edge between rounds: {after (the settled round's id, or null), answer}
    edgeAsked: undefined, // the `after` of the edge last asked for
  };
  learnCount(seat.shoe?.count, seat.shoe?.shoe_id, seat.round);
  slips.set(id, S.slip);
  const chips = chipValues(S.table.min_bet, S.table.max_bet);
  S.chip = chips.includes(S.table.min_bet) ? S.table.min_bet : chips[0];
  setBalance(S.balance, { flash: false });
  keyHandler = onKey;
  document.addEventListener("keydown", keyHandler);
  render();
  maybeCoach();
  maybeEdge();
  findLastRetired();
}

function initialSlip(table, round) {
  const slip = { bets: {}, ai: {} };
  if (round?.boxes) {
    for (const b of round.boxes) {
      if (b.player === "user") slip.bets[b.box] = b.bet;
      else if (b.player.startsWith("ai:")) slip.ai[b.box] = b.player.slice(3);
    }
  }
  if (Object.keys(slip.bets).length === 0) slip.bets[0] = table.min_bet;
  return slip;
}

// ---------------------------------------------------------------- the pace of the cards
function showRound(round) {
  if (!S.round || S.round.round_id !== round.round_id) {
    S.shown = new Set();
    countFrom(round);
  }
  S.round = round;
  S.fresh = {};
  S.hint = null;
  S.insuranceAmount = null;
  S.actionNote = "";
  dealNext();
}

/** Puts the next card on the felt, one every `cardDelay` ms; then the results and the balance. */
const dealNext = () => paceCards(S, { render, landAll });

/** Every card on the felt now (the end of the pace, or a click or key to skip it). */
function landAll() {
  landCards(S);
  if (S.nextShoeCount) {
    const { count, shoeId, round } = S.nextShoeCount;
    S.nextShoeCount = null;
    learnCount(count, shoeId, round);
  }
  if (S.round.balance !== undefined) {
    S.balance = S.round.balance;
    // The flash shows what happened to the balance: each stake as it goes out, and at the
    // end the round's net (not its payout), counted from the balance before the round.
    const net = S.round.status === "settled" ? Number(S.round.net) : null;
    if (net !== null && !Number.isNaN(net)) updateSessionUser({ balance: Number(S.balance) - net });
    setBalance(S.balance);
  }
  announce(S.round);
  if (S.round.status === "settled" && Number(S.round.net) > 0) sound("win");
  S.fresh = { results: S.round.status === "settled" };
  render();
  maybeCoach();
  maybeEdge();
}

// ---------------------------------------------------------------- the count
// The badge shows the count over the cards on the felt: a count the server gave (the seat
// on load and after each deal and settlement, each hint), less the cards of its round,
// is the count before that round (`countBase`); the round's cards that have landed are
// added to it. An action's answer needs no request: its round holds every public
// card of the round, and the cards before the round are known already.

/**
 * A count from the server, given with the round it came with, at shoe `shoeId`. The next
 * shoe's count waits while the last round of the old one is still landing: until then the
 * felt shows the old shoe's cards, and the badge counts them.
 */
function learnCount(count, shoeId, round) {
  if (!count || !shoeId) return;
  if (S.pace && S.round && S.round.shoe_id !== shoeId) {
    S.nextShoeCount = { count, shoeId, round };
    return;
  }
  const inShoe = !!round && round.shoe_id === shoeId;
  S.countBase = { shoeId, roundId: inShoe ? round.round_id : null, count: inShoe ? shiftCount(count, roundCards(round), -1) : count };
}

/** A new round on screen: the count before it is the count after the last one of its shoe. */
function countFrom(round) {
  const base = S.countBase;
  if (!base || base.shoeId !== round?.shoe_id) {
    S.countBase = null; // a shoe whose count is not known yet: the seat's next answer tells it
    return;
  }
  if (base.roundId === null) S.countBase = { ...base, roundId: round.round_id };
  else if (S.round?.round_id === base.roundId)
    S.countBase = { shoeId: base.shoeId, roundId: round.round_id, count: shiftCount(base.count, roundCards(S.round)) };
  else S.countBase = null;
}

/** The count over every card on the felt and before it, or null while it is not known. */
function countOnFelt() {
  const base = S.countBase;
  if (!base) return null;
  if (base.roundId === null || S.round?.round_id !== base.roundId) return base.count;
  const landed = feltCards(S.round, S.shown);
  return shiftCount(base.count, [...landed.dealer.filter(Boolean), ...Object.values(landed.hands).flat()]);
}

// ---------------------------------------------------------------- requests
const withBusy = (fn) => whileBusy(S, () => S, render, fn);

async function refresh() {
  const me = S;
  const seat = await api.table(me.id);
  if (S !== me) return;
  S.table = seat.table;
  const retired = S.shoe && seat.shoe?.shoe_id !== S.shoe.shoe_id; // a new shoe in play
  S.shoe = seat.shoe;
  if (retired) findLastRetired();
  const same = S.round && seat.round && seat.round.round_id === S.round.round_id;
  if (!S.round || !seat.round || !same || seat.round.version > S.round.version) showRound(seat.round);
  learnCount(seat.shoe?.count, seat.shoe?.shoe_id, seat.round);
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
      S.clientSeed = "";
      S.cutTouched = false;
      S.betNote = "";
      S.panel = null;
      sound("chip");
      showRound(round);
      await refresh().catch(() => {}); // the shoe line; the round is shown already
    } catch (e) {
      if (S !== me) return;
      if (e.status === 422 && e.code === "validation_error" && (body.client_seed || body.cut !== undefined)) {
        toast(`${errorText(e)} ${t("table.shoeStarted")}`);
        S.clientSeed = "";
        S.cutTouched = false;
        await refresh().catch(() => {});
      } else if (e.code === "round_in_progress" || e.code === "conflict" || e.code === "shoe_not_committed") {
        toast(errorText(e));
        await refresh().catch(() => {});
      } else {
        reportError(e, fresh ? t("table.couldNotDeal") : "");
      }
    }
  });
}

/** Why a key or a click did nothing, shown under the controls and read out. */
function explain(why) {
  S.actionNote = why;
  const live = document.getElementById("announcer");
  if (live) live.textContent = why;
  render();
}

async function act(name) {
  if (!S || S.busy) return;
  const why = whyNot(S.round, S.table, S.balance, name);
  if (why) return explain(why);
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
      showRound(round);
      if (round.status === "settled") await refresh().catch(() => {});
    } catch (e) {
      if (S !== me) return;
      if (e.status === 412 || e.code === "conflict" || e.code === "no_round") {
        toast(`${errorText(e)} ${t("table.refreshed")}`, { tone: "info" });
        await refresh().catch((e2) => reportError(e2));
      } else reportError(e);
    }
  });
}

async function fetchHint() {
  if (!S?.round || S.round.status === "settled") return;
  const me = S;
  const { version, round_id: roundId } = S.round;
  try {
    const hint = await api.hint(me.id, settings.coachLevel);
    if (S !== me || !S.round || S.round.version !== version || S.round.round_id !== roundId) return;
    S.hint = { ...hint, version };
    learnCount(hint.count, S.round.shoe_id, S.round);
    render();
  } catch (e) {
    if (e.code === "no_round") return;
    reportError(e, t("table.coach"));
  }
}

function maybeCoach() {
  if (S?.coach && S.round && S.round.status !== "settled" && !S.pace && (!S.hint || S.hint.version !== S.round.version)) fetchHint();
}

// ---------------------------------------------------------------- the edge, between rounds
// GET …/edge is the next round's (409 while a round is in play): asked on a load with no
// round in play and once a settled round's cards have all landed, while the count is shown
// or the checkout may ask (its figures are the edge's).

/** Between rounds, the cards landed: the settled round's id (null: no round yet); else undefined. */
function betweenRounds() {
  const r = S.round;
  if (r && (r.status !== "settled" || S.pace)) return undefined;
  return r ? r.round_id : null;
}

/** The edge to show now, or null (a round in play, the count hidden, the checkout asking, not known yet). */
function edgeShown() {
  if (!S || !settings.showCount || !S.edge || checkoutAsking(S)) return null;
  return S.edge.after === betweenRounds() ? S.edge.answer : null;
}

async function maybeEdge() {
  if (!S || !(settings.showCount || settings.checkout)) return;
  const after = betweenRounds();
  if (after === undefined || S.edgeAsked === after) return;
  const me = S;
  me.edgeAsked = after;
  try {
    const answer = await api.edge(me.id);
    if (S !== me) return;
    S.edge = { after, answer };
    if (betweenRounds() !== after) return;
    const asked = checkoutBetweenRounds(S, after, answer);
    render();
    if (asked) focusCheckout(S.main);
  } catch {
    // the edge is an aid: without it the table plays on (a round begun in another tab shows
    // with the table's next refresh); asked again on the next chance
    if (S === me && S.edgeAsked === after) S.edgeAsked = undefined;
  }
}

/** The count's setting, which the edge follows: shown, it is asked for. */
function setShowCount(on) {
  settings.showCount = on;
  render();
  maybeEdge();
}

/** The table's last retired shoe, for the fairness panel: the newest round's shoe that is
 * retired. Read when the page opens and when a new shoe comes into play (the last one
 * retired), not after every round. */
async function findLastRetired() {
  const me = S;
  try {
    const found = await lastRetiredShoe(me.id, me.shoe?.shoe_id);
    if (S === me && found !== me.lastRetired) {
      S.lastRetired = found;
      render();
    }
  } catch {
    /* the panel offers the current shoe's verification only */
  }
}

// A persistent live region (outside the re-rendered page) so screen readers hear every result.
function announce(round) {
  const live = document.getElementById("announcer");
  if (!live) return;
  if (round.status !== "settled") {
    live.textContent = roundStatusLabel(round);
    return;
  }
  const parts = [];
  for (const b of round.boxes || []) {
    if (b.player !== "user") continue;
    for (const [i, hd] of b.hands.entries())
      parts.push(
        b.hands.length > 1
          ? t("table.handResult", { box: b.box + 1, hand: i + 1, result: resultLabel(hd) || statusLabel(hd.status) })
          : t("table.boxResult", { box: b.box + 1, result: resultLabel(hd) || statusLabel(hd.status) }),
      );
  }
  live.textContent = `${parts.join(" ")} ${netSentence(round.net)}`;
}

function currentBox() {
  const turn = S.round?.turn;
  return turn ? (S.round.boxes || []).find((b) => b.box === turn.box) : null;
}

function onKey(ev) {
  if (!S || keyTaken(S, ev, { closeDrawer: () => togglePanel(S.panel), landAll }) || checkoutKey(controls, ev)) return;
  const key = ev.key.toLowerCase();
  const name = ACTION_BY_KEY[key];
  S.actionNote = ""; // a note answers the last key only
  const settled = !S.round || S.round.status === "settled";
  const onControl = ev.target?.closest?.("button, a, select, input") && ev.target.dataset?.testid !== "deal";
  if (settled && !S.panel && betKey(key)) {
    ev.preventDefault();
  } else if (name) {
    ev.preventDefault();
    act(name);
  } else if (key === "c" && !settled) {
    ev.preventDefault();
    if (S.round.legal_actions?.length) fetchHint();
    else explain(t("table.coachNothing"));
  } else if ((ev.key === "Enter" || ev.key === " ") && settled && !onControl && !S.panel) {
    ev.preventDefault();
    deal();
  }
}

/** Between rounds: a chip's key picks it, a box's digit places the chip there (as a click on its circle). */
function betKey(key) {
  const chip = chipValues(S.table.min_bet, S.table.max_bet)[CHIP_KEYS.indexOf(key)];
  if (chip !== undefined && CHIP_KEYS.includes(key)) {
    pickChip(controls, chip);
    return true;
  }
  const circle = BOX_KEYS.includes(key) && S.main.querySelector(`[data-testid="bet-add-${BOX_KEYS.indexOf(key)}"]`);
  if (!circle || circle.disabled) return false;
  circle.click();
  return true;
}

// ---------------------------------------------------------------- what the controls change
const togglePanel = (name) => toggleDrawer(S, name, render);

/** A new coach level: the hint shown is of the old one, so it goes (and coach mode asks again). */
function setCoachLevel(level) {
  settings.coachLevel = level;
  S.hint = null;
  maybeCoach();
}

function setCoach(on) {
  S.coach = on;
  sessionStorage.setItem(COACH_KEY, on ? "1" : "0");
  if (on) maybeCoach();
  else render();
}

/** The table as the controls get it: its state, and what they may do to it. */
const controls = {
  get state() {
    return S;
  },
  render: () => render(),
  deal: () => deal(),
  act: (name) => act(name),
  hint: () => withBusy(fetchHint),
  setCoach,
  setCoachLevel,
  setShowCount,
  edgeShown: () => edgeShown(),
  togglePanel,
  skip: () => S?.pace && landAll(),
  chipSound: () => sound("chip"),
};

// ---------------------------------------------------------------- render
function render() {
  if (!S || heldWhilePressed(render)) return;
  const main = S.main;
  const focused = document.activeElement?.dataset?.testid;
  const r = S.round;
  const betting = !r || (r.status === "settled" && !S.pace);
  clear(main).appendChild(
    h(
      "section",
      { class: "table-page", testid: "table-page", "aria-labelledby": "table-title", dataset: { table: S.table.id } },
      renderToolbar(controls),
      // The chips and Deal come before the boxes to the keyboard (app.css shows them under the felt).
      betting ? renderCheckout(controls) || renderBetting(controls) : null,
      settings.showCount && !checkoutAsking(S)
        ? h(
            "div",
            { class: "felt-wrap" },
            h("div", { class: "count-row" }, renderCountBadge(countOnFelt(), S.table), renderEdge(edgeShown())),
            renderFelt(controls),
          )
        : renderFelt(controls),
      betting ? null : renderActions(controls),
      withCheckoutSettings(renderPanels(controls), controls),
    ),
  );
  if (betting) labelBoxKeys(main);
  restoreFocus(S, focused, betting);
  showTurnBox(main);
  if (S.busy) lockControls(main, true);
}
