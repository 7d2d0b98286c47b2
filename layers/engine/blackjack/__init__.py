"""The blackjack engine: pure Python, no AWS. Rules are data (`rules.TABLES`), a round is a
state machine (`round.Round`), money is exact (`Decimal`), shoes are provably fair
(`fairness`, `shoe.Shoe`), the legal actions are one rule (`turn`), and AI players see
only what a player at the table sees (`turn.PlayerView`, `players`)."""
