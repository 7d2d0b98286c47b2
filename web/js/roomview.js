// Pure (no DOM): what a shared table's page makes of a room view (API.md, "Shared tables
// (rooms)"): which view to show, who sits where, whose turn it is and for how long, what
// the caller may do in each phase, what changed between two views, the count on the felt,
// the lobby's words for a room and the checks of a new room.

import { formatCoins } from "./format.js";
import { roundCards, shiftCount } from "./hilo.js";
import { t } from "./i18n.js";

/** RULES.md, "Shared tables": a room's seconds per decision and for the betting window. */
export const ROOM_SECONDS = { min: 5, max: 60, turn: 20, betting: 15 };
const NAME_RE = /^[ -~]{1,32}$/;

/** The tables a room can be made at: those with more than one box. */
export const roomTables = (tables) => (tables || []).filter((t) => (t.boxes || 1) > 1);

/** A room plays its table's rules, save that nobody places the cut card and no AI sits in. */
export function roomTable(table) {
  return { ...table, rules: { ...(table.rules || {}), cut_range: null, ai_players: false } };
}

/** The body of POST /v1/rooms from the form's fields (strings), and what is wrong with them. */
export function roomRequest({ table, name, turnSeconds, bettingSeconds }) {
  const errors = [];
  const body = { table };
  const trimmed = String(name || "").trim();
  if (trimmed) {
    if (NAME_RE.test(trimmed)) body.name = trimmed;
    else errors.push(t("room.nameError"));
  }
  for (const [field, raw, error] of [
    ["turn_seconds", turnSeconds, "room.turnSecondsError"],
    ["betting_seconds", bettingSeconds, "room.bettingSecondsError"],
  ]) {
    const value = Number(raw);
    if (!Number.isInteger(value) || value < ROOM_SECONDS.min || value > ROOM_SECONDS.max)
      errors.push(t(error, { min: ROOM_SECONDS.min, max: ROOM_SECONDS.max }));
    else body[field] = value;
  }
  return { body, errors };
}

/** A room of the lobby's list in words: "Casino · 2 players · 3 free boxes · betting". */
export function roomSummaryWords(summary, tableName = summary.table) {
  return t("room.summary", {
    table: tableName,
    players: t("room.players", { count: summary.players }),
    free: t("room.freeBoxes", { count: summary.free_boxes }),
    phase: PHASES.includes(summary.phase) ? t(`room.phase.${summary.phase}`) : summary.phase,
  });
}

/** A room's phases (API.md), each in words as room.phase.<phase>. */
const PHASES = ["waiting", "betting", "insurance", "player_turn", "settled"];
const BETTING_PHASES = new Set(["waiting", "betting", "settled"]);

// ---------------------------------------------------------------- which view to show
// Views come from the caller's own requests (personal: `you`, `legal_actions`,
// `decisions`, `net` and `balance` are the caller's) and from the socket (public: the same
// for every watcher). A view is shown only when it is newer than the one on screen; a
// personal view of the very version shown replaces a public one (it adds the caller's
// part) and keeps its `dealt`, so the cards landing go on landing (a GET's `dealt` is []).

/**
 * The view to show after `current` when `incoming` arrives, or null to keep `current`:
 * each is `{view, personal}`.
 */
export function viewToApply(current, incoming) {
  if (!incoming?.view) return null;
  if (!current?.view || current.view.room_id !== incoming.view.room_id) return incoming;
  const was = current.view.version;
  const now = incoming.view.version;
  if (now > was) return incoming;
  if (now === was && incoming.personal && !current.personal) {
    const round = incoming.view.round && current.view.round ? { ...incoming.view.round, dealt: current.view.round.dealt } : incoming.view.round;
    return { view: { ...incoming.view, round }, personal: true };
  }
  return null;
}

/**
 * A public view shown over a personal one of the same round keeps the marks on the
 * caller's hands, which the socket leaves out (their net comes with the GET that
 * needsOwnView asks for when the round settles).
 */
export function keepOwnPart(previous, view) {
  const before = previous?.round;
  const round = view.round;
  if (!before || !round || before.round_id !== round.round_id) return view;
  const handsBefore = new Map((before.boxes || []).map((b) => [b.box, b.hands]));
  const boxes = (round.boxes || []).map((b) => ({
    ...b,
    hands: b.hands.map((hd, i) => (hd.decisions || !handsBefore.get(b.box)?.[i]?.decisions ? hd : { ...hd, decisions: handsBefore.get(b.box)[i].decisions })),
  }));
  return { ...view, round: { ...round, boxes } };
}

// ---------------------------------------------------------------- seats and turns

/** The nick a round's box belongs to ("user:<nick>"), or null. */
export const nickOfPlayer = (player) => (String(player || "").startsWith("user:") ? String(player).slice(5) : null);

/** The seat of box `n`: `{box, nick, you}` (you: the nick is the caller's), or null when free. */
export function seatOf(view, n, me) {
  const seat = (view?.seats || []).find((s) => s.box === n);
  return seat ? { ...seat, you: seat.you || seat.nick === me } : null;
}

/**
 * Who box `n` belongs to, for the felt: while a round is in play its player's (a leaver's
 * box plays on, a box taken for the next round is not yet its taker's), else its seat's.
 */
export function ownerOf(view, n, me) {
  const box = BETTING_PHASES.has(view?.phase) ? null : (view?.round?.boxes || []).find((b) => b.box === n);
  const seat = seatOf(view, n, me);
  const nick = box ? nickOfPlayer(box.player) : seat?.nick;
  if (!nick) return null;
  return { nick, you: nick === me || (seat?.nick === nick && seat.you) };
}

/** The caller's boxes (by their seats' `you`, or their nick in a public view). */
export const myBoxes = (view, me) => (view?.seats || []).filter((s) => s.you || s.nick === me).map((s) => s.box);

/** Whether a decision is being asked (insurance, a hand's play) and of whom: `{box, hand, nick, you, insurance}` or null. */
export function turnOf(view, me) {
  const round = view?.round;
  if (!round?.turn || (view.phase !== "insurance" && view.phase !== "player_turn")) return null;
  const { box, hand } = round.turn;
  const owner = ownerOf(view, box, me);
  return { box, hand, nick: owner?.nick ?? null, you: !!owner?.you, insurance: view.phase === "insurance" };
}

/** A key naming the decision asked (round, box, hand), or null: it changes when another is asked. */
export function turnKey(view) {
  const t = view?.round?.turn;
  return t && (view.phase === "insurance" || view.phase === "player_turn") ? `${view.round.round_id}:${t.box}:${t.hand}` : null;
}

/** Whether `after` asks the caller a decision `before` did not: "your turn" is said then. */
export function yourTurnNow(before, after, me) {
  const turn = turnOf(after, me);
  return !!turn?.you && turnKey(before) !== turnKey(after);
}

/**
 * Whether a public view calls for the caller's own (GET): it asks them a decision (their
 * legal actions), it has just answered one of theirs (their marks), or it settles a round
 * they had a box in (their net and balance).
 */
export function needsOwnView(before, after, me) {
  const round = after?.round;
  if (!round || !(round.boxes || []).some((b) => nickOfPlayer(b.player) === me)) return false;
  const settledNow = round.status === "settled" && (before?.round?.round_id !== round.round_id || before.round.status !== "settled");
  return !!turnOf(after, me)?.you || !!turnOf(before, me)?.you || settledNow;
}

/** What changed in the seats from `before` to `after`, by nick: who joined (their boxes) and who left. */
export function seatChanges(before, after) {
  const boxesBy = (view) => {
    const by = new Map();
    for (const s of view?.seats || []) by.set(s.nick, [...(by.get(s.nick) || []), s.box]);
    return by;
  };
  const was = boxesBy(before);
  const now = boxesBy(after);
  return {
    joined: [...now].filter(([nick]) => !was.has(nick)).map(([nick, boxes]) => ({ nick, boxes })),
    left: [...was.keys()].filter((nick) => !now.has(nick)),
  };
}

/** Boxes by number: "2", "2 and 4", "1, 3 and 5". */
const boxList = (boxes) => {
  const names = boxes.map((b) => String(b + 1));
  return names.length > 1 ? t("room.boxList", { first: names.slice(0, -1).join(", "), last: names.at(-1) }) : names[0];
};

/** The seat changes in sentences, the caller's own in the second person. */
export function seatSentences({ joined, left }, me) {
  const sits = (nick, boxes) => {
    const [one, several] = nick === me ? ["room.youSit", "room.youSitBoxes"] : ["room.joined", "room.joinedBoxes"];
    return t(boxes.length > 1 ? several : one, { nick, boxes: boxList(boxes) });
  };
  return [...joined.map(({ nick, boxes }) => sits(nick, boxes)), ...left.map((nick) => (nick === me ? t("room.youLeft") : t("room.left", { nick })))];
}

// ---------------------------------------------------------------- the phase

/**
 * What the page offers in the view's phase: `betting` (the betting circles, between
 * rounds), `seated`, `canBet` (seated, and neither bet nor passed this round), `myBet`
 * (the caller's bets so far), `passed`, `countdown` ("betting", "turn" or null) and the
 * decision asked (`turn`, see turnOf).
 */
export function phaseOf(view, me) {
  const mine = myBoxes(view, me);
  const betting = BETTING_PHASES.has(view?.phase);
  const myBet = (view?.bets || []).filter((b) => mine.includes(b.box));
  const passed = (view?.passed || []).includes(me);
  const turn = turnOf(view, me);
  return {
    betting,
    seated: mine.length > 0,
    mine,
    myBet,
    passed,
    canBet: betting && mine.length > 0 && myBet.length === 0 && !passed,
    turn,
    countdown: view?.deadline ? (view.phase === "betting" ? "betting" : turn ? "turn" : null) : null,
  };
}

/** The room's state in a sentence (the felt's status line), the countdown apart. */
export function roomStatusWords(view, me) {
  const p = phaseOf(view, me);
  if (p.turn) {
    const what = p.turn.insurance ? t("room.turnInsurance") : turnPlace(view, p.turn);
    if (p.turn.you) return t("room.yourTurn", { what });
    return !p.turn.nick ? t("room.someonesTurn", { what }) : t("room.playersTurn", { nick: p.turn.nick, what });
  }
  if (!p.betting) return t("room.dealing");
  if (!p.seated) return t(view.phase === "betting" ? "room.betsBeingPlaced" : "room.waitingTakeBox");
  if (p.canBet) return t(view.phase === "betting" ? "room.betsOpen" : "room.placeBet");
  if (p.passed) return t("room.youPass");
  return t("room.betIn", { bet: formatCoins(p.myBet.reduce((sum, b) => sum + Number(b.amount), 0)) });
}

/** The box asked, and its hand where it was split: "box 3", "box 3, hand 2". */
function turnPlace(view, turn) {
  const box = (view.round?.boxes || []).find((b) => b.box === turn.box);
  if (box && box.hands.length > 1) return t("room.turnBoxHand", { box: turn.box + 1, hand: turn.hand + 1 });
  return t("room.turnBox", { box: turn.box + 1 });
}

// ---------------------------------------------------------------- the countdown

/** Whole seconds left until `deadline` (RFC 3339) at `now` (ms), never below 0; null without a deadline. */
export function secondsLeft(deadline, now) {
  if (!deadline) return null;
  const at = Date.parse(deadline);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** The countdown in words (no full stop): "Bets close in 12 s", "14 s to answer", "Time is up". */
export function countdownWords(kind, seconds, you) {
  if (seconds === null || kind === null) return "";
  if (seconds === 0) return t(kind === "betting" ? "room.betsClosing" : you ? "room.timeUpYou" : "room.timeUp");
  if (kind === "betting") return t("room.betsCloseIn", { seconds });
  return t(you ? "room.secondsToAnswer" : "room.secondsLeft", { seconds });
}

// ---------------------------------------------------------------- reconnecting

/** The wait before the `attempt`-th reconnection (from 1): 1 s, 2 s, 4 s, … up to 15 s. */
export const retryDelay = (attempt) => Math.min(15_000, 1000 * 2 ** Math.max(0, attempt - 1));

// ---------------------------------------------------------------- the count

/**
 * The Hi-Lo count over the cards on the felt: the view's count (its shoe's, after the
 * round's cards) less the round's cards, plus those that have landed. A round of a shoe
 * retired since counts from the new shoe's count (its own cards went with the old one).
 */
export function feltCount(view, landedCards) {
  const count = view?.shoe?.count;
  if (!count) return null;
  const round = view.round;
  if (!round || round.shoe_id !== view.shoe.shoe_id) return count;
  return shiftCount(shiftCount(count, roundCards(round), -1), landedCards);
}
