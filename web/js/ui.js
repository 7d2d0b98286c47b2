// Shared UI services: the toast, error sentences, the header's balance, navigation.

import { getSession, updateSessionUser } from "./api.js";
import { h } from "./dom.js";
import { formatCoins, formatSigned } from "./format.js";
import { currentLanguage, LANGUAGE_KEY, LANGUAGES, t } from "./i18n.js";
import { remember } from "./settings.js";

let toastTimer = null;
// The toast on screen: `pages` counts the pages it has been on, `passing` marks a problem
// that the next request to succeed puts in the past (the network, the throttle).
let shown = null;
let raised = 0; // toasts raised so far: a request during which none was raised succeeded
let raisedBeforeLock = 0;

/**
 * One toast at a time: a new one replaces the last. Toasts sit under the header and the
 * offline banner, never on the controls; one raised as the app changes page (a welcome, a
 * logout) is read on the next page, and goes with the page after.
 */
export function toast(message, { tone = "error", timeout = tone === "error" ? 6000 : 3500, passing = false } = {}) {
  const box = document.getElementById("toasts");
  if (!box) return;
  clearTimeout(toastTimer);
  raised++;
  const el = h(
    "div",
    { class: `toast toast-${tone}`, role: tone === "error" ? "alert" : "status", testid: tone === "error" ? "toast-error" : "toast" },
    h("span", { class: "toast-text" }, message),
    h("button", { type: "button", class: "toast-close", "aria-label": t("toast.dismiss"), onclick: () => el.remove() }, "×"),
  );
  box.replaceChildren(el);
  shown = { el, pages: 1, passing };
  placeToasts();
  if (timeout) toastTimer = setTimeout(() => el.remove(), timeout);
}

const TOAST_WIDTH = 520; // css/app.css .toasts
const TOAST_BESIDE = 280; // the narrowest toast set beside the dealer's cards
const DEALER_ROOM = 110; // px right of the dealer's cards kept for more of them

/**
 * The toasts' place: below the sticky header and, while it shows, the offline banner; at a
 * table below its head too, so that Rules and Fair shoe (what a problem may send the player
 * to) stay in reach, and on a wide felt beside the dealer's cards.
 */
function placeToasts() {
  const box = document.getElementById("toasts");
  if (!box) return;
  const banner = document.getElementById("banner");
  const header = document.querySelector(".topbar");
  const head = document.querySelector(".table-head")?.getBoundingClientRect();
  const under = Math.max(
    header?.getBoundingClientRect().bottom ?? 0,
    banner && !banner.hidden ? banner.getBoundingClientRect().bottom : 0,
    head && head.bottom > 0 ? head.bottom : 0,
  );
  box.style.top = `${Math.round(under + 6)}px`;
  // On a wide felt the toast stands right of the dealer's cards, not over them, with room
  // left for the cards still to come; on a narrow one it spans the screen as it can.
  const felt = document.querySelector('[data-testid="felt"]')?.getBoundingClientRect();
  const cards = document.querySelector('[data-testid="dealer"] .cards')?.getBoundingClientRect();
  const room = felt && cards?.width ? felt.right - 12 - (cards.right + DEALER_ROOM) : 0;
  const width = Math.min(TOAST_WIDTH, room);
  const beside = width >= TOAST_BESIDE;
  box.style.left = beside ? `${Math.round(felt.right - 12 - width)}px` : "";
  box.style.width = beside ? `${Math.round(width)}px` : "";
  box.style.transform = beside ? "none" : "";
}

if (typeof window !== "undefined") {
  window.addEventListener("hashchange", () => {
    if (shown && ++shown.pages > 2) shown.el.remove();
  });
  // The banner changes after this module's listeners run (app.js registers its own later).
  for (const name of ["online", "offline"]) window.addEventListener(name, () => requestAnimationFrame(placeToasts));
  window.addEventListener("scroll", () => placeToasts(), { passive: true });
}

// The problem codes of API.md a player reads a sentence of their own for (`problem.<code>`
// in the catalogs); the server's detail is written in English, for developers.
const PROBLEM_CODES = new Set([
  "network_error",
  "malformed_request",
  "payload_too_large",
  "unsupported_media_type",
  "idempotency_key_reused",
  "validation_error",
  "login_taken",
  "bad_credentials",
  "too_many_attempts",
  "unauthorized",
  "not_found",
  "throttled",
  "round_in_progress",
  "shoe_not_committed",
  "no_round",
  "illegal_action",
  "bet_out_of_limits",
  "insufficient_funds",
  "stale_state",
  "conflict",
  "box_taken",
  "not_seated",
  "not_your_turn",
  "already_bet",
  "too_many_rooms",
]);
// Codes whose server detail adds something a player needs (which field, why): read only by
// a player who reads English, the language the server writes it in.
const DETAIL_HELPS = new Set(["validation_error", "illegal_action", "bet_out_of_limits"]);

/** Words for an ApiError (problem document): the sentence of its code, in the player's language. */
export function errorText(err) {
  if (!err) return t("problem.unknown");
  const detail = currentLanguage() === "en" && err.detail ? sentence(err.detail) : null;
  let text = null;
  if (err.code === "validation_error" && detail) text = detail;
  else if (PROBLEM_CODES.has(err.code)) {
    text = t(`problem.${err.code}`);
    if (detail && DETAIL_HELPS.has(err.code)) text = `${text.replace(/\.$/, ":")} ${detail}`;
  }
  // A code the client does not know (a newer server's, a gateway's): its detail is written
  // for developers ("Down."), so the player reads what the status says.
  else if (err.code && err.status) text = unknownProblem(err.status);
  // No problem document (a proxy's page, a script error): its words are English at best.
  if (!text) text = currentLanguage() === "en" ? sentence(err.detail || err.title || err.message || t("problem.unknown")) : t("problem.unknown");
  if (err.status === 429 && err.retryAfter) text = t("problem.retryAfter", { text, seconds: err.retryAfter });
  return text;
}

function unknownProblem(status) {
  if (status >= 500) return t("problem.serverDown");
  if (status === 429) return t("problem.throttled");
  return t("problem.refused");
}

/** In words: snake_case field names spelled as words, a capital first, a full stop last. */
export function sentence(text) {
  let t = String(text)
    .trim()
    .replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (w) => w.replace(/_/g, " "));
  if (!t) return t;
  t = t[0].toUpperCase() + t.slice(1);
  return /[.!?…]$/.test(t) ? t : `${t}.`;
}

/**
 * The banner while the browser is offline (hidden online), naming what just failed for it
 * (`failed`: "Could not deal").
 */
export function updateOfflineBanner(failed = "") {
  const banner = document.getElementById("banner");
  if (!banner) return;
  banner.hidden = navigator.onLine;
  if (navigator.onLine) banner.textContent = "";
  else if (failed) banner.textContent = t("offline.bannerFailed", { failed });
  else banner.textContent = t("offline.banner");
}

// Problems that pass by themselves: once a request gets through, their toast is out of date.
const PASSING = new Set(["network_error", "throttled"]);

export function reportError(err, prefix = "") {
  if (err && err.status === 401) return; // handled by the unauthorized handler (back to login)
  // Offline, the banner says what failed: a toast would say it again over the page (at a
  // table, over the dealer's cards).
  if (err?.code === "network_error" && !navigator.onLine) return updateOfflineBanner(prefix || t("offline.failed"));
  toast(prefix ? t("problem.prefixed", { prefix, text: errorText(err) }) : errorText(err), { passing: PASSING.has(err?.code) });
}

/**
 * The header's balance; it flashes the change from the balance shown before. A page that
 * loads (`flash: false`) shows the balance as it is: what changed it (a round settled in
 * another tab) was never on this screen, so a flash would show a figure nothing explains.
 */
export function setBalance(balance, { flash: flashes = true } = {}) {
  if (balance === null || balance === undefined) return;
  const before = getSession()?.user?.balance;
  updateSessionUser({ balance });
  const el = document.querySelector('[data-testid="balance"]');
  if (!el) return;
  el.textContent = formatCoins(balance);
  const change = Number(balance) - Number(before);
  if (!flashes || before === undefined || before === null || !change) return;
  const flash = document.querySelector('[data-testid="balance-change"]');
  if (!flash) return;
  flash.textContent = formatSigned(change);
  flash.className = `bal-change ${change > 0 ? "pos" : "neg"}`;
  // The flash covers the balance and no more (links sit beside it): a change wider than
  // the figure ("−1,000" over "50") is set smaller until it fits.
  flash.style.fontSize = "";
  const room = flash.clientWidth;
  if (flash.scrollWidth > room) flash.style.fontSize = `${(parseFloat(getComputedStyle(flash).fontSize) * room) / flash.scrollWidth}px`;
  void flash.offsetWidth; // restart the animation
  flash.classList.add("flash");
}

/** A shared table's link, copied to the clipboard (or shown to copy by hand), said in a toast. */
export function shareRoom(id) {
  const url = `${location.origin}${location.pathname}#/room/${encodeURIComponent(id)}`;
  const copied = () => toast(t("share.copied", { url }), { tone: "info" });
  const shown = () => toast(t("share.shown", { url }), { tone: "info", timeout: 15000 });
  if (navigator.clipboard?.writeText) navigator.clipboard.writeText(url).then(copied, shown);
  else shown();
}

export function go(hash) {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent("hashchange"));
  else location.hash = hash;
}

/** Disable every lockable control while a request is in flight; the spinner shows after 150 ms. */
let busyTimer = null;
export function lockControls(root, locked) {
  // data-lock="on": enabled when idle; data-lock="disabled": disabled anyway.
  for (const el of root.querySelectorAll("[data-lock]")) el.disabled = locked || el.dataset.lock === "disabled";
  const wasLocked = root.getAttribute("aria-busy") === "true";
  if (locked && !wasLocked) raisedBeforeLock = raised;
  // A request that ended without a new toast got through: a network error shown is past.
  if (!locked && wasLocked && raised === raisedBeforeLock && shown?.passing) shown.el.remove();
  root.setAttribute("aria-busy", locked ? "true" : "false");
  clearTimeout(busyTimer);
  const spinner = document.getElementById("busy");
  if (!spinner) return;
  if (locked) busyTimer = setTimeout(() => (spinner.hidden = false), 150);
  else spinner.hidden = true;
}

/**
 * The language picker (the login page, the lobby, the table's Settings): each language named
 * in itself, the same in every language. A pick is remembered and reloads the page, so every word on it changes at once.
 */
export function languagePicker() {
  const select = h(
    "select",
    {
      testid: "language",
      onchange: () => {
        remember(LANGUAGE_KEY, select.value);
        location.reload();
      },
    },
    Object.entries(LANGUAGES).map(([lang, { name }]) => h("option", { value: lang, lang, translate: "no", selected: lang === currentLanguage() }, name)),
  );
  return h("label", { class: "field field-language" }, h("span", {}, t("settings.language")), select);
}
