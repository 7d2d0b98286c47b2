"""Exact strategy for every table: a combinatorial analysis of the rules (`analysis`,
`dealer`), the shipped strategy cards (`card`, `data/`), and the EVs the `hard` AI and the
hint endpoint use (`advisor`). Nothing is computed or read at import: the cards load on
first use and the solver fills its memo on demand."""

from .advisor import action_values, best_action, best_of, expert_values
from .card import strategy_card

__all__ = ["action_values", "best_action", "best_of", "expert_values", "strategy_card"]
