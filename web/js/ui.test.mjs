import assert from "node:assert/strict";
import { test } from "node:test";
import { setLanguage } from "./i18n.js";
import { errorText, sentence } from "./ui.js";

test("API details read as sentences", () => {
  assert.equal(sentence("no shoe abc"), "No shoe abc.");
  assert.equal(sentence("client_seed and cut are allowed only on a new shoe"), "Client seed and cut are allowed only on a new shoe.");
  assert.equal(sentence("Wrong login or password."), "Wrong login or password.");
  assert.equal(errorText({ title: "Too Many Requests", status: 429, retryAfter: "30" }), "Too Many Requests. Try again in 30 s.");
  assert.equal(errorText({ detail: "the round is at version 5", title: "Precondition Failed" }), "The round is at version 5.");
});

test("problem codes read as plain sentences", () => {
  assert.equal(errorText({ code: "stale_state", status: 412, detail: "The round is at version 24" }), "The round moved on in another tab or window.");
  assert.equal(errorText({ code: "insufficient_funds", status: 409, detail: "balance 3 < 10" }), "Your balance does not cover that.");
  assert.equal(
    errorText({ code: "illegal_action", status: 409, detail: "double is not allowed on a split hand" }),
    "That move is not allowed now: Double is not allowed on a split hand.",
  );
  assert.equal(errorText({ code: "throttled", status: 429, retryAfter: "2" }), "Too many requests at once: wait a moment. Try again in 2 s.");
});

test("an unknown problem code reads as its status says, never the server's raw detail", () => {
  assert.equal(errorText({ code: "internal_error", status: 502, detail: "Down." }), "The server could not answer: try again in a moment.");
  assert.equal(errorText({ code: "teapot", status: 418, detail: "Down." }), "The server refused that request. Reload the page and try again.");
  assert.equal(errorText({ code: "validation_error", status: 422, detail: "amount must be positive" }), "Amount must be positive.");
});

test("a shared table's problems read as plain sentences", () => {
  const said = Object.fromEntries(
    ["box_taken", "not_seated", "not_your_turn", "already_bet", "too_many_rooms"].map((code) => [code, errorText({ code, status: 409, detail: "raw" })]),
  );
  assert.deepEqual(said, {
    box_taken: "Somebody else took that box first: pick a free one.",
    not_seated: "You can bet only on your own boxes at this table.",
    not_your_turn: "It is not your turn: another player's decision is being asked.",
    already_bet: "You have already bet or passed this round.",
    too_many_rooms: "You already sit at 3 shared tables: leave one to take a box here.",
  });
});

test("a problem reads in the player's language by its code, never the server's English detail", () => {
  try {
    setLanguage("ru");
    assert.equal(errorText({ code: "bad_credentials", status: 401, detail: "wrong login or password" }), "Неверный логин или пароль.");
    assert.equal(errorText({ code: "illegal_action", status: 409, detail: "double is not allowed on a split hand" }), "Этот ход сейчас недоступен.");
    assert.equal(
      errorText({ code: "validation_error", status: 422, detail: "amount must be positive" }),
      "Сервер не принял значение, которое отправила игра. Обновите страницу и попробуйте снова.",
    );
    assert.equal(
      errorText({ code: "too_many_attempts", status: 429, retryAfter: "30" }),
      "Слишком много неудачных попыток: вход под этим логином временно заблокирован. Попробуйте снова через 30 с.",
    );
    assert.equal(errorText({ detail: "the round is at version 5" }), "Что-то пошло не так.");
    setLanguage("hr");
    assert.equal(errorText({ code: "insufficient_funds", status: 409, detail: "balance 3 < 10" }), "Stanje nije dovoljno za to.");
    assert.equal(errorText({ code: "internal_error", status: 502, detail: "Down." }), "Poslužitelj nije mogao odgovoriti: pokušajte za trenutak.");
    assert.equal(errorText({ code: "box_taken", status: 409, detail: "raw" }), "Netko je prije vas zauzeo taj boks: odaberite slobodan.");
  } finally {
    setLanguage("en");
  }
});
