// Login/register, lobby, history + stats, strategy card, shoe verifier.
import { api, saveSession } from "./api.js";
import { h, card, clear } from "./dom.js";
import { toast, reportError, errorText, setBalance } from "./ui.js";
import { ruleSentences, tableSummary } from "./rules.js";
import {
  formatCoins, formatSigned, formatEv, credentialError, handTotalLabel, dealerTotalLabel, resultLabel, resultTone,
  UP_CARDS, chartRowKeys, chartRowLabel, CHART_LETTER, rowHandEvs, ACTION_LABEL,
} from "./view.js";
import { verifyShoe, shuffleShoe, serverSeedHash } from "./fairness.js";

let tablesCache = null;
async function loadTables() {
  if (tablesCache) return tablesCache;
  const res = await api.tables();
  tablesCache = res.tables || [];
  return tablesCache;
}
export function primeTables(tables) {
  if (Array.isArray(tables) && tables.length) tablesCache = tables;
}

function field(label, input, hintText) {
  return h("label", { class: "field" }, h("span", {}, label), input, hintText ? h("span", { class: "field-hint" }, hintText) : null);
}

// ------------------------------------------------------------------ auth
export function showLogin(main, onLoggedIn) {
  clear(main);
  const errLogin = h("p", { class: "form-error", testid: "login-error", role: "alert" });
  const errReg = h("p", { class: "form-error", testid: "register-error", role: "alert" });
  const credHint = "4–32 letters and digits";
  const mk = (testid, type, autocomplete) =>
    h("input", { type, testid, required: true, minlength: "4", maxlength: "32", pattern: "[A-Za-z0-9]{4,32}", autocomplete, autocapitalize: "off", spellcheck: "false" });
  const lLogin = mk("login-login", "text", "username");
  const lPass = mk("login-password", "password", "current-password");
  const rLogin = mk("register-login", "text", "username");
  const rNick = mk("register-nick", "text", "nickname");
  const rPass = mk("register-password", "password", "new-password");

  async function doLogin(login, password, errEl, btn) {
    btn.disabled = true;
    try {
      const res = await api.login(login, password);
      saveSession({ token: res.token, login: res.user.login, user: res.user, expiresAt: res.expires_in ? Date.now() + res.expires_in * 1000 - 5000 : null });
      primeTables(res.tables);
      onLoggedIn();
    } catch (e) {
      errEl.textContent = errorText(e);
    } finally {
      btn.disabled = false;
    }
  }

  const loginBtn = h("button", { type: "submit", class: "btn btn-primary", testid: "login-submit" }, "Log in");
  const loginForm = h(
    "form",
    {
      class: "panel auth-form", testid: "login-form", "aria-labelledby": "login-title", novalidate: true,
      onsubmit: (e) => {
        e.preventDefault();
        const err = credentialError("Login", lLogin.value) || (lPass.value ? null : "Password is required.");
        errLogin.textContent = err || "";
        if (!err) doLogin(lLogin.value, lPass.value, errLogin, loginBtn);
      },
    },
    h("h1", { id: "login-title" }, "Log in"),
    field("Login", lLogin),
    field("Password", lPass),
    errLogin,
    loginBtn,
  );
  const regBtn = h("button", { type: "submit", class: "btn", testid: "register-submit" }, "Create account");
  const regForm = h(
    "form",
    {
      class: "panel auth-form", testid: "register-form", "aria-labelledby": "register-title", novalidate: true,
      onsubmit: async (e) => {
        e.preventDefault();
        const err = credentialError("Login", rLogin.value) || credentialError("Nick", rNick.value) || credentialError("Password", rPass.value);
        errReg.textContent = err || "";
        if (err) return;
        regBtn.disabled = true;
        try {
          await api.register(rLogin.value, rNick.value, rPass.value);
          toast(`Welcome, ${rNick.value}! You start with 10,000 coins.`, { tone: "info" });
          await doLogin(rLogin.value, rPass.value, errReg, regBtn);
        } catch (e2) {
          errReg.textContent = errorText(e2);
        } finally {
          regBtn.disabled = false;
        }
      },
    },
    h("h2", { id: "register-title" }, "New here? Register"),
    field("Login", rLogin, credHint),
    field("Nick", rNick, credHint),
    field("Password", rPass, credHint),
    errReg,
    regBtn,
  );
  main.appendChild(
    h(
      "section",
      { class: "auth" },
      h("p", { class: "tagline" }, "Four tables, honest shoes you can verify, and a coach at your side. Coins are virtual."),
      h("div", { class: "auth-grid" }, loginForm, regForm),
      h("p", { class: "muted small" }, "Each browser tab keeps its own login, so you can play several accounts side by side."),
    ),
  );
  lLogin.focus();
}

// ------------------------------------------------------------------ lobby
export async function showLobby(main, isCurrent) {
  clear(main).appendChild(h("p", { class: "loading" }, "Loading tables…"));
  let tables;
  try {
    tables = await loadTables();
  } catch (e) {
    if (!isCurrent()) return;
    clear(main).appendChild(h("p", { class: "panel", testid: "lobby-error" }, `Tables are not available: ${errorText(e)}`));
    return;
  }
  if (!isCurrent()) return;
  clear(main).appendChild(
    h(
      "section",
      { class: "lobby", "aria-labelledby": "lobby-title" },
      h("h1", { id: "lobby-title" }, "Choose a table"),
      h(
        "ul",
        { class: "table-list", testid: "table-list" },
        tables.map((t) =>
          h(
            "li",
            { class: "table-card", testid: `table-card-${t.id}` },
            h("h2", {}, t.name || t.id),
            t.description ? h("p", { class: "desc" }, t.description) : null,
            h("p", { class: "limits", testid: `table-limits-${t.id}` }, tableSummary(t)),
            h("details", {}, h("summary", {}, "Rules in plain words"), h("ul", { class: "rule-list", testid: `table-rules-${t.id}` }, ruleSentences(t).map((s) => h("li", {}, s)))),
            h(
              "div",
              { class: "card-actions" },
              h("a", { class: "btn btn-primary", href: `#/table/${encodeURIComponent(t.id)}`, testid: `table-link-${t.id}` }, "Play"),
              h("a", { class: "btn btn-ghost", href: `#/strategy/${encodeURIComponent(t.id)}`, testid: `strategy-link-${t.id}` }, "Strategy card"),
            ),
          ),
        ),
      ),
    ),
  );
}

// ------------------------------------------------------------------ history + stats
function miniRound(r, tablesById) {
  const name = tablesById[r.table]?.name || r.table;
  const user = (r.boxes || []).filter((b) => b.player === "user");
  return h(
    "li",
    { class: "history-item", testid: "history-item", dataset: { roundId: r.round_id } },
    h(
      "div",
      { class: "hi-head" },
      h("strong", {}, name),
      h("span", { class: `net ${r.net > 0 ? "pos" : r.net < 0 ? "neg" : ""}`, testid: "history-net" }, formatSigned(r.net)),
    ),
    h(
      "div",
      { class: "hi-body" },
      h("div", { class: "hi-dealer" }, h("span", { class: "muted small" }, `Dealer ${dealerTotalLabel(r.dealer)}`), h("div", { class: "cards" }, (r.dealer?.cards || []).map((c) => card(c, { small: true })))),
      user.map((b) =>
        b.hands.map((hd) =>
          h(
            "div",
            { class: "hi-hand" },
            h("span", { class: "muted small" }, `Box ${b.box + 1} · ${handTotalLabel(hd)} · bet ${formatCoins(hd.bet)}`),
            h("div", { class: "cards" }, hd.cards.map((c) => card(c, { small: true }))),
            hd.result ? h("span", { class: `result result-${resultTone(hd.result)}` }, resultLabel(hd)) : null,
          ),
        ),
      ),
    ),
    h("a", { href: `#/verify/${encodeURIComponent(r.shoe_id)}`, class: "btn btn-ghost btn-small", testid: "history-verify" }, "Verify shoe"),
  );
}

export async function showHistory(main, isCurrent) {
  clear(main);
  const statsBox = h("section", { class: "panel stats", testid: "stats", "aria-labelledby": "stats-title" }, h("h2", { id: "stats-title" }, "Your statistics"), h("p", { class: "loading" }, "Loading…"));
  const list = h("ul", { class: "history-list", testid: "history-list", "aria-live": "polite" });
  const more = h("button", { type: "button", class: "btn", testid: "history-more", hidden: true }, "Load more");
  const empty = h("p", { class: "muted", testid: "history-empty", hidden: true }, "No settled rounds yet.");
  let tables = [];
  try {
    tables = await loadTables();
  } catch {
    tables = [];
  }
  if (!isCurrent()) return;
  const byId = Object.fromEntries(tables.map((t) => [t.id, t]));
  const filter = h(
    "select",
    { testid: "history-table", onchange: () => reload() },
    h("option", { value: "" }, "All tables"),
    tables.map((t) => h("option", { value: t.id }, t.name || t.id)),
  );
  main.appendChild(
    h(
      "div",
      { class: "history-page" },
      statsBox,
      h(
        "section",
        { class: "panel", "aria-labelledby": "history-title" },
        h("div", { class: "history-head" }, h("h2", { id: "history-title" }, "Last rounds"), h("label", { class: "inline-field" }, "Table ", filter)),
        list,
        empty,
        more,
      ),
    ),
  );

  api.me().then(
    (me) => {
      if (!isCurrent()) return;
      setBalance(me.balance);
      const s = me.stats || {};
      clear(statsBox).append(
        h("h2", { id: "stats-title" }, `Your statistics, ${me.nick}`),
        h(
          "dl",
          { class: "stat-grid" },
          stat("Balance", formatCoins(me.balance), "stats-balance"),
          stat("Rounds", s.rounds ?? 0, "stats-rounds"),
          stat("Hands won", s.hands_won ?? 0, "stats-won"),
          stat("Hands lost", s.hands_lost ?? 0, "stats-lost"),
          stat("Hands pushed", s.hands_pushed ?? 0, "stats-pushed"),
          stat("Net", formatSigned(s.net ?? 0), "stats-net"),
        ),
      );
    },
    (e) => {
      if (!isCurrent()) return;
      clear(statsBox).append(h("h2", {}, "Your statistics"), h("p", {}, errorText(e)));
      reportError(e);
    },
  );

  let cursor = null;
  let gen = 0;
  async function page(reset) {
    const my = reset ? ++gen : gen;
    more.disabled = true;
    try {
      const res = await api.rounds({ table: filter.value || undefined, limit: 20, cursor: reset ? undefined : cursor });
      if (!isCurrent() || my !== gen) return;
      if (reset) clear(list);
      for (const r of res.rounds || []) list.appendChild(miniRound(r, byId));
      cursor = res.next_cursor;
      more.hidden = !cursor;
      empty.hidden = list.children.length > 0;
    } catch (e) {
      reportError(e);
    } finally {
      more.disabled = false;
    }
  }
  function reload() {
    cursor = null;
    page(true);
  }
  more.addEventListener("click", () => {
    if (cursor) page(false);
  });
  reload();
}

function stat(label, value, testid) {
  return h("div", { class: "stat" }, h("dt", {}, label), h("dd", { testid }, String(value)));
}

// ------------------------------------------------------------------ strategy card
export async function showStrategy(main, id, isCurrent) {
  clear(main).appendChild(h("p", { class: "loading" }, "Loading the strategy card…"));
  let data;
  let tables = [];
  try {
    tables = await loadTables();
  } catch {
    /* the name is optional */
  }
  const t = tables.find((x) => x.id === id);
  const title = `Strategy card: ${t?.name || id}`;
  try {
    data = await api.strategy(id);
  } catch (e) {
    if (!isCurrent()) return;
    const notYet = e.status === 404 || e.status === 501;
    clear(main).appendChild(
      h(
        "section",
        { class: "panel strategy" },
        h("h1", {}, title),
        h("p", { testid: "strategy-unavailable" }, notYet ? "The strategy card is not available yet." : `The strategy card could not be loaded: ${errorText(e)}`),
        h("a", { href: "#/lobby", class: "btn btn-ghost" }, "← Lobby"),
      ),
    );
    return;
  }
  if (!isCurrent()) return;
  const pe = Number(data.player_ev);
  const sections = ["hard", "soft", "pairs"].filter((s) => data.chart && data.chart[s]);
  const hasEv = data.ev && Object.keys(data.ev).length > 0;
  const detail = h("div", { class: "panel ev-detail", testid: "strategy-ev", "aria-live": "polite", hidden: true });
  const showCell = (section, row, up) => {
    clear(detail);
    detail.hidden = false;
    const hands = rowHandEvs(data.ev, section, row, up);
    detail.append(
      h("h2", {}, `${chartRowLabel(section, row)} against ${up === "T" ? "10" : up}: ${data.chart[section][row][up]}`),
      hands.length
        ? h(
            "table",
            { class: "ev-table" },
            h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Hand"), h("th", { scope: "col" }, "EV per unit bet, best first"))),
            h("tbody", {}, hands.map((x) => h("tr", {}, h("th", { scope: "row" }, x.hand.replace(/T/g, "10")), h("td", {}, x.evs.map(([a, v], i) => h("span", { class: i === 0 ? "best" : "" }, `${ACTION_LABEL[a] || a} ${formatEv(v)}`)))))),
          )
        : h("p", { class: "muted" }, "No per-hand values for this cell."),
    );
    detail.scrollIntoView({ block: "nearest" });
  };
  clear(main).appendChild(
    h(
      "section",
      { class: "strategy", testid: "strategy" },
      h("div", { class: "table-head" }, h("h1", {}, title), h("div", { class: "table-links" }, h("a", { href: "#/lobby", class: "btn btn-ghost" }, "← Lobby"), h("a", { href: `#/table/${encodeURIComponent(id)}`, class: "btn btn-primary" }, "Play"))),
      h(
        "p",
        { class: "player-ev", testid: "strategy-player-ev" },
        `Player expected value with perfect play: ${formatSigned(Math.round(pe * 1000) / 1000)}% per initial bet`,
        pe < 0 ? ` (house edge ${formatCoins(Math.round(-pe * 1000) / 1000)}%).` : ".",
      ),
      h(
        "ul",
        { class: "legend", "aria-label": "Legend" },
        Object.entries(CHART_LETTER).map(([a, l]) => h("li", {}, h("span", { class: `cell act-${a}` }, l), ` ${a}`)),
      ),
      hasEv ? h("p", { class: "muted small" }, "Pick a cell to see the expected value of every action for the two-card hands of that row.") : null,
      sections.map((s) => chartTable(s, data.chart[s], hasEv ? showCell : null)),
      detail,
    ),
  );
}

function chartTable(section, rows, onPick) {
  const names = { hard: "Hard totals", soft: "Soft totals", pairs: "Pairs" };
  return h(
    "div",
    { class: "chart-wrap" },
    h(
      "table",
      { class: "chart", testid: `strategy-chart-${section}` },
      h("caption", {}, names[section]),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Hand \\ dealer"), UP_CARDS.map((u) => h("th", { scope: "col" }, u === "T" ? "10" : u)))),
      h(
        "tbody",
        {},
        chartRowKeys(section, rows).map((k) =>
          h(
            "tr",
            {},
            h("th", { scope: "row" }, chartRowLabel(section, k)),
            UP_CARDS.map((u) => {
              const a = rows[k]?.[u];
              const words = a ? `${chartRowLabel(section, k)} against ${u === "T" ? "10" : u}: ${a}` : null;
              const letter = a ? CHART_LETTER[a] || a : "";
              return h(
                "td",
                { class: `cell act-${a || "none"}`, title: words },
                onPick && a ? h("button", { type: "button", class: "cell-btn", "aria-label": words, onclick: () => onPick(section, k, u) }, letter) : letter,
              );
            }),
          ),
        ),
      ),
    ),
  );
}

// ------------------------------------------------------------------ verify
export async function showVerify(main, shoeId, isCurrent) {
  clear(main);
  if (!shoeId) return showManualVerify(main);
  main.appendChild(h("p", { class: "loading" }, "Loading the shoe…"));
  let shoe;
  try {
    shoe = await api.shoe(shoeId);
  } catch (e) {
    if (!isCurrent()) return;
    clear(main).appendChild(h("section", { class: "panel" }, h("h1", {}, "Verify a shoe"), h("p", { testid: "verify-result", dataset: { verdict: "error" } }, errorText(e))));
    return;
  }
  if (!isCurrent()) return;
  const result = h("div", { class: "verify-result", testid: "verify-result", "aria-live": "polite", dataset: { verdict: shoe.retired ? "pending" : "in_play" } }, shoe.retired ? "" : "This shoe is still in play: its server seed is revealed once the shoe is retired (after its last round). Come back then.");
  const orderBox = h("div", { class: "order" });
  const btn = h("button", { type: "button", class: "btn btn-primary", testid: "verify-button", disabled: !shoe.retired ? true : null }, "Verify in my browser");
  btn.addEventListener("click", async () => {
    btn.disabled = true;
    result.dataset.verdict = "running";
    result.textContent = "Recomputing the shoe…";
    try {
      const v = await verifyShoe(shoe);
      showVerdict(result, orderBox, v, shoe.cards || []);
    } catch (e) {
      result.dataset.verdict = "fail";
      result.textContent = `Could not verify: ${e.message}`;
    } finally {
      btn.disabled = false;
    }
  });
  clear(main).appendChild(
    h(
      "section",
      { class: "panel verify", testid: "verify" },
      h("h1", {}, "Verify a shoe"),
      h(
        "dl",
        { class: "kv" },
        kv("Shoe", shoe.shoe_id, "verify-shoe-id"),
        kv("Table", shoe.table),
        kv("Server seed hash (committed)", shoe.server_seed_hash, "verify-hash"),
        kv("Server seed (revealed)", shoe.server_seed ?? "not revealed yet", "verify-server-seed"),
        kv("Client seed", shoe.client_seed, "verify-client-seed"),
        kv("Nonce", String(shoe.nonce)),
        kv("Decks", String(shoe.decks)),
        kv("Cut index", shoe.cut_index === null || shoe.cut_index === undefined ? "none (fresh shuffle every round)" : String(shoe.cut_index)),
        kv("Cards dealt", shoe.cards ? String(shoe.cards.length) : "—"),
        kv("Rounds", String((shoe.rounds || []).length)),
      ),
      h(
        "p",
        { class: "muted small" },
        "The check runs here, in your browser, with Web Crypto: sha256(server seed) must equal the committed hash, and the HMAC-SHA256 Fisher–Yates shuffle of the seeds must give exactly the cards that were dealt.",
      ),
      btn,
      result,
      orderBox,
      h("p", {}, h("a", { href: "#/verify" }, "Check any seeds by hand")),
    ),
  );
  if (shoe.retired) btn.click();
}

function kv(k, v, testid) {
  return [h("dt", {}, k), h("dd", { class: "mono break", testid: testid || null }, v ?? "—")];
}

function showVerdict(result, orderBox, v, dealt) {
  clear(result);
  clear(orderBox);
  result.dataset.verdict = v.ok ? "ok" : "fail";
  result.append(
    h("p", { class: v.ok ? "ok" : "bad" }, v.ok ? `✔ Verified: the hash matches and all ${v.dealtCount} dealt cards are the recomputed shoe's first ${v.dealtCount}.` : "✘ Verification failed."),
    h("ul", {}, h("li", {}, `sha256(server seed) ${v.hashOk ? "matches" : "does NOT match"} the hash: ${v.computedHash ?? "—"}`), h("li", {}, v.cardsOk ? `Dealt cards match (${v.dealtCount}).` : "Dealt cards do NOT match."), v.problems.map((p) => h("li", {}, p))),
  );
  if (v.order) {
    orderBox.append(
      h("h2", {}, "The recomputed shoe"),
      h("p", { class: "muted small" }, "Highlighted cards were dealt; a red frame marks a mismatch."),
      h(
        "div",
        { class: "cards order-cards", testid: "verify-order" },
        v.order.map((c, i) => {
          const el = card(c, { small: true });
          if (i < dealt.length) el.classList.add(dealt[i] === c ? "dealt" : "mismatch");
          return el;
        }),
      ),
    );
  }
}

function showManualVerify(main) {
  const seed = h("input", { type: "text", testid: "manual-server-seed", class: "mono", spellcheck: "false", placeholder: "64 hex characters" });
  const client = h("input", { type: "text", testid: "manual-client-seed", class: "mono", spellcheck: "false" });
  const nonce = h("input", { type: "number", testid: "manual-nonce", min: "1", step: "1", value: "1" });
  const decks = h("input", { type: "number", testid: "manual-decks", min: "1", max: "8", step: "1", value: "1" });
  const out = h("div", { class: "verify-result", testid: "manual-result", "aria-live": "polite" });
  main.appendChild(
    h(
      "section",
      { class: "panel verify" },
      h("h1", {}, "Recompute a shoe from its seeds"),
      h(
        "form",
        {
          class: "manual-form",
          onsubmit: async (e) => {
            e.preventDefault();
            clear(out);
            try {
              const s = seed.value.trim().toLowerCase();
              const hash = await serverSeedHash(s);
              const order = await shuffleShoe({ serverSeed: s, clientSeed: client.value, nonce: Number(nonce.value), decks: Number(decks.value) });
              out.append(h("p", {}, "sha256(server seed) = ", h("span", { class: "mono break" }, hash)), h("div", { class: "cards order-cards" }, order.map((c) => card(c, { small: true }))));
            } catch (err) {
              out.append(h("p", { class: "bad" }, err.message));
            }
          },
        },
        field("Server seed (hex)", seed),
        field("Client seed", client),
        field("Nonce", nonce),
        field("Decks", decks),
        h("button", { type: "submit", class: "btn btn-primary", testid: "manual-verify" }, "Recompute"),
      ),
      out,
    ),
  );
}

