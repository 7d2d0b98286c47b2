"""Typed errors: each carries the API error code it maps to (API.md)."""


class GameError(Exception):
    """A request the rules refuse; `code` is the API's error code, the message says why."""

    code = "game_error"


class IllegalAction(GameError):
    code = "illegal_action"


class BetOutOfLimits(GameError):
    code = "bet_out_of_limits"


class InvalidAmount(GameError):
    """An amount of the wrong step or range, or an amount where none is allowed."""

    code = "validation_error"
