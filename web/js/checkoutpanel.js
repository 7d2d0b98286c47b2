// The checkout at the table (a setting, off by default): now and then between rounds the
// table stops and asks the running count, the true count and the bet, in place of the chips,
// with the count badge, the edge and the Kelly button hidden until it is answered; then it
// shows each right answer and why. Graded against GET …/edge's figures (checkout.js), kept
// in this browser per account for the Trainer. table.js calls it between rounds.
import { api, getSession } from "./api.js";
import { answerError, answerText, gradeCheckout, keepCheckout, QUESTIONS, recordOf, shouldAsk, TRUE_TOLERANCE } from "./checkout.js";
import { h } from "./dom.js";
import { formatPercent } from "./format.js";
import { roundCards } from "./hilo.js";
import { t } from "./i18n.js";
import { BET_TOLERANCES, settings } from "./settings.js";

// Each table's checkout while the tab lives (leaving the table and coming back is no new
// start, so no two rounds in a row ask): the rounds settled since the last one asked
// (`since`, null when none was), the last round looked at (`after`) and the checkout on
// screen (`open`, for the round `open.after`). A table's first look is at the round on
// screen when it loads, never asked about: the player may not have counted it.
const tables = new Map(); // table id -> {since, after, open}

function stateOf(S) {
  if (!tables.has(S.id)) tables.set(S.id, { since: null, after: S.round?.round_id ?? null, open: null });
  return tables.get(S.id);
}

/**
 * After a settled round, the edge's answer in hand (`after`: the round's id): whether the
 * checkout asks now.
 */
export function checkoutBetweenRounds(S, after, answer) {
  const c = stateOf(S);
  if (!settings.checkout || after === null || c.after === after) return false; // each round is looked at once
  c.after = after;
  if (c.since !== null) c.since += 1;
  if (!shouldAsk({ draw: Math.random(), roundsSince: c.since, count: answer.count })) return false;
  c.since = 0;
  const truth = { ...answer, balance: S.balance, roundCards: roundCards(S.round), variance: null };
  c.open = { after, truth, typed: { running: "", true: "", bet: "" }, errors: {}, graded: null };
  varianceOf(S.table.id).then((variance) => (truth.variance = variance));
  say(t("checkout.asked"));
  return true;
}

// The table's variance (its strategy card's), which Kelly's bet divides by: asked once a tab,
// when a checkout first asks there, for the bet's why (without it, the why names it only).
const variances = new Map(); // table id -> Promise of the variance, or null

function varianceOf(tableId) {
  if (!variances.has(tableId))
    variances.set(
      tableId,
      api.strategy(tableId).then(
        (card) => card.variance ?? null,
        () => {
          variances.delete(tableId); // asked again at the next checkout
          return null;
        },
      ),
    );
  return variances.get(tableId);
}

/** The checkout on screen (asking or graded), or null: it is about the settled round on the felt. */
function openCheckout(S) {
  const open = stateOf(S).open;
  return settings.checkout && open && open.after === S.round?.round_id ? open : null;
}

/** While the checkout asks, the count and the bet stay off the screen (they are its answers). */
export const checkoutAsking = (S) => !!openCheckout(S) && !openCheckout(S).graded;

/** The focus on the checkout's first field (once it opens). */
export function focusCheckout(main) {
  main.querySelector('[data-testid="checkout-running"]')?.focus();
}

function close(ctl) {
  stateOf(ctl.state).open = null;
  ctl.render();
  ctl.state.main.querySelector('[data-testid="deal"]')?.focus({ preventScroll: true });
}

/**
 * The table's keys while the checkout is on screen: Escape skips it (or, graded, closes it);
 * nothing else deals or bets meanwhile. True when the key is the checkout's.
 */
export function checkoutKey(ctl, ev) {
  if (!openCheckout(ctl.state)) return false;
  if (ev.key === "Escape") {
    ev.preventDefault();
    close(ctl);
  } else if (!ev.target?.closest?.("button, a, input, select")) ev.preventDefault();
  return true;
}

/** The checkout in place of the chips: the questions, or the answers graded. */
export function renderCheckout(ctl) {
  const open = openCheckout(ctl.state);
  if (!open) return null;
  return h(
    "section",
    { class: "controls checkout-panel", testid: "checkout", "aria-labelledby": "checkout-title" },
    open.graded ? renderGraded(ctl, open) : renderQuestions(ctl, open),
  );
}

function renderQuestions(ctl, open) {
  const field = ({ name, label }) => {
    const error = open.errors[name];
    return h(
      "label",
      { class: "field" },
      label,
      h("input", {
        type: "text",
        testid: `checkout-${name}`,
        value: open.typed[name],
        autocomplete: "off",
        spellcheck: "false",
        inputmode: name === "bet" ? "numeric" : null,
        "aria-invalid": error ? "true" : "false",
        "aria-describedby": error ? `checkout-${name}-error` : null,
        oninput: (e) => (open.typed[name] = e.target.value), // no render while typing
      }),
      error ? h("span", { class: "field-error", id: `checkout-${name}-error`, testid: `checkout-${name}-error` }, error) : null,
    );
  };
  const onsubmit = (e) => {
    e.preventDefault();
    submit(ctl, open);
  };
  const onkeydown = (e) => {
    if (e.key !== "Escape") return;
    e.preventDefault();
    e.stopPropagation();
    close(ctl);
  };
  return [
    h("h2", { id: "checkout-title" }, t("checkout.title")),
    h("p", { class: "checkout-ask", id: "checkout-ask" }, t(settings.showCount ? "checkout.askBadgeHidden" : "checkout.ask")),
    h(
      "form",
      { class: "checkout-form", testid: "checkout-form", novalidate: true, "aria-describedby": "checkout-ask", onsubmit, onkeydown },
      h("div", { class: "checkout-fields" }, QUESTIONS.map(field)),
      h(
        "div",
        { class: "checkout-buttons" },
        h(
          "button",
          { type: "button", class: "btn btn-ghost btn-small", testid: "checkout-skip", "aria-keyshortcuts": "Escape", onclick: () => close(ctl) },
          t("checkout.skip"),
          " ",
          h("kbd", { "aria-hidden": "true", translate: "no" }, "Esc"),
        ),
        h(
          "button",
          { type: "submit", class: "btn btn-primary", testid: "checkout-submit", "aria-keyshortcuts": "Enter" },
          t("checkout.check"),
          " ",
          h("kbd", { "aria-hidden": "true", translate: "no" }, "Enter"),
        ),
      ),
    ),
  ];
}

/** The answers read, graded and kept; or, where one does not read, why. */
function submit(ctl, open) {
  open.errors = Object.fromEntries(QUESTIONS.map(({ name }) => [name, answerError(name, open.typed[name])]).filter(([, error]) => error));
  const invalid = QUESTIONS.find(({ name }) => open.errors[name]);
  if (invalid) {
    ctl.render();
    ctl.state.main.querySelector(`[data-testid="checkout-${invalid.name}"]`)?.focus();
    return;
  }
  open.graded = gradeCheckout(open.typed, open.truth, settings.betTolerance);
  const login = getSession()?.login;
  if (login) keepCheckout(login, recordOf(open.graded, ctl.state.table.id, Date.now()));
  ctl.render();
  say(t("checkout.gradedSaid", { right: rightCount(open.graded), total: QUESTIONS.length }));
  ctl.state.main.querySelector('[data-testid="checkout-continue"]')?.focus();
}

const rightCount = (graded) => QUESTIONS.filter(({ name }) => graded[name].right).length;

function renderGraded(ctl, open) {
  const grade = ({ name, label }) => {
    const g = open.graded[name];
    return h(
      "li",
      { class: `checkout-grade ${g.right ? "right" : "wrong"}`, testid: `checkout-grade-${name}`, dataset: { right: String(g.right) } },
      h(
        "p",
        { class: "checkout-verdict" },
        h("span", { class: "checkout-label" }, t("checkout.answerOf", { question: label }), " "),
        h("b", { testid: `checkout-expected-${name}` }, answerText(name, g.expected)),
        h("span", { class: "checkout-mark" }, " ", t(g.right ? "checkout.markRight" : "checkout.markWrong")),
        h("span", { class: "checkout-given" }, ", ", t("checkout.youSaid", { answer: answerText(name, g.given) })),
      ),
      h("p", { class: "checkout-why", testid: `checkout-why-${name}` }, g.why),
    );
  };
  return [
    h("h2", { id: "checkout-title" }, t("checkout.gradedTitle", { right: rightCount(open.graded), total: QUESTIONS.length })),
    h("ul", { class: "checkout-grades" }, QUESTIONS.map(grade)),
    h(
      "div",
      { class: "checkout-buttons" },
      h("button", { type: "button", class: "btn btn-primary", testid: "checkout-continue", onclick: () => close(ctl) }, t("checkout.continue")),
    ),
  ];
}

/** The checkout's settings, added to the table's Settings drawer. */
export function checkoutSettings(ctl) {
  const S = ctl.state;
  return h(
    "fieldset",
    { class: "checkout-settings", testid: "checkout-settings" },
    h("legend", {}, t("checkout.settings")),
    h(
      "label",
      { class: "toggle" },
      h("input", {
        type: "checkbox",
        testid: "checkout-toggle",
        checked: settings.checkout,
        onchange: (e) => {
          settings.checkout = e.target.checked;
          if (!e.target.checked) stateOf(S).open = null;
          ctl.render();
        },
      }),
      " ",
      t("checkout.toggle"),
    ),
    h(
      "label",
      { class: "field" },
      t("checkout.tolerance"),
      h(
        "select",
        { testid: "checkout-tolerance", onchange: (e) => (settings.betTolerance = Number(e.target.value)) },
        BET_TOLERANCES.map((tolerance) =>
          h(
            "option",
            { value: String(tolerance), selected: settings.betTolerance === tolerance ? true : null },
            t("checkout.toleranceOption", { tolerance: formatPercent(tolerance / 100) }),
          ),
        ),
      ),
      h("span", { class: "field-hint" }, t("checkout.toleranceHint", { tolerance: TRUE_TOLERANCE })),
    ),
  );
}

/** The table's drawers with the checkout's settings at the end of Settings (panels.js draws them). */
export function withCheckoutSettings(panels, ctl) {
  for (const panel of panels) panel.querySelector('[data-testid="settings"]')?.append(checkoutSettings(ctl));
  return panels;
}

function say(text) {
  const live = document.getElementById("announcer");
  if (live) live.textContent = text;
}
