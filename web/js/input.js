// Pure (no DOM): what the player enters, checked before it is sent: the chips a table
// offers and a bet after a chip, insurance amounts, credentials and the client seed, the bet
// slip as POST /rounds' body, and why an action cannot be taken (rules, turn or balance).

import { ACTIONS, actionLabel, cardsTotal, formatCoins, formatPercent } from "./format.js";
import { formatList, t } from "./i18n.js";

/** A box's bet after adding a chip: capped at the table maximum, with a word when it is. */
export function addChip(current, chip, maxBet) {
  return capBet(Number(current || 0) + chip, maxBet);
}

/** A bet wanted on a box, kept to the table maximum: {amount, capped}. */
export function capBet(wanted, maxBet) {
  return Number(wanted) > maxBet ? { amount: maxBet, capped: true } : { amount: Number(wanted), capped: false };
}

/** The box and hand in turn (hand 0 while insurance is asked), or nulls. */
function inTurn(round) {
  const t = round?.turn;
  const box = t ? (round.boxes || []).find((b) => b.box === t.box) || null : null;
  return { box, hand: box?.hands?.[t.hand] || null };
}

/**
 * What an action stakes from the balance: a double or a split the hand's bet again,
 * insurance half the box's bet (at `up_to_half`, at least 0.5); nothing for the others.
 */
export function actionCost(round, table, name) {
  const { box, hand } = inTurn(round);
  if (!box) return 0;
  if (name === "double" || name === "split") return Number(hand?.bet ?? box.bet);
  if (name === "insurance") return table.rules?.insurance === "up_to_half" ? 0.5 : Number(box.bet) / 2;
  return 0;
}

/** Why a legal action cannot be taken: the balance does not cover its stake (API.md: 409 `insufficient_funds`); else null. */
export function fundsReason(round, table, balance, name) {
  const cost = actionCost(round, table, name);
  if (!cost || balance === null || balance === undefined || cost <= Number(balance)) return null;
  const coins = { cost: formatCoins(cost), balance: formatCoins(balance) };
  if (name === "double") return t("input.funds.double", coins);
  if (name === "split") return t("input.funds.split", coins);
  return table.rules?.insurance === "up_to_half" ? t("input.funds.insuranceAtLeast", coins) : t("input.funds.insurance", coins);
}

const rankOf = (code) => String(code).slice(0, -1);

/**
 * Why an action's key did nothing, in a sentence: nothing is asked, another question is,
 * the table's rules or the hand do not allow it, or the balance does not cover it. Null
 * when the action can be taken.
 */
export function whyNot(round, table, balance, name) {
  const legal = round?.legal_actions || [];
  const label = actionLabel(name, legal);
  if (!round || round.status === "settled") return t("input.noRound", { action: label });
  if (legal.length === 0) return t("input.nothingAsked", { action: label });
  if (legal.includes(name)) return fundsReason(round, table, balance, name);
  const r = table.rules || {};
  const keyOf = (n) => ACTIONS.find((a) => a.name === n)?.key.toUpperCase();
  if (round.status === "insurance") {
    if (name === "even_money") return t("input.evenMoneyOnBlackjack");
    if (name === "insurance") return t("input.blackjackNotInsured");
    return t("input.answerInsurance", {
      choices: formatList(
        legal.map((n) => `${actionLabel(n, legal)} (${keyOf(n)})`),
        "disjunction",
      ),
    });
  }
  if (name === "insurance" || name === "decline_insurance") return r.insurance === "none" ? t("input.noInsurance") : t("input.insuranceWhen");
  if (name === "even_money") return r.even_money ? t("input.evenMoneyWhen") : t("input.noEvenMoney");
  const { hand } = inTurn(round);
  const cards = hand?.cards || [];
  if (name === "double") {
    if (r.double === "none") return t("input.noDouble");
    if (cards.length > 2) return t("input.doubleFirstTwo");
    if (hand?.split && !r.double_after_split) return t("input.noDoubleAfterSplit");
    if (r.double === "9_10_11") return t("input.doubleNineToEleven");
  }
  if (name === "split") {
    if (r.split === "none") return t("input.noSplit");
    const same = r.split === "same_rank" ? rankOf(cards[0]) === rankOf(cards[1]) : cardsTotal(cards.slice(0, 1)).total === cardsTotal(cards.slice(1, 2)).total;
    if (cards.length !== 2 || !same) return t(r.split === "same_rank" ? "input.splitSameRank" : "input.splitSameValue");
    return t("input.noMoreSplits");
  }
  if (name === "surrender") return r.surrender === "none" ? t("input.noSurrender") : t("input.surrenderWhen");
  return t("input.notPossible", { action: label });
}

/** Chip values that make sense at a table: from the largest chip not above the minimum, up to six. */
export function chipValues(minBet, maxBet) {
  const all = [1, 5, 10, 25, 50, 100, 250, 500, 1000, 5000];
  const fit = all.filter((v) => v <= maxBet);
  let start = 0;
  fit.forEach((v, i) => {
    if (v <= minBet) start = i;
  });
  return fit.slice(start, start + 6);
}

/** Insurance amounts at `up_to_half`: 0.5 .. bet/2 in steps of 0.5. */
export function insuranceAmounts(bet) {
  const max = Math.floor((Number(bet) / 2) * 2) / 2;
  const out = [];
  for (let x = 1; x <= max * 2; x++) out.push(x / 2);
  return out;
}

export function isShoeFresh(shoe) {
  return !!shoe && shoe.cards_remaining === 52 * shoe.decks;
}

export const CREDENTIAL_RE = /^[A-Za-z0-9]{4,32}$/;
export function credentialError(field, value) {
  if (!value) return t("input.required", { field });
  if (!CREDENTIAL_RE.test(value)) return t("input.credential", { field });
  return null;
}
export const CLIENT_SEED_RE = /^[!-~]{1,64}$/;
export function clientSeedError(seed) {
  if (seed === "" || seed === null || seed === undefined) return null;
  return CLIENT_SEED_RE.test(seed) ? null : t("input.clientSeed");
}

/**
 * Validate a bet slip and build the POST /rounds body.
 * slip: {bets: {box: amount}, ai: {box: level}}; returns {body, errors[]}.
 */
export function buildRoundRequest(table, slip, balance, { shoe, clientSeed, cut, cutTouched } = {}) {
  const errors = [];
  const bets = [];
  const ai = [];
  const boxes = table.boxes || 1;
  for (let b = 0; b < boxes; b++) {
    const amount = Number(slip.bets?.[b] || 0);
    if (amount > 0) {
      if (!Number.isInteger(amount)) errors.push(t("input.wholeCoins", { box: b + 1 }));
      if (amount < table.min_bet) errors.push(t("input.minimumBet", { box: b + 1, min: formatCoins(table.min_bet) }));
      if (amount > table.max_bet) errors.push(t("input.maximumBet", { box: b + 1, max: formatCoins(table.max_bet) }));
      bets.push({ box: b, amount });
    } else if (slip.ai?.[b] && table.rules?.ai_players) {
      ai.push({ box: b, level: slip.ai[b] });
    }
  }
  if (bets.length === 0) errors.push(t("input.noBet"));
  const total = bets.reduce((s, x) => s + x.amount, 0);
  if (balance !== null && balance !== undefined && total > balance)
    errors.push(t("input.overBalance", { total: formatCoins(total), balance: formatCoins(balance) }));
  const body = { bets };
  if (ai.length) body.ai = ai;
  if (isShoeFresh(shoe)) {
    const seed = (clientSeed || "").trim();
    if (seed) {
      const e = clientSeedError(seed);
      if (e) errors.push(e);
      else body.client_seed = seed;
    }
    const range = table.rules?.cut_range;
    if (Array.isArray(range) && cutTouched && cut !== null && cut !== undefined) {
      const c = Math.round(Number(cut) * 100) / 100;
      if (!(c >= range[0] && c <= range[1])) errors.push(t("input.cutRange", { from: formatPercent(range[0]), to: formatPercent(range[1]) }));
      else body.cut = c;
    }
  }
  return { body, errors, total };
}
