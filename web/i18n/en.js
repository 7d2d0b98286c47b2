// The client's words in English, by key (web/js/i18n.js reads them; web/README.md says how
// to add one). A message's {name} places are filled with values; a message with plural forms
// is an object of Intl.PluralRules categories. Sections follow the client's modules.
export default {
  // ── shell: the header, the login, the lobby, settings, problems, history, verify, offline ──
  "settings.language": "Language",
  // ── end shell ──

  // ── table: the felt, the controls, the coach, the drawers, the checkout ──
  // ── end table ──

  // ── rooms: shared tables ──
  // ── end rooms ──

  // ── panels ──
  // panels.js
  "panels.drawer.rules": "Rules",
  "panels.drawer.fairness": "Fair shoe",
  "panels.drawer.settings": "Settings",
  "panels.close": "Close {drawer}",
  "panels.strategy": "Strategy",
  "panels.lobby": "Lobby",
  "panels.countWords": {
    one: "Hi-Lo count: running {running}, true {true}, {count} card left",
    other: "Hi-Lo count: running {running}, true {true}, {count} cards left",
  },
  "panels.countBeingRead": "Hi-Lo count: being read",
  "panels.countEveryRound": "This table shuffles every round: the count is of this round's cards.",
  "panels.countSinceShuffle": "Since the shoe was shuffled.",
  "panels.running": "Running",
  "panels.true": "True",
  "panels.cardsLeft": "Cards left",
  "panels.edgeTitle":
    "Your expected result on the next round with perfect play, for the exact cards left in this shoe; then for a fresh shoe. The Indices page's edge at a true count is an average shoe's at that count, so at the same true count the two differ.",
  "panels.edge": "Edge",
  "panels.edgeFresh": "fresh",
  "panels.edgeNote": "This shoe's own cards, not the Indices page's average",
  "panels.indicesLink": "Index plays for these rules",
  "panels.serverSeedHash": "Server seed hash",
  "panels.clientSeed": "Client seed",
  "panels.nonce": "Nonce",
  "panels.cardsOf": "{left} of {total}",
  "panels.cardsOfCutOut": "{left} of {total} · cut card is out: last round of this shoe",
  "panels.hashNote":
    "The hash is committed before any bet on this shoe; the server seed is revealed when the shoe is retired, so you can recompute every card.",
  "panels.verifyLast": "Verify the last retired shoe",
  "panels.noRetiredShoe": "No shoe of yours has retired at this table yet.",
  "panels.retiresEveryRound": "A fresh shoe every round: this one retires when the next round ends.",
  "panels.retiresCutOut": "The cut card is out: this shoe retires when the next round ends.",
  "panels.retiresAtCut": "This shoe retires after the round in which the cut card comes out.",
  "panels.newShoeSeed": "A new shoe starts with your next deal: you may choose its client seed.",
  "panels.newShoeSeedAndCut": "A new shoe starts with your next deal: you may choose its client seed and place the cut card.",
  "panels.clientSeedOptional": "Client seed (optional)",
  "panels.cutAt": "Cut card at",
  "panels.speed": "Dealing speed",
  "panels.speed.normal": "Normal",
  "panels.speed.fast": "Fast",
  "panels.speed.instant": "Instant",
  "panels.speedHint": "Instant when your system asks for reduced motion. A click or key skips to the end.",
  "panels.sound": "Sound (deal, chips, win)",
  "panels.holdMarks": "Hold the decision marks until the round ends",
  "panels.showCount": "Show the Hi-Lo count (running, true, cards left) and, between rounds, the edge and the Kelly bet",
  "panels.coachLevel": "Coach level",
  "panels.coachLevelHint":
    "Perfect play weighs the cards already seen in this shoe, the counter only their Hi-Lo true count; the others value a fresh shoe. The marks grade against your coach's level.",
  // checkout.js
  "checkout.question.running": "Running count",
  "checkout.question.true": "True count",
  "checkout.question.bet": "Bet",
  "checkout.typeAnswer": "Type your answer.",
  "checkout.unread.running": "A whole number with its sign, like +3 or −2.",
  "checkout.unread.true": "A number like +1.5 or −0.75.",
  "checkout.unread.bet": "Whole coins, like 40.",
  "checkout.hiLoTags": "Hi-Lo: 2–6 +1, 7–9 0, tens and aces −1",
  "checkout.whySinceShuffle": {
    one: "The {count} card seen since the shuffle ({tags}).",
    other: "The {count} cards seen since the shuffle ({tags}).",
  },
  "checkout.whyFirstRound": {
    one: "The shoe's first round: its {count} card counted {last} ({tags}).",
    other: "The shoe's first round: its {count} cards counted {last} ({tags}).",
  },
  "checkout.whyLastRound": {
    one: "{before} before the last round, whose {count} card counted {last} ({tags}).",
    other: "{before} before the last round, whose {count} cards counted {last} ({tags}).",
  },
  "checkout.whyTrue": {
    one: "Running {running} ÷ {decks} decks left ({count} card unseen ÷ {deck}); right within ±{tolerance}.",
    other: "Running {running} ÷ {decks} decks left ({count} cards unseen ÷ {deck}); right within ±{tolerance}.",
  },
  "checkout.rightAt": "right at {bet} exactly",
  "checkout.rightFromTo": "right from {low} to {high} (±{tolerance})",
  "checkout.variance": "variance {variance}",
  "checkout.gamesVariance": "the game's variance",
  "checkout.kellyOf": "balance {balance} × edge {edge} ÷ {variance}",
  "checkout.whyHouseEdge": "The edge is {edge}, the house's: Kelly bets nothing, so the table minimum",
  "checkout.whyBelowMinimum": "Kelly's bet ({kellyOf}) is {kelly}, below the table minimum",
  "checkout.whyAboveMaximum": "Kelly's bet ({kellyOf}) is {kelly}, above the table maximum",
  "checkout.whyKelly": "Kelly's bet: {kellyOf}, rounded down",
  "checkout.whyBet": "{why}; {range}.",
  // checkoutpanel.js
  "checkout.asked": "Checkout: the running count, the true count and your bet?",
  "checkout.title": "Checkout",
  "checkout.ask": "The count and your bet for the next round?",
  "checkout.askBadgeHidden": "The count and your bet for the next round? The badge is hidden until you answer.",
  "checkout.skip": "Skip",
  "checkout.check": "Check",
  "checkout.gradedTitle": "Checkout: {right} of {total} right",
  "checkout.gradedSaid": "Checkout: {right} of {total} right.",
  "checkout.answerOf": "{question}:",
  "checkout.markRight": "✓ right",
  "checkout.markWrong": "✗ wrong",
  "checkout.youSaid": "you said {answer}",
  "checkout.continue": "Back to the bets",
  "checkout.settings": "Checkout at the table",
  "checkout.toggle": "Now and then between rounds, ask me the running count, the true count and my bet",
  "checkout.tolerance": "A bet is right within",
  "checkout.toleranceOption": "±{tolerance} of the advised bet",
  "checkout.toleranceHint":
    "About one round in eight, never two in a row, never at a shoe just shuffled (nor where every round is). Graded against the service's count and Kelly bet: the running count exactly, the true count within ±{tolerance}. The Trainer shows how you did.",
  // ── end panels ──

  // ── trainer: the trainer, the strategy card, the indices page ──
  // ── end trainer ──

  // ── drills: the drills and the count page ──
  // ── end drills ──
};
