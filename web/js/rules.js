// Plain-words rule sentences derived from a table's `rules` object (API.md), in the
// player's language: each sentence is one catalog message (`rules.*`), picked by the fields.
// Never keyed on the table's id or name: a new table with new fields values reads right.

import { formatCoins, formatPercent } from "./format.js";
import { t } from "./i18n.js";

/** Short one-line summary for the lobby card header. */
export function tableSummary(table) {
  const r = table.rules || {};
  return t("rules.summary", {
    decks: t("rules.summaryDecks", { count: r.decks }),
    boxes: table.boxes === 1 ? t("rules.summaryOneBox") : t("rules.summaryBoxes", { count: table.boxes }),
    min: formatCoins(table.min_bet),
    max: formatCoins(table.max_bet),
  });
}

/** Ordered list of sentences describing the table's rules. */
export function ruleSentences(table) {
  const r = table.rules || {};
  const out = [];
  const canDouble = r.double && r.double !== "none";
  const canSplit = r.split && r.split !== "none";

  // Shoe and shuffle
  const decks = t("rules.decks", { count: r.decks });
  if (r.shuffle === "every_round") {
    out.push(t("rules.everyRound", { decks }));
  } else if (r.shuffle === "cut_card") {
    const at = r.cut_default != null ? formatPercent(r.cut_default) : null;
    if (Array.isArray(r.cut_range)) {
      const range = { decks, from: formatPercent(r.cut_range[0]), to: formatPercent(r.cut_range[1]) };
      out.push(at ? t("rules.cutByPlayerDefault", { ...range, at }) : t("rules.cutByPlayer", range));
    } else {
      out.push(at ? t("rules.cutByDealerAt", { decks, at }) : t("rules.cutByDealer", { decks }));
    }
  } else if (r.decks) {
    out.push(t("rules.decksOnly", { decks }));
  }

  // Boxes and bets
  const ai = r.ai_players ? "Ai" : "";
  out.push(table.boxes === 1 ? t(`rules.oneBox${ai}`) : t(`rules.boxes${ai}`, { count: table.boxes }));
  out.push(t("rules.bets", { min: formatCoins(table.min_bet), max: formatCoins(table.max_bet) }));

  // Dealer
  if (r.hole_card === false) out.push(t("rules.noHoleCard"));
  else if (r.hole_card) out.push(t("rules.holeCard"));
  if (r.peek === "ace_and_ten") out.push(t("rules.peek"));
  else if (r.peek === "none" && r.hole_card) out.push(t("rules.noPeek"));
  if (r.peek === "none" && (canDouble || canSplit)) out.push(t("rules.dealerBlackjackTakesAll"));
  out.push(t(r.dealer_hits_soft_17 ? "rules.hitsSoft17" : "rules.standsSoft17"));

  // Payouts
  const pays = r.blackjack_pays || "3:2";
  out.push(t(r.natural_paid_at_deal ? "rules.blackjackPaysAtDeal" : "rules.blackjackPays", { pays }));
  if (r.any_21_pays_3_2) out.push(t("rules.any21"));

  // Double
  if (r.double === "none") out.push(t("rules.noDouble"));
  else if (r.double === "9_10_11") out.push(t("rules.double91011"));
  else if (r.double === "any") out.push(t("rules.doubleAny"));

  // Split
  if (r.split === "none") out.push(t("rules.noSplit"));
  else if (canSplit) {
    const kind = r.split === "same_rank" ? "Rank" : "Value";
    out.push(r.max_hands > 2 ? t(`rules.split${kind}`, { count: r.max_hands }) : t(`rules.split${kind}Once`));
    const resplit = r.max_hands > 2 ? (r.resplit_aces ? "Resplit" : "NoResplit") : "";
    const aces = `${r.split_aces_one_card ? "OneCard" : ""}${resplit}`;
    if (aces) out.push(t(`rules.aces${aces}`));
    out.push(t("rules.splitTwentyOne"));
    if (canDouble) out.push(t(r.double_after_split ? "rules.doubleAfterSplit" : "rules.noDoubleAfterSplit"));
  }

  // Surrender
  if (r.surrender === "early_not_ace") out.push(t("rules.surrender"));
  else if (r.surrender === "none") out.push(t("rules.noSurrender"));

  // Insurance / even money
  if (r.insurance === "up_to_half") out.push(t("rules.insuranceUpToHalf"));
  else if (r.insurance === "half") out.push(t("rules.insuranceHalf"));
  else if (r.insurance === "none") out.push(t("rules.noInsurance"));
  if (r.even_money) out.push(t("rules.evenMoney"));

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
