"""The blackjack web service, in layers that import downwards only (pyproject.toml's
import contracts): the HTTP edge (`api`, with `idempotency` for retries), the services
built once per environment (`factories`: `game` at a user's seat, `accounts`), the one
data-access class (`store`) over what is stored (`records`), and API.md's documents
(`problems`, `responses`, `models`, `openapi`). The engine (`blackjack`) knows nothing of
this package. AWS is called by `store`, and through Powertools by `tokens` and
`idempotency`."""
