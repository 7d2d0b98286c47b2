// Pure (no DOM): how the client words and writes what it shows: the actions with their
// labels and keys, coins, percentages, EVs and losses, cards and totals, results with their
// net, insurance in words, decision marks, chip stacks, the round's status line, the
// strategy chart's rows.

import { formatNumber, t } from "./i18n.js";

/** An action with its key; its label is looked up when it shows, in the language spoken then. */
const action = (name, key) => ({
  name,
  key,
  get label() {
    return t(`action.${name}`);
  },
});
export const ACTIONS = [
  action("hit", "h"),
  action("stand", "s"),
  action("double", "d"),
  action("split", "p"),
  action("surrender", "r"),
  action("insurance", "i"),
  action("even_money", "e"),
  action("decline_insurance", "n"),
];
export const ACTION_BY_KEY = Object.fromEntries(ACTIONS.map((a) => [a.key, a.name]));
/** Each action's label by its name (ACTION_LABEL.hit), read when it shows. */
export const ACTION_LABEL = Object.defineProperties({}, Object.fromEntries(ACTIONS.map((a) => [a.name, { enumerable: true, get: () => a.label }])));
/** Between rounds: the chips' keys, left to right (the row above the digits), and the boxes' digits. */
export const CHIP_KEYS = ["q", "w", "e", "r", "t", "y"];
export const BOX_KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9"];

/**
 * An action's name where the question asked gives it another meaning: API.md's
 * `decline_insurance` declines even money when even money is what is offered.
 */
export function actionLabel(name, legal) {
  if (name === "decline_insurance" && (legal || []).includes("even_money")) return t("action.declineEvenMoney");
  return ACTION_LABEL[name] || name;
}

/** A graded decision's action (`action` or `best`) in words: declining even money as such. */
export function decisionActionLabel(decision, name) {
  return actionLabel(name, [decision.action, decision.best]);
}

/** Coins: whole numbers or halves ("7.5"), thousands separated, as the language writes them. */
export function formatCoins(n) {
  if (n === null || n === undefined || Number.isNaN(Number(n))) return "—";
  return formatNumber(n, { minimumFractionDigits: 0, maximumFractionDigits: 2 });
}

/** `n` with exactly `digits` decimals, as the language writes them: "0.500", "0,500". */
export const formatFixed = (n, digits) => formatNumber(n, { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function formatSigned(n) {
  if (n === null || n === undefined) return "—";
  const v = Number(n);
  if (v > 0) return `+${formatCoins(v)}`;
  if (v < 0) return `−${formatCoins(-v)}`;
  return "0";
}

/** 0.75 -> "75%" ("75 %" in Russian and Croatian). */
export function formatPercent(fraction) {
  return formatNumber(fraction, { style: "percent", maximumFractionDigits: 2 });
}

/** A percentage the API gives in percent (an edge): "−0.51%", "+1.02%", "0.00%" (two decimals). */
export function formatEdgePercent(percent) {
  if (percent === null || percent === undefined || Number.isNaN(Number(percent))) return "—";
  const v = Math.round(Number(percent) * 100) / 100;
  const written = formatNumber(Math.abs(v) / 100, { style: "percent", minimumFractionDigits: 2, maximumFractionDigits: 2 });
  if (v === 0) return written;
  return `${v > 0 ? "+" : "−"}${written}`;
}

/**
 * The advised bet's button: "Kelly bet: 120"; the table's limit where Kelly's bet is outside
 * it, and why: "Table minimum 10: Kelly bet 5 is below it"; the table minimum where the
 * house has the edge.
 */
export function kellyLabel(bet) {
  const kelly = Number(bet.kelly);
  const advised = Number(bet.advised);
  const coins = { advised: formatCoins(advised), kelly: formatCoins(kelly) };
  if (kelly <= 0) return t("kelly.houseEdge", coins);
  if (kelly < advised) return t("kelly.belowMinimum", coins);
  if (kelly > advised) return t("kelly.aboveMaximum", coins);
  return t("kelly.bet", coins);
}

/** The box Kelly's bet goes on (box -> amount in the slip): the one bet when one is, else box 1 (0). */
export function kellyBox(bets) {
  const bet = Object.keys(bets).filter((box) => Number(bets[box]) > 0);
  return bet.length === 1 ? Number(bet[0]) : 0;
}

/** Said once the Kelly bet cleared other boxes (0-based): "Kelly's bet is one box's: boxes 2 and 3 cleared." */
export function kellyNote(cleared) {
  const names = cleared.map((box) => String(Number(box) + 1));
  if (names.length === 1) return t("kelly.clearedBox", { box: names[0] });
  return t("kelly.clearedBoxes", { boxes: names.slice(0, -1).join(", "), last: names.at(-1) });
}

/** A round's variance per initial bet (the strategy card's): "variance 1.29 per round". */
export function varianceLabel(variance) {
  if (variance === null || variance === undefined || Number.isNaN(Number(variance))) return "";
  return t("format.variance", { variance: formatFixed(variance, 2) });
}

/** EV per unit bet: "+0.12" / "−0.48" (3 significant decimals). */
export function formatEv(ev) {
  if (ev === null || ev === undefined) return "";
  const v = Math.round(Number(ev) * 1000) / 1000;
  if (v === 0) return formatFixed(0, 3);
  return (v > 0 ? "+" : "−") + formatFixed(Math.abs(v), 3);
}

const SUIT = {
  S: { sym: "♠", red: false },
  H: { sym: "♥", red: true },
  D: { sym: "♦", red: true },
  C: { sym: "♣", red: false },
};
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];

/** "TD" -> {rank:"T", suit:"D", label:"10", sym:"♦", red:true, name:"Ten of diamonds"} (the name in the language spoken). */
export function parseCard(code) {
  const rank = String(code).slice(0, -1).toUpperCase();
  const suit = String(code).slice(-1).toUpperCase();
  const s = SUIT[suit];
  if (!s || !RANKS.includes(rank)) return null;
  const name = t("card.name", { rank: t(`card.rank.${rank}`), suit: t(`card.suit.${suit}`) });
  return { rank, suit, label: rank === "T" ? "10" : rank, sym: s.sym, red: s.red, name };
}

/** Total words for a player hand: "soft 17", "bust (24)", "Blackjack". */
export function handTotalLabel(hand) {
  if (!hand) return "";
  if (hand.status === "blackjack") return t("total.blackjack");
  if (hand.status === "bust") return t("total.bust", { total: hand.total });
  return hand.soft ? t("total.soft", { total: hand.total }) : String(hand.total);
}

/** The total of some face-up cards, as the engine counts it: an ace is 11 unless that busts. */
export function cardsTotal(codes) {
  let total = 0;
  let aces = 0;
  for (const code of codes) {
    const rank = String(code).slice(0, -1).toUpperCase();
    total += rank === "A" ? 11 : "TJQK".includes(rank) ? 10 : Number(rank);
    if (rank === "A") aces++;
  }
  while (total > 21 && aces > 0) {
    total -= 10;
    aces--;
  }
  return { total, soft: aces > 0 };
}

/** Dealer total: "showing 10" while cards are hidden. */
export function dealerTotalLabel(dealer) {
  if (!dealer?.cards || dealer.cards.length === 0) return "";
  const base = dealer.soft ? t("total.soft", { total: dealer.total }) : String(dealer.total);
  if (dealer.hidden > 0 || dealer.cards.length === 1) return dealer.cards[0].startsWith("A") ? t("total.showingAce") : t("total.showing", { total: base });
  if (dealer.cards.length === 2 && dealer.total === 21) return t("total.blackjack");
  if (dealer.total > 21) return t("total.bust", { total: dealer.total });
  return base;
}

/** The results and the hand statuses the client has words for (API.md's). */
const RESULTS = ["win", "lose", "push", "blackjack", "even_money", "surrender"];
const STATUSES = ["playing", "standing", "bust", "blackjack", "surrendered"];

/** A settled hand in words with its net: "Win +10", "Lose −10", "Push 0". */
export function resultLabel(hand) {
  if (!hand?.result) return null;
  const word = RESULTS.includes(hand.result) ? t(`result.${hand.result}`) : hand.result;
  return hand.payout !== null && hand.payout !== undefined ? t("result.withNet", { result: word, net: formatSigned(handNet(hand)) }) : word;
}

/** What a settled hand won or lost: its payout less its stake. */
export function handNet(hand) {
  return Number(hand.payout) - Number(hand.bet);
}

/** The insurance of a box in words, once the dealer's hand is known. */
export function insuranceSentence(box, dealerHasBlackjack) {
  if (box.insurance === null || box.insurance === undefined) return null;
  if (box.insurance_payout === null || box.insurance_payout === undefined) return t("insurance.insured", { amount: formatCoins(box.insurance) });
  const paid = Number(box.insurance_payout);
  if (paid > 0) return t("insurance.won", { net: formatSigned(paid - Number(box.insurance)) });
  const net = formatSigned(-Number(box.insurance));
  return dealerHasBlackjack === false ? t("insurance.lostNoBlackjack", { net }) : t("insurance.lost", { net });
}

/**
 * A box's insurance in words. Its outcome waits for what decides it: the dealer's second
 * card on the felt (`landed`, while the cards land), or the end of the round where no second
 * card comes. RULES.md: it is lost, whatever the dealer holds, once every insured hand busted.
 */
export function insuranceLine(box, landed, dealer) {
  const decided = box.insurance_payout !== null && box.insurance_payout !== undefined;
  if (decided && landed && typeof landed[1] !== "string") return insuranceSentence({ ...box, insurance_payout: null }, null);
  if (decided && Number(box.insurance_payout) === 0 && box.hands.every((hd) => hd.status === "bust"))
    return t("insurance.lostAllBust", { net: formatSigned(-Number(box.insurance)) });
  const blackjack = decided && dealer ? dealer.cards.length === 2 && dealer.total === 21 : null;
  return insuranceSentence(box, blackjack);
}

/** API.md: a decision whose `loss` (or, against perfect play, `expert_loss`) is this or more is a mistake. */
export const MISTAKE = 0.0005;

/**
 * A level's grade: the fields of a decision it reads, and its words in the language spoken
 * when they show: what it grades against (`words`, `note`), how (`how`) and, for a level
 * without EVs, whose play it is (`play`).
 */
function grade(level, best, loss) {
  return {
    best,
    loss,
    get words() {
      return t(`grade.${level}.words`);
    },
    get note() {
      return t(`grade.${level}.note`);
    },
    get how() {
      return t(`grade.${level}.how`, { mistake: formatNumber(MISTAKE, { maximumFractionDigits: 4 }) });
    },
    get play() {
      return loss === null ? t(`grade.${level}.play`) : undefined;
    },
  };
}

/**
 * What a graded decision is marked against, by the coach's level (Settings): each decision
 * carries the `hard` grade (`best`, `loss`), the `expert` one (`expert_best`, `expert_loss`),
 * and the `counter`'s and the chart's plays (`counter_best`, `medium_best`), which the hint
 * values by no EV: against those a decision is right or wrong by its move alone.
 */
export const GRADES = {
  hard: grade("hard", "best", "loss"),
  expert: grade("expert", "expert_best", "expert_loss"),
  counter: grade("counter", "counter_best", null),
  medium: grade("medium", "medium_best", null),
};
export const gradeOf = (level) => (Object.hasOwn(GRADES, level) ? level : "hard");

/**
 * A decision's best play and loss at `level` (loss null against the counter and the chart,
 * which have none); a decision graded before a level was (no `expert_loss`, no
 * `counter_best`, no `medium_best`) is read as API.md reads it: at `hard`.
 */
export function graded(decision, level = "hard") {
  const grade = GRADES[gradeOf(level)];
  if (grade.loss === null) return { best: decision[grade.best] ?? decision.best, loss: null };
  const from = decision[grade.loss] === undefined ? GRADES.hard : grade;
  return { best: decision[from.best], loss: Number(decision[from.loss]) };
}

/**
 * Whether a decision is a mistake at `level`: one that took the level's best never is;
 * against an EV, one that gave up MISTAKE or more; against the counter or the chart, any
 * other move.
 */
export function isMistake(decision, level = "hard") {
  const { best, loss } = graded(decision, level);
  if (loss === null) return decision.action !== best;
  return (best === undefined || decision.action !== best) && loss >= MISTAKE;
}

/** What the marks grade against at the coach's `level`, in words: "against perfect play for the shoe". */
export function gradeWords(level) {
  return GRADES[gradeOf(level)].words;
}

/** The line over a list of graded decisions: "Graded against perfect play for the shoe, as your coach (expert)." */
export function gradedAs(level) {
  return t("grade.gradedAs", { words: gradeWords(level), level: levelName(level) });
}

/** An action's EV on the table, with its unit as the trainer's losses have it: "EV −0.505 of the bet". */
export function evLabel(ev) {
  return t("format.evOfBet", { ev: formatEv(ev) });
}

/** A loss per unit bet, its number alone: "−0.27" (four decimals, the API's, under 0.01). */
const lossNumber = (loss) => `−${formatFixed(loss, Number(loss) >= 0.01 ? 2 : 4)}`;

/** "−0.27 of the bet" for a loss per unit bet (four decimals, the API's, under 0.01). */
export function formatLoss(loss) {
  return `${lossNumber(loss)}${t("format.ofTheBet")}`;
}

/** A coach's or an AI player's level in the language spoken ("expert", "эксперт"); a level no catalog names as it is. */
export function levelName(level) {
  const name = t(`coach.level.${level}`);
  return name === `coach.level.${level}` ? String(level) : name;
}

/** Whose play a level without EVs marks against: "the counter's play", "the chart's play". */
export const levelPlay = (level) => GRADES[gradeOf(level)].play;

/**
 * What a mistake gave up at `level`, in parts: the better play, then its worth ("was better:
 * −0.06 of the bet") or whose play it is ("is the counter's play"); the `wordy` parts are
 * the words a phone leaves out ("hit −0.06", "hit"): a split box's narrow hands would grow tall.
 */
function betterParts(decision, level) {
  const { best, loss } = graded(decision, level);
  const play = decisionActionLabel(decision, best).toLowerCase();
  if (loss === null) return [{ text: play }, { text: t("mark.isPlay", { whose: levelPlay(level) }), wordy: true }];
  return [{ text: play }, { text: t("mark.wasBetter"), wordy: true }, { text: ` ${lossNumber(loss)}` }, { text: t("format.ofTheBet"), wordy: true }];
}

/** What a mistake gave up at `level`, in words: "hit was better: −0.06 of the bet", "hit is the counter's play". */
export function betterPlay(decision, level = "hard") {
  return betterParts(decision, level)
    .map((part) => part.text)
    .join("");
}

/** The trainer's mark on one graded decision, naming the move: "Stand ✓", or "Stand ✗ hit was better: −0.06 of the bet". */
export function decisionMark(decision, level = "hard") {
  const taken = decisionActionLabel(decision, decision.action);
  if (!isMistake(decision, level)) return { ok: true, text: `${taken} ✓`, parts: [{ text: `${taken} ✓` }] };
  const [play, ...rest] = betterParts(decision, level);
  const parts = [{ text: `${taken} ✗ ${play.text}` }, ...rest];
  return { ok: false, text: parts.map((part) => part.text).join(""), parts };
}

/** A bet as a stack of chips, largest first (at most `max` drawn). */
export function chipStack(amount, values, max = 8) {
  const stack = [];
  let left = Number(amount) || 0;
  for (const v of [...values].sort((a, b) => b - a)) {
    while (left >= v && stack.length < max) {
      stack.push(v);
      left -= v;
    }
  }
  return stack;
}

export function resultTone(result) {
  if (result === "win" || result === "blackjack" || result === "even_money") return "win";
  if (result === "lose") return "lose";
  return "push";
}
export function statusLabel(status) {
  return STATUSES.includes(status) ? t(`handStatus.${status}`) : status || "";
}

export function netSentence(net) {
  if (net === null || net === undefined) return "";
  const v = Number(net);
  if (v > 0) return t("net.won", { count: v });
  if (v < 0) return t("net.lost", { count: -v });
  return t("net.even");
}

export function roundStatusLabel(round) {
  if (!round) return t("status.noRound");
  const turn = round.turn;
  if (round.status === "insurance") {
    if ((round.legal_actions || []).includes("even_money")) return turn ? t("status.evenMoneyBox", { box: turn.box + 1 }) : t("status.evenMoney");
    return turn ? t("status.insuranceBox", { box: turn.box + 1 }) : t("status.insurance");
  }
  if (round.status === "player_turn") {
    if (!turn) return t("status.turn");
    return hasSplit(round, turn.box) ? t("status.turnHand", { box: turn.box + 1, hand: turn.hand + 1 }) : t("status.turnBox", { box: turn.box + 1 });
  }
  if (round.status === "settled") return t("status.settled");
  return round.status;
}

function hasSplit(round, box) {
  const b = (round.boxes || []).find((x) => x.box === box);
  return !!b && b.hands.length > 1;
}

export const UP_CARDS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"];
const PAIR_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"];

/** Row keys of a chart section in display order. */
export function chartRowKeys(section, rows) {
  const keys = Object.keys(rows || {});
  if (section === "pairs") return keys.sort((a, b) => PAIR_ORDER.indexOf(a) - PAIR_ORDER.indexOf(b));
  return keys.sort((a, b) => Number(a) - Number(b));
}
export function chartRowLabel(section, key) {
  if (section === "hard") return t("chart.hardRow", { total: key });
  if (section === "soft") return t("chart.softRow", { total: key, other: Number(key) - 11 === 10 ? "T" : String(Number(key) - 11) });
  const r = key === "T" ? "10" : key;
  return `${r},${r}`;
}
export const CHART_LETTER = { hit: "H", stand: "S", double: "D", split: "P", surrender: "R" };

const RANK_VALUE = (r) => (r === "A" ? 11 : r === "T" ? 10 : Number(r));
/** Which chart row a two-card hand key ("2,9", "7,A", "8,8") belongs to: {section, row} or null (natural). */
export function chartRowOfHand(key) {
  const [a, b] = String(key).split(",");
  if (!a || !b) return null;
  if (a === b) return { section: "pairs", row: a };
  if (a === "A" || b === "A") {
    const other = a === "A" ? b : a;
    if (other === "T") return null;
    return { section: "soft", row: String(11 + RANK_VALUE(other)) };
  }
  return { section: "hard", row: String(RANK_VALUE(a) + RANK_VALUE(b)) };
}

/** The two-card hands of a chart row with their EVs against one up card, best action first. */
export function rowHandEvs(evMap, section, row, up) {
  const out = [];
  for (const [key, byUp] of Object.entries(evMap || {})) {
    const where = chartRowOfHand(key);
    if (!where || where.section !== section || where.row !== String(row)) continue;
    const evs = Object.entries(byUp?.[up] || {}).sort((x, y) => y[1] - x[1]);
    out.push({ hand: key, evs });
  }
  return out.sort((x, y) => x.hand.localeCompare(y.hand));
}

/** A share of decisions in tenths of a percent: 0.75 -> "75.0%"; "—" for none. */
export function formatAccuracy(value) {
  return value === null ? "—" : formatNumber(Math.round(value * 1000) / 1000, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** The hand as it was decided on, in words: "hard 8", "soft 17", "pair of 8s". */
export function decisionHandLabel(d) {
  const cards = d.cards || [];
  if (d.kind === "pairs") {
    const first = cardsTotal(cards.slice(0, 1)).total;
    return first === 11 ? t("hand.pairOfAces") : t("hand.pairOf", { rank: first });
  }
  const { total, soft } = cardsTotal(cards);
  return soft ? t("total.soft", { total }) : t("total.hard", { total });
}
