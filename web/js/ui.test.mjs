import { test } from "node:test";
import assert from "node:assert/strict";
import { sentence, errorText } from "./ui.js";

test("API details read as sentences", () => {
  assert.equal(sentence("no shoe abc"), "No shoe abc.");
  assert.equal(sentence("client_seed and cut are allowed only on a new shoe"), "Client seed and cut are allowed only on a new shoe.");
  assert.equal(sentence("Wrong login or password."), "Wrong login or password.");
  assert.equal(errorText({ title: "Too Many Requests", status: 429, retryAfter: "30" }), "Too Many Requests. Try again in 30 s.");
  assert.equal(errorText({ detail: "the round is at version 5", title: "Precondition Failed" }), "The round is at version 5.");
});
