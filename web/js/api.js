// @ts-check
// REST client for API.md: same-origin by default, base overridable by window.BLACKJACK_CONFIG.apiBase.
// Session (token + user) lives in sessionStorage so each browser tab is its own player.
// `make lint` type-checks this module against openapi-typescript's types of the OpenAPI
// document (`make openapi-types` writes them), so a change of the contract that the client
// does not follow fails there.

/** @typedef {import("../../clients/typescript/api").components["schemas"]} Schemas */
/** @typedef {import("../../clients/typescript/api").operations} Operations */
/** @typedef {Schemas["Problem"]} Problem */
/** @typedef {Schemas["User"]} User */
/** @typedef {Schemas["Table"]} Table */
/** @typedef {Schemas["Round"]} Round */
/** @typedef {Schemas["StartRoundRequest"]} StartRoundRequest */
/** @typedef {Schemas["ActionRequest"]} ActionRequest */
/** @typedef {{ token: string, login: string, user: User, expiresAt: number | null }} StoredSession */
/** @typedef {Schemas["Room"]} RoomView */
/** @typedef {Window & { BLACKJACK_CONFIG?: { apiBase?: string } }} ConfiguredWindow */

const SESSION_KEY = "blackjack.session";

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {Partial<Problem> | null} problem
   * @param {{ network?: boolean, retryAfter?: string | null }} [options]
   */
  constructor(status, problem, { network = false, retryAfter = null } = {}) {
    /** @type {Partial<Problem>} */
    const p = problem || {};
    super(p.detail || p.title || (network ? "Network error: the server could not be reached." : `HTTP ${status}`));
    this.status = status;
    this.code = p.code || (network ? "network_error" : null);
    this.title = p.title || null;
    this.detail = p.detail || null;
    this.problem = p;
    this.network = network;
    this.retryAfter = retryAfter;
  }
}

export function apiBase() {
  const cfg = (typeof window !== "undefined" && /** @type {ConfiguredWindow} */ (window).BLACKJACK_CONFIG) || {};
  return String(cfg.apiBase || "").replace(/\/+$/, "");
}

export function newKey() {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === "function") return c.randomUUID();
  const b = new Uint8Array(16);
  c.getRandomValues(b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// ---- session -------------------------------------------------------------
/** @returns {StoredSession | null} */
export function getSession() {
  try {
    const s = JSON.parse(sessionStorage.getItem(SESSION_KEY) || "null");
    if (!s?.token) return null;
    if (s.expiresAt && Date.now() > s.expiresAt) {
      sessionStorage.removeItem(SESSION_KEY);
      return null;
    }
    return s;
  } catch {
    return null;
  }
}
/** @param {StoredSession} s */
export function saveSession(s) {
  sessionStorage.setItem(SESSION_KEY, JSON.stringify(s));
}
export function clearSession() {
  sessionStorage.removeItem(SESSION_KEY);
}
/** @param {Partial<User>} patch */
export function updateSessionUser(patch) {
  const s = getSession();
  if (s) saveSession({ ...s, user: { ...s.user, ...patch } });
}

// ---- transport -----------------------------------------------------------
/** @type {(error: ApiError) => void} */
let onUnauthorized = () => {};
/** @param {(error: ApiError) => void} fn */
export function setUnauthorizedHandler(fn) {
  onUnauthorized = fn;
}

// The key of the last POST that failed on the network, so a retry of the very same
// request (same route, body, If-Match) reuses it and can never be applied twice.
/** @type {{ signature: string, key: string } | null} */
let pendingRetry = null;

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * request("POST", "/v1/...", {body, auth, ifMatch}) -> parsed JSON (or null).
 * Throws ApiError with the problem document. Network errors are retried (twice)
 * with the same Idempotency-Key. T is the answer's schema (the endpoints below name it).
 * @template T
 * @param {"GET" | "POST" | "DELETE"} method
 * @param {string} path
 * @param {{ body?: object, auth?: boolean, ifMatch?: number | null, retries?: number }} [options]
 * @returns {Promise<T>}
 */
export async function request(method, path, { body, auth = true, ifMatch = null, retries = 2 } = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  // Read only where auth is on, and then a missing session has thrown first.
  const session = /** @type {StoredSession} */ (getSession());
  if (auth) {
    if (!session) {
      onUnauthorized(new ApiError(401, { title: "Please log in", code: "unauthorized", status: 401 }));
      throw new ApiError(401, { title: "Please log in.", code: "unauthorized", status: 401 });
    }
    headers.Authorization = `Bearer ${session.token}`;
  }
  let payload;
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  if (ifMatch !== null && ifMatch !== undefined) headers["If-Match"] = `"${ifMatch}"`;
  let signature = null;
  if (method === "POST" && auth) {
    signature = `${session.login || session.user?.login}|${path}|${payload}|${headers["If-Match"] || ""}`;
    const key = pendingRetry && pendingRetry.signature === signature ? pendingRetry.key : newKey();
    headers["Idempotency-Key"] = key;
  }
  const url = apiBase() + path;
  let attempt = 0;
  for (;;) {
    let res;
    try {
      res = await fetch(url, { method, headers, body: payload, credentials: "omit", cache: "no-store" });
    } catch (_e) {
      if (attempt < retries) {
        attempt++;
        await sleep(400 * attempt);
        continue;
      }
      if (signature) pendingRetry = { signature, key: headers["Idempotency-Key"] };
      throw new ApiError(0, null, { network: true });
    }
    if (signature && pendingRetry && pendingRetry.signature === signature) pendingRetry = null;
    const text = await res.text();
    let data = null;
    if (text) {
      try {
        data = JSON.parse(text);
      } catch {
        data = null;
      }
    }
    if (res.ok) return data;
    const problem = data && typeof data === "object" ? data : { title: res.statusText || `HTTP ${res.status}`, status: res.status };
    const err = new ApiError(res.status, problem, { retryAfter: res.headers.get("Retry-After") });
    if (res.status === 401 && auth) {
      clearSession();
      onUnauthorized(err);
    }
    throw err;
  }
}

// ---- endpoints -----------------------------------------------------------
const enc = encodeURIComponent;
export const api = {
  /**
   * @param {string} login
   * @param {string} nick
   * @param {string} password
   * @returns {Promise<User>}
   */
  register: (login, nick, password) =>
    request("POST", "/v1/users", { body: /** @satisfies {Schemas["RegisterRequest"]} */ ({ login, nick, password }), auth: false }),
  /**
   * @param {string} login
   * @param {string} password
   * @returns {Promise<Schemas["Session"]>}
   */
  login: (login, password) => request("POST", "/v1/sessions", { body: /** @satisfies {Schemas["SessionRequest"]} */ ({ login, password }), auth: false }),
  /** @returns {Promise<Schemas["Me"]>} */
  me: () => request("GET", "/v1/me"),
  /** @returns {Promise<Schemas["Tables"]>} */
  tables: () => request("GET", "/v1/tables", { auth: false }),
  /**
   * @param {string} id
   * @returns {Promise<Schemas["Seat"]>}
   */
  table: (id) => request("GET", `/v1/tables/${enc(id)}`),
  /**
   * @param {string} id
   * @param {StartRoundRequest} body
   * @returns {Promise<Round>}
   */
  deal: (id, body) => request("POST", `/v1/tables/${enc(id)}/rounds`, { body }),
  /**
   * @param {string} id
   * @param {ActionRequest["action"]} action
   * @param {number} version
   * @param {Schemas["InsuranceRequest"]["amount"]} [amount] insurance's stake (no other action takes one)
   * @returns {Promise<Round>}
   */
  act: (id, action, version, amount) =>
    request("POST", `/v1/tables/${enc(id)}/round/actions`, {
      body: /** @satisfies {ActionRequest} */ (amount === undefined || amount === null ? { action } : { action, amount }),
      ifMatch: version,
    }),
  /**
   * Between rounds only: while a round is in play it is 409 `round_in_progress`.
   * @param {string} id
   * @returns {Promise<Schemas["Edge"]>}
   */
  edge: (id) => request("GET", `/v1/tables/${enc(id)}/edge`),
  /**
   * @param {string} id
   * @param {Schemas["Hint"]["level"]} [level]
   * @returns {Promise<Schemas["Hint"]>}
   */
  hint: (id, level = "hard") => request("GET", `/v1/tables/${enc(id)}/round/hint?level=${enc(level)}`),
  /**
   * @param {string} id
   * @returns {Promise<Schemas["StrategyCard"]>}
   */
  strategy: (id) => request("GET", `/v1/tables/${enc(id)}/strategy`, { auth: false }),
  /**
   * @param {string} id
   * @returns {Promise<Schemas["Indices"]>}
   */
  indices: (id) => request("GET", `/v1/tables/${enc(id)}/indices`, { auth: false }),
  /**
   * @param {string} id
   * @param {NonNullable<Operations["drill"]["parameters"]["query"]>["section"]} [section]
   * @returns {Promise<Schemas["Drill"]>}
   */
  drillNext: (id, section = "any") => request("GET", `/v1/tables/${enc(id)}/drills/next?section=${enc(section)}`),
  /**
   * @param {string} id
   * @param {Schemas["DrillAnswerRequest"]} body
   * @returns {Promise<Schemas["DrillAnswer"]>}
   */
  drillAnswer: (id, body) => request("POST", `/v1/tables/${enc(id)}/drills`, { body }),
  /**
   * @param {string} id
   * @returns {Promise<Schemas["Drills"]>}
   */
  drills: (id) => request("GET", `/v1/tables/${enc(id)}/drills`),
  /**
   * @param {NonNullable<Operations["history"]["parameters"]["query"]>} [query]
   * @returns {Promise<Schemas["History"]>}
   */
  rounds: ({ table, limit = 20, cursor } = {}) => {
    const q = new URLSearchParams();
    if (table) q.set("table", table);
    if (limit) q.set("limit", String(limit));
    if (cursor) q.set("cursor", cursor);
    return request("GET", `/v1/rounds?${q}`);
  },
  /**
   * @param {string} id
   * @returns {Promise<Round>}
   */
  round: (id) => request("GET", `/v1/rounds/${enc(id)}`),
  /**
   * @param {string} id
   * @returns {Promise<Schemas["Shoe"]>}
   */
  shoe: (id) => request("GET", `/v1/shoes/${enc(id)}`),
  /**
   * The rooms with a free box and somebody seated, the most recently active first.
   * @param {string} [table]
   * @returns {Promise<Schemas["Rooms"]>}
   */
  rooms: (table) => request("GET", `/v1/rooms${table ? `?table=${enc(table)}` : ""}`),
  /**
   * @param {Schemas["CreateRoomRequest"]} body
   * @returns {Promise<RoomView>}
   */
  makeRoom: (body) => request("POST", "/v1/rooms", { body }),
  /**
   * @param {string} id
   * @returns {Promise<RoomView>}
   */
  room: (id) => request("GET", `/v1/rooms/${enc(id)}`),
  /**
   * @param {string} id
   * @param {number[]} boxes
   * @returns {Promise<RoomView>}
   */
  takeBoxes: (id, boxes) => request("POST", `/v1/rooms/${enc(id)}/seats`, { body: /** @satisfies {Schemas["SeatsRequest"]} */ ({ boxes }) }),
  /**
   * @param {string} id
   * @returns {Promise<RoomView>}
   */
  leaveRoom: (id) => request("DELETE", `/v1/rooms/${enc(id)}/seats`),
  /**
   * The caller's bets for the next round (none: a pass).
   * @param {string} id
   * @param {Schemas["Bet"][]} bets
   * @param {string} [clientSeed]
   * @returns {Promise<RoomView>}
   */
  betInRoom: (id, bets, clientSeed) =>
    request("POST", `/v1/rooms/${enc(id)}/bets`, {
      body: /** @satisfies {Schemas["RoomBetRequest"]} */ (clientSeed ? { bets, client_seed: clientSeed } : { bets }),
    }),
  /**
   * @param {string} id
   * @param {ActionRequest["action"]} action
   * @param {number} version the room's
   * @param {Schemas["InsuranceRequest"]["amount"]} [amount]
   * @returns {Promise<RoomView>}
   */
  actInRoom: (id, action, version, amount) =>
    request("POST", `/v1/rooms/${enc(id)}/actions`, {
      body: /** @satisfies {ActionRequest} */ (amount === undefined || amount === null ? { action } : { action, amount }),
      ifMatch: version,
    }),
  /**
   * @param {string} id
   * @param {Schemas["Hint"]["level"]} [level]
   * @returns {Promise<Schemas["Hint"]>}
   */
  roomHint: (id, level = "hard") => request("GET", `/v1/rooms/${enc(id)}/hint?level=${enc(level)}`),
  /**
   * A WebSocket address with a single-use ticket for the room's live updates.
   * @param {string} id
   * @returns {Promise<Schemas["LiveTicket"]>}
   */
  roomLive: (id) => request("POST", `/v1/rooms/${enc(id)}/live`, { body: /** @satisfies {Schemas["LiveRequest"]} */ ({}) }),
};

// ---- the tables, fetched once per tab -------------------------------------
/** @type {Table[] | null} */
let tablesCache = null;
export async function loadTables() {
  if (tablesCache) return tablesCache;
  const res = await api.tables();
  tablesCache = res.tables || [];
  return tablesCache;
}
/** @param {Table[]} tables */
export function primeTables(tables) {
  if (Array.isArray(tables) && tables.length) tablesCache = tables;
}
