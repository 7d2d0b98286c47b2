// Pure (no DOM): the Trainer's statistics over graded decisions (API.md, hand `decisions`):
// the history's decisions latest first, GET /v1/me `stats` as the server counts them,
// the counter's mistakes, accuracy over recent windows, the deviation spots and the count at
// each of them.

import { formatAccuracy, GRADES, graded, gradeOf, isMistake } from "./format.js";
import { freshCount, roundCards, shiftCount } from "./hilo.js";
import { t } from "./i18n.js";

/** A kind of decision with its label, in the language spoken when it shows. */
const kind = (name) => ({
  name,
  get label() {
    return t(`stats.kind.${name}`);
  },
});
/** The kinds of decision, as `stats.by_kind` names them, with their labels. */
export const KINDS = ["hard", "soft", "pairs", "insurance"].map(kind);

/** Every graded decision of the rounds (last settled first), latest first. */
export function decisionsOf(rounds) {
  const out = [];
  for (const r of rounds || []) {
    const inRound = [];
    for (const box of r.boxes || []) {
      (box.hands || []).forEach((hand, index) => {
        for (const d of hand.decisions || []) {
          inRound.push({
            ...d,
            round_id: r.round_id,
            shoe_id: r.shoe_id,
            table: r.table,
            up: r.dealer?.cards?.[0] ?? null,
            bet: Number(box.bet),
            box: box.box,
            hand: index,
          });
        }
      });
    }
    out.push(...inRound.reverse());
  }
  return out;
}

/** The decisions where perfect play for the shoe differs from basic strategy for a fresh shoe. */
export const deviationsOf = (decisions) => decisions.filter((d) => d.expert_best !== undefined && d.expert_best !== d.best);

/** API.md: a decision whose `expert_loss` is MISTAKE (format.js) or more is a mistake against perfect play. */
export const isExpertMistake = (d) => isMistake(d, "expert");

/**
 * What a deviation spot was worth: perfect play's edge over the basic play, per unit bet.
 * The API grades a decision against the play taken, so this is known when the basic play
 * was taken (its `expert_loss`); null otherwise.
 */
export const deviationWorth = (d) => (d.action === d.best ? Number(d.expert_loss) : null);

/** The two cards a box was dealt (a split box's are its first two hands' first cards). */
const dealtCards = (box) => (box.hands.length === 1 ? box.hands[0].cards.slice(0, 2) : [box.hands[0].cards[0], box.hands[1].cards[0]]);

/**
 * The round's public cards at the moment of decision `d` (RULES.md, "Public cards", and the
 * order of the deal): the up card, every card of the boxes played before `d`'s box, the
 * hand's cards as `d` saw them, the dealt cards of the boxes after it; insurance is asked
 * before any draw. Null where the settled round cannot tell: in a box that was split,
 * which of its hands had drawn what at that moment.
 */
export function cardsSeenAt(round, d) {
  const boxes = round.boxes || [];
  const up = round.dealer?.cards?.slice(0, 1) || [];
  if (d.kind === "insurance") return [...up, ...boxes.flatMap(dealtCards)];
  const own = boxes.find((b) => b.box === d.box);
  if (own?.hands.length !== 1) return null;
  return [...up, ...boxes.flatMap((b) => (b.box < d.box ? b.hands.flatMap((hd) => hd.cards) : b.box === d.box ? d.cards : dealtCards(b)))];
}

/**
 * The count at decision `d` of `round`: every card of the shoe's earlier rounds (`earlier`,
 * settled, so all their cards are public) and the round's cards seen then; null if not known.
 */
export function countAt(decks, earlier, round, d) {
  const seen = cardsSeenAt(round, d);
  if (seen === null || earlier === null) return null;
  return shiftCount(freshCount(decks), [...earlier.flatMap(roundCards), ...seen]);
}

const twoDecimals = (x) => Math.round(x * 100) / 100;

/**
 * Some decisions' count, mistakes and EV lost (in coins) at `level`; the EV lost null at the
 * levels graded by the move alone (the chart's, the counter's: the hint values no play).
 */
function figures(ds, level) {
  const valued = GRADES[gradeOf(level)].loss !== null;
  return {
    decisions: ds.length,
    mistakes: ds.filter((d) => isMistake(d, level)).length,
    ev_lost: valued ? twoDecimals(ds.reduce((sum, d) => sum + graded(d, level).loss * d.bet, 0)) : null,
  };
}

/** `by_kind` as GET /v1/me counts it at `hard`, over some decisions and at any level. */
export function kindFigures(decisions, level = "hard") {
  return Object.fromEntries(
    KINDS.map((k) => [
      k.name,
      figures(
        decisions.filter((d) => d.kind === k.name),
        level,
      ),
    ]),
  );
}

/**
 * GET /v1/me's trainer figures (API.md) over some decisions, as the server counts them over
 * all: for the Trainer filtered to one table, whose figures the server does not split.
 */
export function statsOf(decisions) {
  const deviations = deviationsOf(decisions);
  return {
    ...figures(decisions, "hard"),
    by_kind: kindFigures(decisions),
    expert_mistakes: decisions.filter(isExpertMistake).length,
    expert_ev_lost: twoDecimals(decisions.reduce((sum, d) => sum + Number(d.expert_loss ?? 0) * d.bet, 0)),
    deviations: deviations.length,
    deviations_taken: deviations.filter((d) => d.action === d.expert_best).length,
  };
}

/**
 * The figures of the levels graded by the move alone (GRADES with no loss), over some
 * decisions: how many, and the mistakes against each one's play (the counter's
 * `counter_best`, the chart's `medium_best`).
 * API.md's /v1/me counts neither's mistakes, so the Trainer counts them over the history's
 * decisions.
 */
export function moveFigures(decisions) {
  const byMove = Object.keys(GRADES).filter((level) => GRADES[level].loss === null);
  const mistakes = (level) => decisions.filter((d) => isMistake(d, level)).length;
  return { decisions: decisions.length, ...Object.fromEntries(byMove.map((level) => [level, mistakes(level)])) };
}

/** Share of decisions that were not mistakes; null without decisions. */
export function accuracy(decisions, mistakes) {
  return decisions > 0 ? (decisions - mistakes) / decisions : null;
}

/** A level's spots taken: "3 of 5 (60.0%)"; "—" where the figures do not count them. */
export function spotsTaken(taken, spots) {
  if (spots === undefined || spots === null) return "—";
  if (!spots) return t("trainer.rightOf", { right: taken ?? 0, asked: spots });
  return t("trainer.spotsTaken", { taken: taken ?? 0, spots, share: formatAccuracy((taken ?? 0) / spots) });
}

/** Accuracy over the last `n` decisions (fewer if there are fewer), graded at `level`. */
export function recentAccuracy(decisions, n, level = "hard") {
  const last = decisions.slice(0, n);
  return { n, count: last.length, accuracy: accuracy(last.length, last.filter((d) => isMistake(d, level)).length) };
}

/** Accuracy of each run of `window` decisions over the last `span`, oldest first. */
export function rollingAccuracy(decisions, window, span, level = "hard") {
  const marks = decisions
    .slice(0, span)
    .reverse()
    .map((d) => (isMistake(d, level) ? 0 : 1));
  const out = [];
  let good = 0;
  marks.forEach((mark, i) => {
    good += mark - (i >= window ? marks[i - window] : 0);
    if (i >= window - 1) out.push(good / window);
  });
  return out;
}
