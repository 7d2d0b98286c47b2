// The Hi-Lo count (API.md, "The count") and the Count page (`#/counting`): a drill that
// deals cards from a six-deck shoe shuffled in the browser, one, two or four at a time,
// then asks for the running count and, if the player likes, the true count. The count's
// arithmetic, the shoe, the grading and the personal bests are pure functions (tested with
// node); the table's count badge uses the same arithmetic.
import { card, clear, h } from "./dom.js";
import { parseCard } from "./format.js";
import { remember, remembered, savedObject } from "./settings.js";

const DECK = 52;
export const DRILL_DECKS = 6;
export const GROUPS = [1, 2, 4];
export const PASS_LENGTHS = [10, 26, 52, 104, 156];
/** Milliseconds each group of cards stays on screen. */
export const PACES = { slow: 1500, steady: 1000, brisk: 600, fast: 350 };
/** A true count within this of the exact one is right: counters judge the decks left by eye. */
export const TRUE_TOLERANCE = 0.5;
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
  const trueRight = trueGiven ? Math.abs(answer.true - exactTrue) <= TRUE_TOLERANCE + 1e-9 : null;
  return { running, true: exactTrue, unseen, runningRight, trueRight, right: runningRight && trueRight !== false };
}

/** The setup a best belongs to: "52:2:brisk". */
export const setupKey = (setup) => `${setup.cards}:${setup.group}:${setup.pace}`;

/**
 * The bests after a graded pass: for each setup, passes and right ones, the fastest right
 * answer (ms from the last card to the answer) and the longest run of right passes.
 */
export function withPass(bests, setup, graded, answerMs) {
  const key = setupKey(setup);
  const was = bests[key] || { passes: 0, right: 0, fastest: null, streak: 0, bestStreak: 0 };
  const streak = graded.right ? was.streak + 1 : 0;
  const fastest = graded.right && (was.fastest === null || answerMs < was.fastest) ? answerMs : was.fastest;
  return {
    ...bests,
    [key]: { passes: was.passes + 1, right: was.right + (graded.right ? 1 : 0), fastest, streak, bestStreak: Math.max(was.bestStreak, streak) },
  };
}

/** The setup as remembered, each part one the page offers, else the default. */
export function parseSetup(raw) {
  const saved = savedObject(raw);
  return {
    cards: PASS_LENGTHS.includes(saved.cards) ? saved.cards : 52,
    group: GROUPS.includes(saved.group) ? saved.group : 1,
    pace: Object.hasOwn(PACES, saved.pace) ? saved.pace : "steady",
  };
}

/** The stored bests, or none when they are missing or unreadable. */
export const parseBests = savedObject;

/** 2345 ms → "2.3 s". */
export const formatSeconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

// ---------------------------------------------------------------- the page

let P = null; // the page on screen

export function showCounting(main, isCurrent) {
  if (P) clearTimeout(P.timer);
  P = { main, isCurrent, setup: parseSetup(remembered(SETUP_KEY)), bests: parseBests(remembered(BESTS_KEY)), phase: "ready", timer: null };
  P.stage = h("section", { class: "panel count-stage", testid: "count-stage", "aria-labelledby": "count-stage-title" });
  P.bestsBox = h("section", { class: "panel count-bests", testid: "count-bests", "aria-labelledby": "count-bests-title" });
  clear(main).appendChild(
    h(
      "div",
      { class: "counting", testid: "counting" },
      h("h1", {}, "Count"),
      h(
        "p",
        { class: "muted" },
        "Keep the Hi-Lo count as cards come off a shuffled six-deck shoe: 2 to 6 count +1, 7 to 9 count 0, tens and aces −1. At the end, give the running count and, if you like, the true count (running count per deck left).",
      ),
      setupForm(),
      h("div", { class: "count-grid" }, P.stage, P.bestsBox),
    ),
  );
  renderStage();
  renderBests();
}

function setupForm() {
  const choice = (name, legend, options, label) =>
    h(
      "fieldset",
      { class: "segmented" },
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
              P.setup = { ...P.setup, [name]: value };
              remember(SETUP_KEY, JSON.stringify(P.setup));
              renderBests();
            },
          }),
          h("span", {}, label(value)),
        ),
      ),
    );
  P.form = h(
    "form",
    { class: "count-setup", testid: "count-setup", onsubmit: (e) => e.preventDefault() },
    choice("cards", "Cards", PASS_LENGTHS, String),
    choice("group", "At a time", GROUPS, String),
    choice("pace", "Speed", Object.keys(PACES), (p) => `${p[0].toUpperCase()}${p.slice(1)}`),
  );
  return P.form;
}

function lockSetup(locked) {
  for (const input of P.form.querySelectorAll("input")) input.disabled = locked;
}

function renderStage() {
  const title = h("h2", { id: "count-stage-title", tabindex: "-1" }, "The pass");
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
  const answerMs = now - P.lastCardAt;
  const bestBefore = P.bests[setupKey(P.setup)]?.fastest ?? null;
  P.bests = withPass(P.bests, P.setup, graded, answerMs);
  remember(BESTS_KEY, JSON.stringify(P.bests));
  P.result = { answer, graded, answerMs, totalMs: now - P.startedAt, newBest: graded.right && (bestBefore === null || answerMs < bestBefore) };
  P.phase = "result";
  lockSetup(false);
  renderStage();
  renderBests();
  P.stage.querySelector("[data-testid='count-again']")?.focus();
  const live = document.getElementById("announcer");
  if (live) live.textContent = P.stage.querySelector("[data-testid='count-verdict']")?.textContent ?? "";
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
  const key = setupKey(P.setup);
  const b = P.bests[key];
  const { cards, group, pace } = P.setup;
  clear(P.bestsBox).append(
    h("h2", { id: "count-bests-title" }, "Personal bests"),
    h("p", { class: "muted small" }, `For ${cards} cards, ${group} at a time, ${pace}; kept in this browser.`),
    b
      ? h(
          "dl",
          { class: "stat-grid", testid: "count-best" },
          stat("Passes", `${b.right} right of ${b.passes}`, "count-best-passes"),
          stat("Fastest right answer", b.fastest === null ? "—" : formatSeconds(b.fastest), "count-best-fastest"),
          stat("Right in a row", `${b.streak} (best ${b.bestStreak})`, "count-best-streak"),
        )
      : h("p", { testid: "count-no-best" }, "No pass yet with these settings."),
  );
}

function stat(label, value, testid) {
  return h("div", { class: "stat" }, h("dt", {}, label), h("dd", { testid }, value));
}
