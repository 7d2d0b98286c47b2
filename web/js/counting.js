// The Hi-Lo count (API.md, "The count") and the Count page (`#/counting`): three drills.
// The running count: cards dealt from a six-deck shoe shuffled in the browser, one, two or
// four at a time, then the running count and, if the player likes, the true count. The true
// count: a running count and a discard tray drawn to scale, the player converts. The decks
// left: a discard tray, the player says how many decks are still in the shoe. The count's
// arithmetic, the shoes, the grading, the words and the personal bests are pure functions
// (tested with node); the table's count badge uses the same arithmetic.
import { loadTables } from "./api.js";
import { card, clear, h } from "./dom.js";
import { parseCard } from "./format.js";
import { remember, remembered, savedObject } from "./settings.js";
import { errorText } from "./ui.js";

const DECK = 52;
export const DRILL_DECKS = 6;
export const GROUPS = [1, 2, 4];
export const PASS_LENGTHS = [10, 26, 52, 104, 156];
/** Milliseconds each group of cards stays on screen. */
export const PACES = { slow: 1500, steady: 1000, brisk: 600, fast: 350 };
/** A true count within this of the exact one is right: counters judge the decks left by eye. */
export const TRUE_TOLERANCE = 0.5;
/** The page's drills, by the name the setup remembers. */
export const DRILLS = { running: "Running count", true: "True count", decks: "Decks left" };
const SETUP_KEY = "blackjack.counting";
const BESTS_KEY = "blackjack.counting_bests";

// ---------------------------------------------------------------- the count

/** Hi-Lo: 2 to 6 count +1; 7, 8 and 9 count 0; ten-value cards and aces count −1. */
export function hiLoTag(code) {
  const rank = String(code).slice(0, -1).toUpperCase();
  if ("23456".includes(rank) && rank.length === 1) return 1;
  if ("789".includes(rank) && rank.length === 1) return 0;
  return -1;
}

export const runningCount = (codes) => codes.reduce((sum, code) => sum + hiLoTag(code), 0);

/**
 * `running` divided by `unseen / 52`, rounded half-even to two decimals as API.md does:
 * running × 5200 / unseen in whole numbers (exact), then the remainder decides.
 */
export function trueCount(running, unseen) {
  const num = running * 5200;
  const q = Math.floor(num / unseen);
  const twice = 2 * (num - q * unseen);
  const hundredths = twice > unseen || (twice === unseen && q % 2 !== 0) ? q + 1 : q;
  return hundredths / 100;
}

/** A count (API.md's shape) with `cards` added (sign 1) or taken away (sign −1). */
export function shiftCount(count, cards, sign = 1) {
  const running = count.running + sign * runningCount(cards);
  const seen = count.cards_seen + sign * cards.length;
  const unseen = count.cards_unseen - sign * cards.length;
  return { system: "hi_lo", running, true: trueCount(running, unseen), cards_seen: seen, cards_unseen: unseen };
}

/** The count of a shoe of `decks` decks before any card. */
export const freshCount = (decks) => ({ system: "hi_lo", running: 0, true: 0, cards_seen: 0, cards_unseen: DECK * decks });

/** Every face-up card of a round: the dealer's and every hand's (AI boxes' included). */
export function roundCards(round) {
  if (!round) return [];
  return [...(round.dealer?.cards || []), ...(round.boxes || []).flatMap((b) => b.hands.flatMap((hd) => hd.cards))];
}

/** "+3", "−2", "0"; a true count with two decimals: "+0.62", "−1.25", "0.00". */
export function formatCount(value, decimals = 0) {
  const text = Math.abs(value).toFixed(decimals);
  if (Number(text) === 0) return text;
  return `${value > 0 ? "+" : "−"}${text}`;
}

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
    drill: Object.hasOwn(DRILLS, saved.drill) ? saved.drill : "running",
    cards: PASS_LENGTHS.includes(saved.cards) ? saved.cards : 52,
    group: GROUPS.includes(saved.group) ? saved.group : 1,
    pace: Object.hasOwn(PACES, saved.pace) ? saved.pace : "steady",
    decks: Number.isInteger(saved.decks) && saved.decks > 0 ? saved.decks : DRILL_DECKS,
  };
}

/** The stored bests, or none when they are missing or unreadable. */
export const parseBests = savedObject;

/** 2345 ms → "2.3 s". */
export const formatSeconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

// ---------------------------------------------------------------- the discard tray

/**
 * The shoes the tray drills offer: one a number of decks the tables deal from, named by
 * their tables ("6 decks: Casino, European"), fewest decks first.
 */
export function shoeChoices(tables) {
  const byDecks = new Map();
  for (const t of tables || []) {
    const decks = t?.rules?.decks;
    if (Number.isInteger(decks) && decks > 0) byDecks.set(decks, [...(byDecks.get(decks) || []), t.name || t.id]);
  }
  return [...byDecks].sort((a, b) => a[0] - b[0]).map(([decks, names]) => ({ decks, label: `${formatDecks(decks)}: ${names.join(", ")}` }));
}

/** The remembered shoe while a table still deals from it, else six decks, else the largest. */
export function pickDecks(decks, choices) {
  const offered = choices.map((c) => c.decks);
  if (offered.includes(decks)) return decks;
  return offered.includes(DRILL_DECKS) ? DRILL_DECKS : (offered.at(-1) ?? DRILL_DECKS);
}

/** "1 deck", "6 decks", "2.63 decks": at most two decimals. */
export function formatDecks(n) {
  const text = n.toLocaleString("en-US", { maximumFractionDigits: 2 });
  return `${text} ${text === "1" ? "deck" : "decks"}`;
}

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
export const markWords = (decks) => (decks === 1 ? "a mark at the half deck" : "a mark at every deck");

/** Decks left are said to the half deck; from a one-deck shoe, to the quarter deck. */
export const estimateStep = (decks) => (decks === 1 ? 0.25 : 0.5);

/** "to the half deck", "to the quarter deck". */
export const stepWords = (step) => `to the ${step === 0.25 ? "quarter" : "half"} deck`;

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

/** The verdict's first words. */
export const verdictMark = (right) => (right ? "✓ Right" : "✗ Wrong");

/** "✗ Wrong: you said +1.50; the true count is +2.66 (+7 ÷ 2.63 decks left)." */
export function trueVerdict(g) {
  const exact = `the true count is ${formatCount(g.true, 2)} (${formatCount(g.running)} ÷ ${formatDecks(g.decksLeft)} left).`;
  return `${verdictMark(g.right)}: ${g.right ? exact : `you said ${formatAnswer(g.answer)}; ${exact}`}`;
}

/** "✓ Right: 2.63 decks are left, 2.5 to the half deck." */
export function decksVerdict(g) {
  const left = `${formatDecks(g.decksLeft)} ${g.decksLeft === 1 ? "is" : "are"} left, ${g.nearest.toLocaleString("en-US")} ${stepWords(g.step)}.`;
  return `${verdictMark(g.right)}: ${g.right ? left : `you said ${g.answer.toLocaleString("en-US", { maximumFractionDigits: 2 })}; ${left}`}`;
}

/** What the tray held: "206 of 312 cards dealt: 3.96 decks gone, 2.04 decks left." */
export function trayWords(dealt, decks) {
  const size = DECK * decks;
  return `${dealt} of ${size} cards dealt: ${formatDecks(dealt / DECK)} gone, ${formatDecks((size - dealt) / DECK)} left.`;
}

/** The tray as heard (its height is what is asked, so it is not said). */
export const trayLabel = (decks) => `The discard tray of a ${decks}-deck shoe, ${markWords(decks)}; the stack is the cards dealt.`;

/** Whom the bests on screen are for. */
export function bestsWords(setup) {
  if (setup.drill === "true") return `True counts from a ${setup.decks}-deck shoe; kept in this browser.`;
  if (setup.drill === "decks") return `Decks left in a ${setup.decks}-deck shoe; kept in this browser.`;
  return `For ${setup.cards} cards, ${setup.group} at a time, ${setup.pace}; kept in this browser.`;
}

/** What each drill asks, above its setup (`decks`: the tray drills' shoe). */
export function drillIntro(drill, decks = DRILL_DECKS) {
  if (drill === "true")
    return `The true count is the running count per deck left. Judge the decks left from the discard tray (the cards dealt, ${markWords(decks)}); right within ${TRUE_TOLERANCE}.`;
  if (drill === "decks")
    return `How many decks are left in the shoe? Judge them from the discard tray (the cards dealt, ${markWords(decks)}), ${stepWords(estimateStep(decks))}.`;
  return "Keep the Hi-Lo count as cards come off a shuffled six-deck shoe: 2 to 6 count +1, 7 to 9 count 0, tens and aces −1. At the end, give the running count and, if you like, the true count (running count per deck left).";
}

// ---------------------------------------------------------------- the page

let P = null; // the page on screen

export function showCounting(main, isCurrent) {
  if (P) clearTimeout(P.timer);
  P = {
    main,
    isCurrent,
    setup: parseSetup(remembered(SETUP_KEY)),
    bests: parseBests(remembered(BESTS_KEY)),
    phase: "ready",
    timer: null,
    shoes: null,
    shoesNote: null,
  };
  const page = P;
  P.intro = h("p", { class: "muted count-intro", testid: "count-intro" });
  P.options = h("div", { class: "count-options" });
  P.form = h("form", { class: "count-setup", testid: "count-setup", onsubmit: (e) => e.preventDefault() }, drillChoice(), P.options);
  P.stage = h("section", { class: "panel count-stage", testid: "count-stage", "aria-labelledby": "count-stage-title" });
  P.bestsBox = h("section", { class: "panel count-bests", testid: "count-bests", "aria-labelledby": "count-bests-title" });
  clear(main).appendChild(
    h("div", { class: "counting", testid: "counting" }, h("h1", {}, "Count"), P.form, P.intro, h("div", { class: "count-grid" }, P.stage, P.bestsBox)),
  );
  renderDrill();
  // The tray drills deal from the tables' shoes; the running count's drill needs none.
  loadTables().then(
    (tables) => shoesKnown(page, shoeChoices(tables), null),
    (e) => shoesKnown(page, [], `The tables are not available (${errorText(e)}): a six-deck shoe it is.`),
  );
}

function shoesKnown(page, choices, note) {
  if (page !== P || !P.isCurrent()) return;
  P.shoes = choices.length ? choices : [{ decks: DRILL_DECKS, label: formatDecks(DRILL_DECKS) }];
  P.shoesNote = note;
  P.setup = { ...P.setup, decks: pickDecks(P.setup.decks, P.shoes) };
  if (P.setup.drill !== "running") renderDrill();
}

const isTrayDrill = () => P.setup.drill !== "running";

function saveSetup(change) {
  P.setup = { ...P.setup, ...change };
  remember(SETUP_KEY, JSON.stringify(P.setup));
}

/** A row of radio buttons that look like a segmented control; each change is remembered. */
function choice(name, legend, options, label, onchange) {
  return h(
    "fieldset",
    { class: `segmented count-${name}-choice` },
    h("legend", {}, legend),
    options.map((value) =>
      h(
        "label",
        {},
        h("input", {
          type: "radio",
          name: `count-${name}`,
          value: String(value),
          testid: `count-${name}-${value}`,
          checked: P.setup[name] === value,
          onchange: () => {
            saveSetup({ [name]: value });
            onchange();
          },
        }),
        h("span", {}, label(value)),
      ),
    ),
  );
}

function drillChoice() {
  return choice(
    "drill",
    "Drill",
    Object.keys(DRILLS),
    // a small phone reads "Running" (its whole name still heard), so the three hold one row
    (d) => (d === "running" ? ["Running", h("span", { class: "count-more" }, " count")] : DRILLS[d]),
    () => {
      clearTimeout(P.timer);
      renderDrill();
    },
  );
}

/** The chosen drill from its start: its words, its setup, the stage ready, its bests. */
function renderDrill() {
  clear(P.options).append(...(isTrayDrill() ? shoeChoice() : passChoices()).filter(Boolean));
  renderReady();
}

/** The drill ready for its setup as it now is; its setup's controls stay, the focus with them. */
function renderReady() {
  P.phase = "ready";
  P.intro.textContent = drillIntro(P.setup.drill, P.setup.decks);
  renderStage();
  renderBests();
}

function passChoices() {
  // a pass under way locks these; one graded stays on screen, its bests beside the new setup's
  const changed = () => (P.phase === "ready" ? renderReady() : renderBests());
  return [
    choice("cards", "Cards", PASS_LENGTHS, String, changed),
    choice("group", "At a time", GROUPS, String, changed),
    choice("pace", "Speed", Object.keys(PACES), (p) => `${p[0].toUpperCase()}${p.slice(1)}`, changed),
  ];
}

function shoeChoice() {
  const select = h(
    "select",
    {
      id: "count-shoe",
      testid: "count-shoe",
      disabled: P.shoes === null,
      onchange: (e) => {
        saveSetup({ decks: Number(e.target.value) });
        renderReady();
      },
    },
    (P.shoes || [{ decks: P.setup.decks, label: "Loading the tables…" }]).map((s) =>
      h("option", { value: String(s.decks), selected: s.decks === P.setup.decks ? true : null }, s.label),
    ),
  );
  return [
    h("label", { class: "inline-field count-shoe", for: "count-shoe" }, "Shoe", select),
    P.shoesNote ? h("p", { class: "field-error", testid: "count-shoe-note" }, P.shoesNote) : null,
  ];
}

function lockSetup(locked) {
  for (const input of P.form.querySelectorAll("input, select")) input.disabled = locked || (input.id === "count-shoe" && P.shoes === null);
}

function renderStage() {
  const title = h("h2", { id: "count-stage-title", tabindex: "-1" }, isTrayDrill() ? DRILLS[P.setup.drill] : "The pass");
  if (isTrayDrill()) return renderTrayStage(title);
  if (P.phase === "ready") {
    const { cards, group, pace } = P.setup;
    clear(P.stage).append(
      title,
      h(
        "p",
        { testid: "count-ready" },
        `${cards} cards, ${group} at a time, ${(PACES[pace] / 1000).toLocaleString("en-US")} s each ${group === 1 ? "card" : "group"}.`,
      ),
      h("button", { type: "button", class: "btn btn-primary", testid: "count-start", onclick: startPass }, "Start"),
    );
    return;
  }
  if (P.phase === "dealing") {
    const shown = P.groups[P.index] || [];
    clear(P.stage).append(
      title,
      h(
        "div",
        { class: "count-felt", testid: "count-felt", role: "img", "aria-label": shown.map((c) => parseCard(c)?.name ?? c).join(", ") },
        shown.map((c) => card(c)),
      ),
      h("p", { class: "muted small", testid: "count-progress" }, `${P.dealt} of ${P.cards.length} cards`),
      h("button", { type: "button", class: "btn btn-ghost btn-small", testid: "count-stop", onclick: stopPass }, "Stop"),
    );
    return;
  }
  if (P.phase === "answer") return renderAnswerForm(title);
  renderResult(title);
}

// ---------------------------------------------------------------- the tray drills

/** The discard tray drawn to scale: the stack's height is the share of the shoe dealt. */
function tray(dealt, decks) {
  const scale = trayScale(dealt, decks);
  const stack = h("div", { class: "tray-stack" });
  stack.style.height = `${scale.stack}%`;
  const marks = scale.marks.map((at) => {
    const mark = h("div", { class: "tray-mark" });
    mark.style.bottom = `${at}%`;
    return mark;
  });
  return h(
    "div",
    { class: "count-tray", testid: "count-tray", role: "img", "aria-label": trayLabel(decks), dataset: { dealt: String(dealt), decks: String(decks) } },
    h("div", { class: "tray-well", "aria-hidden": "true" }, stack, marks),
  );
}

function renderTrayStage(title) {
  const drill = P.setup.drill;
  const { decks } = P.setup;
  if (P.phase === "ready") {
    const asks =
      drill === "true"
        ? "a running count and the discard tray; type the true count"
        : `the discard tray; say how many decks are left, ${stepWords(estimateStep(decks))}`;
    clear(P.stage).append(
      title,
      h("p", { testid: "count-ready" }, P.shoes === null ? "Loading the tables’ shoes…" : `A ${decks}-deck shoe: ${asks}.`),
      h("button", { type: "button", class: "btn btn-primary", testid: "count-start", disabled: P.shoes === null, onclick: askTray }, "Start"),
    );
    return;
  }
  const q = P.question;
  const body = h("div", { class: "count-question" }, tray(q.cards.length, q.decks), h("div", { class: "count-side" }, traySide(q)));
  clear(P.stage).append(title, body);
}

/** Beside the tray: the running count (true-count drill), then the answer or its grade. */
function traySide(q) {
  const given =
    q.drill === "true"
      ? h(
          "p",
          { class: "count-given" },
          h("span", { class: "muted small" }, "Running count"),
          h("strong", { testid: "count-given-running", dataset: { running: String(q.running) } }, formatCount(q.running)),
        )
      : null;
  const shoe = h("p", { class: "muted small count-shoe-size" }, `A ${q.decks}-deck shoe (${DECK * q.decks} cards).`);
  if (P.phase === "question") return [given, shoe, trayAnswerForm(q)];
  const { graded, answerMs, newBest } = P.result;
  return [
    given,
    h(
      "p",
      { class: `count-verdict ${graded.right ? "right" : "wrong"}`, testid: "count-verdict", dataset: { right: String(graded.right) } },
      q.drill === "true" ? trueVerdict(graded) : decksVerdict(graded),
    ),
    h("p", { class: "small", testid: "count-tray-words" }, trayWords(graded.dealt, graded.decks)),
    h(
      "p",
      { class: "small", testid: "count-time" },
      `Answered in ${formatSeconds(answerMs)}.`,
      newBest ? h("strong", { class: "count-new-best", testid: "count-new-best" }, " A personal best!") : null,
    ),
    h("button", { type: "button", class: "btn btn-primary", testid: "count-next", onclick: askTray }, "Next tray"),
  ];
}

function trayAnswerForm(q) {
  const isTrue = q.drill === "true";
  const step = estimateStep(q.decks);
  const error = h("p", { class: "field-error", id: "count-estimate-error", testid: "count-estimate-error", "aria-live": "polite" });
  const input = h("input", {
    id: "count-estimate",
    type: "text",
    inputmode: isTrue ? null : "decimal",
    autocomplete: "off",
    testid: "count-estimate",
    "aria-describedby": "count-estimate-hint count-estimate-error",
    required: true,
  });
  const hint = isTrue ? `Right within ${TRUE_TOLERANCE}: +2, −1.5…` : `Say it ${stepWords(step)}: ${step === 0.25 ? "0.75" : "2.5"}…`;
  const submit = (e) => {
    e.preventDefault();
    const answer = isTrue ? parseCount(input.value) : parseDecks(input.value);
    const problem =
      answer === null
        ? isTrue
          ? "The true count is a number, such as 2 or −1.5."
          : "The decks left are a number, such as 2.5."
        : !isTrue && answer > q.decks
          ? `A ${q.decks}-deck shoe holds ${formatDecks(q.decks)} at most.`
          : null;
    if (problem) {
      error.textContent = problem;
      input.setAttribute("aria-invalid", "true");
      input.focus();
      return;
    }
    gradeTray(answer);
  };
  return h(
    "form",
    { class: "count-answer", testid: "count-question", onsubmit: submit },
    h(
      "label",
      { class: "field", for: "count-estimate" },
      isTrue ? "True count" : "Decks left",
      input,
      h("span", { class: "field-hint", id: "count-estimate-hint" }, hint),
    ),
    error,
    h("button", { type: "submit", class: "btn btn-primary", testid: "count-check" }, "Check"),
  );
}

function askTray() {
  const { drill, decks } = P.setup;
  const cards = dealDiscards(decks);
  P.question = { drill, decks, cards, running: runningCount(cards) };
  P.phase = "question";
  renderStage();
  P.askedAt = performance.now();
  P.stage.querySelector("[data-testid='count-estimate']")?.focus({ preventScroll: true });
  // the whole question on screen, Check too, not just the field that has the focus
  P.stage.scrollIntoView({ block: "nearest" });
}

function gradeTray(answer) {
  const answerMs = performance.now() - P.askedAt;
  const q = P.question;
  const graded = q.drill === "true" ? gradeTrue(q.running, q.cards.length, q.decks, answer) : gradeDecks(q.cards.length, q.decks, answer);
  recordBest(shoeKey(q.drill, q.decks), graded, answerMs, { graded });
  focusVerdict("count-next");
}

/** An answer into the bests (kept in localStorage); P.result says whether it is a new best. */
function recordBest(key, graded, answerMs, result) {
  const bestBefore = P.bests[key]?.fastest ?? null;
  P.bests = withPass(P.bests, key, graded, answerMs);
  remember(BESTS_KEY, JSON.stringify(P.bests));
  P.result = { ...result, answerMs, newBest: graded.right && (bestBefore === null || answerMs < bestBefore) };
  P.phase = "result";
  renderStage();
  renderBests();
}

/** Focus on what comes next; the verdict is said aloud. */
function focusVerdict(next) {
  P.stage.querySelector(`[data-testid='${next}']`)?.focus();
  const live = document.getElementById("announcer");
  if (live) live.textContent = P.stage.querySelector("[data-testid='count-verdict']")?.textContent ?? "";
}

// ---------------------------------------------------------------- the running count's pass

function startPass() {
  const shoe = shuffledShoe(DRILL_DECKS);
  P.cards = shoe.slice(0, P.setup.cards);
  P.groups = groupsOf(P.cards, P.setup.group);
  P.index = 0;
  P.dealt = P.groups[0].length;
  P.phase = "dealing";
  P.startedAt = performance.now();
  lockSetup(true);
  renderStage();
  P.stage.querySelector("[data-testid='count-stop']")?.focus();
  P.timer = setTimeout(nextGroup, PACES[P.setup.pace]);
}

function nextGroup() {
  if (!P?.isCurrent()) return;
  P.index++;
  if (P.index >= P.groups.length) {
    P.phase = "answer";
    P.lastCardAt = performance.now();
    renderStage();
    P.stage.querySelector("[data-testid='count-running']")?.focus();
    return;
  }
  P.dealt += P.groups[P.index].length;
  renderStage();
  P.stage.querySelector("[data-testid='count-stop']")?.focus();
  P.timer = setTimeout(nextGroup, PACES[P.setup.pace]);
}

function stopPass() {
  clearTimeout(P.timer);
  P.phase = "ready";
  lockSetup(false);
  renderStage();
  P.stage.querySelector("[data-testid='count-start']")?.focus();
}

function renderAnswerForm(title) {
  const unseen = DECK * DRILL_DECKS - P.cards.length;
  const error = h("p", { class: "field-error", testid: "count-answer-error", "aria-live": "polite" });
  const running = h("input", {
    id: "count-running",
    type: "text",
    autocomplete: "off",
    testid: "count-running",
    "aria-describedby": "count-answer-error",
    required: true,
  });
  const trueInput = h("input", {
    id: "count-true",
    type: "text",
    inputmode: "decimal",
    autocomplete: "off",
    testid: "count-true",
    "aria-describedby": "count-true-hint",
  });
  const submit = (e) => {
    e.preventDefault();
    const answer = { running: parseCount(running.value), true: trueInput.value.trim() === "" ? null : parseCount(trueInput.value) };
    if (answer.running === null || !Number.isInteger(answer.running)) {
      error.textContent = "The running count is a whole number, such as 3 or −2.";
      running.setAttribute("aria-invalid", "true");
      running.focus();
      return;
    }
    if (trueInput.value.trim() !== "" && answer.true === null) {
      error.textContent = "The true count is a number, such as 1.5 or −0.5, or leave it empty.";
      trueInput.setAttribute("aria-invalid", "true");
      trueInput.focus();
      return;
    }
    grade(answer);
  };
  clear(P.stage).append(
    title,
    h(
      "form",
      { class: "count-answer", testid: "count-answer", onsubmit: submit },
      h(
        "p",
        { testid: "count-left" },
        `${P.cards.length} cards dealt; ${unseen} are left in the shoe (${(unseen / DECK).toLocaleString("en-US", { maximumFractionDigits: 2 })} decks).`,
      ),
      h("label", { class: "field", for: "count-running" }, "Running count", running),
      h(
        "label",
        { class: "field", for: "count-true" },
        "True count (optional)",
        trueInput,
        h("span", { class: "field-hint", id: "count-true-hint" }, `Right within ${TRUE_TOLERANCE} of the exact figure.`),
      ),
      error,
      h("button", { type: "submit", class: "btn btn-primary", testid: "count-submit" }, "Check"),
    ),
  );
}

function grade(answer) {
  const now = performance.now();
  const graded = gradePass(P.cards, DRILL_DECKS, answer);
  recordBest(setupKey(P.setup), graded, now - P.lastCardAt, { answer, graded, totalMs: now - P.startedAt });
  lockSetup(false);
  focusVerdict("count-again");
}

function renderResult(title) {
  const { answer, graded, answerMs, totalMs, newBest } = P.result;
  const yours = (v, decimals) => (v === null ? "—" : formatCount(v, decimals));
  const line = (label, mine, exact, right, testid) =>
    h(
      "tr",
      { testid, dataset: { right: right === null ? "" : String(right) } },
      h("th", { scope: "row" }, label),
      h("td", {}, mine),
      h("td", {}, exact),
      h("td", { class: right === null ? "muted" : right ? "pos" : "neg" }, right === null ? "not given" : right ? "✓ right" : "✗ wrong"),
    );
  clear(P.stage).append(
    title,
    h(
      "p",
      { class: `count-verdict ${graded.right ? "right" : "wrong"}`, testid: "count-verdict", dataset: { right: String(graded.right) } },
      graded.right ? "✓ Right" : "✗ Wrong",
      `: the running count is ${formatCount(graded.running)}, the true count ${formatCount(graded.true, 2)}.`,
    ),
    h(
      "table",
      { class: "count-table", testid: "count-result" },
      h("caption", { class: "sr-only" }, "Your answer and the exact count"),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["Count", "You", "Exact", "Verdict"].map((t) => h("th", { scope: "col" }, t)),
        ),
      ),
      h(
        "tbody",
        {},
        line("Running", yours(answer.running, 0), formatCount(graded.running), graded.runningRight, "count-result-running"),
        line("True", yours(answer.true, 2), formatCount(graded.true, 2), graded.trueRight, "count-result-true"),
      ),
    ),
    h(
      "p",
      { testid: "count-time" },
      `Answered in ${formatSeconds(answerMs)} after the last card (${formatSeconds(totalMs)} in all).`,
      newBest ? h("strong", { class: "count-new-best", testid: "count-new-best" }, " A personal best!") : null,
    ),
    h(
      "details",
      { class: "count-review" },
      h("summary", {}, "The cards of this pass"),
      h(
        "ol",
        { class: "count-cards", testid: "count-review" },
        P.cards.map((c) => h("li", {}, card(c, { small: true }), h("span", { class: "tag" }, formatCount(hiLoTag(c))))),
      ),
    ),
    h("button", { type: "button", class: "btn btn-primary", testid: "count-again", onclick: startPass }, "Another pass"),
  );
}

function renderBests() {
  const key = isTrayDrill() ? shoeKey(P.setup.drill, P.setup.decks) : setupKey(P.setup);
  const b = P.bests[key];
  clear(P.bestsBox).append(
    h("h2", { id: "count-bests-title" }, "Personal bests"),
    h("p", { class: "muted small", testid: "count-bests-for" }, bestsWords(P.setup)),
    b
      ? h(
          "dl",
          { class: "stat-grid", testid: "count-best" },
          stat(isTrayDrill() ? "Answers" : "Passes", `${b.right} right of ${b.passes}`, "count-best-passes"),
          stat("Fastest right answer", b.fastest === null ? "—" : formatSeconds(b.fastest), "count-best-fastest"),
          stat("Right in a row", `${b.streak} (best ${b.bestStreak})`, "count-best-streak"),
        )
      : h("p", { testid: "count-no-best" }, isTrayDrill() ? "No answer yet from this shoe." : "No pass yet with these settings."),
  );
}

function stat(label, value, testid) {
  return h("div", { class: "stat" }, h("dt", {}, label), h("dd", { testid }, value));
}
