// A room's live updates (live.js) against a stand-in for the browser's network: fetch
// answers the room and its tickets, WebSocket is a socket the test opens, feeds and
// closes. The clock is node's mock timers: the waits between tries pass at once.

import assert from "node:assert/strict";
import { mock, test } from "node:test";
import { setLanguage } from "./i18n.js";

class Socket {
  static opened = [];
  constructor(url) {
    this.url = url;
    this.closed = false;
    Socket.opened.push(this);
  }
  close() {
    this.closed = true;
  }
}

/** The browser as live.js sees it; returns what the network was asked. */
function browser({ tickets = () => true } = {}) {
  const asked = [];
  let version = 3;
  const store = new Map([["blackjack.session", JSON.stringify({ token: "t", login: "alice1", user: { nick: "alice1" } })]]);
  globalThis.sessionStorage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v), removeItem: (k) => store.delete(k) };
  const listeners = new Map();
  globalThis.window = {
    addEventListener: (name, fn) => listeners.set(name, fn),
    removeEventListener: (name) => listeners.delete(name),
    fire: (name) => listeners.get(name)?.(),
  };
  globalThis.WebSocket = Socket;
  Socket.opened = [];
  globalThis.fetch = async (url, { method }) => {
    asked.push(`${method} ${url}`);
    if (url.endsWith("/live")) {
      if (!tickets()) throw new TypeError("Failed to fetch");
      return new Response(JSON.stringify({ url: `ws://x/live?ticket=${asked.length}`, expires_in: 60 }), { status: 200 });
    }
    return new Response(JSON.stringify({ room_id: "r1", version: version++ }), { status: 200 });
  };
  return asked;
}

/** Lets the promises in flight settle (fetch, JSON) without moving the clock. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise((resolve) => setImmediate(resolve));
};

test("a ticket opens the socket; once open the room is read, then each update is a view", async () => {
  const asked = browser();
  const { watchRoom } = await import("./live.js");
  const views = [];
  const states = [];
  const stop = watchRoom("r1", { onView: (v, personal) => views.push([v.version, personal]), onState: (s) => states.push(s) });
  await settle();
  assert.deepEqual(asked, ["POST /v1/rooms/r1/live"]);
  const socket = Socket.opened[0];
  assert.match(socket.url, /^ws:\/\/x\/live\?ticket=/);
  socket.onopen();
  await settle();
  assert.deepEqual(states, ["connecting", "live"]);
  assert.deepEqual(asked.at(-1), "GET /v1/rooms/r1");
  socket.onmessage({ data: JSON.stringify({ type: "room", room: { room_id: "r1", version: 9 } }) });
  socket.onmessage({ data: "not json" });
  socket.onmessage({ data: JSON.stringify({ type: "other" }) });
  assert.deepEqual(views, [
    [3, true],
    [9, false],
  ]);
  stop();
  assert.equal(socket.closed, true);
});

test("a closed socket says offline, reads the room, then a new ticket opens another; the waits grow", async () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    let ticketsServed = true;
    const asked = browser({ tickets: () => ticketsServed });
    const { watchRoom } = await import("./live.js");
    const states = [];
    const stop = watchRoom("r1", { onView: () => {}, onState: (s) => states.push(s) });
    await settle();
    Socket.opened[0].onopen();
    await settle();
    ticketsServed = false;
    Socket.opened[0].onclose();
    assert.equal(states.at(-1), "offline");
    asked.length = 0;
    mock.timers.tick(1000); // the first wait: 1 s
    await settle();
    // the room read first, then the ticket, which fails (and is tried again by api.js)
    assert.equal(asked[0], "GET /v1/rooms/r1");
    assert.ok(asked.includes("POST /v1/rooms/r1/live"));
    for (let i = 0; i < 4; i++) {
      mock.timers.tick(1000);
      await settle();
    }
    assert.equal(Socket.opened.length, 1);
    ticketsServed = true;
    window.fire("online"); // back online: tried at once, or at the try under way
    for (let i = 0; i < 4; i++) {
      mock.timers.tick(1000);
      await settle();
    }
    assert.equal(Socket.opened.length, 2);
    Socket.opened[1].onopen();
    assert.equal(states.at(-1), "live");
    stop();
  } finally {
    mock.timers.reset();
  }
});

test("the socket's state and its changes in words, in English, Russian and Croatian", async () => {
  browser();
  const { liveChangeSentence, liveStateWords } = await import("./live.js");
  const said = () => [
    ["connecting", "live", "offline"].map(liveStateWords),
    [liveChangeSentence("live", "offline"), liveChangeSentence("offline", "live"), liveChangeSentence("connecting", "live")],
  ];
  assert.deepEqual(said(), [
    ["Connecting…", "Live", "Offline: reconnecting…"],
    ["Connection lost: reconnecting.", "Back online.", null],
  ]);
  try {
    setLanguage("ru");
    assert.deepEqual(said(), [
      ["Подключение…", "В сети", "Нет связи: переподключение…"],
      ["Связь потеряна: переподключаемся.", "Связь восстановлена.", null],
    ]);
    setLanguage("hr");
    assert.deepEqual(said(), [
      ["Povezivanje…", "Uživo", "Izvan mreže: ponovno povezivanje…"],
      ["Veza je prekinuta: ponovno povezivanje.", "Veza je ponovno uspostavljena.", null],
    ]);
  } finally {
    setLanguage("en");
  }
});
