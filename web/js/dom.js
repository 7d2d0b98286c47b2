// Tiny DOM helpers: h() builds elements, card() draws a playing card with CSS only.
import { dealerTotalLabel, parseCard } from "./format.js";
import { t } from "./i18n.js";

export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "testid") el.dataset.testid = v;
    else if (k === "text") el.textContent = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2).toLowerCase(), v);
    else if (k === "value" || k === "checked") el[k] = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

/** A face-up card ("TD") or, with code null, a face-down card back. */
export function card(code, { fresh = false, flip = false, small = false } = {}) {
  const cls = ["card"];
  if (small) cls.push("card-sm");
  if (flip) cls.push("flip-in");
  else if (fresh) cls.push("deal-in");
  if (!code) {
    cls.push("card-back");
    return h("div", { class: cls.join(" "), role: "img", "aria-label": t("dom.cardBack"), testid: "card-back" });
  }
  const c = parseCard(code);
  if (!c) return h("div", { class: cls.join(" "), role: "img", "aria-label": String(code) }, String(code));
  cls.push(c.red ? "red" : "black");
  return h(
    "div",
    { class: cls.join(" "), role: "img", "aria-label": c.name, title: c.name, dataset: { card: code } },
    h("span", { class: "corner tl", "aria-hidden": "true" }, h("b", {}, c.label), h("i", {}, c.sym)),
    h("span", { class: "pip", "aria-hidden": "true" }, c.sym),
    h("span", { class: "corner br", "aria-hidden": "true" }, h("b", {}, c.label), h("i", {}, c.sym)),
  );
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** A labelled form field. */
export function field(label, input, hintText) {
  return h("label", { class: "field" }, h("span", {}, label), input, hintText ? h("span", { class: "field-hint" }, hintText) : null);
}

/** A settled round's dealer, small: the total in words and the cards (history, trainer). */
export function dealerRow(dealer) {
  return h(
    "div",
    { class: "hi-dealer" },
    h("span", { class: "muted small" }, t("dom.dealer", { total: dealerTotalLabel(dealer) })),
    h(
      "div",
      { class: "cards" },
      (dealer?.cards || []).map((c) => card(c, { small: true })),
    ),
  );
}
