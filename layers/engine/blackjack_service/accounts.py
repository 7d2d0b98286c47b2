"""Accounts: registration, login with a lockout after repeated failures, the profile.

Passwords are hashed with Argon2id. The parameters (19 MiB, 2 passes, 1 lane: the OWASP
minimum for Argon2id) keep a login well under a second on a small Lambda while costing an
attacker memory per guess. An unknown login is checked against a dummy hash, so the
answer time does not tell whether a login exists.
"""

import functools
import math
import time
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from blackjack.money import to_json as money
from blackjack.rules import TABLES

from .errors import BadCredentials, TooManyAttempts, Unauthorized
from .identity import Identity
from .models import RegisterRequest, SessionRequest
from .records import GRADE_FIELDS, Grades, LoginAttempts, Profile
from .store import Store
from .tokens import issue

STARTING_BALANCE = Decimal(10000)
CENT = Decimal("0.01")
MAX_FAILURES = 5
LOCK_SECONDS = 15 * 60

_HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)


@functools.cache
def _dummy_hash() -> str:
    return _HASHER.hash("not-a-password-of-anyone")


class AccountService:
    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    def register(self, request: RegisterRequest) -> dict[str, Any]:
        profile = Profile(
            login=request.login,
            nick=request.nick,
            password_hash=_HASHER.hash(request.password),
            balance=STARTING_BALANCE,
        )
        self.store.create_profile(profile)  # LoginTaken on a case-insensitive duplicate
        return {"login": profile.login, "nick": profile.nick, "balance": money(profile.balance)}

    def login(self, request: SessionRequest) -> dict[str, Any]:
        key = request.login.lower()
        now = int(self.clock())
        profile, attempts, player = self.store.get_login(key)
        if attempts is not None and attempts.locked_until > now:
            retry = attempts.locked_until - now
            raise TooManyAttempts(
                f"too many failed logins; try again in {retry} seconds",
                headers={"Retry-After": str(retry)},
            )
        if not self._password_matches(profile, request.password):
            self._count_failure(key, attempts, now)
            raise BadCredentials("wrong login or password")
        assert profile is not None
        if attempts is not None:
            self.store.clear_login_attempts(key)
        token, expires_in = issue(Identity(login=profile.login, nick=profile.nick), now)
        balance = profile.balance if player is None else player.balance
        return {
            "token": token,
            "token_type": "Bearer",
            "expires_in": expires_in,
            "user": {"login": profile.login, "nick": profile.nick, "balance": money(balance)},
            "tables": [table.as_dict() for table in TABLES.values()],
        }

    def me(self, identity: Identity) -> dict[str, Any]:
        profile, player = self.store.get_account(identity.key)
        if profile is None:
            raise Unauthorized("this account no longer exists")
        # Before the player's first write, the profile holds the balance and the stats.
        balance, stats = (
            (profile.balance, profile.stats) if player is None else (player.balance, player.stats)
        )
        return {
            "login": profile.login,
            "nick": profile.nick,
            "balance": money(balance),
            "stats": {
                **{name: _number(total) for name, total in stats.totals().items()},
                **_grades_view(*stats.by_kind.values()),
                "by_kind": {str(kind): _grades_view(g) for kind, g in stats.by_kind.items()},
            },
        }

    @staticmethod
    def _password_matches(profile: Profile | None, password: str) -> bool:
        stored = _dummy_hash() if profile is None else profile.password_hash
        try:
            _HASHER.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False
        return profile is not None

    def _count_failure(self, key: str, attempts: LoginAttempts | None, now: int) -> None:
        """Failures count within a 15-minute window from the first; the 5th locks the login
        for 15 minutes. The item expires (TTL) once neither window nor lock matters."""
        if attempts is None or attempts.window_start + LOCK_SECONDS <= now:
            attempts = LoginAttempts(failures=0, window_start=now, locked_until=0)
        attempts.failures += 1
        if attempts.failures >= MAX_FAILURES:
            attempts.locked_until = now + LOCK_SECONDS
        expires_at = max(attempts.window_start + LOCK_SECONDS, attempts.locked_until)
        self.store.put_login_attempts(key, attempts, expires_at=math.ceil(expires_at) + 60)


def _number(value: int | Decimal) -> int | float:
    return money(value) if isinstance(value, Decimal) else value


def _grades_view(*grades: Grades) -> dict[str, Any]:
    """The trainer's figures of API.md over `grades`, summed: amounts (ev_lost) are rounded
    to cents only here."""
    sums = {name: sum(getattr(g, name) for g in grades) for name in GRADE_FIELDS}
    return {
        name: money(total.quantize(CENT)) if isinstance(total, Decimal) else total
        for name, total in sums.items()
    }
