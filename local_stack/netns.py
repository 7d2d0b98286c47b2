"""Run inside DynamoDB Local's own network namespace: `python -I netns.py ...` after
`unshare --net`. Standard library only, nothing of the stack: it starts before the JVM
on every (re)start.

    netns.py PARENT_PID SOCKET PORT -- JAVA_COMMAND...
    netns.py --check

It brings the namespace's loopback up, binds the Unix socket SOCKET (0600, in the
stack's private data folder), forks the broker that answers each connection on SOCKET
with a TCP socket connected to the JVM on the namespace's 127.0.0.1:PORT, and becomes the
JVM (exec), so that the stack's child is the JVM itself. No other address exists in the
namespace: nothing outside it reaches the JVM but through SOCKET, which only the stack's
user can open.

No process is left behind: this one (then the JVM) is killed when the stack's thread
that started it ends, and the broker when the JVM ends (PR_SET_PDEATHSIG).
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import signal
import socket
import struct
import sys
from collections.abc import Callable
from typing import NoReturn

_PR_SET_PDEATHSIG = 1
_SIOCGIFFLAGS = 0x8913
_SIOCSIFFLAGS = 0x8914
_IFF_UP = 0x1


def _libc_prctl() -> Callable[..., int] | None:
    try:
        return getattr(ctypes.CDLL(None, use_errno=True), "prctl", None)
    except OSError:
        return None


# Looked up once, at import, in the parent: a child between fork and exec (a preexec_fn)
# calls it and nothing more (ctypes.util.find_library would run ldconfig there).
_PRCTL = _libc_prctl()


def signal_on_parent_death(signum: int) -> bool:
    """Have the kernel send signum to this process when its parent (thread) ends.

    Linux only (prctl PR_SET_PDEATHSIG); False where it is not available."""
    return _PRCTL is not None and _PRCTL(_PR_SET_PDEATHSIG, signum, 0, 0, 0) == 0


def die_with_parent(parent: int) -> None:
    """Be killed when the thread that started us ends; end now if it already has."""
    signal_on_parent_death(signal.SIGKILL)
    if os.getppid() != parent:  # it ended before prctl: nobody would kill us
        os._exit(1)


def bring_loopback_up() -> None:
    """`ip link set lo up`, which a new network namespace needs and `ip` may be missing."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sh14x", b"lo", 0)
        (flags,) = struct.unpack_from("h", fcntl.ioctl(sock, _SIOCGIFFLAGS, request), 16)
        fcntl.ioctl(sock, _SIOCSIFFLAGS, struct.pack("16sh14x", b"lo", flags | _IFF_UP))


def listen_on(path: str) -> socket.socket:
    """A Unix socket at path that only its owner may connect to (a stale one replaced)."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    os.chmod(path, 0o600)
    listener.listen(128)
    return listener


def broker(listener: socket.socket, port: int) -> NoReturn:
    """For each connection on the Unix socket, connect to the JVM and pass the connected
    TCP socket back (SCM_RIGHTS): the stack talks to the JVM on it directly, and this
    process is in no request's way. A socket keeps its namespace wherever it is used."""
    while True:
        client, _ = listener.accept()
        with client:
            try:
                upstream = socket.create_connection(("127.0.0.1", port))
            except OSError:
                continue  # the JVM is not up yet: the caller gets no socket
            with upstream:
                upstream.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                with contextlib.suppress(OSError):  # the caller gave up waiting
                    socket.send_fds(client, [b"."], [upstream.fileno()])


def main(argv: list[str]) -> int:
    if argv == ["--check"]:  # can a namespace be had here, its loopback up included?
        bring_loopback_up()
        return 0
    parent, path, port, separator, *command = argv
    if separator != "--" or not command:
        print(__doc__, file=sys.stderr)
        return 2
    # A new user namespace may clear the parent-death signal the stack set: set it again.
    die_with_parent(int(parent))
    bring_loopback_up()
    listener = listen_on(path)
    launcher = os.getpid()
    if os.fork() == 0:
        die_with_parent(launcher)  # the launcher is about to become the JVM
        broker(listener, int(port))
    listener.close()
    return os.execv(command[0], command)  # this process becomes the JVM


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
