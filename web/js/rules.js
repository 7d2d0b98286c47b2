// Plain-words rule sentences derived from a table's `rules` object (API.md).
// Never keyed on the table's id or name: a new table with new fields values reads right.

import { formatCoins, formatPercent } from "./format.js";

/** Short one-line summary for the lobby card header. */
export function tableSummary(table) {
  const r = table.rules || {};
  const decks = r.decks === 1 ? "1 deck" : `${r.decks} decks`;
  const boxes = table.boxes === 1 ? "1 box" : `up to ${table.boxes} boxes`;
  return `${decks} · ${boxes} · bets ${formatCoins(table.min_bet)}–${formatCoins(table.max_bet)}`;
}

/** Ordered list of sentences describing the table's rules. */
export function ruleSentences(table) {
  const r = table.rules || {};
  const out = [];
  const canDouble = r.double && r.double !== "none";
  const canSplit = r.split && r.split !== "none";

  // Shoe and shuffle
  const deckWords = r.decks === 1 ? "One deck" : `${r.decks} decks`;
  if (r.shuffle === "every_round") {
    out.push(`${deckWords}, shuffled fresh for every round.`);
  } else if (r.shuffle === "cut_card") {
    const def = r.cut_default != null ? formatPercent(r.cut_default) : null;
    if (Array.isArray(r.cut_range)) {
      out.push(
        `${deckWords} in a shoe with a cut card: you may place it when a new shoe starts, ` +
          `between ${formatPercent(r.cut_range[0])} and ${formatPercent(r.cut_range[1])} of the shoe` +
          (def ? ` (${def} if you don't).` : "."),
      );
    } else {
      out.push(`${deckWords} in a shoe with a cut card${def ? ` at ${def}` : ""}, placed by the dealer.`);
    }
  } else if (r.decks) {
    out.push(`${deckWords}.`);
  }

  // Boxes and bets
  let boxes = table.boxes === 1 ? "One box to play" : `Up to ${table.boxes} boxes to bet on`;
  if (r.ai_players) boxes += "; AI players (easy, medium, hard, expert, counter) may take the free boxes at the house's expense";
  out.push(`${boxes}.`);
  out.push(`Bets from ${formatCoins(table.min_bet)} to ${formatCoins(table.max_bet)} coins per box, whole coins.`);

  // Dealer
  if (r.hole_card === false) {
    out.push("The dealer takes no hole card: the dealer's second card is drawn after the boxes have played.");
  } else if (r.hole_card) {
    out.push("The dealer takes an up card and a face-down hole card.");
  }
  if (r.peek === "ace_and_ten") {
    out.push("The dealer checks for blackjack under an ace (after insurance) or a ten-value card.");
  } else if (r.peek === "none" && r.hole_card) {
    out.push("The dealer does not check for blackjack early.");
  }
  if (r.peek === "none" && (canDouble || canSplit)) {
    out.push("A dealer blackjack takes everything staked on a box, doubles and splits included.");
  }
  out.push(r.dealer_hits_soft_17 ? "The dealer hits soft 17." : "The dealer stands on every 17, soft 17 included.");

  // Payouts
  let bj = `Blackjack pays ${r.blackjack_pays || "3:2"}`;
  if (r.natural_paid_at_deal) bj += ", at once at the deal, whatever the dealer holds";
  out.push(`${bj}.`);
  if (r.any_21_pays_3_2) out.push("Any 21 of three or more cards wins 3:2 at once, whatever the dealer holds.");

  // Double
  if (r.double === "none") out.push("No doubling down.");
  else if (r.double === "9_10_11") out.push("Double down on a hard two-card 9, 10 or 11 only.");
  else if (r.double === "any") out.push("Double down on any two cards.");

  // Split
  if (r.split === "none") out.push("No splitting.");
  else if (canSplit) {
    const kind = r.split === "same_rank" ? "Split two cards of the same rank (J+J, not J+Q)" : "Split any two cards of the same value (K+Q too)";
    const hands = r.max_hands && r.max_hands > 2 ? `, up to ${r.max_hands} hands from one box` : ", once per box (no resplit)";
    out.push(`${kind}${hands}.`);
    const aces = [];
    if (r.split_aces_one_card) aces.push("split aces get one card each");
    if (r.max_hands > 2) aces.push(r.resplit_aces ? "aces may be resplit" : "aces may not be resplit");
    if (aces.length) out.push(`${aces.join("; ").replace(/^./, (c) => c.toUpperCase())}.`);
    out.push("An ace and a ten after a split count as 21, not blackjack (pays 1:1).");
    if (canDouble) out.push(r.double_after_split ? "Doubling after a split is allowed." : "No doubling after a split.");
  }

  // Surrender
  if (r.surrender === "early_not_ace") {
    out.push("Surrender as the first decision of a box (not after a split, not against an ace): half the bet back.");
  } else if (r.surrender === "none") out.push("No surrender.");

  // Insurance / even money
  if (r.insurance === "up_to_half") {
    out.push("Insurance against a dealer ace: any amount from 0.5 up to half the bet, in steps of 0.5; pays 2:1.");
  } else if (r.insurance === "half") {
    out.push("Insurance against a dealer ace: exactly half the bet; pays 2:1.");
  } else if (r.insurance === "none") out.push("No insurance.");
  if (r.even_money) out.push("Even money: with a blackjack against an ace you may take 1:1 at once.");

  return out;
}

/** Bet-slip defaults the table allows: {canAi, boxes, cut}. */
export function tableCapabilities(table) {
  const r = table.rules || {};
  return {
    boxes: table.boxes || 1,
    canAi: !!r.ai_players && (table.boxes || 1) > 1,
    cutRange: Array.isArray(r.cut_range) ? r.cut_range : null,
    cutDefault: r.cut_default ?? null,
    insuranceMode: r.insurance || "none",
  };
}
