// Entry point: hash router, header navigation, session handling.
import { clearSession, getSession, setUnauthorizedHandler } from "./api.js";
import { clear, h } from "./dom.js";
import { showHistory } from "./history.js";
import { showLobby } from "./lobby.js";
import { showLogin } from "./login.js";
import { showStrategy } from "./strategy.js";
import { leaveTable, showTable } from "./table.js";
import { go, toast } from "./ui.js";
import { showVerify } from "./verify.js";
import { formatCoins } from "./view.js";

const main = document.getElementById("main");
const nav = document.getElementById("nav");
let routeGen = 0;

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
    h("a", { href: "#/lobby", testid: "nav-lobby" }, "Tables"),
    h("a", { href: "#/history", testid: "nav-history" }, "History"),
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
  renderNav();
  // A new page: start at the top, and let assistive technology land on the content.
  window.scrollTo(0, 0);
  main.focus({ preventScroll: true });
  const isPublic = page === "login" || page === "strategy" || (page === "verify" && !arg);
  if (!session && !isPublic) {
    if (page && page !== "login") sessionStorage.setItem("blackjack.after_login", location.hash);
    if (location.hash !== "#/login") {
      location.replace("#/login");
      return;
    }
  }
  document.title = "Blackjack";
  switch (page) {
    case "login":
      if (session) return go("#/lobby");
      document.title = "Log in · Blackjack";
      return showLogin(main, () => {
        const next = sessionStorage.getItem("blackjack.after_login");
        sessionStorage.removeItem("blackjack.after_login");
        go(next && !next.startsWith("#/login") ? next : "#/lobby");
      });
    case "table":
      document.title = `${arg} · Blackjack`;
      return showTable(main, arg, isCurrent);
    case "history":
      document.title = "History · Blackjack";
      return showHistory(main, isCurrent);
    case "strategy":
      document.title = `Strategy · ${arg} · Blackjack`;
      return showStrategy(main, arg, isCurrent);
    case "verify":
      document.title = "Verify · Blackjack";
      return showVerify(main, arg, isCurrent);
    case "lobby":
      document.title = "Tables · Blackjack";
      return showLobby(main, isCurrent);
    default:
      return go(session ? "#/lobby" : "#/login");
  }
}

const banner = document.getElementById("banner");
function showConnectivity() {
  banner.hidden = navigator.onLine;
  banner.textContent = navigator.onLine ? "" : "You are offline: actions will be sent again when you retry.";
}
window.addEventListener("online", showConnectivity);
window.addEventListener("offline", showConnectivity);
showConnectivity();

window.addEventListener("hashchange", route);
// Another tab logging out never affects this one (sessionStorage is per tab).
route();
