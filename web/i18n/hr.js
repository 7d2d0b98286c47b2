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
  // ── end panels ──

  // ── trainer: the trainer, the strategy card, the indices page ──
  // ── end trainer ──

  // ── drills: the drills and the count page ──
  // ── end drills ──
};
