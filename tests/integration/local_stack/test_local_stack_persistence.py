"""Data survives restarts, acknowledged writes are on disk, conditional writes stay
atomic under concurrent HTTP requests, and `python -m local_stack` stops cleanly."""

from __future__ import annotations

import http.client
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from local_stack.store import JOURNAL_FILE, SECRETS_FILE, SNAPSHOT_FILE
from tests.integration.local_stack.harness import TEMPLATE, WEB_DIR, Client, Reply, running_stack

REPO = Path(__file__).resolve().parents[3]


def test_data_survives_a_restart(tmp_path: Path) -> None:
    with running_stack(tmp_path) as first:
        assert first.client.request("POST", "/v1/users", {"login": "alice"}).status == 201
        bumped = first.client.request("POST", "/v1/items/a1/bump", {"expected": 0}, token="user-x")
        assert bumped.status == 200
        first_secret = first.client.request("GET", "/v1/echo/s", token="user-x").json()
    assert sorted(p.name for p in tmp_path.iterdir()) == [JOURNAL_FILE, SNAPSHOT_FILE, SECRETS_FILE]

    with running_stack(tmp_path) as second:
        assert second.client.request("POST", "/v1/users", {"login": "ALICE"}).status == 409
        item = second.client.request("GET", "/v1/items/a1", token="user-x")
        assert item.status == 200
        assert int(item.json()["item"]["version"]) == 1
        # the generated secret is the same one (tokens signed before a restart stay valid)
        again = second.client.request("GET", "/v1/echo/s", token="user-x").json()
        assert again["secret_length"] == first_secret["secret_length"] == 48
    secrets = json.loads((tmp_path / SECRETS_FILE).read_text())
    assert list(secrets) == ["TokenSecret"]
    assert len(secrets["TokenSecret"]) == 48
    assert (tmp_path / SECRETS_FILE).stat().st_mode & 0o077 == 0

    with running_stack(tmp_path / "elsewhere") as fresh:
        assert fresh.client.request("POST", "/v1/users", {"login": "alice"}).status == 201


def test_an_acknowledged_write_survives_a_crash(tmp_path: Path) -> None:
    live, crashed = tmp_path / "live", tmp_path / "crashed"
    with running_stack(live) as running:
        assert running.client.request("POST", "/v1/users", {"login": "bob"}).status == 201
        bumped = running.client.request(
            "POST", "/v1/items/c1/bump", {"expected": 0}, token="user-x"
        )
        assert bumped.status == 200
        # the data dir as a crash right after the answers would leave it (no clean stop)
        shutil.copytree(live, crashed)
    journal = crashed / JOURNAL_FILE
    assert len(journal.read_bytes().splitlines()) == 2  # one line per writing request
    with journal.open("ab") as torn:
        torn.write(b'[["GameTable",{"pk":{"S":"user#eve"}')  # a write cut short, never answered
    with running_stack(crashed) as restarted:
        assert restarted.client.request("POST", "/v1/users", {"login": "bob"}).status == 409
        assert restarted.client.request("POST", "/v1/users", {"login": "eve"}).status == 201
        item = restarted.client.request("GET", "/v1/items/c1", token="user-x").json()["item"]
        assert int(item["version"]) == 1
    assert not [p for p in crashed.iterdir() if p.name.startswith(".")]  # no temp file left


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
            assert all(
                r.status == 409 and r.json() == {"code": "conflict"}
                for r in replies
                if r.status != 200
            )
            item = running.client.request("GET", "/v1/items/race", token="user-r").json()["item"]
            assert int(item["version"]) == expected + 1
            assert len(item["winners"]) == expected + 1
            assert item["winners"][-1] == winners[0].json()["me"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _start_cli(data_dir: Path, port: int) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(
        [
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
        ],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], 1)
        if ready:
            line = process.stdout.readline()
            if "is running at" in line:
                assert f"http://127.0.0.1:{port}" in line
                return process
            if not line and process.poll() is not None:
                break
    process.kill()
    raise AssertionError(f"the stack did not start: {process.communicate(timeout=10)}")


def _interrupt(process: subprocess.Popen[str]) -> tuple[str, str]:
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        raise
    assert process.returncode == 0, err
    assert "Traceback" not in err
    return out, err


def test_the_command_serves_logs_and_stops_cleanly_on_ctrl_c(tmp_path: Path) -> None:
    port = _free_port()
    process = _start_cli(tmp_path, port)
    browser = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        client = Client(port)
        assert client.request("POST", "/v1/users", {"login": "carol"}).status == 201
        # a browser keeps its connection open: Ctrl-C must not wait for it
        browser.request("GET", "/")
        assert browser.getresponse().read()
    finally:
        _, err = _interrupt(process)
        browser.close()
    assert "POST /v1/users 201" in err  # one line per request: method, path, status, ms
    assert "ms" in err.split("POST /v1/users 201")[1].splitlines()[0]

    process = _start_cli(tmp_path, port)
    try:
        assert Client(port).request("POST", "/v1/users", {"login": "carol"}).status == 409
    finally:
        _interrupt(process)


def test_answered_writes_survive_a_kill(tmp_path: Path) -> None:
    port = _free_port()
    process = _start_cli(tmp_path, port)
    try:
        client = Client(port)
        for login in ("dave", "erin", "fred"):
            assert client.request("POST", "/v1/users", {"login": login}).status == 201
    finally:
        process.kill()  # no clean stop: SIGKILL right after the last answer
        process.communicate(timeout=20)
    process = _start_cli(tmp_path, port)
    try:
        client = Client(port)
        for login in ("dave", "erin", "fred"):
            assert client.request("POST", "/v1/users", {"login": login}).status == 409
    finally:
        _interrupt(process)
