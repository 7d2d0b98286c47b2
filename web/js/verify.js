// The shoe verifier: a shoe by its id, or any seeds by hand.
import { api } from "./api.js";
import { card, clear, field, h } from "./dom.js";
import { serverSeedHash, shuffleShoe, verifyShoe } from "./fairness.js";
import { formatNumber, t } from "./i18n.js";
import { tableName } from "./tablenames.js";
import { errorText } from "./ui.js";

export async function showVerify(main, shoeId, isCurrent) {
  clear(main);
  if (!shoeId) return showManualVerify(main);
  main.appendChild(h("p", { class: "loading" }, t("verify.loading")));
  let shoe;
  try {
    shoe = await api.shoe(shoeId);
  } catch (e) {
    if (!isCurrent()) return;
    clear(main).appendChild(
      h(
        "section",
        { class: "panel" },
        h("h1", {}, t("verify.title")),
        h("p", { testid: "verify-result", dataset: { verdict: "error" } }, t("verify.notLoaded", { problem: errorText(e) })),
      ),
    );
    return;
  }
  if (!isCurrent()) return;
  const result = h(
    "div",
    { class: "verify-result", testid: "verify-result", "aria-live": "polite", dataset: { verdict: shoe.retired ? "pending" : "in_play" } },
    shoe.retired ? "" : t("verify.inPlay"),
  );
  const orderBox = h("div", { class: "order" });
  const btn = h("button", { type: "button", class: "btn btn-primary", testid: "verify-button", disabled: !shoe.retired ? true : null }, t("verify.button"));
  btn.addEventListener("click", async () => {
    btn.disabled = true;
    result.dataset.verdict = "running";
    result.textContent = t("verify.running");
    try {
      const v = await verifyShoe(shoe);
      showVerdict(result, orderBox, v, shoe.cards || []);
    } catch (e) {
      result.dataset.verdict = "fail";
      result.textContent = t("verify.failed", { problem: e.message });
    } finally {
      btn.disabled = false;
    }
  });
  clear(main).appendChild(
    h(
      "section",
      { class: "panel verify", testid: "verify" },
      h("h1", {}, t("verify.title")),
      shoeFacts(shoe),
      h("p", { class: "muted small" }, t("verify.how")),
      btn,
      result,
      orderBox,
      h("p", {}, h("a", { href: "#/verify" }, t("verify.byHand"))),
    ),
  );
  if (shoe.retired) btn.click();
}

function shoeFacts(shoe) {
  return h(
    "dl",
    { class: "kv" },
    kv(t("verify.shoe"), code(shoe.shoe_id), "verify-shoe-id"),
    kv(t("verify.table"), tableName(shoe.table)),
    kv(t("verify.hash"), code(shoe.server_seed_hash), "verify-hash"),
    kv(t("verify.serverSeed"), shoe.server_seed ? code(shoe.server_seed) : t("verify.notRevealed"), "verify-server-seed"),
    kv(t("verify.clientSeed"), code(shoe.client_seed), "verify-client-seed"),
    kv(t("verify.nonce"), code(shoe.nonce)),
    kv(t("verify.decks"), formatNumber(shoe.decks)),
    kv(t("verify.cut"), shoe.cut_index === null || shoe.cut_index === undefined ? t("verify.noCut") : formatNumber(shoe.cut_index)),
    kv(t("verify.dealt"), shoe.cards ? formatNumber(shoe.cards.length) : "—"),
    kv(t("verify.rounds"), formatNumber((shoe.rounds || []).length)),
  );
}

/** What stays the same in every language (an id, a seed, a hash): never translated. */
function code(value) {
  return value === null || value === undefined ? null : h("span", { translate: "no" }, String(value));
}

function kv(k, v, testid) {
  return [h("dt", {}, k), h("dd", { class: "mono break", testid: testid || null }, v ?? "—")];
}

function showVerdict(result, orderBox, v, dealt) {
  clear(result);
  clear(orderBox);
  result.dataset.verdict = v.ok ? "ok" : "fail";
  result.append(
    h("p", { class: v.ok ? "ok" : "bad" }, v.ok ? t("verify.ok", { count: v.dealtCount }) : t("verify.bad")),
    h(
      "ul",
      {},
      h("li", {}, t(v.hashOk ? "verify.hashOk" : "verify.hashBad", { hash: v.computedHash ?? "—" })),
      h("li", {}, v.cardsOk ? t("verify.cardsOk", { count: v.dealtCount }) : t("verify.cardsBad")),
      v.problems.map((p) => h("li", {}, p)),
    ),
  );
  if (v.order) {
    orderBox.append(
      h("h2", {}, t("verify.order")),
      h("p", { class: "muted small" }, t("verify.orderHow")),
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
  const seed = h("input", { type: "text", testid: "manual-server-seed", class: "mono", spellcheck: "false", placeholder: t("verify.seedPlaceholder") });
  const client = h("input", { type: "text", testid: "manual-client-seed", class: "mono", spellcheck: "false" });
  const nonce = h("input", { type: "number", testid: "manual-nonce", min: "1", step: "1", value: "1" });
  const decks = h("input", { type: "number", testid: "manual-decks", min: "1", max: "8", step: "1", value: "1" });
  const out = h("div", { class: "verify-result", testid: "manual-result", "aria-live": "polite" });
  main.appendChild(
    h(
      "section",
      { class: "panel verify" },
      h("h1", {}, t("verify.manualTitle")),
      h(
        "form",
        {
          class: "manual-form",
          onsubmit: async (e) => {
            e.preventDefault();
            clear(out);
            try {
              const s = seed.value.trim().toLowerCase();
              if (!/^[0-9a-f]{64}$/.test(s)) throw new Error(t("verify.seedFormat"));
              if (!client.value) throw new Error(t("verify.clientSeedMissing"));
              const hash = await serverSeedHash(s);
              const order = await shuffleShoe({ serverSeed: s, clientSeed: client.value, nonce: Number(nonce.value), decks: Number(decks.value) });
              out.append(
                h("p", {}, t("verify.hashIs"), " ", h("span", { class: "mono break", translate: "no" }, hash)),
                h(
                  "div",
                  { class: "cards order-cards" },
                  order.map((c) => card(c, { small: true })),
                ),
              );
            } catch (err) {
              out.append(h("p", { class: "bad" }, err.message));
            }
          },
        },
        field(t("verify.serverSeedHex"), seed),
        field(t("verify.clientSeed"), client),
        field(t("verify.nonce"), nonce),
        field(t("verify.decks"), decks),
        h("button", { type: "submit", class: "btn btn-primary", testid: "manual-verify" }, t("verify.recompute")),
      ),
      out,
    ),
  );
}
