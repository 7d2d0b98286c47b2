// The felt: the dealer's cards, each box (its hands, or its betting circle between rounds),
// the round's status and result. Cards appear as they land (pacing.js). At a shared table
// (room.js) `ctl.room` names each box's owner, draws the boxes between rounds and words
// the status; its boxes are the user's when `ctl.room.owner` says so, not by `player`.

import { placeBets } from "./controls.js";
import { card, h } from "./dom.js";
import {
  cardsTotal,
  chipStack,
  dealerTotalLabel,
  decisionMark,
  formatCoins,
  formatSigned,
  GRADES,
  gradeOf,
  gradeWords,
  handTotalLabel,
  insuranceLine,
  levelName,
  netSentence,
  resultLabel,
  resultTone,
  roundStatusLabel,
  statusLabel,
} from "./format.js";
import { t } from "./i18n.js";
import { chipValues } from "./input.js";
import { dealerDraws, feltCards, slotOf } from "./pacing.js";
import { tableCapabilities } from "./rules.js";
import { AI_LEVELS, settings } from "./settings.js";

export function renderFelt(ctl) {
  const S = ctl.state;
  const r = S.round;
  const betting = !r || (r.status === "settled" && !S.pace);
  const landed = feltCards(r, S.shown);
  const fresh = r && S.justLanded ? slotOf(r, S.justLanded) : null;
  const boxNumbers = betting ? Array.from({ length: tableCapabilities(S.table).boxes }, (_, n) => n) : (r.boxes || []).map((b) => b.box);
  const boxes = boxNumbers.map((n) => renderBox(ctl, n, (r?.boxes || []).find((b) => b.box === n) || null, landed, betting, fresh));
  return h("div", { class: "felt", testid: "felt", onclick: ctl.skip }, renderDealer(r, landed, !S.pace, fresh), renderBoxRow(boxes), renderStatus(ctl, r));
}

function renderBoxRow(boxes) {
  // A region of its own, that a keyboard reaches even while no box holds a control (the
  // cards of a settling round).
  return h("div", { class: "boxes", testid: "boxes", role: "region", "aria-label": t("felt.boxes"), tabindex: "0" }, boxes);
}

/**
 * The box in turn, and a split box's hand in turn, brought into view should their row
 * scroll sideways (the boxes and the hands wrap into rows instead, felt.css: a guard).
 */
export function showTurnBox(main) {
  const turn = main.querySelector(".box-turn");
  const row = turn?.parentElement;
  // A box split wider than the row scrolls its hands: the hand in turn comes into view there.
  const hand = turn?.querySelector(".hand-turn");
  const hands = hand?.parentElement;
  if (hands && hands.scrollWidth > hands.clientWidth) {
    const left = hand.getBoundingClientRect().left - hands.getBoundingClientRect().left + hands.scrollLeft;
    hands.scrollLeft = left - (hands.clientWidth - hand.offsetWidth) / 2;
  }
  if (!turn || row.scrollWidth <= row.clientWidth) return;
  row.scrollLeft = turn.offsetLeft - (row.clientWidth - turn.offsetWidth) / 2; // .boxes is the offset parent there
}

function renderDealer(r, landed, complete, fresh) {
  const d = r?.dealer;
  const cards = landed.dealer.map((code, i) => {
    const landing = fresh?.place === "dealer" && fresh.index === i;
    return card(code, { fresh: landing, flip: landing && !!fresh.turn });
  });
  const faces = landed.dealer.filter(Boolean);
  const total = !d
    ? ""
    : complete
      ? dealerTotalLabel(d)
      : faces.length
        ? dealerTotalLabel({ cards: faces, hidden: landed.dealer.length - faces.length, ...cardsTotal(faces) })
        : "";
  return h(
    "div",
    { class: "dealer-area", testid: "dealer" },
    h("div", { class: "label" }, `${t("felt.dealer")} `, total ? h("span", { class: "total", testid: "dealer-total" }, total) : null),
    h("div", { class: `cards ${cards.length ? "" : "empty"}` }, cards),
  );
}

function renderStatus(ctl, r) {
  const S = ctl.state;
  const complete = r && !S.pace;
  const settled = complete && r.status === "settled";
  const net = settled && r.net !== null && r.net !== undefined ? Number(r.net) : null;
  let words = ctl.room ? ctl.room.status() : roundStatusLabel(r);
  if (S.pace) words = pacedWords(ctl, r, S.justLanded ? slotOf(r, S.justLanded) : null);
  return h(
    "div",
    { class: `status-line ${settled ? "settled" : ""}` },
    h("p", { class: "round-status", testid: "round-status", dataset: { status: r ? r.status : "none" } }, words),
    h(
      "p",
      { class: "busy", id: "busy", testid: "busy", role: "status", hidden: true },
      h("span", { class: "spinner", "aria-hidden": "true" }),
      t("felt.waiting"),
    ),
    ctl.room ? ctl.room.countdown() : null,
    h("p", { class: `round-net ${net > 0 ? "pos" : net < 0 ? "neg" : ""}`, testid: "round-result" }, net !== null ? netSentence(r.net) : ""),
    net !== null ? h("p", { class: `round-net-figure ${net > 0 ? "pos" : net < 0 ? "neg" : ""}`, testid: "round-net" }, formatSigned(r.net)) : null,
    shoeNews(S, r),
    marksShown(S, r) ? h("p", { class: "marks-note muted small", testid: "marks-note" }, marksNote(settings.coachLevel)) : null,
  );
}

/**
 * The shoe's news, on the felt where the player looks: the cut card is out (this round is
 * the shoe's last, until its last card has landed), or, once that round is over, a new
 * shoe begins. Tables that shuffle every round say it in their rules.
 */
function shoeNews(S, r) {
  const shoe = S.shoe;
  if (!r || !shoe || S.table.rules?.shuffle !== "cut_card") return null;
  // The seat's shoe is already the next one: this is the last round of the shoe before.
  const out = shoe.shoe_id !== r.shoe_id || shoe.cut_card_out;
  const inPlay = r.status !== "settled" || S.pace;
  const news = !out ? null : inPlay ? { kind: "last-round", words: t("felt.lastRound") } : { kind: "new-shoe", words: t("felt.newShoe") };
  return news ? h("p", { class: "shoe-news", testid: "shoe-news", dataset: { news: news.kind } }, news.words) : null;
}

/**
 * What the felt is doing while the cards land, by the card that landed last: an AI box
 * drawing, the dealer playing (a card after the up card, in an answer that settles), or
 * the deal.
 */
function pacedWords(ctl, r, slot) {
  if (slot?.place === "hand") {
    const box = (r.boxes || []).find((b) => b.box === slot.box);
    const owner = box ? ownerOf(ctl, box.box, box) : null;
    return owner && !owner.you ? t("felt.boxPlays", { box: box.box + 1, name: owner.name }) : t("felt.dealing");
  }
  const dealerCard = slot?.place === "dealer" && (slot.turn || slot.index >= 1);
  return dealerCard && r.status === "settled" && dealerDraws(r) ? t("felt.dealerPlays") : t("felt.dealing");
}

/** Whether a mark is on the felt (renderMarks shows them). */
function marksShown(S, r) {
  if (!r || (settings.holdMarks && (r.status !== "settled" || S.pace))) return false;
  return (r.boxes || []).some((b) => b.hands.some((hd) => (hd.decisions || []).length > 0));
}

/** What the marks grade against, as the coach's level (Settings) sets it: one short line on a phone. */
export function marksNote(level) {
  return t("felt.marksNote", { note: GRADES[gradeOf(level)].note, level: levelName(level) });
}

/**
 * Whose box `n` is (`box`: its round's, or null between rounds): `you`, its `label` on the
 * box ("You", "AI · expert", a room's user's nick; "" for a free box) and the `name` the
 * status line gives another's box ("AI expert", the nick).
 */
function ownerOf(ctl, n, box) {
  if (ctl.room) {
    const owner = ctl.room.owner(n);
    return owner ? { you: owner.you, label: owner.you ? t("felt.you") : owner.nick, name: owner.nick } : { you: false, label: "", name: "" };
  }
  const ai = box ? box.player.replace(/^ai:/, "") : ctl.state.slip.ai[n];
  if (!box && !ai) return { you: true, label: "", name: "" };
  return box?.player === "user"
    ? { you: true, label: t("felt.you"), name: t("felt.you") }
    : { you: false, label: t("felt.aiLabel", { level: levelName(ai) }), name: t("felt.aiName", { level: levelName(ai) }) };
}

function renderBox(ctl, n, box, landed, betting, fresh) {
  const S = ctl.state;
  const r = S.round;
  const { you: isUser, label: who } = ownerOf(ctl, n, box);
  const turn = !betting && r.turn && r.turn.box === n && r.status !== "settled";
  const insurance = box ? insuranceLine(box, S.pace ? landed.dealer : null, r?.dealer) : null;
  return h(
    "div",
    {
      class: `box ${isUser ? "box-user" : "box-ai"} ${turn ? "box-turn" : ""} ${box && box.hands.length > 2 ? "box-split" : ""}`,
      testid: box ? `box-${n}` : `empty-box-${n}`,
      "aria-label": who ? t("felt.boxOf", { box: n + 1, who }) : t("box.label", { box: n + 1 }),
    },
    h(
      "div",
      { class: "box-head" },
      h("span", { class: "box-no" }, t("box.label", { box: n + 1 })),
      who ? h("span", { class: "who", translate: ctl.room && !isUser ? "no" : null }, who) : null,
    ),
    insurance ? h("div", { class: "box-extra", testid: `box-insurance-${n}` }, insurance) : null,
    box
      ? h(
          "div",
          box.hands.length > 1 ? { class: "hands", role: "group", "aria-label": `Hands of box ${n + 1}` } : { class: "hands" },
          box.hands.map((hd, hi) => renderHand(S, box, hd, hi, landed, fresh)),
        )
      : null,
    betting ? (ctl.room ? ctl.room.betting(n) : renderBetCircle(ctl, n)) : null,
  );
}

function renderHand(S, box, hd, hi, landed, fresh) {
  const r = S.round;
  const isTurn = r.turn && r.turn.box === box.box && r.turn.hand === hi && r.status === "player_turn";
  const complete = !S.pace;
  const res = complete ? resultLabel(hd) : null;
  const cards = landed.hands[`${box.box}:${hi}`] || [];
  const waiting = hd.status !== "playing" && !hd.result && hd.status !== "blackjack" && hd.status !== "bust";
  return h(
    "div",
    {
      class: `hand ${isTurn ? "hand-turn" : ""}`,
      testid: `hand-${box.box}-${hi}`,
      "aria-current": isTurn ? "true" : null,
      dataset: { status: hd.status, result: complete ? hd.result || "" : "" },
    },
    h(
      "div",
      { class: "cards" },
      cards.map((c, i) => card(c, { fresh: fresh?.place === "hand" && fresh.box === box.box && fresh.hand === hi && fresh.index === i })),
    ),
    h(
      "div",
      { class: "hand-info" },
      h("span", { class: "lbl" }, `${t("felt.total")} `),
      h(
        "span",
        // A phone shows the word before the figure (app.css), the label hidden there.
        { class: "total", testid: `hand-total-${box.box}-${hi}`, dataset: { label: t("felt.total") } },
        complete || cards.length === hd.cards.length ? handTotalLabel(hd) : String(cardsTotal(cards).total),
      ),
      h("span", { class: "lbl" }, ` ${t("felt.bet")} `),
      h(
        "span",
        { class: "hand-bet", testid: `hand-bet-${box.box}-${hi}`, dataset: { label: t("felt.bet") } },
        `${formatCoins(hd.bet)}${hd.doubled ? ` ${t("felt.doubled")}` : ""}`,
      ),
      waiting && complete ? h("span", { class: "muted" }, ` · ${statusLabel(hd.status)}`) : null,
    ),
    res ? h("div", { class: `result result-${resultTone(hd.result)} ${S.fresh.results ? "pop" : ""}`, testid: `hand-result-${box.box}-${hi}` }, res) : null,
    renderMarks(S, hd, box.box, hi),
  );
}

/** The trainer's marks: the last decision's as it is taken, every one once the round is over (or only then). */
function renderMarks(S, hd, n, hi) {
  const decisions = hd.decisions || [];
  if (decisions.length === 0) return null;
  const settled = S.round.status === "settled" && !S.pace;
  if (!settled && settings.holdMarks) return null;
  const shown = settled ? decisions : decisions.slice(-1);
  return h(
    "ul",
    { class: "marks", testid: `marks-${n}-${hi}`, "aria-label": t("felt.marks", { words: gradeWords(settings.coachLevel) }) },
    shown.map((d) => {
      const mark = decisionMark(d, settings.coachLevel);
      return h(
        "li",
        { class: mark.ok ? "mark-ok" : "mark-miss", testid: "mark" },
        // After the move and the better one, the cost: a crowded phone leaves it out (felt.css).
        mark.parts.map((p, i) => (p.wordy ? h("span", { class: "mark-wordy" }, p.text) : i ? h("span", { class: "mark-loss" }, p.text) : p.text)),
      );
    }),
  );
}

export function renderBetCircle(ctl, n) {
  const S = ctl.state;
  const table = S.table;
  const amount = Number(S.slip.bets[n] || 0);
  const ai = S.slip.ai[n] || "";
  const caps = tableCapabilities(table);
  const stack = chipStack(amount, chipValues(table.min_bet, table.max_bet));
  const place = () => placeBets(ctl, { [n]: amount + S.chip }, { chipBox: n });
  return h(
    "div",
    { class: `bet-box ${amount ? "has-bet" : ""}`, testid: `bet-box-${n}` },
    h(
      "button",
      {
        type: "button",
        class: "bet-circle",
        testid: `bet-add-${n}`,
        "data-lock": "on",
        "aria-label": t("felt.addChip", { box: n + 1, chip: formatCoins(S.chip), amount: formatCoins(amount) }),
        onclick: place,
      },
      h(
        "span",
        { class: "stack", "aria-hidden": "true" },
        stack.map((v, i) => h("span", { class: `stack-chip chip-${v} ${S.fresh.chipBox === n && i === stack.length - 1 ? "chip-in" : ""}` })),
      ),
      h(
        "span",
        { class: `bet-amount ${!amount && ai ? "bet-ai" : ""} ${!amount && !ai ? "bet-none" : ""}`, testid: `bet-amount-${n}` },
        amount ? formatCoins(amount) : ai ? t("felt.aiName", { level: levelName(ai) }) : t("felt.bet"),
      ),
    ),
    amount
      ? h(
          "button",
          {
            type: "button",
            class: "btn btn-small btn-ghost bet-clear",
            testid: `bet-clear-${n}`,
            "data-lock": "on",
            "aria-label": t("felt.clearBox", { box: n + 1 }),
            onclick: () => clearBox(ctl, n),
          },
          "×",
        )
      : null,
    caps.canAi && !amount ? renderAiPick(ctl, n, ai) : null,
  );
}

function clearBox(ctl, n) {
  delete ctl.state.slip.bets[n];
  ctl.state.betNote = "";
  ctl.render();
}

function renderAiPick(ctl, n, ai) {
  const S = ctl.state;
  const pick = (e) => {
    if (e.target.value) S.slip.ai[n] = e.target.value;
    else delete S.slip.ai[n];
    ctl.render();
  };
  return h(
    "label",
    { class: "ai-pick" },
    h("span", { class: "sr-only" }, t("felt.aiOnBox", { box: n + 1 })),
    h(
      "select",
      { testid: `ai-level-${n}`, "data-lock": "on", onchange: pick },
      h("option", { value: "", selected: !ai ? true : null }, t("felt.empty")),
      // In an AI's box (which says "AI" already) a level is its word alone: "ИИ лёгкий" and
      // "AI lagani" were cut in a crowded phone's narrow select.
      AI_LEVELS.map((l) => h("option", { value: l, selected: ai === l ? true : null }, ai ? levelName(l) : t("felt.aiName", { level: levelName(l) }))),
    ),
  );
}
