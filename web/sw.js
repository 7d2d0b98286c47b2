// The service worker: the client's own offline screen, and its static files by version.
//
// - A page (a navigation) comes from the network, so a new deploy is seen at once; with
//   no network, the offline screen (offline.html) answers instead, and retries.
// - The other static files come from the network too and are kept in this version's
//   cache; a file the network cannot give comes from there. The offline screen's own
//   files are cached when the worker installs, so it shows on the first offline visit.
// - The API (/v1/…, `Cache-Control: no-store`), other origins and anything but GET never
//   reach the cache: the worker leaves them to the browser.
// Changing VERSION (with the offline screen's files) installs a new worker, which drops
// the caches of every other version once it takes over.
const VERSION = "2";
const CACHE = `blackjack-static-v${VERSION}`;
const OFFLINE_PAGE = "offline.html";
// The offline screen's own files, and what its module imports: the catalogs speak the player's language.
const OFFLINE_FILES = [
  OFFLINE_PAGE,
  "css/offline.css",
  "js/offline.js",
  "js/i18n.js",
  "i18n/en.js",
  "i18n/ru.js",
  "i18n/hr.js",
  "icons/icon.svg",
  "manifest.webmanifest",
];
const API = new URL("v1/", self.registration.scope).pathname;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(OFFLINE_FILES.map((file) => new Request(file, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith("blackjack-static-") && name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith(API)) return;
  event.respondWith(request.mode === "navigate" ? page(request) : staticFile(request));
});

async function page(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const offline = await caches.match(OFFLINE_PAGE, { cacheName: CACHE });
    if (offline) return offline;
    throw error;
  }
}

async function staticFile(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(request, { ignoreSearch: true });
    if (kept) return kept;
    throw error;
  }
}
