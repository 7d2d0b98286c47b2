// Entry point: hash router, header navigation, session handling.
import { clearSession, getSession, setUnauthorizedHandler } from "./api.js";
import { showCounting } from "./counting.js";
import { clear, h } from "./dom.js";
import { showDrills } from "./drills.js";
import { formatCoins } from "./format.js";
import { showHistory } from "./history.js";
import { currentLanguage, t } from "./i18n.js";
import { showIndices } from "./indices.js";
import { showLobby } from "./lobby.js";
import { showLogin } from "./login.js";
import { leaveRoom, showRoom } from "./room.js";
import { showStrategy } from "./strategy.js";
import { leaveTable, showTable } from "./table.js";
import { tableName } from "./tablenames.js";
import { showTrainer } from "./trainer.js";
import { go, toast, updateOfflineBanner } from "./ui.js";
import { showVerify } from "./verify.js";

const main = document.getElementById("main");
const nav = document.getElementById("nav");
let routeGen = 0;

/**
 * The shell's own words (index.html is written in English, for a browser without scripts)
 * in the player's language, and the manifest of that language (the installed app's name).
 */
function speakLanguage() {
  const lang = currentLanguage();
  document.documentElement.lang = lang;
  document.querySelector('meta[name="description"]')?.setAttribute("content", t("app.description"));
  document.querySelector('link[rel="manifest"]')?.setAttribute("href", lang === "en" ? "manifest.webmanifest" : `manifest.${lang}.webmanifest`);
  const skip = document.querySelector('[data-testid="skip-link"]');
  if (skip) skip.textContent = t("app.skipLink");
  document.querySelector('[data-testid="brand"]')?.setAttribute("aria-label", t("app.brandLabel"));
  const word = document.querySelector(".brand-word");
  if (word) word.textContent = t("app.name");
  nav.setAttribute("aria-label", t("app.navLabel"));
}
speakLanguage();

// The pages after the login, by the hash's first part; `nav` puts a page in the header
// (the key of its link). A new page is a module and one line here.
const PAGES = {
  lobby: { nav: "nav.lobby", title: () => t("nav.lobby"), show: (_, isCurrent) => showLobby(main, isCurrent) },
  history: { nav: "nav.history", title: () => t("nav.history"), show: (_, isCurrent) => showHistory(main, isCurrent) },
  trainer: { nav: "nav.trainer", title: () => t("nav.trainer"), show: (id, isCurrent) => showTrainer(main, id, isCurrent) },
  drills: { nav: "nav.drills", title: () => t("nav.drills"), show: (_, isCurrent) => showDrills(main, isCurrent) },
  counting: { nav: "nav.counting", title: () => t("nav.counting"), show: (_, isCurrent) => showCounting(main, isCurrent) },
  table: { title: (id) => tableName(id), show: (id, isCurrent) => showTable(main, id, isCurrent) },
  room: { title: () => t("title.room"), show: (id, isCurrent) => showRoom(main, id, isCurrent) },
  strategy: { title: (id) => t("title.strategy", { table: tableName(id) }), show: (id, isCurrent) => showStrategy(main, id, isCurrent) },
  indices: { title: (id) => t("title.indices", { table: tableName(id) }), show: (id, isCurrent) => showIndices(main, id, isCurrent) },
  verify: { title: () => t("nav.verify"), show: (shoeId, isCurrent) => showVerify(main, shoeId, isCurrent) },
};

setUnauthorizedHandler(() => {
  clearSession();
  if (location.hash && !location.hash.startsWith("#/login")) sessionStorage.setItem("blackjack.after_login", location.hash);
  toast(t("app.sessionEnded"));
  go("#/login");
});

function renderNav() {
  const s = getSession();
  clear(nav);
  if (!s) {
    nav.append(h("a", { href: "#/login", testid: "nav-login" }, t("nav.login")), h("a", { href: "#/verify", testid: "nav-verify" }, t("nav.verify")));
    return;
  }
  nav.append(
    // The pages' links in a row of their own: on a phone, where the longer languages' words
    // outgrow it, that row scrolls sideways and the balance and Log out stay in view.
    h(
      "span",
      { class: "nav-pages" },
      Object.entries(PAGES)
        .filter(([, p]) => p.nav)
        .map(([name, p]) => h("a", { href: `#/${name}`, testid: `nav-${name}` }, t(p.nav))),
    ),
    h(
      "span",
      { class: "who", testid: "user" },
      h("span", { class: "nick", testid: "user-nick", translate: "no" }, s.user?.nick || s.login),
      h(
        "span",
        { class: "bal", title: t("app.balance") },
        h("span", { class: "coin", "aria-hidden": "true" }, "●"),
        h("span", { class: "sr-only" }, t("app.balanceBefore")),
        h("span", { testid: "balance" }, formatCoins(s.user?.balance)),
        h("span", { class: "bal-change", testid: "balance-change", "aria-hidden": "true" }),
      ),
    ),
    h(
      "button",
      {
        type: "button",
        class: "btn btn-ghost btn-small",
        testid: "logout",
        onclick: () => {
          clearSession();
          toast(t("app.loggedOut"), { tone: "info", timeout: 3000 });
          go("#/login");
        },
      },
      t("nav.logout"),
    ),
  );
}

async function route() {
  const gen = ++routeGen;
  const isCurrent = () => gen === routeGen;
  const parts = (location.hash.replace(/^#\/?/, "") || "").split("/").map(decodeURIComponent);
  const [page, arg] = parts;
  const session = getSession();
  leaveTable();
  leaveRoom();
  renderNav();
  // The last page's announcement (a round's result) is not this page's.
  document.getElementById("announcer")?.replaceChildren();
  // A new page: start at the top, and let assistive technology land on the content.
  window.scrollTo(0, 0);
  main.focus({ preventScroll: true });
  const isPublic = page === "login" || page === "strategy" || page === "indices" || (page === "verify" && !arg);
  if (!session && !isPublic) {
    if (page && page !== "login") sessionStorage.setItem("blackjack.after_login", location.hash);
    if (location.hash !== "#/login") {
      location.replace("#/login");
      return;
    }
  }
  if (page === "login") {
    if (session) return go("#/lobby");
    document.title = t("title.page", { page: t("nav.login") });
    return showLogin(main, afterLogin);
  }
  const shown = Object.hasOwn(PAGES, page) ? PAGES[page] : null;
  if (!shown) return go(session ? "#/lobby" : "#/login");
  document.title = t("title.page", { page: shown.title(arg) });
  return shown.show(arg, isCurrent);
}

function afterLogin() {
  const next = sessionStorage.getItem("blackjack.after_login");
  sessionStorage.removeItem("blackjack.after_login");
  go(next && !next.startsWith("#/login") ? next : "#/lobby");
}

window.addEventListener("online", () => updateOfflineBanner());
window.addEventListener("offline", () => updateOfflineBanner());
updateOfflineBanner();

window.addEventListener("hashchange", route);
// Another tab logging out never affects this one (sessionStorage is per tab).
route();
