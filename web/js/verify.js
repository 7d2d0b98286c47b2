// The shoe verifier: a shoe by its id, or any seeds by hand.
import { api } from "./api.js";
import { card, clear, field, h } from "./dom.js";
import { serverSeedHash, shuffleShoe, verifyShoe } from "./fairness.js";
import { errorText } from "./ui.js";

export async function showVerify(main, shoeId, isCurrent) {
  clear(main);
  if (!shoeId) return showManualVerify(main);
  main.appendChild(h("p", { class: "loading" }, "Loading the shoe…"));
  let shoe;
  try {
    shoe = await api.shoe(shoeId);
  } catch (e) {
    if (!isCurrent()) return;
    clear(main).appendChild(
      h(
        "section",
        { class: "panel" },
        h("h1", {}, "Verify a shoe"),
        h("p", { testid: "verify-result", dataset: { verdict: "error" } }, `This shoe could not be loaded. ${errorText(e)}`),
      ),
    );
    return;
  }
  if (!isCurrent()) return;
  const result = h(
    "div",
    { class: "verify-result", testid: "verify-result", "aria-live": "polite", dataset: { verdict: shoe.retired ? "pending" : "in_play" } },
    shoe.retired ? "" : "This shoe is still in play: its server seed is revealed once the shoe is retired (after its last round). Come back then.",
  );
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
      shoeFacts(shoe),
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

function shoeFacts(shoe) {
  return h(
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
  );
}

function kv(k, v, testid) {
  return [h("dt", {}, k), h("dd", { class: "mono break", testid: testid || null }, v ?? "—")];
}

function showVerdict(result, orderBox, v, dealt) {
  clear(result);
  clear(orderBox);
  result.dataset.verdict = v.ok ? "ok" : "fail";
  result.append(
    h(
      "p",
      { class: v.ok ? "ok" : "bad" },
      v.ok ? `✔ Verified: the hash matches and all ${v.dealtCount} dealt cards are the recomputed shoe's first ${v.dealtCount}.` : "✘ Verification failed.",
    ),
    h(
      "ul",
      {},
      h("li", {}, `sha256(server seed) ${v.hashOk ? "matches" : "does NOT match"} the hash: ${v.computedHash ?? "—"}`),
      h("li", {}, v.cardsOk ? `Dealt cards match (${v.dealtCount}).` : "Dealt cards do NOT match."),
      v.problems.map((p) => h("li", {}, p)),
    ),
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
              if (!/^[0-9a-f]{64}$/.test(s)) throw new Error("The server seed is 64 hexadecimal characters (0–9, a–f): paste it from a retired shoe.");
              if (!client.value) throw new Error("Enter the shoe's client seed.");
              const hash = await serverSeedHash(s);
              const order = await shuffleShoe({ serverSeed: s, clientSeed: client.value, nonce: Number(nonce.value), decks: Number(decks.value) });
              out.append(
                h("p", {}, "sha256(server seed) = ", h("span", { class: "mono break" }, hash)),
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
