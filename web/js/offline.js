// The offline screen, which the service worker gives in place of a page the network could
// not. It asks again when the browser says the network is back, every few seconds anyway
// (a server that is down looks online) and on the button; once the page answers, it
// loads it. A HEAD request is never answered by the service worker, only by the network.
import { currentLanguage, t } from "./i18n.js";

const RETRY_MS = 4000;
const status = document.querySelector("[data-testid=offline-status]");
const retry = document.querySelector("[data-testid=offline-retry]");
let timer = 0;

// The page is written in English (for a browser without scripts): its words in the player's.
document.documentElement.lang = currentLanguage();
document.title = t("offline.pageTitle");
document.querySelector("h1").textContent = t("offline.title");
document.querySelector(".offline-text").textContent = t("offline.text");
status.textContent = t("offline.waiting");
retry.textContent = t("offline.retry");

async function reachable() {
  try {
    return (await fetch(location.href, { method: "HEAD", cache: "no-store" })).ok;
  } catch {
    return false;
  }
}

async function tryAgain() {
  clearTimeout(timer);
  retry.disabled = true;
  status.textContent = t("offline.trying");
  if (await reachable()) {
    status.textContent = t("offline.back");
    location.reload();
    return;
  }
  retry.disabled = false;
  status.textContent = t(navigator.onLine ? "offline.unreachable" : "offline.waiting");
  timer = setTimeout(tryAgain, RETRY_MS);
}

retry.addEventListener("click", tryAgain);
window.addEventListener("online", tryAgain);
timer = setTimeout(tryAgain, RETRY_MS);
