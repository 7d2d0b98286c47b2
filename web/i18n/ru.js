// The client's words in Russian, by key (web/js/i18n.js reads them; web/README.md says how
// to add one). A message's {name} places are filled with values; a message with plural forms
// is an object of Intl.PluralRules categories. Sections follow the client's modules.
export default {
  // ── shell: the header, the login, the lobby, settings, problems, history, verify, offline ──
  "settings.language": "Язык",
  // ── end shell ──

  // ── table: the felt, the controls, the coach, the drawers, the checkout ──
  // ── end table ──

  // ── rooms: shared tables ──
  // ── end rooms ──

  // ── panels ──
  // panels.js
  "panels.drawer.rules": "Правила",
  "panels.drawer.fairness": "Честный шуз",
  "panels.drawer.settings": "Настройки",
  "panels.close": "Закрыть: {drawer}",
  "panels.strategy": "Стратегия",
  "panels.lobby": "Столы",
  "panels.countWords": {
    one: "Счёт Hi-Lo: текущий {running}, истинный {true}, осталась {count} карта",
    few: "Счёт Hi-Lo: текущий {running}, истинный {true}, осталось {count} карты",
    many: "Счёт Hi-Lo: текущий {running}, истинный {true}, осталось {count} карт",
    other: "Счёт Hi-Lo: текущий {running}, истинный {true}, осталось {count} карты",
  },
  "panels.countBeingRead": "Счёт Hi-Lo: загружается",
  "panels.countEveryRound": "Этот стол тасует каждый раунд: счёт идёт только по картам этого раунда.",
  "panels.countSinceShuffle": "С момента тасовки шуза.",
  "panels.running": "Текущий",
  "panels.true": "Истинный",
  "panels.cardsLeft": "Осталось карт",
  "panels.edgeTitle":
    "Ваш ожидаемый результат в следующем раунде при идеальной игре — для точного состава карт, оставшихся в этом шузе; затем для нового шуза. Преимущество на странице индексов при истинном счёте — среднее для шуза с таким счётом, поэтому при одном и том же истинном счёте они различаются.",
  "panels.edge": "Преимущество",
  "panels.edgeFresh": "новый шуз",
  "panels.edgeNote": "По картам этого шуза, а не среднее со страницы индексов",
  "panels.indicesLink": "Индексная игра для этих правил",
  "panels.serverSeedHash": "Хеш серверного сида",
  "panels.clientSeed": "Клиентский сид",
  "panels.nonce": "Nonce (номер)",
  "panels.cardsOf": "{left} из {total}",
  "panels.cardsOfCutOut": "{left} из {total} · подрезная карта вышла: последний раунд этого шуза",
  "panels.hashNote":
    "Хеш зафиксирован до первой ставки на этот шуз; серверный сид раскрывается, когда шуз выходит из игры, — так вы можете пересчитать каждую карту.",
  "panels.verifyLast": "Проверить последний шуз",
  "panels.noRetiredShoe": "За этим столом ни один ваш шуз ещё не вышел из игры.",
  "panels.retiresEveryRound": "Новый шуз каждый раунд: этот выйдет из игры, когда закончится следующий раунд.",
  "panels.retiresCutOut": "Подрезная карта вышла: шуз выйдет из игры, когда закончится следующий раунд.",
  "panels.retiresAtCut": "Шуз выйдет из игры после раунда, в котором выйдет подрезная карта.",
  "panels.newShoeSeed": "Новый шуз начнётся с вашей следующей раздачи: вы можете задать его клиентский сид.",
  "panels.newShoeSeedAndCut": "Новый шуз начнётся с вашей следующей раздачи: вы можете задать его клиентский сид и положить подрезную карту.",
  "panels.clientSeedOptional": "Клиентский сид (необязательно)",
  "panels.cutAt": "Подрезная карта на",
  "panels.speed": "Скорость раздачи",
  "panels.speed.normal": "Обычная",
  "panels.speed.fast": "Быстрая",
  "panels.speed.instant": "Мгновенная",
  "panels.speedHint": "Мгновенная, если система просит меньше анимации. Щелчок или клавиша — сразу к концу.",
  "panels.sound": "Звук (раздача, фишки, выигрыш)",
  "panels.holdMarks": "Показывать оценки решений только после раунда",
  "panels.showCount": "Показывать счёт Hi-Lo (текущий, истинный, осталось карт), а между раундами — преимущество и ставку по Келли",
  "panels.coachLevel": "Уровень тренера",
  "panels.coachLevelHint":
    "Идеальная игра учитывает карты, уже вышедшие из этого шуза, счётчик — только их истинный счёт Hi-Lo; остальные уровни считают шуз новым. Оценки ставятся по уровню вашего тренера.",
  // checkout.js
  "checkout.question.running": "Текущий счёт",
  "checkout.question.true": "Истинный счёт",
  "checkout.question.bet": "Ставка",
  "checkout.typeAnswer": "Введите ответ.",
  "checkout.unread.running": "Целое число со знаком, например +3 или −2.",
  "checkout.unread.true": "Число, например +1,5 или −0,75.",
  "checkout.unread.bet": "Целое число монет, например 40.",
  "checkout.hiLoTags": "Hi-Lo: 2–6 +1, 7–9 0, десятки и тузы −1",
  "checkout.whySinceShuffle": {
    one: "{count} карта, вышедшая после тасовки ({tags}).",
    few: "{count} карты, вышедшие после тасовки ({tags}).",
    many: "{count} карт, вышедших после тасовки ({tags}).",
    other: "{count} карты, вышедшие после тасовки ({tags}).",
  },
  "checkout.whyFirstRound": {
    one: "Первый раунд шуза: его {count} карта дала {last} ({tags}).",
    few: "Первый раунд шуза: его {count} карты дали {last} ({tags}).",
    many: "Первый раунд шуза: его {count} карт дали {last} ({tags}).",
    other: "Первый раунд шуза: его {count} карты дали {last} ({tags}).",
  },
  "checkout.whyLastRound": {
    one: "{before} до последнего раунда, в котором {count} карта дала {last} ({tags}).",
    few: "{before} до последнего раунда, в котором {count} карты дали {last} ({tags}).",
    many: "{before} до последнего раунда, в котором {count} карт дали {last} ({tags}).",
    other: "{before} до последнего раунда, в котором {count} карты дали {last} ({tags}).",
  },
  "checkout.whyTrue": {
    one: "Текущий {running} ÷ {decks} колоды в остатке ({count} невышедшая карта ÷ {deck}); верно в пределах ±{tolerance}.",
    few: "Текущий {running} ÷ {decks} колоды в остатке ({count} невышедшие карты ÷ {deck}); верно в пределах ±{tolerance}.",
    many: "Текущий {running} ÷ {decks} колоды в остатке ({count} невышедших карт ÷ {deck}); верно в пределах ±{tolerance}.",
    other: "Текущий {running} ÷ {decks} колоды в остатке ({count} невышедшие карты ÷ {deck}); верно в пределах ±{tolerance}.",
  },
  "checkout.rightAt": "верно только {bet}",
  "checkout.rightFromTo": "верно от {low} до {high} (±{tolerance})",
  "checkout.variance": "дисперсия {variance}",
  "checkout.gamesVariance": "дисперсия игры",
  "checkout.kellyOf": "баланс {balance} × преимущество {edge} ÷ {variance}",
  "checkout.whyHouseEdge": "Преимущество {edge} — у казино: по Келли ставка нулевая, поэтому минимум стола",
  "checkout.whyBelowMinimum": "Ставка по Келли ({kellyOf}) — {kelly}, ниже минимума стола",
  "checkout.whyAboveMaximum": "Ставка по Келли ({kellyOf}) — {kelly}, выше максимума стола",
  "checkout.whyKelly": "Ставка по Келли: {kellyOf}, с округлением вниз",
  "checkout.whyBet": "{why}; {range}.",
  // checkoutpanel.js
  "checkout.asked": "Проверка: текущий счёт, истинный счёт и ваша ставка?",
  "checkout.title": "Проверка",
  "checkout.ask": "Счёт и ваша ставка на следующий раунд?",
  "checkout.askBadgeHidden": "Счёт и ваша ставка на следующий раунд? Счётчик скрыт, пока вы не ответите.",
  "checkout.skip": "Пропустить",
  "checkout.check": "Проверить",
  "checkout.gradedTitle": "Проверка: верно {right} из {total}",
  "checkout.gradedSaid": "Проверка: верно {right} из {total}.",
  "checkout.answerOf": "{question}:",
  "checkout.markRight": "✓ верно",
  "checkout.markWrong": "✗ неверно",
  "checkout.youSaid": "ваш ответ {answer}",
  "checkout.continue": "К ставкам",
  "checkout.settings": "Проверка за столом",
  "checkout.toggle": "Иногда между раундами спрашивать текущий счёт, истинный счёт и мою ставку",
  "checkout.tolerance": "Ставка верна в пределах",
  "checkout.toleranceOption": "±{tolerance} от советуемой ставки",
  "checkout.toleranceHint":
    "Примерно раз в восемь раундов, никогда два раза подряд и никогда сразу после тасовки (и не там, где тасуют каждый раунд). Сверяется со счётом сервиса и ставкой по Келли: текущий счёт — точно, истинный — в пределах ±{tolerance}. Результаты — в Тренажёре.",
  // ── end panels ──

  // ── trainer: the trainer, the strategy card, the indices page ──
  // ── end trainer ──

  // ── drills: the drills and the count page ──
  // ── end drills ──
};
