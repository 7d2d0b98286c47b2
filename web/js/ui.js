// Shared UI services: toasts, error reporting, the header's balance, navigation.
import { h } from "./dom.js";
import { formatCoins } from "./view.js";
import { getSession, updateSessionUser } from "./api.js";

export function toast(message, { tone = "error", timeout = tone === "error" ? 8000 : 4000 } = {}) {
  const box = document.getElementById("toasts");
  if (!box) return;
  const el = h(
    "div",
    { class: `toast toast-${tone}`, role: tone === "error" ? "alert" : "status", testid: tone === "error" ? "toast-error" : "toast" },
    h("span", { class: "toast-text" }, message),
    h("button", { type: "button", class: "toast-close", "aria-label": "Dismiss", onclick: () => el.remove() }, "×"),
  );
  box.appendChild(el);
  while (box.children.length > 4) box.firstChild.remove();
  if (timeout) setTimeout(() => el.remove(), timeout);
}

/** Words for an ApiError (problem document): detail, else title, plus hints. */
export function errorText(err) {
  if (!err) return "Something went wrong.";
  let text = sentence(err.detail || err.title || err.message || "Something went wrong");
  if (err.status === 429 && err.retryAfter) text += ` Try again in ${err.retryAfter} s.`;
  return text;
}

/** In words: snake_case field names spelled as words, a capital first, a full stop last. */
export function sentence(text) {
  let t = String(text).trim().replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (w) => w.replace(/_/g, " "));
  if (!t) return t;
  t = t[0].toUpperCase() + t.slice(1);
  return /[.!?…]$/.test(t) ? t : `${t}.`;
}

export function reportError(err, prefix = "") {
  if (err && err.status === 401) return; // handled by the unauthorized handler (back to login)
  toast((prefix ? `${prefix}: ` : "") + errorText(err));
}

export function setBalance(balance) {
  if (balance === null || balance === undefined) return;
  updateSessionUser({ balance });
  const el = document.querySelector('[data-testid="balance"]');
  if (el) el.textContent = formatCoins(balance);
}

export function currentUser() {
  const s = getSession();
  return s ? s.user : null;
}

export function go(hash) {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent("hashchange"));
  else location.hash = hash;
}

/** Disable every lockable control while a request is in flight. */
export function lockControls(root, locked) {
  // data-lock="on": enabled when idle; data-lock="disabled": disabled anyway.
  for (const el of root.querySelectorAll("[data-lock]")) el.disabled = locked || el.dataset.lock === "disabled";
  root.setAttribute("aria-busy", locked ? "true" : "false");
}
