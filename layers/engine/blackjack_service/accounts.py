"""Accounts: registration, login with a lockout after repeated failures, the profile.

Passwords are hashed with Argon2id. The parameters (19 MiB, 2 passes, 1 lane: the OWASP
minimum for Argon2id) keep a login well under a second on a small Lambda while costing an
attacker memory per guess. An unknown login is checked against a dummy hash, so the
answer time does not tell whether a login exists.

Every attempt is counted (one atomic update) before its password is checked, so parallel
attempts cannot outrun the lockout: a window checks at most five passwords. An attempt
counted past the fifth waits for those before it (polling, a few seconds at most): a
success clears the count, and the attempt counts again; a fifth failure locks the login.
So attempts at once are refused only for failures, as API.md says. A login that is
locked is refused without a hash: from this environment's memory once it has seen the
lock, else from the one read every login makes.
"""

import functools
import time
from collections.abc import Callable
from dataclasses import asdict
from decimal import Decimal
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from blackjack.money import to_json as money
from blackjack.rules import TABLES

from .errors import BadCredentials, NotMigrated, TooManyAttempts, Unauthorized
from .identity import Identity
from .models import RegisterRequest, SessionRequest
from .records import GRADE_FIELDS, ExpertGrades, Grades, LoginAttempts, Player, Profile
from .store import Store
from .tokens import issue

STARTING_BALANCE = Decimal(10000)
CENT = Decimal("0.01")
MAX_FAILURES = 5
LOCK_SECONDS = 15 * 60
LOCKS_REMEMBERED = 10_000  # by an environment: 1.4 MB at most, of logins of 32 characters
# An attempt past a full window waits for the checks before it (a hash each, tens of ms)
# between reads of the count: about three seconds in all, well within a Lambda's ten.
WAITS_SECONDS = (0.02, 0.04, 0.08, 0.16, 0.32, 0.5, 0.5, 0.5, 0.5, 0.5)

_HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)


@functools.cache
def _dummy_hash() -> str:
    return _HASHER.hash("not-a-password-of-anyone")


class AccountService:
    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        # The locks this environment has seen, by login, to their end: a lock ends only
        # then (while it holds even the right password is refused, and a success counted
        # before it does not clear it), so a flood at a locked login is refused from
        # memory, with no read.
        self._locks: dict[str, int] = {}

    def register(self, request: RegisterRequest) -> dict[str, Any]:
        """The profile and the player item, written together: no account is half made."""
        profile = Profile(
            login=request.login, nick=request.nick, password_hash=_HASHER.hash(request.password)
        )
        player = Player(revision=1, balance=STARTING_BALANCE)
        self.store.create_account(profile, player)  # LoginTaken on a case-insensitive duplicate
        return {"login": profile.login, "nick": profile.nick, "balance": money(player.balance)}

    def login(self, request: SessionRequest) -> dict[str, Any]:
        """A token for the right password. Every attempt is counted before its password is
        checked, so parallel attempts cannot outrun the count: a window checks at most
        MAX_FAILURES passwords, and a success clears it. An attempt that finds the window
        full waits for it to be cleared (then counts in a new one) or locked."""
        account_id = request.login.lower()
        for wait in (*WAITS_SECONDS, None):
            now = int(self.clock())
            if self._locks.get(account_id, 0) > now:
                raise _locked(self._locks[account_id] - now)
            profile, attempts, player = self.store.get_login(account_id)
            # a login the table refuses costs this one read, no hash
            if attempts is None or not self._window_full(account_id, attempts, 0, now):
                counted = self.store.add_login_attempt(account_id, now, LOCK_SECONDS)
                if not self._window_full(account_id, counted, 1, now):
                    break
            if wait is None:
                raise TooManyAttempts(
                    "too many attempts at once; try again in a second",
                    headers={"Retry-After": "1"},
                )
            time.sleep(wait)
        if not self._password_matches(profile, request.password):
            if counted.failures == MAX_FAILURES and self.store.lock_login(
                account_id, counted, until=now + LOCK_SECONDS
            ):
                self._remember_lock(account_id, now + LOCK_SECONDS, now)
            raise BadCredentials("wrong login or password")
        assert profile is not None
        self.store.clear_login_attempts(account_id, now)  # the right password, migrated or not
        if player is None:
            raise NotMigrated()
        token, expires_in = issue(Identity(login=profile.login, nick=profile.nick), now)
        return {
            "token": token,
            "token_type": "Bearer",
            "expires_in": expires_in,
            "user": {
                "login": profile.login,
                "nick": profile.nick,
                "balance": money(player.balance),
            },
            "tables": [table.as_dict() for table in TABLES.values()],
        }

    def me(self, identity: Identity) -> dict[str, Any]:
        profile, player = self.store.get_account(identity.account_id)
        if profile is None:
            raise Unauthorized("this account no longer exists")
        if player is None:
            raise NotMigrated()
        stats = player.stats
        return {
            "login": profile.login,
            "nick": profile.nick,
            "balance": money(player.balance),
            "stats": {
                **{name: _number(total) for name, total in stats.totals().items()},
                **_grades_json(*stats.by_kind.values()),
                "by_kind": {str(kind): _grades_json(g) for kind, g in stats.by_kind.items()},
                **_expert_json(stats.expert),
                **asdict(stats.counter),
            },
        }

    def _window_full(self, account_id: str, attempts: LoginAttempts, own: int, now: int) -> bool:
        """Whether the login's window already counts MAX_FAILURES attempts besides `own`
        (this attempt's count in `attempts`, 0 or 1): those still checking their password
        lock the login if the fifth fails, or clear the count if one succeeds. Raises
        TooManyAttempts while the login is locked."""
        if attempts.locked_until > now:
            self._remember_lock(account_id, attempts.locked_until, now)
            raise _locked(attempts.locked_until - now)
        window_open = attempts.window_start + LOCK_SECONDS > now
        return window_open and attempts.failures - own >= MAX_FAILURES

    def _remember_lock(self, account_id: str, until: int, now: int) -> None:
        if len(self._locks) >= LOCKS_REMEMBERED:  # a flood of many logins: keep what holds
            self._locks = {login: end for login, end in self._locks.items() if end > now}
            if len(self._locks) >= LOCKS_REMEMBERED:
                self._locks.clear()
        self._locks[account_id] = until

    @staticmethod
    def _password_matches(profile: Profile | None, password: str) -> bool:
        stored = _dummy_hash() if profile is None else profile.password_hash
        try:
            _HASHER.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False
        return profile is not None


def _locked(retry: int) -> TooManyAttempts:
    return TooManyAttempts(
        f"too many failed logins; try again in {retry} seconds",
        headers={"Retry-After": str(retry)},
    )


def _number(value: int | Decimal) -> int | float:
    return money(value) if isinstance(value, Decimal) else value


def _expert_json(expert: ExpertGrades) -> dict[str, Any]:
    return {
        **asdict(expert),
        "expert_ev_lost": money(expert.expert_ev_lost.quantize(CENT)),
    }


def _grades_json(*grades: Grades) -> dict[str, Any]:
    """The trainer's figures of API.md over `grades`, summed: amounts (ev_lost) are rounded
    to cents only here."""
    sums = {name: sum(getattr(g, name) for g in grades) for name in GRADE_FIELDS}
    return {
        name: money(total.quantize(CENT)) if isinstance(total, Decimal) else total
        for name, total in sums.items()
    }
