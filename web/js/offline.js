// The offline screen, which the service worker gives in place of a page the network could
// not. It asks again when the browser says the network is back, every few seconds anyway
// (a server that is down looks online) and on the button; once the page answers, it
// loads it. A HEAD request is never answered by the service worker, only by the network.
const RETRY_MS = 4000;
const status = document.querySelector("[data-testid=offline-status]");
const retry = document.querySelector("[data-testid=offline-retry]");
let timer = 0;

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
  status.textContent = "Trying again…";
  if (await reachable()) {
    status.textContent = "Back online: loading the game…";
    location.reload();
    return;
  }
  retry.disabled = false;
  status.textContent = navigator.onLine ? "The game cannot be reached yet. Trying again shortly…" : "Waiting for the network…";
  timer = setTimeout(tryAgain, RETRY_MS);
}

retry.addEventListener("click", tryAgain);
window.addEventListener("online", tryAgain);
timer = setTimeout(tryAgain, RETRY_MS);
