import assert from "node:assert/strict";
import { test } from "node:test";
import { bytesToHex, hexToBytes, serverSeedHash, shuffleShoe, unshuffledShoe, verifyShoe } from "./fairness.js";
import { setLanguage } from "./i18n.js";

const SEED = "00".repeat(32);

test("unshuffled order: decks x S H D C x A..K", () => {
  const one = unshuffledShoe(1);
  assert.equal(one.length, 52);
  assert.deepEqual(one.slice(0, 3), ["AS", "2S", "3S"]);
  assert.equal(one[13], "AH");
  assert.equal(one[51], "KC");
  assert.equal(unshuffledShoe(6).length, 312);
});

test("hex round trip and validation", () => {
  assert.equal(bytesToHex(hexToBytes("00ff10")), "00ff10");
  assert.throws(() => hexToBytes("0"));
  assert.throws(() => hexToBytes("zz"));
});

test("check value: server_seed_hash of 32 zero bytes", async () => {
  assert.equal(await serverSeedHash(SEED), "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925");
});

test("check value: one deck, nonce 1", async () => {
  const order = await shuffleShoe({ serverSeed: SEED, clientSeed: "player", nonce: 1, decks: 1 });
  assert.deepEqual(order.slice(0, 10), "8H TD 9D QD 7C 4S 2C 5D 9H JD".split(" "));
  assert.deepEqual([...order].sort(), [...unshuffledShoe(1)].sort());
});

test("check value: six decks, nonce 2", async () => {
  const order = await shuffleShoe({ serverSeed: SEED, clientSeed: "player", nonce: 2, decks: 6 });
  assert.deepEqual(order.slice(0, 10), "KD 9S TC 3S 8H 4H 4H TC 6S AH".split(" "));
  assert.equal(order.length, 312);
});

test("verifyShoe accepts an honest shoe and flags a forged one", async () => {
  const base = {
    shoe_id: "s",
    table: "bicycle",
    server_seed_hash: "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
    client_seed: "player",
    nonce: 1,
    decks: 1,
    retired: true,
    server_seed: SEED,
    cards: "8H TD 9D QD 7C".split(" "),
  };
  const ok = await verifyShoe(base);
  assert.equal(ok.ok, true);
  assert.equal(ok.hashOk, true);
  assert.equal(ok.cardsOk, true);
  const badCards = await verifyShoe({ ...base, cards: "8H TD 9D QD 7D".split(" ") });
  assert.equal(badCards.ok, false);
  assert.equal(badCards.mismatchAt, 4);
  const badHash = await verifyShoe({ ...base, server_seed_hash: "00".repeat(32) });
  assert.equal(badHash.ok, false);
  assert.equal(badHash.hashOk, false);
  const live = await verifyShoe({ ...base, retired: false, server_seed: null, cards: null });
  assert.equal(live.ok, false);
  assert.equal(live.retired, false);
});

test("what the verifier finds wrong is said in the player's language", async () => {
  try {
    setLanguage("ru");
    assert.deepEqual((await verifyShoe({ retired: false })).problems, ["Шуз ещё в игре: его серверный сид пока не раскрыт."]);
    assert.throws(() => unshuffledShoe(0), { message: "Число колод — целое от 1 до 16." });
    setLanguage("hr");
    const tampered = await verifyShoe({ retired: true, server_seed: "00".repeat(32), server_seed_hash: "ff", client_seed: "c", nonce: 1, decks: 1, cards: [] });
    assert.deepEqual(tampered.problems, ["sha256(server_seed) nije jednak objavljenom server_seed_hash."]);
  } finally {
    setLanguage("en");
  }
});
