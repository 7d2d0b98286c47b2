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

  // ── trainer: the trainer, the strategy card, the indices page ──
  // trainer.js
  "trainer.title": "Trainer",
  "trainer.loading": "Loading…",
  "trainer.accuracy": "Accuracy",
  "trainer.countAndBet": "Count and bet",
  "trainer.recentAccuracy": "Recent accuracy",
  "trainer.perfectPlay": "Perfect play",
  "trainer.latestDeviations": "Latest deviation spots",
  "trainer.latestMistakes": "Latest mistakes",
  "trainer.allTables": "All tables",
  "trainer.table": "Table",
  "trainer.atTable": {
    one: "At {table}: your last {count} decision there (the history's, up to {most}).",
    other: "At {table}: your last {count} decisions there (the history's, up to {most}).",
  },
  "trainer.perfectPlayNote":
    "Perfect play values every action from the cards still unseen in the shoe (the expert level). A deviation is a spot where it differs from basic strategy for a fresh shoe: the cards already seen change the best play.",
  "trainer.deviationsMet": "Deviations met",
  "trainer.deviationsTaken": "Deviations taken",
  "trainer.noDeviations": "No deviation spot in your recent rounds: basic strategy was perfect play every time.",
  "trainer.versus": "v",
  "trainer.spotAgainst": "{hand} against {up}",
  "trainer.round": "Round",
  "trainer.roundOf": "of {hand} against {card}",
  "trainer.roundOfHand": "of {hand} against the dealer",
  "trainer.countAtSpot": { one: "Running {running}, {count} card unseen", other: "Running {running}, {count} cards unseen" },
  "trainer.spot": "Spot",
  "trainer.trueCount": "True count",
  "trainer.basicToPerfect": "Basic → perfect",
  "trainer.you": "You",
  "trainer.coins": { one: "{count} coin", other: "{count} coins" },
  "trainer.deviationsRegion": "Table of the latest deviation spots",
  "trainer.deviationsNote":
    "Where you played basic, what it gave up against perfect play, per unit bet and in coins (a decision is graded against the play taken, so what perfect play gained where you took it is not known). The true count is the shoe's at that decision, from the cards of its earlier rounds and those on the table then; — where a split box leaves it unclear.",
  "trainer.rightOf": "{right} of {asked}",
  "trainer.spotsTaken": "{taken} of {spots} ({share})",
  "trainer.levelsRegion": "Table of the figures at each level",
  "trainer.levelsCaption": "Accuracy, mistakes, EV lost and spots taken at each level",
  "trainer.figure": "Figure",
  "trainer.levelHead.medium": "Chart (medium)",
  "trainer.levelHead.hard": "Exact, fresh shoe (hard)",
  "trainer.levelHead.expert": "Perfect play (expert)",
  "trainer.levelHead.counter": "Index plays (counter)",
  "trainer.levelName.medium": "medium",
  "trainer.levelName.hard": "hard",
  "trainer.levelName.expert": "expert",
  "trainer.levelName.counter": "counter",
  "trainer.yourCoach": "your coach",
  "trainer.yourCoachAside": "(your coach)",
  "trainer.mistakes": "Mistakes",
  "trainer.evLostCoins": "EV lost (coins)",
  "trainer.spotsTakenRow": "Spots taken",
  "trainer.spotsNote":
    "Spots: for perfect play, where the shoe's cards change the best play (deviations); for the counter, where an index play changes the chart's. The chart and the counter are graded by the move alone (the hint gives their plays no EV), so they have no EV lost.",
  "trainer.movesNote": {
    one: "The chart's and the counter's accuracy and mistakes count your last {count} decision, the history's: the API counts neither's mistakes.",
    other: "The chart's and the counter's accuracy and mistakes count your last {count} decisions, the history's: the API counts neither's mistakes.",
  },
  "trainer.intro":
    "The marks, the recent accuracy, the latest mistakes and the figures by kind grade at your coach's level (a table's settings): {level}, {how}",
  "trainer.howEachLevel": "How each level grades: every decision is graded at all four",
  "trainer.byKindTitle": "By kind, {against} ({level}, your coach)",
  "trainer.byKindRegion": "Table of accuracy by kind of decision",
  "trainer.byKindCaption": "Accuracy by kind of decision, {against}",
  "trainer.kind": "Kind",
  "trainer.decisions": "Decisions",
  "trainer.evLost": "EV lost",
  "trainer.byKindNote": "Counted over settled rounds; EV lost in coins; insurance counts insurance, even money and declining them.",
  "trainer.byKindNoteHistory": {
    one: "Counted over your last {count} decision, the history's (the API counts kinds against exact play only); EV lost in coins; insurance counts insurance, even money and declining them.",
    other:
      "Counted over your last {count} decisions, the history's (the API counts kinds against exact play only); EV lost in coins; insurance counts insurance, even money and declining them.",
  },
  "trainer.byKindNoteByMove": {
    one: "Counted over your last {count} decision, the history's (the API counts kinds against exact play only); graded by the move, so no EV lost; insurance counts insurance, even money and declining them.",
    other:
      "Counted over your last {count} decisions, the history's (the API counts kinds against exact play only); graded by the move, so no EV lost; insurance counts insurance, even money and declining them.",
  },
  "trainer.noCheckout":
    "No checkout yet. Turn on “Checkout at the table” in a table's Settings: now and then between rounds it asks the running count, the true count and your bet, and grades them here.",
  "trainer.checkoutRegion": "Table of the count and bet answers",
  "trainer.checkoutCaption": "The count and the bet: right answers at the table's checkouts",
  "trainer.question": "Question",
  "trainer.right": "Right",
  "trainer.checkoutGrade.running": "exactly",
  "trainer.checkoutGrade.true": "within ±0.5",
  "trainer.checkoutGrade.bet": "within your tolerance of the advised bet",
  "trainer.allThree": "All three",
  "trainer.inOneCheckout": "in one checkout",
  "trainer.checkoutNote": {
    one: "Over your last {count} checkout at the table, kept in this browser for this account (skipped ones do not count).",
    other: "Over your last {count} checkouts at the table, kept in this browser for this account (skipped ones do not count).",
  },
  "trainer.recentSummary": "Accuracy: {windows}",
  "trainer.recentWindow": { one: "last {count} decision: {accuracy}", other: "last {count} decisions: {accuracy}" },
  "trainer.recentWindowSoFar": {
    one: "last {count} decision: {accuracy} ({soFar})",
    other: "last {count} decisions: {accuracy} ({soFar})",
  },
  "trainer.soFar": "{count} so far",
  "trainer.lastN": "last {count}",
  "trainer.recentCaption": "Share of decisions that were not mistakes.",
  "trainer.trendCaption": {
    one: "Accuracy of each run of {count} decision, over the last {most}, oldest left.",
    other: "Accuracy of each run of {count} decisions, over the last {most}, oldest left.",
  },
  "trainer.trendEmpty": {
    one: "The trend shows once you have taken {count} decision.",
    other: "The trend shows once you have taken {count} decisions.",
  },
  "trainer.trendLatest": "Latest: {accuracy}.",
  "trainer.noMistakes": "No mistakes in your recent rounds. Well played.",
  "trainer.mistakesRegion": "Table of the latest mistakes",
  "trainer.hand": "Hand",
  "trainer.upCard": "Up card",
  "trainer.best": "Best",
  "trainer.loss": "Loss",
  "trainer.noEv": "({play} has no EV)",
  "trainer.loadingRound": "Loading the round…",
  "trainer.roundUnavailable": "This round is not available: {problem}",
  "trainer.roundAt": "Round at {table}",
  "trainer.roundSettled": "Settled {when} · net {net}",
  "trainer.inPlay": "In play",
  "trainer.boxHand": "Box {box}, hand {hand}",
  "trainer.perfectForShoe": "perfect play for this shoe: {play} {mark}",
  "trainer.back": "Back to the trainer",
  // stats.js
  "stats.kind.hard": "Hard totals",
  "stats.kind.soft": "Soft totals",
  "stats.kind.pairs": "Pairs",
  "stats.kind.insurance": "Insurance",
  // strategy.js
  "strategy.loading": "Loading the strategy card…",
  "strategy.title": "Strategy card: {table}",
  "strategy.notYet": "The strategy card is not available yet.",
  "strategy.unavailable": "The strategy card could not be loaded: {problem}",
  "strategy.lobby": "← Lobby",
  "strategy.toTable": "Play",
  "strategy.playerEv": "Player expected value with perfect play: {ev}% per initial bet",
  "strategy.playerEvHouse": "Player expected value with perfect play: {ev}% per initial bet (house edge {edge}%)",
  "strategy.countsChange": "A card counter changes some of these plays as the true count moves:",
  "strategy.indicesLink": "this table's index plays",
  "strategy.legend": "Legend",
  "strategy.pickCell": "Pick a cell to see the expected value of every action for the two-card hands of that row.",
  "strategy.hand": "Hand",
  "strategy.evPerUnit": "EV per unit bet, best first",
  "strategy.cell": "{row} against {up}: {play}",
  "strategy.noHandValues": "No per-hand values for this cell.",
  "strategy.handDealer": "Hand \\ dealer",
  // indexplays.js
  "indexplays.play.hit": "hit",
  "indexplays.play.stand": "stand",
  "indexplays.play.double": "double",
  "indexplays.play.split": "split",
  "indexplays.play.surrender": "surrender",
  "indexplays.wordsOrMore": "{row} v {up}: {play} at {at} or more (the card says {basic})",
  "indexplays.wordsOrLess": "{row} v {up}: {play} at {at} or less (the card says {basic})",
  "indexplays.insuranceOrMore": "Insurance: take it at {at} or more (the card declines it)",
  "indexplays.insuranceOrLess": "Insurance: take it at {at} or less (the card declines it)",
  "indexplays.decks": { one: "{count} deck", other: "{count} decks" },
  // indices.js
  "indices.loading": "Loading the index plays…",
  "indices.none": "This table has no index plays.",
  "indices.unavailable": "The index plays could not be loaded: {problem}",
  "indices.title": "Index plays: {table}",
  "indices.tables": "← Tables",
  "indices.strategyCard": "Strategy card",
  "indices.toTable": "Play",
  "indices.intro": {
    one: "Hi-Lo, true count = running count ÷ decks unseen. {count} index play, computed for this table's rules on {decks} unseen: at that true count or beyond it, play the index instead of the strategy card.",
    other:
      "Hi-Lo, true count = running count ÷ decks unseen. {count} index plays, computed for this table's rules on {decks} unseen: at that true count or beyond it, play the index instead of the strategy card.",
  },
  "indices.chartTitle": "The chart's index plays",
  "indices.chartNote":
    "A square with a true count is an index: its play (letter) and the true count from which you take it, in colour for the top {top} (every one once all are shown). A letter alone is the card's play, which no count changes. Rows without an index are left out.",
  "indices.shuffleGains": "Counting gains almost nothing here.",
  "indices.shuffleNote": {
    one: "This table shuffles every round, so the count is only of your round's cards: at your first decision at most ±{bound} (three cards of {decks}), and no index further out ever applies. All {count} play together add {coins} coins per 100 rounds at a bet of 100: play the strategy card.",
    other:
      "This table shuffles every round, so the count is only of your round's cards: at your first decision at most ±{bound} (three cards of {decks}), and no index further out ever applies. All {count} plays together add {coins} coins per 100 rounds at a bet of 100: play the strategy card.",
  },
  "indices.rankedNone": "The plays: none adds anything here",
  "indices.rankedTop": { one: "The {count} play worth most", other: "The {count} plays worth most" },
  "indices.rankedAll": "The plays by what they are worth",
  "indices.showTop": "Show the top {count}",
  "indices.showAll": { one: "Show all {count} play", other: "Show all {count} plays" },
  "indices.rankedKey":
    "What each adds, in coins per 100 rounds at a flat bet of 100 (more with a bet spread), over the true counts this table deals: learn them from the top.",
  "indices.noInsurance": "Insurance: no index play at this table.",
  "indices.legend": "The plays' letters",
  "indices.handColumn": "Hand, against the dealer's up card",
  "indices.everyCount": "{play}, at every count",
  "indices.cell": "{row} v {up}: {play}",
  "indices.bankrollError": "A bankroll is a whole number of coins.",
  "indices.edgeTitle": "Your edge by true count",
  "indices.edgeNote":
    "An average shoe at each true count ({decks} unseen). The edge beside the count at the table is your shoe's own, from its exact cards left: at the same true count it can differ from this by tenths of a percent.",
  "indices.bankroll": "Bankroll (coins)",
  "indices.kellyHint": "Kelly bet = bankroll × edge ÷ variance ({variance}), rounded down; 0 where the edge is not positive.",
  "indices.noVariance": "The table's variance could not be loaded: no Kelly bet.",
  "indices.kellyCaption": "Edge and Kelly bet at each true count",
  "indices.trueCount": "True count",
  "indices.edge": "Edge",
  "indices.kellyBet": "Kelly bet",
  "indices.plotTitle": "The player's edge, in percent of the bet, at each true count from {from} to {to}",
  "indices.plotFromTo": "From {first} at true count {from} to {last} at {to}.",
  "indices.plotPositive": "The edge turns positive at {at}.",
  "indices.pointTitle": "True count {at}: edge {edge}",
  "indices.edgeAxis": "Edge, % of the bet",
  // ── end trainer ──

  // ── drills: the drills and the count page ──
  // ── end drills ──
};
