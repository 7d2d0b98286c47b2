// Entry point: hash router, header navigation, session handling.
import { clearSession, getSession, setUnauthorizedHandler } from "./api.js";
import { showCounting } from "./counting.js";
import { clear, h } from "./dom.js";
import { showDrills } from "./drills.js";
import { formatCoins } from "./format.js";
import { showHistory } from "./history.js";
import { currentLanguage } from "./i18n.js";
import { showIndices } from "./indices.js";
import { showLobby } from "./lobby.js";
import { showLogin } from "./login.js";
import { leaveRoom, showRoom } from "./room.js";
import { showStrategy } from "./strategy.js";
import { leaveTable, showTable } from "./table.js";
import { showTrainer } from "./trainer.js";
import { go, toast, updateOfflineBanner } from "./ui.js";
import { showVerify } from "./verify.js";

document.documentElement.lang = currentLanguage();
const main = document.getElementById("main");
const nav = document.getElementById("nav");
let routeGen = 0;

// The pages after the login, by the hash's first part; `nav` puts a page in the header.
// A new page is a module and one line here.
const PAGES = {
  lobby: { nav: "Tables", title: () => "Tables", show: (_, isCurrent) => showLobby(main, isCurrent) },
  history: { nav: "History", title: () => "History", show: (_, isCurrent) => showHistory(main, isCurrent) },
  trainer: { nav: "Trainer", title: () => "Trainer", show: (id, isCurrent) => showTrainer(main, id, isCurrent) },
  drills: { nav: "Drills", title: () => "Drills", show: (_, isCurrent) => showDrills(main, isCurrent) },
  counting: { nav: "Count", title: () => "Count", show: (_, isCurrent) => showCounting(main, isCurrent) },
  table: { title: (id) => id, show: (id, isCurrent) => showTable(main, id, isCurrent) },
  room: { title: () => "Shared table", show: (id, isCurrent) => showRoom(main, id, isCurrent) },
  strategy: { title: (id) => `Strategy · ${id}`, show: (id, isCurrent) => showStrategy(main, id, isCurrent) },
  indices: { title: (id) => `Index plays · ${id}`, show: (id, isCurrent) => showIndices(main, id, isCurrent) },
  verify: { title: () => "Verify", show: (shoeId, isCurrent) => showVerify(main, shoeId, isCurrent) },
};

setUnauthorizedHandler(() => {
  clearSession();
  if (location.hash && !location.hash.startsWith("#/login")) sessionStorage.setItem("blackjack.after_login", location.hash);
  toast("Please log in (your session ended).");
  go("#/login");
});

function renderNav() {
  const s = getSession();
  clear(nav);
  if (!s) {
    nav.append(h("a", { href: "#/login", testid: "nav-login" }, "Log in"), h("a", { href: "#/verify", testid: "nav-verify" }, "Verify"));
    return;
  }
  nav.append(
    ...Object.entries(PAGES)
      .filter(([, p]) => p.nav)
      .map(([name, p]) => h("a", { href: `#/${name}`, testid: `nav-${name}` }, p.nav)),
    h(
      "span",
      { class: "who", testid: "user" },
      h("span", { class: "nick", testid: "user-nick" }, s.user?.nick || s.login),
      h(
        "span",
        { class: "bal", title: "Balance" },
        h("span", { class: "coin", "aria-hidden": "true" }, "●"),
        h("span", { class: "sr-only" }, "Balance: "),
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
          toast("Logged out.", { tone: "info", timeout: 3000 });
          go("#/login");
        },
      },
      "Log out",
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
    document.title = "Log in · Blackjack";
    return showLogin(main, afterLogin);
  }
  const shown = Object.hasOwn(PAGES, page) ? PAGES[page] : null;
  if (!shown) return go(session ? "#/lobby" : "#/login");
  document.title = `${shown.title(arg)} · Blackjack`;
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
