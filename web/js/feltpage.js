// What the two pages with a felt (a table, table.js; a shared table, room.js) do alike:
// the cards landing at their pace, one request at a time with the controls locked, the
// drawers, the betting circles' keys and where the focus lands after a render. Each
// function takes the page's state (`shown`, `pace`, `justLanded`, `round`, `busy`,
// `panel`, `main`) and the page's own steps.
import { h } from "./dom.js";
import { BOX_KEYS } from "./format.js";
import { cardDelay, dealOrder, pendingCards } from "./pacing.js";
import { reducedMotion, settings } from "./settings.js";
import { play as sound } from "./sound.js";
import { lockControls } from "./ui.js";

// A click is a press and a release on one element. A felt rebuilt between the two (a live
// update, a card landing) would put a new button under the release and swallow the click,
// so a render asked for while a control is pressed waits until its click is done.
let pressed = false;
let held = null;

/** True when the page's `render` must wait for the control pressed now (it runs after the click). */
export function heldWhilePressed(render) {
  if (!pressed) return false;
  held = render;
  return true;
}

if (typeof document !== "undefined") {
  const CONTROLS = "button, a, input, select, label, summary";
  document.addEventListener("pointerdown", (ev) => (pressed = ev.target instanceof Element && Boolean(ev.target.closest(CONTROLS))), true);
  const release = () => {
    pressed = false;
    const render = held;
    held = null;
    // The click follows the release in the same task: the render waits for the next one.
    if (render) setTimeout(render);
  };
  for (const name of ["pointerup", "pointercancel"]) document.addEventListener(name, release, true);
  window.addEventListener("blur", release);
}

/** Puts the next card on the felt, one every `cardDelay` ms, then calls `landAll`. */
export function paceCards(S, { render, landAll }) {
  clearTimeout(S.pace);
  const pending = pendingCards(S.round, S.shown);
  const delay = cardDelay(settings.speed, reducedMotion());
  if (pending.length === 0 || delay === 0) return landAll();
  S.shown.add(pending[0].key);
  S.justLanded = pending[0].key;
  sound("deal");
  S.pace = setTimeout(() => paceCards(S, { render, landAll }), delay);
  render();
}

/** Every card of the round on the felt now (the end of the pace, or a click or key to skip it). */
export function landCards(S) {
  clearTimeout(S.pace);
  S.pace = null;
  S.justLanded = null;
  for (const slot of dealOrder(S.round)) S.shown.add(slot.key);
}

/**
 * Runs `fn` as the one request in flight, the controls locked meanwhile; `current()` is
 * the page's state now (the page may have been left), rendered again once `fn` is done.
 */
export async function whileBusy(S, current, render, fn) {
  if (!S || S.busy) return;
  S.busy = true;
  lockControls(S.main, true);
  try {
    await fn(S);
  } finally {
    S.busy = false;
    lockControls(S.main, false);
    if (current() === S) render();
  }
}

/** Opens drawer `name` (or closes it), and the focus follows: its title, or its button. */
export function toggleDrawer(S, name, render) {
  S.panel = S.panel === name ? null : name;
  render();
  const target = S.panel ? S.main.querySelector(`[data-testid="panel-${S.panel}"] h2`) : S.main.querySelector(`[data-testid="open-${name}"]`);
  target?.focus({ preventScroll: true });
}

/** Whether a key goes to a field being typed in (not to the table). */
function isTyping(el) {
  const tag = el?.tagName || "";
  return tag === "TEXTAREA" || tag === "SELECT" || (tag === "INPUT" && !["checkbox", "radio", "range", "button"].includes(el.type)) || el?.isContentEditable;
}

/**
 * What every felt does with a key first: nothing with a modifier or while typing; Escape
 * closes the open drawer; any key lands the cards still to come. True when the key is
 * taken so (the page's own keys are not looked at then).
 */
export function keyTaken(S, ev, { closeDrawer, landAll }) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return true;
  if (ev.key === "Escape" && S.panel) {
    closeDrawer();
    return true;
  }
  if (isTyping(ev.target)) return true;
  if (!S.pace) return false;
  ev.preventDefault();
  landAll();
  return true;
}

/** Each betting circle shows its digit, as the decisions show their keys. */
export function labelBoxKeys(main) {
  for (const [n, key] of BOX_KEYS.entries()) {
    const circle = main.querySelector(`[data-testid="bet-add-${n}"]`);
    if (!circle) continue;
    circle.setAttribute("aria-keyshortcuts", key);
    circle.append(h("kbd", { class: "box-key", "aria-hidden": "true" }, key));
  }
}

/** Focus stays where it was; else it lands on the main action (Deal, or the first decision). */
export function restoreFocus(S, focused, betting) {
  let target = focused && S.main.querySelector(`[data-testid="${CSS.escape(focused)}"]`);
  if (!target || target.disabled || target.closest("[hidden]")) {
    target = betting
      ? S.main.querySelector('[data-testid="deal"]')
      : S.main.querySelector(".action.advised") || S.main.querySelector('[data-testid^="action-"]');
  }
  if (target && !target.disabled && (S.panel === null || target.closest(".drawer"))) target.focus({ preventScroll: true });
}
