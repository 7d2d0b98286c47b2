// Pure: the order in which a dealer puts a round's cards on the felt, and what of a round
// is on the felt once some of them have landed. The table plays these one at a time.

export const SPEEDS = { normal: 300, fast: 120, instant: 0 };

function dealerSlots(dealer) {
  const d = dealer || { cards: [], hidden: 0 };
  const faces = d.cards.map((code, index) => ({ key: `d:${index}:${code}`, place: "dealer", index, code }));
  const backs = Array.from({ length: d.hidden || 0 }, (_, j) => {
    const index = d.cards.length + j;
    return { key: `d:${index}:back`, place: "dealer", index, code: null };
  });
  return [...faces, ...backs];
}

function handSlot(box, hand, index, code) {
  return { key: `${box}:${hand}:${index}:${code}`, place: "hand", box, hand, index, code };
}

/**
 * Every card of a round view in deal order: each box's first card, the dealer's up card,
 * each box's second card, the dealer's second card (face down where there is a hole card),
 * then the hands' draws in box and hand order, then the dealer's draws.
 */
export function dealOrder(round) {
  if (!round) return [];
  const hands = [];
  for (const b of round.boxes || []) hands.push(...b.hands.map((hd, hi) => ({ box: b.box, hand: hi, cards: hd.cards })));
  const dealer = dealerSlots(round.dealer);
  const order = [];
  const taken = new Set();
  const push = (slot) => {
    if (slot && !taken.has(slot.key)) {
      taken.add(slot.key);
      order.push(slot);
    }
  };
  for (let i = 0; i < 2; i++) {
    for (const hd of hands) if (hd.hand === 0 && i < hd.cards.length) push(handSlot(hd.box, 0, i, hd.cards[i]));
    push(dealer[i]);
  }
  for (const hd of hands) for (const [i, code] of hd.cards.entries()) push(handSlot(hd.box, hd.hand, i, code));
  for (const slot of dealer) push(slot);
  return order;
}

/** The cards still to land, in order, given the keys already on the felt. */
export function pendingCards(round, shown) {
  return dealOrder(round).filter((slot) => !shown.has(slot.key));
}

/**
 * What is on the felt: the dealer's places (a code, null for a face-down card) and each
 * hand's cards, up to its first card not landed yet. A hole card stays face down until its
 * face lands (the flip).
 */
export function feltCards(round, shown) {
  const dealer = [];
  for (const slot of dealerSlots(round?.dealer)) {
    if (shown.has(slot.key)) dealer[slot.index] = slot.code;
    else if (shown.has(`d:${slot.index}:back`)) dealer[slot.index] = null;
    else break;
  }
  const hands = {};
  for (const b of round?.boxes || []) {
    b.hands.forEach((hd, hi) => {
      const landed = [];
      for (const [i, code] of hd.cards.entries()) {
        if (!shown.has(`${b.box}:${hi}:${i}:${code}`)) break;
        landed.push(code);
      }
      hands[`${b.box}:${hi}`] = landed;
    });
  }
  return { dealer, hands };
}

/** The pace in ms a card: instant when the player asked for less motion. */
export function cardDelay(speed, reducedMotion) {
  if (reducedMotion) return 0;
  return SPEEDS[speed] ?? SPEEDS.normal;
}
