// Pure (no DOM): how the client words and writes what it shows: the actions with their
// labels and keys, coins, percentages, EVs and losses, cards and totals, results with their
// net, insurance in words, decision marks, chip stacks, the round's status line, the
// strategy chart's rows.

export const ACTIONS = [
  { name: "hit", label: "Hit", key: "h" },
  { name: "stand", label: "Stand", key: "s" },
  { name: "double", label: "Double", key: "d" },
  { name: "split", label: "Split", key: "p" },
  { name: "surrender", label: "Surrender", key: "r" },
  { name: "insurance", label: "Insurance", key: "i" },
  { name: "even_money", label: "Even money", key: "e" },
  { name: "decline_insurance", label: "No insurance", key: "n" },
];
export const ACTION_BY_KEY = Object.fromEntries(ACTIONS.map((a) => [a.key, a.name]));
export const ACTION_LABEL = Object.fromEntries(ACTIONS.map((a) => [a.name, a.label]));
/** Between rounds: the chips' keys, left to right (the row above the digits), and the boxes' digits. */
export const CHIP_KEYS = ["q", "w", "e", "r", "t", "y"];
export const BOX_KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9"];

/**
 * An action's name where the question asked gives it another meaning: API.md's
 * `decline_insurance` declines even money when even money is what is offered.
 */
export function actionLabel(name, legal) {
  if (name === "decline_insurance" && (legal || []).includes("even_money")) return "Decline even money";
  return ACTION_LABEL[name] || name;
}

/** A graded decision's action (`action` or `best`) in words: declining even money as such. */
export function decisionActionLabel(decision, name) {
  return actionLabel(name, [decision.action, decision.best]);
}

/** Coins: whole numbers or halves ("7.5"), thousands separated. */
export function formatCoins(n) {
  if (n === null || n === undefined || Number.isNaN(Number(n))) return "—";
  const v = Number(n);
  return v.toLocaleString("en-US", { minimumFractionDigits: 0, maximumFractionDigits: 2 });
}

export function formatSigned(n) {
  if (n === null || n === undefined) return "—";
  const v = Number(n);
  if (v > 0) return `+${formatCoins(v)}`;
  if (v < 0) return `−${formatCoins(-v)}`;
  return "0";
}

/** 0.75 -> "75%" */
export function formatPercent(fraction) {
  return `${Math.round(Number(fraction) * 10000) / 100}%`;
}

/** A percentage the API gives in percent (an edge): "−0.51%", "+1.02%", "0.00%" (two decimals). */
export function formatEdgePercent(percent) {
  if (percent === null || percent === undefined || Number.isNaN(Number(percent))) return "—";
  const v = Math.round(Number(percent) * 100) / 100;
  if (v === 0) return "0.00%";
  return `${v > 0 ? "+" : "−"}${Math.abs(v).toFixed(2)}%`;
}

/**
 * The advised bet's button: "Kelly bet: 120"; the table's limit where Kelly's bet is outside
 * it, and why: "Table minimum 10: Kelly bet 5 is below it"; the table minimum where the
 * house has the edge.
 */
export function kellyLabel(bet) {
  const kelly = Number(bet.kelly);
  const advised = Number(bet.advised);
  if (kelly <= 0) return `House edge: table minimum ${formatCoins(advised)}`;
  if (kelly < advised) return `Table minimum ${formatCoins(advised)}: Kelly bet ${formatCoins(kelly)} is below it`;
  if (kelly > advised) return `Table maximum ${formatCoins(advised)}: Kelly bet ${formatCoins(kelly)} is above it`;
  return `Kelly bet: ${formatCoins(advised)}`;
}

/** The box Kelly's bet goes on (box -> amount in the slip): the one bet when one is, else box 1 (0). */
export function kellyBox(bets) {
  const bet = Object.keys(bets).filter((box) => Number(bets[box]) > 0);
  return bet.length === 1 ? Number(bet[0]) : 0;
}

/** Said once the Kelly bet cleared other boxes (0-based): "Kelly's bet is one box's: boxes 2 and 3 cleared." */
export function kellyNote(cleared) {
  const names = cleared.map((box) => String(Number(box) + 1));
  const list = names.length > 1 ? `boxes ${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : `box ${names[0]}`;
  return `Kelly's bet is one box's: ${list} cleared.`;
}

/** A round's variance per initial bet (the strategy card's): "variance 1.29 per round". */
export function varianceLabel(variance) {
  if (variance === null || variance === undefined || Number.isNaN(Number(variance))) return "";
  return `variance ${Number(variance).toFixed(2)} per round`;
}

/** EV per unit bet: "+0.12" / "−0.48" (3 significant decimals). */
export function formatEv(ev) {
  if (ev === null || ev === undefined) return "";
  const v = Math.round(Number(ev) * 1000) / 1000;
  if (v === 0) return "0.000";
  return (v > 0 ? "+" : "−") + Math.abs(v).toFixed(3);
}

const SUIT = {
  S: { sym: "♠", name: "spades", red: false },
  H: { sym: "♥", name: "hearts", red: true },
  D: { sym: "♦", name: "diamonds", red: true },
  C: { sym: "♣", name: "clubs", red: false },
};
const RANK = { A: ["A", "Ace"], T: ["10", "Ten"], J: ["J", "Jack"], Q: ["Q", "Queen"], K: ["K", "King"] };
const RANK_WORDS = { 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight", 9: "Nine" };

/** "TD" -> {rank:"T", suit:"D", label:"10", sym:"♦", red:true, name:"Ten of diamonds"} */
export function parseCard(code) {
  const rank = String(code).slice(0, -1).toUpperCase();
  const suit = String(code).slice(-1).toUpperCase();
  const s = SUIT[suit];
  if (!s || !(rank in RANK || rank in RANK_WORDS)) return null;
  const [label, word] = RANK[rank] || [rank, RANK_WORDS[rank]];
  return { rank, suit, label, sym: s.sym, red: s.red, name: `${word} of ${s.name}` };
}

/** Total words for a player hand: "soft 17", "bust (24)", "Blackjack". */
export function handTotalLabel(hand) {
  if (!hand) return "";
  if (hand.status === "blackjack") return "Blackjack";
  if (hand.status === "bust") return `bust (${hand.total})`;
  return hand.soft ? `soft ${hand.total}` : String(hand.total);
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
  const base = dealer.soft ? `soft ${dealer.total}` : String(dealer.total);
  if (dealer.hidden > 0 || dealer.cards.length === 1) return dealer.cards[0].startsWith("A") ? "showing an ace" : `showing ${base}`;
  if (dealer.cards.length === 2 && dealer.total === 21) return "Blackjack";
  if (dealer.total > 21) return `bust (${dealer.total})`;
  return base;
}

const RESULT_WORDS = { win: "Win", lose: "Lose", push: "Push", blackjack: "Blackjack!", even_money: "Even money", surrender: "Surrendered" };
const STATUS_WORDS = { playing: "playing", standing: "stands", bust: "bust", blackjack: "blackjack", surrendered: "surrendered" };

/** A settled hand in words with its net: "Win +10", "Lose −10", "Push 0". */
export function resultLabel(hand) {
  if (!hand?.result) return null;
  const word = RESULT_WORDS[hand.result] || hand.result;
  return hand.payout !== null && hand.payout !== undefined ? `${word} ${formatSigned(handNet(hand))}` : word;
}

/** What a settled hand won or lost: its payout less its stake. */
export function handNet(hand) {
  return Number(hand.payout) - Number(hand.bet);
}

/** The insurance of a box in words, once the dealer's hand is known. */
export function insuranceSentence(box, dealerHasBlackjack) {
  if (box.insurance === null || box.insurance === undefined) return null;
  if (box.insurance_payout === null || box.insurance_payout === undefined) return `Insured for ${formatCoins(box.insurance)}.`;
  const paid = Number(box.insurance_payout);
  if (paid > 0) return `Insurance won ${formatSigned(paid - Number(box.insurance))}: the dealer has blackjack.`;
  return dealerHasBlackjack === false
    ? `Insurance lost ${formatSigned(-Number(box.insurance))}: the dealer has no blackjack.`
    : `Insurance lost ${formatSigned(-Number(box.insurance))}.`;
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
    return `Insurance lost ${formatSigned(-Number(box.insurance))}: every insured hand busted.`;
  const blackjack = decided && dealer ? dealer.cards.length === 2 && dealer.total === 21 : null;
  return insuranceSentence(box, blackjack);
}

/** API.md: a decision whose `loss` (or, against perfect play, `expert_loss`) is this or more is a mistake. */
export const MISTAKE = 0.0005;

/**
 * What a graded decision is marked against, by the coach's level (Settings): each decision
 * carries the `hard` grade (`best`, `loss`), the `expert` one (`expert_best`, `expert_loss`),
 * and the `counter`'s and the chart's plays (`counter_best`, `medium_best`), which the hint
 * values by no EV: against those a decision is right or wrong by its move alone.
 */
export const GRADES = {
  hard: {
    best: "best",
    loss: "loss",
    words: "against exact play for a fresh shoe",
    note: "exact play, fresh shoe",
    how: "by the exact EV of each action for your very hand off a fresh shoe: a mistake gives up 0.0005 of the bet or more.",
  },
  expert: {
    best: "expert_best",
    loss: "expert_loss",
    words: "against perfect play for the shoe",
    note: "perfect play for this shoe",
    how: "by the exact EV of each action for the cards still unseen in the shoe: a mistake gives up 0.0005 of the bet or more.",
  },
  counter: {
    best: "counter_best",
    loss: null,
    words: "against the counter's indices",
    note: "the counter's indices",
    play: "the counter's play",
    how: "by the move alone: right when it is the chart's play, or the index play the true count calls for.",
  },
  medium: {
    best: "medium_best",
    loss: null,
    words: "against the chart",
    note: "the chart",
    play: "the chart's play",
    how: "by the move alone: right when it is the table's chart's play.",
  },
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
  return `Graded ${gradeWords(level)}, as your coach (${level}).`;
}

/** An action's EV on the table, with its unit as the trainer's losses have it: "EV −0.505 of the bet". */
export function evLabel(ev) {
  return `EV ${formatEv(ev)} of the bet`;
}

/** "−0.27 of the bet" for a loss per unit bet (four decimals, the API's, under 0.01). */
export function formatLoss(loss) {
  return `−${Number(loss).toFixed(Number(loss) >= 0.01 ? 2 : 4)} of the bet`;
}

/** Whose play a level without EVs marks against: "the counter's play", "the chart's play". */
export const levelPlay = (level) => GRADES[gradeOf(level)].play;

/** What a mistake gave up at `level`, in words: "hit was better: −0.06 of the bet", "hit is the counter's play". */
export function betterPlay(decision, level = "hard") {
  const { best, loss } = graded(decision, level);
  const play = decisionActionLabel(decision, best).toLowerCase();
  return loss === null ? `${play} is ${levelPlay(level)}` : `${play} was better: ${formatLoss(loss)}`;
}

/** The trainer's mark on one graded decision, naming the move: "Stand ✓", or "Stand ✗ hit was better: −0.06 of the bet". */
export function decisionMark(decision, level = "hard") {
  const taken = decisionActionLabel(decision, decision.action);
  if (!isMistake(decision, level)) return { ok: true, text: `${taken} ✓`, parts: [{ text: `${taken} ✓` }] };
  const { best, loss } = graded(decision, level);
  const play = decisionActionLabel(decision, best).toLowerCase();
  // The words a phone leaves out ("Stand ✗ hit −0.20", "Stand ✗ hit"): a split box's narrow hands would grow tall.
  const parts =
    loss === null
      ? [{ text: `${taken} ✗ ${play}` }, { text: ` is ${levelPlay(level)}`, wordy: true }]
      : [
          { text: `${taken} ✗ ${play}` },
          { text: " was better:", wordy: true },
          { text: ` ${formatLoss(loss).replace(/ of the bet$/, "")}` },
          { text: " of the bet", wordy: true },
        ];
  return { ok: false, text: `${taken} ✗ ${betterPlay(decision, level)}`, parts };
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
  return STATUS_WORDS[status] || status || "";
}

export function netSentence(net) {
  if (net === null || net === undefined) return "";
  const v = Number(net);
  if (v > 0) return `You won ${formatCoins(v)} coins this round.`;
  if (v < 0) return `You lost ${formatCoins(-v)} coins this round.`;
  return "Even round: no gain, no loss.";
}

export function roundStatusLabel(round) {
  if (!round) return "No round yet: place your bets.";
  if (round.status === "insurance") {
    const box = round.turn ? `Box ${round.turn.box + 1}: ` : "";
    return (round.legal_actions || []).includes("even_money")
      ? `${box}even money? You have blackjack, the dealer shows an ace.`
      : `${box}insurance? The dealer shows an ace.`;
  }
  if (round.status === "player_turn") {
    const t = round.turn;
    return t ? `Your turn: box ${t.box + 1}${hasSplit(round, t.box) ? `, hand ${t.hand + 1}` : ""}.` : "Your turn.";
  }
  if (round.status === "settled") return "Place your bets.";
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
  if (section === "hard") return `Hard ${key}`;
  if (section === "soft") return `Soft ${key} (A,${Number(key) - 11 === 10 ? "T" : Number(key) - 11})`;
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
  return value === null ? "—" : `${(Math.round(value * 1000) / 10).toFixed(1)}%`;
}

/** The hand as it was decided on, in words: "hard 8", "soft 17", "pair of 8s". */
export function decisionHandLabel(d) {
  const cards = d.cards || [];
  if (d.kind === "pairs") {
    const first = cardsTotal(cards.slice(0, 1)).total;
    return `pair of ${first === 11 ? "aces" : `${first}s`}`;
  }
  const { total, soft } = cardsTotal(cards);
  return `${soft ? "soft" : "hard"} ${total}`;
}
