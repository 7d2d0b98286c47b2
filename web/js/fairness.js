// Provably-fair shoe verifier, exactly as FAIRNESS.md describes it.
// Pure functions over Web Crypto (browser `crypto.subtle`, or Node >= 20's globalThis.crypto).
// No DOM, no network: import it anywhere and test it by itself (`node --test web/js/`).
// What it finds wrong is said in the player's language (the verify page shows it).

import { t } from "./i18n.js";

export const SUITS = ["S", "H", "D", "C"];
export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
const TWO_32 = 2 ** 32;

function subtle() {
  const c = globalThis.crypto;
  if (!c?.subtle) {
    throw new Error(t("fairness.noCrypto"));
  }
  return c.subtle;
}

/** The unshuffled order: for each deck, suits S H D C, ranks A..K. */
export function unshuffledShoe(decks) {
  if (!Number.isInteger(decks) || decks < 1 || decks > 16) throw new RangeError(t("fairness.decks", { min: 1, max: 16 }));
  const cards = [];
  for (let d = 0; d < decks; d++) for (const s of SUITS) for (const r of RANKS) cards.push(r + s);
  return cards;
}

/** "00ff.." -> Uint8Array. Throws on anything but an even number of hex digits. */
export function hexToBytes(hex) {
  if (typeof hex !== "string" || hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new TypeError(t("fairness.hex"));
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}

export function bytesToHex(bytes) {
  const b = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let s = "";
  for (const x of b) s += x.toString(16).padStart(2, "0");
  return s;
}

/** Lower-case hex sha256 of the bytes that a hex seed stands for. */
export async function serverSeedHash(serverSeedHex) {
  const digest = await subtle().digest("SHA-256", hexToBytes(serverSeedHex));
  return bytesToHex(digest);
}

function asciiBytes(s) {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 127) throw new TypeError(t("fairness.ascii"));
    out[i] = c;
  }
  return out;
}

/**
 * An async source of the random words: block k = HMAC-SHA256(key=seed bytes,
 * msg=`${clientSeed}:${nonce}:${k}`), eight big-endian uint32 per block, in order.
 * Blocks are computed in batches (Web Crypto is async) and consumed one word at a time.
 */
export async function wordSource(serverSeedHex, clientSeed, nonce, batch = 16) {
  const key = await subtle().importKey("raw", hexToBytes(serverSeedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  let words = [];
  let pos = 0;
  let nextBlock = 0;
  async function refill() {
    const ks = Array.from({ length: batch }, (_, i) => nextBlock + i);
    nextBlock += batch;
    const blocks = await Promise.all(ks.map((k) => subtle().sign("HMAC", key, asciiBytes(`${clientSeed}:${nonce}:${k}`))));
    words = [];
    pos = 0;
    for (const buf of blocks) {
      const data = new DataView(buf);
      for (let w = 0; w < 8; w++) words.push(data.getUint32(w * 4, false));
    }
  }
  return {
    async next() {
      if (pos >= words.length) await refill();
      return words[pos++];
    },
    get blocksUsed() {
      return nextBlock;
    },
  };
}

/** The whole shuffled shoe, index 0 dealt first. */
export async function shuffleShoe({ serverSeed, clientSeed, nonce, decks }) {
  const cards = unshuffledShoe(decks);
  const src = await wordSource(serverSeed, String(clientSeed), nonce);
  for (let i = cards.length - 1; i >= 1; i--) {
    const m = i + 1;
    const limit = TWO_32 - (TWO_32 % m);
    let x = await src.next();
    while (x >= limit) x = await src.next();
    const j = x % m;
    const t = cards[i];
    cards[i] = cards[j];
    cards[j] = t;
  }
  return cards;
}

/**
 * Check a shoe document from GET /v1/shoes/{id}.
 * Returns {ok, retired, hashOk, computedHash, cardsOk, dealtCount, mismatchAt, order, problems[]}.
 */
export async function verifyShoe(shoe) {
  const problems = [];
  if (!shoe?.retired || !shoe.server_seed) {
    return {
      ok: false,
      retired: false,
      hashOk: null,
      cardsOk: null,
      computedHash: null,
      dealtCount: 0,
      mismatchAt: null,
      order: null,
      problems: [t("fairness.inPlay")],
    };
  }
  let computedHash = null;
  let hashOk = false;
  try {
    computedHash = await serverSeedHash(shoe.server_seed);
    hashOk = computedHash === String(shoe.server_seed_hash).toLowerCase();
  } catch (e) {
    problems.push(t("fairness.seedNotHex", { problem: e.message }));
  }
  if (!hashOk && computedHash) problems.push(t("fairness.hashMismatch"));
  let order = null;
  let cardsOk = false;
  let mismatchAt = null;
  const dealt = Array.isArray(shoe.cards) ? shoe.cards : [];
  try {
    order = await shuffleShoe({ serverSeed: shoe.server_seed, clientSeed: shoe.client_seed, nonce: shoe.nonce, decks: shoe.decks });
    if (dealt.length > order.length) {
      problems.push(t("fairness.tooManyDealt", { count: dealt.length, held: order.length }));
    } else {
      mismatchAt = dealt.findIndex((c, i) => c !== order[i]);
      if (mismatchAt === -1) mismatchAt = null;
      cardsOk = mismatchAt === null;
      if (!cardsOk) problems.push(t("fairness.cardMismatch", { position: mismatchAt + 1, dealt: dealt[mismatchAt], recomputed: order[mismatchAt] }));
    }
  } catch (e) {
    problems.push(t("fairness.failed", { problem: e.message }));
  }
  return { ok: hashOk && cardsOk, retired: true, hashOk, computedHash, cardsOk, dealtCount: dealt.length, mismatchAt, order, problems };
}
