"""Data lives in DynamoDB Local under DATA_DIR: it survives restarts and a `kill -9` of the
whole stack under load; DATA_DIR is private; conditional writes stay atomic under truly
concurrent requests; `python -m local_stack` stops cleanly and leaves no JVM behind."""

from __future__ import annotations

import http.client
import json
import os
import select
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from local_stack.data_dir import DYNAMODB_DIR
from local_stack.dynamodb_local import free_port
from local_stack.secrets import SECRETS_FILE
from tests.integration.local_stack.harness import TEMPLATE, WEB_DIR, Client, Reply, running_stack

REPO = Path(__file__).resolve().parents[3]
GONE_WITHIN_S = 30


def test_data_survives_a_restart_in_a_private_data_dir(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    with running_stack(data_dir) as first:
        assert first.client.request("POST", "/v1/users", {"login": "alice"}).status == 201
        bumped = first.client.request("POST", "/v1/items/a1/bump", {"expected": 0}, token="user-x")
        assert bumped.status == 200
        first_secret = first.client.request("GET", "/v1/echo/s", token="user-x").json()
    assert sorted(p.name for p in data_dir.iterdir()) == [DYNAMODB_DIR, SECRETS_FILE]
    # it holds the shoes' server seeds and the password hashes: the owner's only
    assert stat.S_IMODE(data_dir.stat().st_mode) == 0o700
    for folder, dirs, files in os.walk(data_dir):
        for name in dirs:
            assert stat.S_IMODE(Path(folder, name).stat().st_mode) == 0o700, name
        for name in files:
            assert stat.S_IMODE(Path(folder, name).stat().st_mode) == 0o600, name
    assert any(Path(data_dir, DYNAMODB_DIR).glob("*.db"))

    with running_stack(data_dir) as second:
        assert second.client.request("POST", "/v1/users", {"login": "ALICE"}).status == 409
        item = second.client.request("GET", "/v1/items/a1", token="user-x")
        assert item.status == 200
        assert int(item.json()["item"]["version"]) == 1
        # the generated secret is the same one (tokens signed before a restart stay valid)
        again = second.client.request("GET", "/v1/echo/s", token="user-x").json()
        assert again["secret_length"] == first_secret["secret_length"] == 48
    secrets = json.loads((data_dir / SECRETS_FILE).read_text())
    assert list(secrets) == ["TokenSecret"]
    assert len(secrets["TokenSecret"]) == 48

    with running_stack(tmp_path / "elsewhere") as fresh:
        assert fresh.client.request("POST", "/v1/users", {"login": "alice"}).status == 201


def _race(client: Client, item: str, expected: int, threads: int) -> list[Reply]:
    barrier = threading.Barrier(threads, timeout=20)
    replies: list[Reply] = []
    lock = threading.Lock()

    def contender() -> None:
        barrier.wait()
        reply = client.request(
            "POST", f"/v1/items/{item}/bump", {"expected": expected}, token="user-r"
        )
        with lock:
            replies.append(reply)

    workers = [threading.Thread(target=contender) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    assert not any(worker.is_alive() for worker in workers)
    return replies


def test_conditional_writes_are_atomic_under_concurrent_requests(tmp_path: Path) -> None:
    with running_stack(tmp_path) as running:
        for expected in (0, 1):
            replies = _race(running.client, "race", expected, threads=24)
            assert len(replies) == 24
            winners = [r for r in replies if r.status == 200]
            assert len(winners) == 1, [r.status for r in replies]
            for reply in replies:
                if reply.status != 200:  # lost the race, or past the function's 10 at once
                    assert (reply.status, reply.json()["code"]) in (
                        (409, "conflict"),
                        (429, "throttled"),
                    ), reply.body
            item = running.client.request("GET", "/v1/items/race", token="user-r").json()["item"]
            assert int(item["version"]) == expected + 1
            assert len(item["winners"]) == expected + 1
            assert item["winners"][-1] == winners[0].json()["me"]


# -- the command ----------------------------------------------------------------------


def _command(data_dir: Path, port: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "local_stack",
        "--template",
        str(TEMPLATE),
        "--port",
        str(port),
        "--data-dir",
        str(data_dir),
        "--web-dir",
        str(WEB_DIR),
    ]


def _wait_until_serving(process: subprocess.Popen[str], port: int) -> None:
    assert process.stdout is not None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], 1)
        if ready:
            line = process.stdout.readline()
            if "is running at" in line:
                assert f"http://127.0.0.1:{port}" in line
                return
            if not line and process.poll() is not None:
                break
    process.kill()
    raise AssertionError(f"the stack did not start: {process.communicate(timeout=10)}")


def _start_cli(data_dir: Path, port: int) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        _command(data_dir, port),
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    _wait_until_serving(process, port)
    return process


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        found.extend(int(child) for child in task.read_text().split())
    return found


def _jvm_of(pid: int) -> int:
    """The DynamoDB Local JVM the stack process pid started."""
    for child in _children(pid):
        if b"DynamoDBLocal.jar" in Path(f"/proc/{child}/cmdline").read_bytes():
            return child
    raise AssertionError(f"no DynamoDB Local JVM under process {pid}")


def _alive(pid: int) -> bool:
    """Whether pid runs (a zombie waiting for its parent's wait() has ended)."""
    try:
        status = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return status.rsplit(")", 1)[1].split()[0] != "Z"


def _assert_gone(*pids: int) -> None:
    deadline = time.monotonic() + GONE_WITHIN_S
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in pids if _alive(pid)], "a process outlived the stack"


def _stop(process: subprocess.Popen[str], signum: int) -> str:
    jvm = _jvm_of(process.pid)
    process.send_signal(signum)
    try:
        _, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        raise
    assert process.returncode == 0, err
    assert "Traceback" not in err
    _assert_gone(jvm)
    return err


def test_ctrl_c_and_sigterm_stop_the_stack_and_its_jvm_and_data_stays(tmp_path: Path) -> None:
    port = free_port()
    process = _start_cli(tmp_path, port)
    browser = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        client = Client(port)
        assert client.request("POST", "/v1/users", {"login": "carol"}).status == 201
        # a browser keeps its connection open: Ctrl-C must not wait for it
        browser.request("GET", "/")
        assert browser.getresponse().read()
    finally:
        err = _stop(process, signal.SIGINT)
        browser.close()
    assert "POST /v1/users 201" in err  # one line per request: method, path, status, ms
    assert "ms" in err.split("POST /v1/users 201")[1].splitlines()[0]

    process = _start_cli(tmp_path, port)
    try:
        assert Client(port).request("POST", "/v1/users", {"login": "carol"}).status == 409
    finally:
        _stop(process, signal.SIGTERM)


def test_the_death_of_its_parent_stops_the_stack_and_its_jvm(tmp_path: Path) -> None:
    port = free_port()
    # a parent (a terminal, make) that starts the stack, then is killed outright
    launcher = f"import subprocess, sys; subprocess.Popen({_command(tmp_path, port)!r}).wait()"
    parent = subprocess.Popen(
        [sys.executable, "-c", launcher],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        _wait_until_serving(parent, port)
        (stack,) = _children(parent.pid)
        jvm = _jvm_of(stack)
        assert Client(port).request("POST", "/v1/users", {"login": "orphan"}).status == 201
    finally:
        parent.kill()
        parent.wait(timeout=20)
    _assert_gone(stack, jvm)


@contextmanager
def _writers(port: int, threads: int) -> Iterator[list[str]]:
    """Clients registering new logins until the block ends; yields the answered ones."""
    answered: list[str] = []
    done = threading.Event()

    def write(worker: int) -> None:
        client = Client(port)
        for n in range(10_000):
            if done.is_set():
                return
            login = f"w{worker}n{n}"
            try:
                reply = client.request("POST", "/v1/users", {"login": login})
            except OSError:
                return  # the stack is gone
            if reply.status == 201:
                answered.append(login)

    workers = [threading.Thread(target=write, args=(w,)) for w in range(threads)]
    for worker in workers:
        worker.start()
    try:
        yield answered
    finally:
        done.set()
        for worker in workers:
            worker.join(timeout=30)


def test_answered_writes_survive_a_kill_of_the_whole_stack_under_load(tmp_path: Path) -> None:
    port = free_port()
    process = _start_cli(tmp_path, port)
    jvm = _jvm_of(process.pid)
    with _writers(port, threads=4) as answered:
        deadline = time.monotonic() + 60
        while len(answered) < 40 and time.monotonic() < deadline:
            time.sleep(0.05)
        for pid in (process.pid, jvm):  # no clean stop, for Python nor the JVM
            os.kill(pid, signal.SIGKILL)
        process.communicate(timeout=20)
    _assert_gone(jvm)
    assert len(answered) >= 40
    process = _start_cli(tmp_path, port)
    try:
        client = Client(port)
        missing = [
            login
            for login in answered
            if client.request("POST", "/v1/users", {"login": login}).status != 409
        ]
        assert not missing, f"answered, then lost: {missing}"
    finally:
        _stop(process, signal.SIGINT)
