// Pure: the order in which a round's cards land on the felt, and what of a round is on the
// felt once some of them have landed. The order is the round's `dealt` (API.md): the
// cards the request dealt, as they came off the shoe. Every other card of the round was on
// the felt before that request, and a round without `dealt` (a GET) is shown as it is.

export const SPEEDS = { normal: 300, fast: 120, instant: 0 };

/**
 * The cards a round deals, in the order they came off the shoe: `{key, place, index,
 * code}`, `place` "dealer" or "hand" (with `box` and `hand`), `code` null for a card dealt
 * face down; `turn` marks the dealer's face-down card getting its face. Keys name one
 * answer's cards only (its round and version), so that a card of an earlier answer never
 * counts as landed for this one.
 */
export function dealOrder(round) {
  const dealt = round?.dealt || [];
  if (dealt.length === 0) return [];
  const tag = `${round.round_id}:${round.version}`;
  const dealer = round.dealer || { cards: [], hidden: 0 };
  const places = dealer.cards.length + (dealer.hidden || 0);
  let next = places - dealt.filter((e) => e.to === "dealer" && "card" in e).length;
  let faceDown = null; // the place of the face-down card this answer dealt
  const hands = handPlaces(round, dealt);
  return dealt.map((entry, n) => {
    const key = `${tag}:${n}`;
    if (entry.to === "box") return { key, place: "hand", box: entry.box, ...hands[n], code: entry.card };
    if ("turned" in entry) return { key, place: "dealer", index: faceDown ?? holeIndex(dealer, next, entry.turned), code: entry.turned, turn: true };
    if (entry.card === null) faceDown = next;
    return { key, place: "dealer", index: next++, code: entry.card };
  });
}

/** The face-down card dealt before this answer: the last earlier dealer card of that face. */
function holeIndex(dealer, before, code) {
  for (let i = Math.min(before, dealer.cards.length) - 1; i >= 0; i--) if (dealer.cards[i] === code) return i;
  return 1; // RULES.md: the hole card is the dealer's second card
}

/**
 * Where each card dealt to a hand sits among the round's hands: the hand named, or, when a split later
 * in the same answer moved it (an AI player's resplit), a later hand of that box. Found by
 * its face, so that the cards a hand held before the answer stay the ones it shows first;
 * two cards of one face in a box (a six-deck shoe deals 8♣ 8♣) take their places in the
 * order they were dealt, the first dealt the first place, so each lands on its own.
 */
function handPlaces(round, dealt) {
  const boxes = new Map((round.boxes || []).map((b) => [b.box, b.hands.map((hd) => hd.cards)]));
  const taken = new Set();
  const places = dealt.map((entry) => {
    if (entry.to !== "box") return null;
    const hands = boxes.get(entry.box) || [];
    for (let hand = entry.hand; hand < hands.length; hand++) {
      for (let index = hands[hand].length - 1; index >= 0; index--) {
        const at = `${entry.box}:${hand}:${index}`;
        if (hands[hand][index] === entry.card && !taken.has(at)) {
          taken.add(at);
          return { hand, index };
        }
      }
    }
    return { hand: entry.hand, index: -1 }; // in none of the hands: it never shows
  });
  const sameFace = new Map(); // box and face -> the entries of that face dealt to that box
  dealt.forEach((entry, n) => {
    if (entry.to !== "box" || places[n].index < 0) return;
    const key = `${entry.box}:${entry.card}`;
    sameFace.set(key, [...(sameFace.get(key) || []), n]);
  });
  for (const ns of sameFace.values()) {
    const inOrder = ns.map((n) => places[n]).sort((a, b) => a.hand - b.hand || a.index - b.index);
    ns.forEach((n, i) => {
      places[n] = inOrder[i];
    });
  }
  return places;
}

/** The cards still to land, in order, given the keys already on the felt. */
export function pendingCards(round, shown) {
  return dealOrder(round).filter((slot) => !shown.has(slot.key));
}

/** The card of this answer a key names, or null. */
export function slotOf(round, key) {
  return dealOrder(round).find((slot) => slot.key === key) || null;
}

/**
 * What is on the felt: the dealer's places (a code, null for a face-down card) and each
 * hand's cards, up to its first card not landed yet. A card the answer did not deal was
 * there before it; a face-down card stays face down until its turn lands.
 */
export function feltCards(round, shown) {
  const order = dealOrder(round);
  const dealer = round?.dealer || { cards: [], hidden: 0 };
  const places = [...dealer.cards, ...Array(dealer.hidden || 0).fill(null)];
  for (const slot of order) {
    if (slot.place !== "dealer") continue;
    // Dealt by this answer: not on the felt yet. Turned by it: face down until the turn lands.
    if (!slot.turn) places[slot.index] = undefined;
    else if (places[slot.index] !== undefined) places[slot.index] = null;
  }
  for (const slot of order) if (slot.place === "dealer" && shown.has(slot.key)) places[slot.index] = slot.code;
  const landedDealer = [];
  for (const code of places) {
    if (code === undefined) break;
    landedDealer.push(code);
  }
  const waiting = new Set(order.filter((s) => s.place === "hand" && !shown.has(s.key)).map((s) => `${s.box}:${s.hand}:${s.index}`));
  const hands = {};
  for (const b of round?.boxes || []) {
    b.hands.forEach((hd, hi) => {
      const landed = [];
      for (const [i, code] of hd.cards.entries()) {
        if (waiting.has(`${b.box}:${hi}:${i}`)) break;
        landed.push(code);
      }
      hands[`${b.box}:${hi}`] = landed;
    });
  }
  return { dealer: landedDealer, hands };
}

/** Whether the dealer draws in this answer: a card dealt face up after the up card (at `casino` the second card too). */
export function dealerDraws(round) {
  return dealOrder(round).some((s) => s.place === "dealer" && !s.turn && s.index >= 1 && s.code !== null);
}

/** The pace in ms a card: instant when the player asked for less motion. */
export function cardDelay(speed, reducedMotion) {
  if (reducedMotion) return 0;
  return SPEEDS[speed] ?? SPEEDS.normal;
}
