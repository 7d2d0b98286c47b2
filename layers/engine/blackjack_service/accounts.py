"""Accounts: registration, login with a lockout after repeated failures, the profile.

Passwords are hashed with Argon2id. The parameters (19 MiB, 2 passes, 1 lane: the OWASP
minimum for Argon2id) keep a login well under a second on a small Lambda while costing an
attacker memory per guess. An unknown login is checked against a dummy hash, so the
answer time does not tell whether a login exists.

Every attempt is counted (one atomic update) before its password is checked, so parallel
attempts cannot outrun the lockout: a window checks at most five passwords. An attempt
counted past the fifth waits for those before it (polling the count, WAIT_SECONDS at
most): a success clears the count, and the attempt counts again; a fifth failure locks
the login.
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
# An attempt past a full window polls the count until the five logins before it are
# done: about 0.12 s each on the function (template.yaml, SessionsThrottlingRateLimit),
# so the window clears or locks well within a second unless the table is slow. It gives
# up 3 s after the login's first read: the function's 10 s Timeout leaves 7 s for the
# poll in flight and the calls after the wait (the count, the clear or the lock, tens of
# ms each; a call the store gives up on after its 3 s is a 503, not the Timeout's 502).
WAIT_SECONDS = 3.0
POLL_SECONDS = (0.02, 0.5)  # the first pause between polls, doubling up to the second

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
        MAX_FAILURES passwords, and a success clears it."""
        account_id = request.login.lower()
        self._refuse_if_locked(account_id, None, int(self.clock()))
        # One read: a login the table says is locked costs no more, no hash. The profile
        # and the player are as they were then; a wait past it polls the count alone.
        profile, attempts, player = self.store.get_login(account_id)
        counted, now = self._count_attempt(account_id, attempts)
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

    def _count_attempt(
        self, account_id: str, attempts: LoginAttempts | None
    ) -> tuple[LoginAttempts, int]:
        """This attempt counted in a window with room for it, and the time it was counted
        at. While the window is full, the attempt waits for it to be cleared (then counts
        in a new one) or locked, polling the count alone, WAIT_SECONDS at most. Raises
        TooManyAttempts while the login is locked, or when the wait is over."""
        deadline = time.monotonic() + WAIT_SECONDS
        pause, longest_pause = POLL_SECONDS
        while True:
            now = int(self.clock())
            self._refuse_if_locked(account_id, attempts, now)
            if attempts is None or not _window_full(attempts, 0, now):
                counted = self.store.add_login_attempt(account_id, now, LOCK_SECONDS)
                self._refuse_if_locked(account_id, counted, now)
                if not _window_full(counted, 1, now):
                    return counted, now
            if time.monotonic() + pause > deadline:
                raise TooManyAttempts(
                    "too many attempts at once; try again in a second",
                    headers={"Retry-After": "1"},
                )
            time.sleep(pause)
            pause = min(2 * pause, longest_pause)
            attempts = self.store.get_login_attempts(account_id)

    def _refuse_if_locked(self, account_id: str, attempts: LoginAttempts | None, now: int) -> None:
        """Raises TooManyAttempts while the login is locked: as this environment remembers,
        else as `attempts` says (remembered from then on)."""
        if self._locks.get(account_id, 0) > now:
            raise _locked(self._locks[account_id] - now)
        if attempts is not None and attempts.locked_until > now:
            self._remember_lock(account_id, attempts.locked_until, now)
            raise _locked(attempts.locked_until - now)

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


def _window_full(attempts: LoginAttempts, own: int, now: int) -> bool:
    """Whether the login's window already counts MAX_FAILURES attempts besides `own` (this
    attempt's count in `attempts`, 0 or 1): those still checking their password lock the
    login if the fifth fails, or clear the count if one succeeds."""
    window_open = attempts.window_start + LOCK_SECONDS > now
    return window_open and attempts.failures - own >= MAX_FAILURES


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
