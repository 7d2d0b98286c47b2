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

  // ── trainer: the trainer, the strategy card, the indices page ──
  // ── end trainer ──

  // ── drills: the drills and the count page ──
  // ── end drills ──
};
