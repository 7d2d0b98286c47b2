// The Count page (`#/counting`): three drills. The running count: cards dealt from a six-deck
// shoe shuffled in the browser, one, two or four at a time, then the running count and, if
// the player likes, the true count. The true count: a running count and a discard tray drawn
// to scale, the player converts. The decks left: a discard tray, the player says how many
// decks are still in the shoe. The count's arithmetic is in hilo.js; the shoes, the grading,
// the words and the personal bests in countdrills.js.
import { loadTables } from "./api.js";
import {
  bestsWords,
  DRILL_DECKS,
  DRILLS,
  dealDiscards,
  decksVerdict,
  drillIntro,
  drillLabel,
  estimateStep,
  formatDecks,
  formatSeconds,
  GROUPS,
  gradeDecks,
  gradePass,
  gradeTrue,
  groupsOf,
  PACES,
  PASS_LENGTHS,
  paceLabel,
  parseBests,
  parseCount,
  parseDecks,
  parseSetup,
  pickDecks,
  setupKey,
  shoeChoices,
  shoeKey,
  shuffledShoe,
  stepWords,
  TRUE_TOLERANCE,
  trayLabel,
  trayScale,
  trayWords,
  trueVerdict,
  withPass,
} from "./countdrills.js";
import { card, clear, h } from "./dom.js";
import { parseCard } from "./format.js";
import { DECK, formatCount, hiLoTag, runningCount } from "./hilo.js";
import { formatNumber, t } from "./i18n.js";
import { remember, remembered } from "./settings.js";
import { errorText } from "./ui.js";

const SETUP_KEY = "blackjack.counting";
const BESTS_KEY = "blackjack.counting_bests";

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
    h(
      "div",
      { class: "counting", testid: "counting" },
      h("h1", {}, t("counting.title")),
      P.form,
      P.intro,
      h("div", { class: "count-grid" }, P.stage, P.bestsBox),
    ),
  );
  renderDrill();
  // The tray drills deal from the tables' shoes; the running count's drill needs none.
  loadTables().then(
    (tables) => shoesKnown(page, shoeChoices(tables), null),
    (e) => shoesKnown(page, [], t("counting.noTables", { error: errorText(e) })),
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
    t("counting.drillLegend"),
    DRILLS,
    // a small phone reads "Running" (its whole name still heard), so the three hold one row
    (d) => shortened(drillLabel(d), t(`counting.drillShort.${d}`)),
    () => {
      clearTimeout(P.timer);
      renderDrill();
    },
  );
}

/** A name a small phone shows the start of: `short` where the whole name begins with it, the rest apart. */
function shortened(label, short) {
  if (short === label || !label.startsWith(short)) return label;
  return [short, h("span", { class: "count-more" }, label.slice(short.length))];
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
    choice("cards", t("counting.cards"), PASS_LENGTHS, formatNumber, changed),
    choice("group", t("counting.atATime"), GROUPS, formatNumber, changed),
    choice("pace", t("counting.speed"), Object.keys(PACES), paceLabel, changed),
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
    (P.shoes || [{ decks: P.setup.decks, label: t("counting.loadingTables") }]).map((s) =>
      h("option", { value: String(s.decks), selected: s.decks === P.setup.decks ? true : null }, s.label),
    ),
  );
  return [
    h("label", { class: "inline-field count-shoe", for: "count-shoe" }, t("counting.shoe"), select),
    P.shoesNote ? h("p", { class: "field-error", testid: "count-shoe-note" }, P.shoesNote) : null,
  ];
}

function lockSetup(locked) {
  for (const input of P.form.querySelectorAll("input, select")) input.disabled = locked || (input.id === "count-shoe" && P.shoes === null);
}

function renderStage() {
  const title = h("h2", { id: "count-stage-title", tabindex: "-1" }, isTrayDrill() ? drillLabel(P.setup.drill) : t("counting.pass"));
  if (isTrayDrill()) return renderTrayStage(title);
  if (P.phase === "ready") {
    const { cards, group, pace } = P.setup;
    clear(P.stage).append(
      title,
      h(
        "p",
        { testid: "count-ready" },
        t(group === 1 ? "counting.ready.cards" : "counting.ready.groups", { count: cards, group, seconds: PACES[pace] / 1000 }),
      ),
      h("button", { type: "button", class: "btn btn-primary", testid: "count-start", onclick: startPass }, t("counting.start")),
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
      h("p", { class: "muted small", testid: "count-progress" }, t("counting.progress", { dealt: P.dealt, count: P.cards.length })),
      h("button", { type: "button", class: "btn btn-ghost btn-small", testid: "count-stop", onclick: stopPass }, t("counting.stop")),
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
    const ready =
      drill === "true" ? t("counting.ready.true", { count: decks }) : t("counting.ready.decks", { count: decks, step: stepWords(estimateStep(decks)) });
    clear(P.stage).append(
      title,
      h("p", { testid: "count-ready" }, P.shoes === null ? t("counting.loadingShoes") : ready),
      h("button", { type: "button", class: "btn btn-primary", testid: "count-start", disabled: P.shoes === null, onclick: askTray }, t("counting.start")),
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
          h("span", { class: "muted small" }, t("counting.runningCount")),
          h("strong", { testid: "count-given-running", dataset: { running: String(q.running) } }, formatCount(q.running)),
        )
      : null;
  const shoe = h("p", { class: "muted small count-shoe-size" }, t("counting.shoeSize", { count: q.decks, cards: DECK * q.decks }));
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
      t("counting.answeredIn", { time: formatSeconds(answerMs) }),
      newBest ? h("strong", { class: "count-new-best", testid: "count-new-best" }, " ", t("counting.newBest")) : null,
    ),
    h("button", { type: "button", class: "btn btn-primary", testid: "count-next", onclick: askTray }, t("counting.nextTray")),
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
  const hint = isTrue
    ? t("counting.hint.true", { tolerance: TRUE_TOLERANCE, example: formatNumber(1.5) })
    : t("counting.hint.decks", { step: stepWords(step), example: formatNumber(step === 0.25 ? 0.75 : 2.5) });
  const submit = (e) => {
    e.preventDefault();
    const answer = isTrue ? parseCount(input.value) : parseDecks(input.value);
    const problem =
      answer === null
        ? isTrue
          ? t("counting.problem.true", { example: formatNumber(1.5) })
          : t("counting.problem.decks", { example: formatNumber(2.5) })
        : !isTrue && answer > q.decks
          ? t("counting.problem.tooMany", { count: q.decks, decks: formatDecks(q.decks) })
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
      isTrue ? t("counting.trueCount") : t("counting.decksLeft"),
      input,
      h("span", { class: "field-hint", id: "count-estimate-hint" }, hint),
    ),
    error,
    h("button", { type: "submit", class: "btn btn-primary", testid: "count-check" }, t("counting.check")),
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
      error.textContent = t("counting.problem.running");
      running.setAttribute("aria-invalid", "true");
      running.focus();
      return;
    }
    if (trueInput.value.trim() !== "" && answer.true === null) {
      error.textContent = t("counting.problem.optionalTrue", { example: formatNumber(1.5), negative: formatNumber(0.5) });
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
      h("p", { testid: "count-left" }, t("counting.left", { count: P.cards.length, unseen, decks: formatDecks(unseen / DECK) })),
      h("label", { class: "field", for: "count-running" }, t("counting.runningCount"), running),
      h(
        "label",
        { class: "field", for: "count-true" },
        t("counting.trueOptional"),
        trueInput,
        h("span", { class: "field-hint", id: "count-true-hint" }, t("counting.hint.exact", { tolerance: TRUE_TOLERANCE })),
      ),
      error,
      h("button", { type: "submit", class: "btn btn-primary", testid: "count-submit" }, t("counting.check")),
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
      h(
        "td",
        { class: right === null ? "muted" : right ? "pos" : "neg" },
        right === null ? t("counting.result.notGiven") : right ? t("counting.result.right") : t("counting.result.wrong"),
      ),
    );
  clear(P.stage).append(
    title,
    h(
      "p",
      { class: `count-verdict ${graded.right ? "right" : "wrong"}`, testid: "count-verdict", dataset: { right: String(graded.right) } },
      t(graded.right ? "counting.passVerdict.right" : "counting.passVerdict.wrong", {
        running: formatCount(graded.running),
        trueCount: formatCount(graded.true, 2),
      }),
    ),
    h(
      "table",
      { class: "count-table", testid: "count-result" },
      h("caption", { class: "sr-only" }, t("counting.result.caption")),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["count", "you", "exact", "verdict"].map((column) => h("th", { scope: "col" }, t(`counting.result.${column}`))),
        ),
      ),
      h(
        "tbody",
        {},
        line(t("counting.result.running"), yours(answer.running, 0), formatCount(graded.running), graded.runningRight, "count-result-running"),
        line(t("counting.result.true"), yours(answer.true, 2), formatCount(graded.true, 2), graded.trueRight, "count-result-true"),
      ),
    ),
    h(
      "p",
      { testid: "count-time" },
      t("counting.answeredAfter", { time: formatSeconds(answerMs), total: formatSeconds(totalMs) }),
      newBest ? h("strong", { class: "count-new-best", testid: "count-new-best" }, " ", t("counting.newBest")) : null,
    ),
    h(
      "details",
      { class: "count-review" },
      h("summary", {}, t("counting.review")),
      h(
        "ol",
        { class: "count-cards", testid: "count-review" },
        P.cards.map((c) => h("li", {}, card(c, { small: true }), h("span", { class: "tag" }, formatCount(hiLoTag(c))))),
      ),
    ),
    h("button", { type: "button", class: "btn btn-primary", testid: "count-again", onclick: startPass }, t("counting.again")),
  );
}

function renderBests() {
  const key = isTrayDrill() ? shoeKey(P.setup.drill, P.setup.decks) : setupKey(P.setup);
  const b = P.bests[key];
  clear(P.bestsBox).append(
    h("h2", { id: "count-bests-title" }, t("counting.bests")),
    h("p", { class: "muted small", testid: "count-bests-for" }, bestsWords(P.setup)),
    b
      ? h(
          "dl",
          { class: "stat-grid", testid: "count-best" },
          stat(
            isTrayDrill() ? t("counting.best.answers") : t("counting.best.passes"),
            t("counting.best.rightOf", { right: b.right, passes: b.passes }),
            "count-best-passes",
          ),
          stat(t("counting.best.fastest"), b.fastest === null ? "—" : formatSeconds(b.fastest), "count-best-fastest"),
          stat(t("counting.best.inARow"), t("counting.best.streak", { streak: b.streak, best: b.bestStreak }), "count-best-streak"),
        )
      : h("p", { testid: "count-no-best" }, isTrayDrill() ? t("counting.noAnswerYet") : t("counting.noPassYet")),
  );
}

function stat(label, value, testid) {
  return h("div", { class: "stat" }, h("dt", {}, label), h("dd", { testid }, value));
}
