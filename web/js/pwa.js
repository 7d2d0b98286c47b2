// The installable client: the service worker (sw.js) gives the offline screen when there
// is no network and keeps this version's static files. The manifest is linked in index.html.
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("sw.js").catch((error) => console.warn("No offline screen:", error));
  });
}
