"""Play many rounds and compare the player's result with the exact analysis:
`python -m simulator --table european --level hard --rounds 10000000 [--engine]`."""
