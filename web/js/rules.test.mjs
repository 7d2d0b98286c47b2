import assert from "node:assert/strict";
import { test } from "node:test";
import { setLanguage } from "./i18n.js";
import { ruleSentences, tableCapabilities, tableSummary } from "./rules.js";

const base = { dealer_hits_soft_17: false, blackjack_pays: "3:2" };
const casino = {
  id: "x1",
  name: "Any name",
  boxes: 5,
  min_bet: 10,
  max_bet: 1000,
  rules: {
    ...base,
    decks: 6,
    shuffle: "cut_card",
    cut_default: 0.75,
    cut_range: [0.5, 0.85],
    ai_players: true,
    hole_card: false,
    peek: "none",
    natural_paid_at_deal: false,
    any_21_pays_3_2: false,
    double: "any",
    double_after_split: true,
    split: "same_value",
    max_hands: 4,
    resplit_aces: true,
    split_aces_one_card: true,
    surrender: "early_not_ace",
    insurance: "half",
    even_money: true,
  },
};
const bicycle = {
  id: "x2",
  boxes: 1,
  min_bet: 5,
  max_bet: 200,
  rules: {
    ...base,
    decks: 1,
    shuffle: "every_round",
    cut_default: null,
    cut_range: null,
    ai_players: false,
    hole_card: true,
    peek: "ace_and_ten",
    natural_paid_at_deal: false,
    any_21_pays_3_2: false,
    double: "9_10_11",
    double_after_split: false,
    split: "same_rank",
    max_hands: 2,
    resplit_aces: false,
    split_aces_one_card: true,
    surrender: "none",
    insurance: "up_to_half",
    even_money: false,
  },
};
const classic = {
  id: "x3",
  boxes: 1,
  min_bet: 10,
  max_bet: 500,
  rules: {
    ...base,
    decks: 4,
    shuffle: "every_round",
    cut_default: null,
    cut_range: null,
    ai_players: false,
    hole_card: true,
    peek: "none",
    natural_paid_at_deal: true,
    any_21_pays_3_2: true,
    double: "none",
    double_after_split: false,
    split: "none",
    max_hands: 1,
    resplit_aces: false,
    split_aces_one_card: false,
    surrender: "none",
    insurance: "none",
    even_money: false,
  },
};
const european = {
  id: "x4",
  boxes: 5,
  min_bet: 10,
  max_bet: 1000,
  rules: { ...casino.rules, cut_range: null, hole_card: true, surrender: "none", insurance: "none", even_money: false, resplit_aces: false },
};

const text = (t) => ruleSentences(t).join(" ");

test("casino-like rules in words", () => {
  const s = text(casino);
  assert.match(s, /6 decks/);
  assert.match(s, /between 50% and 85%.*75%/);
  assert.match(s, /Up to 5 boxes/);
  assert.match(s, /AI players/);
  assert.match(s, /Bets from 10 to 1,000/);
  assert.match(s, /no hole card/);
  assert.match(s, /stands on every 17/);
  assert.match(s, /any two cards/);
  assert.match(s, /same value/);
  assert.match(s, /up to 4 hands/);
  assert.match(s, /aces may be resplit/);
  assert.match(s, /Surrender/);
  assert.match(s, /exactly half the bet/);
  assert.match(s, /Even money/);
});

test("bicycle-like rules in words", () => {
  const s = text(bicycle);
  assert.match(s, /One deck, shuffled fresh for every round/);
  assert.match(s, /checks for blackjack under an ace/);
  assert.match(s, /hard two-card 9, 10 or 11/);
  assert.match(s, /same rank/);
  assert.match(s, /no resplit/);
  assert.match(s, /No doubling after a split/);
  assert.match(s, /No surrender/);
  assert.match(s, /steps of 0\.5/);
  assert.doesNotMatch(s, /AI players/);
  assert.doesNotMatch(s, /Even money/);
});

test("classic-like rules in words", () => {
  const s = text(classic);
  assert.match(s, /at once at the deal/);
  assert.match(s, /Any 21 of three or more cards wins 3:2/);
  assert.match(s, /No doubling down/);
  assert.match(s, /No splitting/);
  assert.match(s, /No insurance/);
  assert.match(s, /does not check for blackjack/);
  assert.doesNotMatch(s, /doubles and splits included/);
});

test("european-like: cut card placed by the dealer", () => {
  const s = text(european);
  assert.match(s, /cut card at 75%, placed by the dealer/);
  assert.match(s, /aces may not be resplit/);
  assert.match(s, /doubles and splits included/);
});

test("sentences come from the fields, not the table id", () => {
  assert.deepEqual(ruleSentences({ ...casino, id: "classic", name: "Classic" }), ruleSentences(casino));
});

test("summary and capabilities", () => {
  assert.equal(tableSummary(bicycle), "1 deck · 1 box · bets 5–200");
  assert.equal(tableSummary(casino), "6 decks · up to 5 boxes · bets 10–1,000");
  assert.equal(tableCapabilities(casino).canAi, true);
  assert.deepEqual(tableCapabilities(casino).cutRange, [0.5, 0.85]);
  assert.equal(tableCapabilities(european).cutRange, null);
  assert.equal(tableCapabilities(bicycle).canAi, false);
});

test("the rules in Russian: numbers, plural forms and casino terms", () => {
  try {
    setLanguage("ru");
    assert.equal(tableSummary(bicycle), "1 колода · 1 бокс · ставки 5–200");
    // The coins are format.js's formatCoins: the digits grouped as the language groups them.
    assert.match(tableSummary(casino), /^6 колод · до 5 боксов · ставки 10–1\D?000$/);
    const s = text(casino);
    assert.match(s, /^6 колод в шузе с отрезной картой: .*от 50\s?% до 85\s?% шуза \(иначе — на 75\s?%\)\./);
    assert.match(s, /До 5 боксов для ставок; свободные боксы могут занять игроки-ИИ/);
    assert.match(s, /Ставки от 10 до 1\D?000 монет на бокс/);
    assert.match(s, /до 4 рук с одного бокса/);
    assert.match(s, /тузы можно сплитовать повторно/);
    assert.match(s, /Сдаться можно первым решением/);
    assert.match(s, /Один к одному: с блэкджеком против туза/);
    const b = text(bicycle);
    assert.match(b, /^1 колода, новая тасовка перед каждым раундом\./);
    assert.match(b, /Удвоение только на жёстких 9, 10 или 11/);
    assert.match(b, /от 0,5 до половины ставки/);
    assert.match(text(classic), /Блэкджек платит 3:2 сразу при раздаче/);
    assert.doesNotMatch(`${s} ${b} ${text(classic)} ${text(european)}`, /[A-Za-z]{3,}/, "no English word left");
  } finally {
    setLanguage("en");
  }
});

test("the rules in Croatian: numbers, plural forms and casino terms", () => {
  try {
    setLanguage("hr");
    assert.equal(tableSummary(bicycle), "1 špil · 1 boks · ulozi 5–200");
    assert.match(tableSummary(casino), /^6 špilova · do 5 boksova · ulozi 10–1\D?000$/);
    const s = text(casino);
    assert.match(s, /^6 špilova, šu s kartom za rezanje: .*između 50\s?% i 85\s?% šua \(inače na 75\s?%\)\./);
    assert.match(s, /Do 5 boksova za uloge; slobodne boksove mogu zauzeti AI igrači/);
    assert.match(s, /Ulozi od 10 do 1\D?000 kovanica po boksu/);
    assert.match(s, /do 4 ruke iz jednog boksa/);
    assert.match(s, /Djelitelj ne uzima skrivenu kartu/);
    assert.match(s, /Predaja kao prva odluka na boksu/);
    const b = text(bicycle);
    assert.match(b, /^1 špil, novo miješanje prije svake runde\./);
    assert.match(b, /Udvostručenje samo na tvrdi zbroj 9, 10 ili 11/);
    assert.match(b, /od 0,5 do pola uloga/);
    assert.match(text(european), /Asovi se ne smiju ponovno dijeliti|asovi se ne smiju ponovno dijeliti/);
  } finally {
    setLanguage("en");
  }
});
