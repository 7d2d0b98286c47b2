"""The blackjack web service: HTTP shaping (`http`), accounts and tokens (`accounts`,
`tokens`), the game at a user's seat (`game`), and the one data-access class (`store`).
The engine (`blackjack`) knows nothing of this package; only `store` touches AWS."""
