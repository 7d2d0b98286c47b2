// Runtime configuration. The deploy step rewrites this file; locally the API is on the same origin.
window.BLACKJACK_CONFIG = { apiBase: "" };
