// The Count page's drills, pure (tested with node): the drill's shoe shuffled in the browser
// and dealt in groups, the grading and the personal bests, the discard trays drawn to scale
// and their words.
import { DECK, formatCount, runningCount, trueCount } from "./hilo.js";
import { formatNumber, locale, t } from "./i18n.js";
import { savedObject } from "./settings.js";
import { tableName } from "./tablenames.js";

export const DRILL_DECKS = 6;
export const GROUPS = [1, 2, 4];
export const PASS_LENGTHS = [10, 26, 52, 104, 156];
/** Milliseconds each group of cards stays on screen. */
export const PACES = { slow: 1500, steady: 1000, brisk: 600, fast: 350 };
/** A true count within this of the exact one is right: counters judge the decks left by eye. */
export const TRUE_TOLERANCE = 0.5;
/** The page's drills, by the name the setup remembers. */
export const DRILLS = ["running", "true", "decks"];
/** A drill's name: "Running count", "True count", "Decks left". */
export const drillLabel = (drill) => t(`counting.drill.${drill}`);
/** A pace's name: "Slow", "Steady", "Brisk", "Fast". */
export const paceLabel = (pace) => t(`counting.pace.${pace}`);

// ---------------------------------------------------------------- the drill's shoe

/** A whole number from 0 to n − 1 from crypto.getRandomValues, without modulo bias. */
export function randomBelow(n, fill = (a) => crypto.getRandomValues(a)) {
  const limit = 2 ** 32 - (2 ** 32 % n);
  const word = new Uint32Array(1);
  for (;;) {
    fill(word);
    if (word[0] < limit) return word[0] % n;
  }
}

/** A shoe of `decks` decks in a Fisher–Yates order drawn with `below` (randomBelow by default). */
export function shuffledShoe(decks = DRILL_DECKS, below = randomBelow) {
  const cards = [];
  for (let d = 0; d < decks; d++) for (const suit of "SHDC") for (const rank of "23456789TJQKA") cards.push(`${rank}${suit}`);
  for (let i = cards.length - 1; i > 0; i--) {
    const j = below(i + 1);
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}

/** The pass's cards in the groups they are dealt in (the last group may be short). */
export function groupsOf(cards, size) {
  const out = [];
  for (let i = 0; i < cards.length; i += size) out.push(cards.slice(i, i + size));
  return out;
}

// ---------------------------------------------------------------- grading and bests

/** A number as typed: "+3", "−2" (a minus sign too), "1.5", "1,5"; null when it is none. */
export function parseCount(text) {
  const t = String(text ?? "")
    .trim()
    .replace(/^[−–]/, "-")
    .replace(",", ".")
    .replace(/^\+/, "");
  if (t === "" || !/^-?\d+(\.\d+)?$/.test(t)) return null;
  return Number(t);
}

/** A true count given is right within TRUE_TOLERANCE of the exact one (a hair over, for binary fractions). */
const trueWithin = (given, exact) => Math.abs(given - exact) <= TRUE_TOLERANCE + 1e-9;

/**
 * A pass graded: the running count must be exact; a true count, when given, within
 * TRUE_TOLERANCE of the exact one. `right` is the whole answer's verdict.
 */
export function gradePass(cards, decks, answer) {
  const running = runningCount(cards);
  const unseen = DECK * decks - cards.length;
  const exactTrue = trueCount(running, unseen);
  const runningRight = answer.running === running;
  const trueGiven = answer.true !== null && answer.true !== undefined;
  const trueRight = trueGiven ? trueWithin(answer.true, exactTrue) : null;
  return { running, true: exactTrue, unseen, runningRight, trueRight, right: runningRight && trueRight !== false };
}

/** The setup a best belongs to: "52:2:brisk". */
export const setupKey = (setup) => `${setup.cards}:${setup.group}:${setup.pace}`;

/** The drill a true-count or decks-left best belongs to, and its shoe: "true:6", "decks:1". */
export const shoeKey = (drill, decks) => `${drill}:${decks}`;

/**
 * The bests after a graded answer, under `key` (setupKey, shoeKey): answers and right ones,
 * the fastest right answer (ms from the question to the answer) and the longest run of
 * right answers.
 */
export function withPass(bests, key, graded, answerMs) {
  const was = bests[key] || { passes: 0, right: 0, fastest: null, streak: 0, bestStreak: 0 };
  const streak = graded.right ? was.streak + 1 : 0;
  const fastest = graded.right && (was.fastest === null || answerMs < was.fastest) ? answerMs : was.fastest;
  return {
    ...bests,
    [key]: { passes: was.passes + 1, right: was.right + (graded.right ? 1 : 0), fastest, streak, bestStreak: Math.max(was.bestStreak, streak) },
  };
}

/**
 * The setup as remembered, each part one the page offers, else the default. `decks` is
 * checked against the tables' shoes once they are known (pickDecks).
 */
export function parseSetup(raw) {
  const saved = savedObject(raw);
  return {
    drill: DRILLS.includes(saved.drill) ? saved.drill : "running",
    cards: PASS_LENGTHS.includes(saved.cards) ? saved.cards : 52,
    group: GROUPS.includes(saved.group) ? saved.group : 1,
    pace: Object.hasOwn(PACES, saved.pace) ? saved.pace : "steady",
    decks: Number.isInteger(saved.decks) && saved.decks > 0 ? saved.decks : DRILL_DECKS,
  };
}

/** The stored bests, or none when they are missing or unreadable. */
export const parseBests = savedObject;

/** 2345 ms → "2.3 s". */
export const formatSeconds = (ms) => t("counting.seconds", { seconds: formatNumber(ms / 1000, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) });

// ---------------------------------------------------------------- the discard tray

/**
 * The shoes the tray drills offer: one a number of decks the tables deal from, named by
 * their tables ("6 decks: Casino, European"), fewest decks first.
 */
export function shoeChoices(tables) {
  const byDecks = new Map();
  for (const t of tables || []) {
    const decks = t?.rules?.decks;
    if (Number.isInteger(decks) && decks > 0) byDecks.set(decks, [...(byDecks.get(decks) || []), tableName(t.id, t.name)]);
  }
  return [...byDecks].sort((a, b) => a[0] - b[0]).map(([decks, names]) => ({ decks, label: `${formatDecks(decks)}: ${names.join(", ")}` }));
}

/** The remembered shoe while a table still deals from it, else six decks, else the largest. */
export function pickDecks(decks, choices) {
  const offered = choices.map((c) => c.decks);
  if (offered.includes(decks)) return decks;
  return offered.includes(DRILL_DECKS) ? DRILL_DECKS : (offered.at(-1) ?? DRILL_DECKS);
}

/** Decks to two decimals at most, as a sentence says them (and picks their plural form by). */
const decksFigure = (n) => Math.round(n * 100) / 100;

/** "1 deck", "6 decks", "2.63 decks": at most two decimals. */
export const formatDecks = (n) => t("counting.decks", { count: decksFigure(n) });

/**
 * How many cards a question's tray may hold: from a twentieth of the shoe (four cards at
 * least) to four fifths of it, about as deep as a cut card lets a shoe be dealt.
 */
export function dealtRange(decks) {
  const size = DECK * decks;
  return [Math.max(4, Math.round(size / 20)), Math.round((size * 4) / 5)];
}

/**
 * The cards in the tray: the first cards of a shuffled shoe of `decks` decks, as many as
 * dealtRange allows. A running count of −1, 0 or +1 makes every tray read about 0, so
 * such a draw is made again (a few times at most): the conversion is what is practised.
 */
export function dealDiscards(decks, below = randomBelow) {
  const [low, high] = dealtRange(decks);
  let cards = [];
  for (let tries = 0; tries < 8; tries++) {
    cards = shuffledShoe(decks, below).slice(0, low + below(high - low + 1));
    if (Math.abs(runningCount(cards)) > 1) break;
  }
  return cards;
}

/**
 * The tray drawn to scale, in percent of its height: the stack of the `dealt` cards, and a
 * mark at every whole deck between the bottom and the top (the top is the whole shoe); a
 * one-deck tray, which has none, is marked at its half.
 */
export function trayScale(dealt, decks) {
  const marks = [];
  for (let d = 1; d < decks; d++) marks.push((100 * d) / decks);
  return { stack: (100 * dealt) / (DECK * decks), marks: decks === 1 ? [50] : marks };
}

/** How the tray is marked, in words (trayScale draws it). */
export const markWords = (decks) => (decks === 1 ? t("counting.mark.half") : t("counting.mark.every"));

/** Decks left are said to the half deck; from a one-deck shoe, to the quarter deck. */
export const estimateStep = (decks) => (decks === 1 ? 0.25 : 0.5);

/** "to the half deck", "to the quarter deck". */
export const stepWords = (step) => (step === 0.25 ? t("counting.step.quarter") : t("counting.step.half"));

/** Decks as typed: "2.5", "2,5", "2½", "½", "¾"; null when it is none, or less than none. */
export function parseDecks(text) {
  const fractions = { "¼": 0.25, "½": 0.5, "¾": 0.75 };
  const t = String(text ?? "").trim();
  const tail = fractions[t.slice(-1)];
  if (tail !== undefined) {
    const whole = t.slice(0, -1).trim();
    if (whole === "") return tail;
    const n = parseCount(whole);
    return n !== null && Number.isInteger(n) && n >= 0 ? n + tail : null;
  }
  const n = parseCount(t);
  return n !== null && n >= 0 ? n : null;
}

/**
 * A true-count question graded against the true count the service gives (trueCount, over
 * the unseen cards): right within TRUE_TOLERANCE.
 */
export function gradeTrue(running, dealt, decks, answer) {
  const unseen = DECK * decks - dealt;
  const exact = trueCount(running, unseen);
  return { running, dealt, decks, unseen, decksLeft: unseen / DECK, true: exact, answer, right: trueWithin(answer, exact) };
}

/**
 * A decks-left question graded: right within half a step of the decks left (2.63 left:
 * 2.5 is right, and so is 2.75 when it is typed; 3 is not). `nearest` is the step's answer.
 */
export function gradeDecks(dealt, decks, answer) {
  const unseen = DECK * decks - dealt;
  const decksLeft = unseen / DECK;
  const step = estimateStep(decks);
  const nearest = Math.round(decksLeft / step) * step;
  return { dealt, decks, unseen, decksLeft, step, nearest, answer, right: Math.abs(answer - decksLeft) <= step / 2 + 1e-9 };
}

/** A typed count with its sign, two decimals when it has any: "+3", "−1.50". */
const formatAnswer = (n) => formatCount(n, Number.isInteger(n) ? 0 : 2);

/** "✗ Wrong: you said +1.50; the true count is +2.66 (+7 ÷ 2.63 decks left)." */
export function trueVerdict(g) {
  const values = { answer: formatAnswer(g.answer), trueCount: formatCount(g.true, 2), running: formatCount(g.running), decks: formatDecks(g.decksLeft) };
  return t(g.right ? "counting.trueVerdict.right" : "counting.trueVerdict.wrong", values);
}

/** "✓ Right: 2.63 decks are left, 2.5 to the half deck." */
export function decksVerdict(g) {
  const values = { count: decksFigure(g.decksLeft), nearest: g.nearest, step: stepWords(g.step), answer: decksFigure(g.answer) };
  return t(g.right ? "counting.decksVerdict.right" : "counting.decksVerdict.wrong", values);
}

/** What the tray held: "206 of 312 cards dealt: 3.96 decks gone, 2.04 decks left." */
export function trayWords(dealt, decks) {
  const size = DECK * decks;
  return t("counting.trayWords", { dealt, size, gone: formatDecks(dealt / DECK), left: formatDecks((size - dealt) / DECK) });
}

/** The tray as heard (its height is what is asked, so it is not said). */
export const trayLabel = (decks) => t("counting.trayLabel", { count: decks, marks: markWords(decks) });

/** Whom the bests on screen are for. */
export function bestsWords(setup) {
  if (setup.drill === "true") return t("counting.bestsFor.true", { count: setup.decks });
  if (setup.drill === "decks") return t("counting.bestsFor.decks", { count: setup.decks });
  const pace = paceLabel(setup.pace).toLocaleLowerCase(locale());
  return t("counting.bestsFor.running", { count: setup.cards, group: setup.group, pace });
}

/** What each drill asks, above its setup (`decks`: the tray drills' shoe). */
export function drillIntro(drill, decks = DRILL_DECKS) {
  if (drill === "true") return t("counting.intro.true", { marks: markWords(decks), tolerance: TRUE_TOLERANCE });
  if (drill === "decks") return t("counting.intro.decks", { marks: markWords(decks), step: stepWords(estimateStep(decks)) });
  return t("counting.intro.running");
}
