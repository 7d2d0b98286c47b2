// Pure (no DOM): what the player enters, checked before it is sent: the chips a table
// offers and a bet after a chip, insurance amounts, credentials and the client seed, the bet
// slip as POST /rounds' body, and why an action cannot be taken (rules, turn or balance).

import { ACTIONS, actionLabel, cardsTotal, formatCoins, formatPercent } from "./format.js";

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

const FOR_ACTION = { double: "to double", split: "to split", insurance: "for insurance" };

/** Why a legal action cannot be taken: the balance does not cover its stake (API.md: 409 `insufficient_funds`); else null. */
export function fundsReason(round, table, balance, name) {
  const cost = actionCost(round, table, name);
  if (!cost || balance === null || balance === undefined || cost <= Number(balance)) return null;
  const least = name === "insurance" && table.rules?.insurance === "up_to_half" ? "at least " : "";
  return `Not enough coins ${FOR_ACTION[name]}: it costs ${least}${formatCoins(cost)}, your balance is ${formatCoins(balance)}.`;
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
  if (!round || round.status === "settled") return `${label}: no round is in play. Place your bets, then Deal.`;
  if (legal.length === 0) return `${label}: nothing is asked of you now.`;
  if (legal.includes(name)) return fundsReason(round, table, balance, name);
  const r = table.rules || {};
  const keyOf = (n) => ACTIONS.find((a) => a.name === n)?.key.toUpperCase();
  if (round.status === "insurance") {
    if (name === "even_money") return "Even money is offered only on a blackjack: this hand is asked about insurance.";
    if (name === "insurance") return "A blackjack is offered even money, not insurance.";
    return `First answer the insurance question: ${legal.map((n) => `${actionLabel(n, legal)} (${keyOf(n)})`).join(" or ")}.`;
  }
  if (name === "insurance" || name === "decline_insurance")
    return r.insurance === "none" ? "This table offers no insurance." : "Insurance is offered only when the dealer shows an ace, before you play.";
  if (name === "even_money")
    return r.even_money ? "Even money is offered only on a blackjack against an ace, before you play." : "This table offers no even money.";
  const { hand } = inTurn(round);
  const cards = hand?.cards || [];
  if (name === "double") {
    if (r.double === "none") return "This table allows no doubling.";
    if (cards.length > 2) return "Double only on the first two cards of a hand.";
    if (hand?.split && !r.double_after_split) return "No doubling after a split at this table.";
    if (r.double === "9_10_11") return "Double only on a hard 9, 10 or 11 at this table.";
  }
  if (name === "split") {
    if (r.split === "none") return "This table allows no splitting.";
    const same = r.split === "same_rank" ? rankOf(cards[0]) === rankOf(cards[1]) : cardsTotal(cards.slice(0, 1)).total === cardsTotal(cards.slice(1, 2)).total;
    if (cards.length !== 2 || !same) return `Split only a pair: two first cards of the same ${r.split === "same_rank" ? "rank" : "value"}.`;
    return "No more splits on this box.";
  }
  if (name === "surrender") {
    if (r.surrender === "none") return "This table allows no surrender.";
    return "Surrender only as the first decision of a box (not after a split, not against an ace).";
  }
  return `${label} is not possible on this hand.`;
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
  if (!value) return `${field} is required.`;
  if (!CREDENTIAL_RE.test(value)) return `${field}: 4 to 32 Latin letters and digits, nothing else.`;
  return null;
}
export const CLIENT_SEED_RE = /^[!-~]{1,64}$/;
export function clientSeedError(seed) {
  if (seed === "" || seed === null || seed === undefined) return null;
  return CLIENT_SEED_RE.test(seed) ? null : "Client seed: 1 to 64 printable characters, no spaces.";
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
      if (!Number.isInteger(amount)) errors.push(`Box ${b + 1}: bets are whole coins.`);
      if (amount < table.min_bet) errors.push(`Box ${b + 1}: the minimum bet is ${formatCoins(table.min_bet)}.`);
      if (amount > table.max_bet) errors.push(`Box ${b + 1}: the maximum bet is ${formatCoins(table.max_bet)}.`);
      bets.push({ box: b, amount });
    } else if (slip.ai?.[b] && table.rules?.ai_players) {
      ai.push({ box: b, level: slip.ai[b] });
    }
  }
  if (bets.length === 0) errors.push("Put a bet on at least one box.");
  const total = bets.reduce((s, x) => s + x.amount, 0);
  if (balance !== null && balance !== undefined && total > balance)
    errors.push(`Your bets (${formatCoins(total)}) are more than your balance (${formatCoins(balance)}).`);
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
      if (!(c >= range[0] && c <= range[1])) errors.push(`The cut must be between ${formatPercent(range[0])} and ${formatPercent(range[1])}.`);
      else body.cut = c;
    }
  }
  return { body, errors, total };
}
