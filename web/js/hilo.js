// The Hi-Lo count (API.md, "The count"), pure (tested with node): each card's tag, the
// running and true counts, a count with cards added or taken away, a fresh shoe's, a round's
// face-up cards and the count in words. The table's badge, the Trainer and the Count page use it.

import { formatNumber } from "./i18n.js";

/** The cards of a deck. */
export const DECK = 52;

/** Hi-Lo: 2 to 6 count +1; 7, 8 and 9 count 0; ten-value cards and aces count −1. */
export function hiLoTag(code) {
  const rank = String(code).slice(0, -1).toUpperCase();
  if ("23456".includes(rank) && rank.length === 1) return 1;
  if ("789".includes(rank) && rank.length === 1) return 0;
  return -1;
}

export const runningCount = (codes) => codes.reduce((sum, code) => sum + hiLoTag(code), 0);

/**
 * `running` divided by `unseen / 52`, rounded half-even to two decimals as API.md does:
 * running × 5200 / unseen in whole numbers (exact), then the remainder decides.
 */
export function trueCount(running, unseen) {
  const num = running * 5200;
  const q = Math.floor(num / unseen);
  const twice = 2 * (num - q * unseen);
  const hundredths = twice > unseen || (twice === unseen && q % 2 !== 0) ? q + 1 : q;
  return hundredths / 100;
}

/** A count (API.md's shape) with `cards` added (sign 1) or taken away (sign −1). */
export function shiftCount(count, cards, sign = 1) {
  const running = count.running + sign * runningCount(cards);
  const seen = count.cards_seen + sign * cards.length;
  const unseen = count.cards_unseen - sign * cards.length;
  return { system: "hi_lo", running, true: trueCount(running, unseen), cards_seen: seen, cards_unseen: unseen };
}

/** The count of a shoe of `decks` decks before any card. */
export const freshCount = (decks) => ({ system: "hi_lo", running: 0, true: 0, cards_seen: 0, cards_unseen: DECK * decks });

/** Every face-up card of a round: the dealer's and every hand's (AI boxes' included). */
export function roundCards(round) {
  if (!round) return [];
  return [...(round.dealer?.cards || []), ...(round.boxes || []).flatMap((b) => b.hands.flatMap((hd) => hd.cards))];
}

/** "+3", "−2", "0"; a true count with two decimals: "+0.62", "−1.25", "0.00" (Russian and Croatian: "+0,62"). */
export function formatCount(value, decimals = 0) {
  const text = formatNumber(Math.abs(value), { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  if (Number(Math.abs(value).toFixed(decimals)) === 0) return text;
  return `${value > 0 ? "+" : "−"}${text}`;
}
