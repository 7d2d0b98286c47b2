"""The blackjack web service, in layers that import downwards only (pyproject.toml's
import contracts): the HTTP edge (`api`), the services built once per environment
(`factories`: `game` at a user's seats, `accounts`), the one data-access class (`store`)
over what is stored (`records`; `migration` moves items stored under earlier keys),
API.md's documents (`problems`, `responses`, `models`, `openapi`), and plain values
(`idempotency`: a retried request's key as the player item keeps it). The engine
(`blackjack`) knows nothing of this package. AWS is called by `store`, and through
Powertools by `tokens`."""
