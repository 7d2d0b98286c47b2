// The client's words in Croatian, by key (web/js/i18n.js reads them; web/README.md says how
// to add one). A message's {name} places are filled with values; a message with plural forms
// is an object of Intl.PluralRules categories. Sections follow the client's modules.
export default {
  // ── shell: the header, the login, the lobby, settings, problems, history, verify, offline ──
  "settings.language": "Jezik",
  // ── end shell ──

  // ── table: the felt, the controls, the coach, the drawers, the checkout ──
  // ── end table ──

  // ── rooms: shared tables ──
  // ── end rooms ──

  // ── panels ──
  // panels.js
  "panels.drawer.rules": "Pravila",
  "panels.drawer.fairness": "Pošten šu",
  "panels.drawer.settings": "Postavke",
  "panels.close": "Zatvori: {drawer}",
  "panels.strategy": "Strategija",
  "panels.lobby": "Stolovi",
  "panels.countWords": {
    one: "Hi-Lo brojanje: tekući {running}, pravi {true}, ostala je {count} karta",
    few: "Hi-Lo brojanje: tekući {running}, pravi {true}, ostale su {count} karte",
    other: "Hi-Lo brojanje: tekući {running}, pravi {true}, ostalo je {count} karata",
  },
  "panels.countBeingRead": "Hi-Lo brojanje: učitava se",
  "panels.countEveryRound": "Ovaj stol miješa karte svaku rundu: broje se samo karte ove runde.",
  "panels.countSinceShuffle": "Od miješanja šua.",
  "panels.running": "Tekući",
  "panels.true": "Pravi",
  "panels.cardsLeft": "Preostalo karata",
  "panels.edgeTitle":
    "Vaš očekivani rezultat u sljedećoj rundi uz savršenu igru, za točno one karte koje su ostale u ovom šuu; zatim za novi šu. Prednost na stranici indeksa pri pravom broju prosjek je šua s tim brojem, pa se pri istom pravom broju te dvije razlikuju.",
  "panels.edge": "Prednost",
  "panels.edgeFresh": "novi šu",
  "panels.edgeNote": "Karte ovog šua, ne prosjek sa stranice indeksa",
  "panels.indicesLink": "Indeksna igra za ova pravila",
  "panels.serverSeedHash": "Hash sjemena poslužitelja",
  "panels.clientSeed": "Sjeme klijenta",
  "panels.nonce": "Nonce (redni broj)",
  "panels.cardsOf": "{left} od {total}",
  "panels.cardsOfCutOut": "{left} od {total} · rezna karta je izašla: zadnja runda ovog šua",
  "panels.hashNote":
    "Hash je objavljen prije ijednog uloga na ovaj šu; sjeme poslužitelja otkriva se kad se šu povuče, pa možete ponovno izračunati svaku kartu.",
  "panels.verifyLast": "Provjeri zadnji povučeni šu",
  "panels.noRetiredShoe": "Nijedan vaš šu za ovim stolom još nije povučen.",
  "panels.retiresEveryRound": "Novi šu svaku rundu: ovaj se povlači kad završi sljedeća runda.",
  "panels.retiresCutOut": "Rezna karta je izašla: ovaj se šu povlači kad završi sljedeća runda.",
  "panels.retiresAtCut": "Ovaj se šu povlači nakon runde u kojoj izađe rezna karta.",
  "panels.newShoeSeed": "Novi šu počinje vašim sljedećim dijeljenjem: možete odabrati njegovo sjeme klijenta.",
  "panels.newShoeSeedAndCut": "Novi šu počinje vašim sljedećim dijeljenjem: možete odabrati njegovo sjeme klijenta i postaviti reznu kartu.",
  "panels.clientSeedOptional": "Sjeme klijenta (neobavezno)",
  "panels.cutAt": "Rezna karta na",
  "panels.speed": "Brzina dijeljenja",
  "panels.speed.normal": "Normalna",
  "panels.speed.fast": "Brza",
  "panels.speed.instant": "Trenutna",
  "panels.speedHint": "Trenutna kad sustav traži manje animacija. Klik ili tipka preskače do kraja.",
  "panels.sound": "Zvuk (dijeljenje, žetoni, dobitak)",
  "panels.holdMarks": "Zadrži ocjene odluka do kraja runde",
  "panels.showCount": "Prikaži Hi-Lo brojanje (tekući, pravi, preostale karte) i, između rundi, prednost i Kellyjev ulog",
  "panels.coachLevel": "Razina trenera",
  "panels.coachLevelHint":
    "Savršena igra uzima u obzir karte već viđene u ovom šuu, brojač samo njihov pravi Hi-Lo broj; ostale razine računaju s novim šuom. Ocjene se daju prema razini vašeg trenera.",
  // checkout.js
  "checkout.question.running": "Tekući broj",
  "checkout.question.true": "Pravi broj",
  "checkout.question.bet": "Ulog",
  "checkout.typeAnswer": "Upišite odgovor.",
  "checkout.unread.running": "Cijeli broj s predznakom, npr. +3 ili −2.",
  "checkout.unread.true": "Broj poput +1,5 ili −0,75.",
  "checkout.unread.bet": "Cijeli broj kovanica, npr. 40.",
  "checkout.hiLoTags": "Hi-Lo: 2–6 +1, 7–9 0, desetke i asovi −1",
  "checkout.whySinceShuffle": {
    one: "{count} karta viđena od miješanja ({tags}).",
    few: "{count} karte viđene od miješanja ({tags}).",
    other: "{count} karata viđenih od miješanja ({tags}).",
  },
  "checkout.whyFirstRound": {
    one: "Prva runda šua: njezina {count} karta daje {last} ({tags}).",
    few: "Prva runda šua: njezine {count} karte daju {last} ({tags}).",
    other: "Prva runda šua: njezinih {count} karata daje {last} ({tags}).",
  },
  "checkout.whyLastRound": {
    one: "{before} prije zadnje runde, čija je {count} karta dala {last} ({tags}).",
    few: "{before} prije zadnje runde, čije su {count} karte dale {last} ({tags}).",
    other: "{before} prije zadnje runde, čijih je {count} karata dalo {last} ({tags}).",
  },
  "checkout.whyTrue": {
    one: "Tekući {running} ÷ {decks} preostalih špilova ({count} neviđena karta ÷ {deck}); točno unutar ±{tolerance}.",
    few: "Tekući {running} ÷ {decks} preostalih špilova ({count} neviđene karte ÷ {deck}); točno unutar ±{tolerance}.",
    other: "Tekući {running} ÷ {decks} preostalih špilova ({count} neviđenih karata ÷ {deck}); točno unutar ±{tolerance}.",
  },
  "checkout.rightAt": "točno samo {bet}",
  "checkout.rightFromTo": "točno od {low} do {high} (±{tolerance})",
  "checkout.variance": "varijanca {variance}",
  "checkout.gamesVariance": "varijanca igre",
  "checkout.kellyOf": "stanje {balance} × prednost {edge} ÷ {variance}",
  "checkout.whyHouseEdge": "Prednost je {edge}, u korist kuće: Kelly ne ulaže ništa, pa minimum stola",
  "checkout.whyBelowMinimum": "Kellyjev ulog ({kellyOf}) je {kelly}, ispod minimuma stola",
  "checkout.whyAboveMaximum": "Kellyjev ulog ({kellyOf}) je {kelly}, iznad maksimuma stola",
  "checkout.whyKelly": "Kellyjev ulog: {kellyOf}, zaokruženo naniže",
  "checkout.whyBet": "{why}; {range}.",
  // checkoutpanel.js
  "checkout.asked": "Provjera: tekući broj, pravi broj i vaš ulog?",
  "checkout.title": "Provjera",
  "checkout.ask": "Broj i vaš ulog za sljedeću rundu?",
  "checkout.askBadgeHidden": "Broj i vaš ulog za sljedeću rundu? Oznaka brojanja skrivena je dok ne odgovorite.",
  "checkout.skip": "Preskoči",
  "checkout.check": "Provjeri",
  "checkout.gradedTitle": "Provjera: točno {right} od {total}",
  "checkout.gradedSaid": "Provjera: točno {right} od {total}.",
  "checkout.answerOf": "{question}:",
  "checkout.markRight": "✓ točno",
  "checkout.markWrong": "✗ netočno",
  "checkout.youSaid": "vaš odgovor {answer}",
  "checkout.continue": "Natrag na uloge",
  "checkout.settings": "Provjera za stolom",
  "checkout.toggle": "Povremeno između rundi pitaj me tekući broj, pravi broj i moj ulog",
  "checkout.tolerance": "Ulog je točan unutar",
  "checkout.toleranceOption": "±{tolerance} preporučenog uloga",
  "checkout.toleranceHint":
    "Otprilike jednom u osam rundi, nikad dvaput zaredom, nikad odmah nakon miješanja (niti gdje se miješa svaku rundu). Ocjenjuje se prema brojanju servisa i Kellyjevu ulogu: tekući broj točno, pravi broj unutar ±{tolerance}. Trener pokazuje kako vam ide.",
  // ── end panels ──

  // ── trainer: the trainer, the strategy card, the indices page ──
  // ── end trainer ──

  // ── drills: the drills and the count page ──
  // ── end drills ──
};
