// A room's live updates (API.md, "Shared tables (rooms)"): a WebSocket opened with the
// single-use ticket of POST …/live, each text frame `{"type": "room", "room": view}`. When
// it closes it comes back by itself: the room is read again (GET), then a new ticket opens
// a new socket, after a wait that grows with each failure; the browser coming back online
// tries at once.
import { api } from "./api.js";
import { t } from "./i18n.js";
import { retryDelay } from "./roomview.js";

/** The socket's state in words: "connecting", "live" or "offline". */
export const liveStateWords = (state) => t(`live.state.${state}`);

/** What the page says when the socket's state goes from `was` to `now`, or null: lost, or back. */
export function liveChangeSentence(was, now) {
  if (now === "offline" && was !== "offline") return t("live.lost");
  if (now === "live" && was === "offline") return t("live.back");
  return null;
}

/**
 * Watches room `id`: `onView(view, personal)` for every view (the socket's are public, a
 * GET's the caller's own), `onState(state)` with "connecting", "live" or "offline".
 * Returns a function that stops watching.
 */
export function watchRoom(id, { onView, onState }) {
  let socket = null;
  let timer = null;
  let failures = 0;
  let stopped = false;

  const read = () =>
    api.room(id).then(
      (view) => !stopped && onView(view, true),
      () => {},
    );

  async function open() {
    clearTimeout(timer);
    timer = null;
    if (stopped || socket) return;
    onState(failures ? "offline" : "connecting");
    try {
      if (failures) await read();
      const { url } = await api.roomLive(id);
      if (stopped) return;
      socket = new WebSocket(url);
    } catch {
      return retry();
    }
    const mine = socket;
    mine.onopen = () => {
      failures = 0;
      onState("live");
      read(); // what changed between the last view and the socket's first update
    };
    mine.onmessage = (event) => {
      let message = null;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message?.type === "room" && message.room) onView(message.room, false);
    };
    mine.onclose = () => {
      if (socket !== mine) return;
      socket = null;
      retry();
    };
  }

  function retry() {
    if (stopped) return;
    failures++;
    onState("offline");
    timer = setTimeout(open, retryDelay(failures));
  }

  const online = () => {
    if (!socket && timer) open();
  };
  window.addEventListener("online", online);
  open();

  return () => {
    stopped = true;
    clearTimeout(timer);
    window.removeEventListener("online", online);
    const closing = socket;
    socket = null;
    closing?.close();
  };
}
