// A shared table (#/room/{id}, API.md "Shared tables (rooms)"): the felt of felt.js with
// every seat's nick, the controls of controls.js for the user's own bets and decisions,
// the drawers of panels.js; the room's views come from the user's requests and, live,
// from its socket (live.js), shown only when newer (roomview.js). Joins, leaves and "your
// turn" are said in the live region; the countdown to the room's deadline ticks in place.
import { api, getSession, loadTables } from "./api.js";
import { pickChip, renderActions, renderBetting } from "./controls.js";
import { clear, h } from "./dom.js";
import { renderBetCircle, renderFelt, showTurnBox } from "./felt.js";
import { heldWhilePressed, keyTaken, labelBoxKeys, landCards, paceCards, restoreFocus, toggleDrawer, whileBusy } from "./feltpage.js";
import { ACTION_BY_KEY, BOX_KEYS, CHIP_KEYS, chipStack, formatCoins, netSentence, resultLabel, statusLabel } from "./format.js";
import { t } from "./i18n.js";
import { buildRoundRequest, chipValues, insuranceAmounts, whyNot } from "./input.js";
import { liveChangeSentence, liveStateWords, watchRoom } from "./live.js";
import { dealOrder, feltCards } from "./pacing.js";
import { lobbyLink, renderCountBadge, renderPanelButtons, renderPanels } from "./panels.js";
import {
  countdownWords,
  feltCount,
  keepOwnPart,
  needsOwnView,
  nickOfPlayer,
  ownerOf,
  phaseOf,
  roomStatusWords,
  roomTable,
  seatChanges,
  seatOf,
  seatSentences,
  secondsLeft,
  viewToApply,
  yourTurnNow,
} from "./roomview.js";
import { settings } from "./settings.js";
import { play as sound } from "./sound.js";
import { tableName } from "./tablenames.js";
import { errorText, lockControls, reportError, setBalance, shareRoom, toast } from "./ui.js";

const COACH_KEY = "blackjack.coach";

let S = null; // the room on screen

export function leaveRoom() {
  if (!S) return;
  S.stopWatching();
  clearInterval(S.tick);
  clearTimeout(S.pace);
  document.removeEventListener("keydown", onKey);
  S = null;
}

export async function showRoom(main, id, isCurrent) {
  leaveRoom();
  clear(main).appendChild(h("p", { class: "loading", testid: "loading" }, t("room.loading")));
  let view;
  let table;
  try {
    const [room, tables] = await Promise.all([api.room(id), loadTables()]);
    view = room;
    table = tables.find((t) => t.id === room.table);
    if (!table) throw new Error(t("room.noTable", { table: room.table }));
  } catch (e) {
    if (!isCurrent()) return;
    clear(main).appendChild(h("div", { class: "panel" }, h("p", { testid: "room-error" }, errorText(e)), h("a", { href: "#/lobby" }, t("room.backToLobby"))));
    reportError(e);
    return;
  }
  if (!isCurrent()) return;
  document.title = t("room.documentTitle", { name: view.name });
  const session = getSession();
  const round = roundOf(view);
  S = {
    id,
    main,
    me: session?.user?.nick || "",
    current: { view, personal: true },
    room: view,
    table: roomTable(table),
    shoe: view.shoe,
    round,
    shown: new Set(dealOrder(round).map((slot) => slot.key)),
    pace: null,
    justLanded: null,
    fresh: {},
    slip: { bets: {}, ai: {} },
    slipBoxes: new Set(),
    chip: null,
    clientSeed: "",
    cut: null,
    cutTouched: false,
    busy: false,
    hint: null,
    coach: sessionStorage.getItem(COACH_KEY) === "1",
    insuranceAmount: null,
    actionNote: "",
    betNote: "",
    panel: null,
    lastRetired: null,
    balance: session?.user?.balance ?? null,
    live: "connecting",
    announced: round?.status === "settled" ? round.round_id : null, // the last round whose result was said (or shown on load)
    reading: false,
    readAgain: false,
    countdown: null, // the countdown's element, ticked in place
    tick: null,
    stopWatching: () => {},
  };
  const chips = chipValues(S.table.min_bet, S.table.max_bet);
  S.chip = chips.includes(S.table.min_bet) ? S.table.min_bet : chips[0];
  syncSlip();
  document.addEventListener("keydown", onKey);
  S.tick = setInterval(tick, 250);
  render();
  readBalance();
  const me = S;
  me.stopWatching = watchRoom(id, {
    onView: (v, personal) => S === me && receive(v, personal),
    onState: (state) => S === me && setLive(state),
  });
  maybeCoach();
}

/** The round as the felt and the controls read it: the room's `legal_actions` are the caller's. */
function roundOf(view) {
  return view.round ? { ...view.round, legal_actions: view.legal_actions || [] } : null;
}

// ---------------------------------------------------------------- views in
function receive(view, personal) {
  const applied = viewToApply(S.current, { view, personal });
  if (!applied) return;
  const before = S.current.view;
  const next = applied.personal ? applied.view : keepOwnPart(before, applied.view);
  S.current = { view: next, personal: applied.personal };
  S.room = next;
  S.shoe = next.shoe;
  const said = seatSentences(seatChanges(before, next), S.me);
  if (yourTurnNow(before, next, S.me)) {
    said.push(t("room.yourTurnSaid", { status: roomStatusWords(next, S.me), countdown: countdownWords("turn", secondsLeft(next.deadline, Date.now()), true) }));
    sound("turn");
  }
  if (said.length) tell(said.join(" "));
  syncSlip();
  showRound(roundOf(next));
  if (!applied.personal && needsOwnView(before, next, S.me)) readOwnView();
}

/** The caller's own view (GET): one read at a time, and one more if views came meanwhile. */
async function readOwnView() {
  if (S.reading) {
    S.readAgain = true;
    return;
  }
  const me = S;
  me.reading = true;
  try {
    const view = await api.room(me.id);
    if (S === me) receive(view, true);
  } catch (e) {
    if (S === me) reportError(e);
  } finally {
    me.reading = false;
    if (S === me && me.readAgain) {
      me.readAgain = false;
      readOwnView();
    }
  }
}

/** The header's balance, read after what changes it (a bet, a round of the user's settled). */
async function readBalance() {
  const me = S;
  try {
    const { balance } = await api.me();
    if (S !== me) return;
    S.balance = balance;
    setBalance(balance, { flash: false });
  } catch {
    /* the header keeps the balance it shows */
  }
}

/** The slip holds a bet for each of the user's boxes: a box just taken starts at the minimum. */
function syncSlip() {
  const mine = new Set(phaseOf(S.room, S.me).mine);
  for (const box of Object.keys(S.slip.bets)) if (!mine.has(Number(box))) delete S.slip.bets[box];
  for (const box of mine) if (!S.slipBoxes.has(box)) S.slip.bets[box] = S.table.min_bet;
  S.slipBoxes = mine;
}

function setLive(state) {
  if (state === S.live) return;
  const was = S.live;
  S.live = state;
  const change = liveChangeSentence(was, state);
  if (change) tell(change);
  render();
}

/** Said in the page's live region (index.html), outside the page that re-renders. What is
 * said within a moment of the last words joins them, so that neither replaces the other
 * before it is read ("Back online." and the join it brings). */
let told = { words: "", at: 0 };
function tell(words) {
  const live = document.getElementById("announcer");
  if (!live) return;
  const now = Date.now();
  const joined = now - told.at < TOLD_TOGETHER_MS && live.textContent === told.words;
  told = { words: joined ? `${told.words} ${words}` : words, at: now };
  live.textContent = told.words;
}
const TOLD_TOGETHER_MS = 1500;

// ---------------------------------------------------------------- the pace of the cards
function showRound(round) {
  const before = S.round;
  if (before?.round_id !== round?.round_id) S.shown = new Set();
  // The same decision (a personal view of the version shown) keeps its hint and its notes.
  if (before?.round_id !== round?.round_id || before?.version !== round?.version) Object.assign(S, { hint: null, insuranceAmount: null, actionNote: "" });
  Object.assign(S, { round, fresh: {} });
  dealNext();
}

const dealNext = () => paceCards(S, { render, landAll });

/** Every card on the felt; a round of the user's settled: its result said, the balance read. */
function landAll() {
  landCards(S);
  const r = S.round;
  const settledMine = r?.status === "settled" && r.net !== null && r.net !== undefined;
  if (settledMine && S.announced !== r.round_id) {
    S.announced = r.round_id;
    announceResult(r);
    if (Number(r.net) > 0) sound("win");
    S.fresh = { results: true };
    readBalance();
  }
  render();
  maybeCoach();
}

function announceResult(round) {
  const parts = [];
  for (const b of round.boxes || []) {
    if (nickOfPlayer(b.player) !== S.me) continue;
    for (const [i, hd] of b.hands.entries())
      parts.push(
        t(b.hands.length > 1 ? "room.resultHand" : "room.resultBox", { box: b.box + 1, hand: i + 1, result: resultLabel(hd) || statusLabel(hd.status) }),
      );
  }
  tell(`${parts.join(" ")} ${netSentence(round.net)}`);
}

// ---------------------------------------------------------------- requests
const withBusy = (fn) => whileBusy(S, () => S, render, fn);

/** A request that answers with the room view; a refused one is said, and the room read again. */
function send(request, prefix, after = () => {}) {
  return withBusy(async (me) => {
    try {
      const view = await request(me);
      if (S !== me) return;
      receive(view, true);
      after();
    } catch (e) {
      if (S !== me) return;
      if (e.status === 412 || e.status === 409) {
        toast(errorText(e), { tone: e.status === 412 ? "info" : "error" });
        await readOwnView();
      } else reportError(e, prefix);
    }
  });
}

function bet() {
  const { body, errors } = buildRoundRequest(S.table, S.slip, S.balance, { shoe: S.shoe, clientSeed: S.clientSeed });
  if (errors.length) return toast(errors.join(" "));
  return send(
    (me) => api.betInRoom(me.id, body.bets, body.client_seed),
    t("room.couldNotBet"),
    () => {
      S.clientSeed = "";
      S.betNote = "";
      sound("chip");
      readBalance();
    },
  );
}

const pass = () => send((me) => api.betInRoom(me.id, []), t("room.couldNotPass"));
const take = (box) => send((me) => api.takeBoxes(me.id, [box]), t("room.couldNotTake"));
const leave = () =>
  send(
    (me) => api.leaveRoom(me.id),
    t("room.couldNotLeave"),
    () => toast(t("room.youLeftToast"), { tone: "info" }),
  );

function explain(why) {
  S.actionNote = why;
  tell(why);
  render();
}

function act(name) {
  if (!S || S.busy) return;
  const why = whyNot(S.round, S.table, S.balance, name);
  if (why) return explain(why);
  let amount;
  if (name === "insurance" && S.table.rules?.insurance === "up_to_half") {
    const box = (S.round.boxes || []).find((b) => b.box === S.round.turn?.box);
    amount = S.insuranceAmount ?? (box ? insuranceAmounts(box.bet).at(-1) : undefined);
  }
  return send((me) => api.actInRoom(me.id, name, me.room.version, amount), "");
}

async function fetchHint() {
  if (!S?.round?.legal_actions?.length) return;
  const me = S;
  const { version, round_id: roundId } = S.round;
  try {
    const hint = await api.roomHint(me.id, settings.coachLevel);
    if (S !== me || S.round?.version !== version || S.round.round_id !== roundId) return;
    S.hint = { ...hint, version };
    render();
  } catch (e) {
    if (S === me && e.code !== "not_your_turn") reportError(e, t("room.coach"));
  }
}

function maybeCoach() {
  if (S?.coach && S.round?.legal_actions?.length && !S.pace && (!S.hint || S.hint.version !== S.round.version)) fetchHint();
}

// ---------------------------------------------------------------- the keyboard
function onKey(ev) {
  if (!S || keyTaken(S, ev, { closeDrawer: () => togglePanel(S.panel), landAll })) return;
  const key = ev.key.toLowerCase();
  const phase = phaseOf(S.room, S.me);
  S.actionNote = "";
  if (phase.canBet && !S.panel) {
    const chip = chipValues(S.table.min_bet, S.table.max_bet)[CHIP_KEYS.indexOf(key)];
    const circle = BOX_KEYS.includes(key) && S.main.querySelector(`[data-testid="bet-add-${BOX_KEYS.indexOf(key)}"]`);
    if (CHIP_KEYS.includes(key) && chip !== undefined) {
      ev.preventDefault();
      return pickChip(ctl, chip);
    }
    if (circle && !circle.disabled) {
      ev.preventDefault();
      return circle.click();
    }
    const onControl = ev.target?.closest?.("button, a, select, input") && ev.target.dataset?.testid !== "deal";
    if (ev.key === "Enter" && !onControl) {
      ev.preventDefault();
      return bet();
    }
    return;
  }
  const name = ACTION_BY_KEY[key];
  if (name && !phase.betting) {
    ev.preventDefault();
    act(name);
  } else if (key === "c" && !phase.betting) {
    ev.preventDefault();
    if (S.round?.legal_actions?.length) withBusy(fetchHint);
    else explain(t("room.coachNothing"));
  }
}

// ---------------------------------------------------------------- what the controls change
const togglePanel = (name) => toggleDrawer(S, name, render);

/** The room as felt.js, controls.js and panels.js get it: the state, and what they may do. */
const ctl = {
  get state() {
    return S;
  },
  render: () => render(),
  deal: () => bet(),
  pass: () => pass(),
  act: (name) => act(name),
  hint: () => withBusy(fetchHint),
  setCoach(on) {
    S.coach = on;
    sessionStorage.setItem(COACH_KEY, on ? "1" : "0");
    if (on) maybeCoach();
    else render();
  },
  setCoachLevel(level) {
    settings.coachLevel = level;
    S.hint = null;
    maybeCoach();
  },
  setShowCount(on) {
    settings.showCount = on;
    render();
  },
  edgeShown: () => null, // a room's next round is its players', not one box's
  togglePanel,
  skip: () => S?.pace && landAll(),
  chipSound: () => sound("chip"),
  room: {
    owner: (n) => ownerOf(S.room, n, S.me),
    betting: (n) => renderSeat(n),
    status: () => roomStatusWords(S.room, S.me),
    countdown: () => [
      renderCountdown(),
      S.live === "offline" ? h("p", { class: "live-offline-note", testid: "live-offline" }, liveStateWords("offline")) : null,
    ],
  },
};

// ---------------------------------------------------------------- render
function render() {
  if (!S || heldWhilePressed(render)) return;
  const main = S.main;
  const focused = document.activeElement?.dataset?.testid;
  const phase = phaseOf(S.room, S.me);
  const betting = phase.betting && !S.pace;
  const landed = S.round ? feltCards(S.round, S.shown) : { dealer: [], hands: {} };
  const felt = renderFelt(ctl);
  clear(main).appendChild(
    h(
      "section",
      {
        class: "table-page room-page",
        testid: "room-page",
        "aria-labelledby": "table-title",
        dataset: { room: S.id, table: S.table.id, phase: S.room.phase, version: String(S.room.version) },
      },
      renderHead(phase),
      betting && phase.canBet ? renderBetting(ctl) : null,
      settings.showCount ? h("div", { class: "felt-wrap" }, h("div", { class: "count-row" }, renderCountBadge(feltCountOf(landed), S.table)), felt) : felt,
      betting ? null : renderActions(ctl),
      renderPanels(ctl),
    ),
  );
  if (betting && phase.canBet) labelBoxKeys(main);
  restoreFocus(S, focused, betting && phase.canBet);
  showTurnBox(main);
  if (S.busy) lockControls(main, true);
  tick();
}

/** The count over the cards on the felt (roomview.js's feltCount). */
const feltCountOf = (landed) => feltCount(S.room, [...landed.dealer.filter(Boolean), ...Object.values(landed.hands).flat()]);

function renderHead(phase) {
  return h(
    "div",
    { class: "table-head" },
    h(
      "div",
      { class: "table-title" },
      h("h1", { id: "table-title", testid: "room-name", translate: "no" }, S.room.name), // its players' name for it
      h(
        "p",
        { class: "muted small summary" },
        `${tableName(S.table.id, S.table.name)} · ${t("room.turnSeconds", { seconds: S.room.turn_seconds })} · `,
        h("span", { class: `live-state live-${S.live}`, testid: "live-state", dataset: { state: S.live } }, liveStateWords(S.live)),
      ),
    ),
    h(
      "div",
      { class: "table-links" },
      h("button", { type: "button", class: "btn btn-ghost btn-small", testid: "room-share", onclick: () => shareRoom(S.id) }, t("room.share")),
      renderPanelButtons(ctl),
      phase.seated
        ? h("button", { type: "button", class: "btn btn-ghost btn-small", testid: "room-leave", "data-lock": "on", onclick: leave }, t("room.leave"))
        : null,
      lobbyLink(),
    ),
  );
}

/** A box between rounds: a free one to take, the user's betting circle, or another's bet. */
function renderSeat(n) {
  const seat = seatOf(S.room, n, S.me);
  const phase = phaseOf(S.room, S.me);
  if (!seat) {
    return h(
      "div",
      { class: "bet-box seat-free", testid: `seat-${n}` },
      h(
        "button",
        { type: "button", class: "btn btn-small take-box", testid: `take-box-${n}`, "data-lock": "on", onclick: () => take(n) },
        t("room.takeBox", { box: n + 1 }),
      ),
    );
  }
  if (seat.you && phase.canBet) return renderBetCircle(ctl, n);
  const placed = (S.room.bets || []).find((b) => b.box === n);
  const passed = (S.room.passed || []).includes(seat.nick);
  const words = placed ? formatCoins(placed.amount) : passed ? t("room.pass") : "…";
  const seated = { box: n + 1, player: seat.you ? t("room.you") : seat.nick, bet: words };
  const stack = placed ? chipStack(Number(placed.amount), chipValues(S.table.min_bet, S.table.max_bet)) : [];
  return h(
    "div",
    { class: `bet-box seat-bet ${placed ? "has-bet" : ""}`, testid: `seat-${n}` },
    h(
      "div",
      {
        class: "bet-circle",
        role: "img",
        "aria-label": t(placed ? "room.seatBet" : passed ? "room.seatPasses" : "room.seatNoBet", seated),
      },
      h(
        "span",
        { class: "stack", "aria-hidden": "true" },
        stack.map((v) => h("span", { class: `stack-chip chip-${v}` })),
      ),
      h("span", { class: `bet-amount ${placed ? "" : "bet-ai"}`, testid: `bet-amount-${n}`, "aria-hidden": "true" }, words),
    ),
  );
}

/** The countdown to the room's deadline (the betting window, the decision asked), ticked in place. */
function renderCountdown() {
  S.countdown = h("p", { class: "room-countdown", testid: "room-countdown", role: "timer", "aria-live": "off" });
  return S.countdown;
}

function tick() {
  const el = S?.countdown;
  if (!el?.isConnected) return;
  const phase = phaseOf(S.room, S.me);
  const seconds = secondsLeft(S.room.deadline, Date.now());
  const words = countdownWords(phase.countdown, seconds, !!phase.turn?.you);
  if (el.textContent !== words) el.textContent = words;
  el.hidden = !words;
  el.dataset.seconds = seconds === null ? "" : String(seconds);
  el.classList.toggle("urgent", seconds !== null && seconds <= 5 && (phase.countdown === "betting" ? phase.canBet : !!phase.turn?.you));
}
