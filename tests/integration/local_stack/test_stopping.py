"""A test run stops on SIGTERM to make (which sends its recipe's process one) and on Ctrl-C
(SIGINT to the terminal's foreground process group), every process it started with it:
the execution environments, the DynamoDB Local JVM (in a session of its own) and its
broker, chromium and Playwright's driver. Issue 30: a test of the suite ran local_stack's
command in pytest's process, whose signal handlers stayed behind, so that `make test` ran
on for minutes after both."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.integration.local_stack.fixtures.stopping.stack_up import READY

REPO = Path(__file__).resolve().parents[3]
HERE = Path(__file__).parent.relative_to(REPO)
TESTS = [  # the suite's test first, as `make test` runs it before the stacks of others
    f"{HERE}/test_local_stack_minimal.py::test_the_command_explains_what_it_cannot_serve",
    f"{HERE}/fixtures/stopping/stack_up.py",
]
UP_WITHIN_S = 180  # a cold JVM on a loaded 2-core machine
STOPPED_WITHIN_S = 10  # issue 30's bound


def _stat(pid: int) -> list[str] | None:
    """/proc/PID/stat's fields after the command's name (state first), None once gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None


def _descendants(root: int) -> dict[int, str]:
    """Each process `root` started, itself included, as a pidfd (readable once the process
    has ended, whoever its parent is) and its name."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        fields = _stat(int(entry.name)) if entry.name.isdigit() else None
        if fields is not None:
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found: dict[int, str] = {}
    pending = [root]
    while pending:
        pid = pending.pop()
        try:
            pidfd = os.pidfd_open(pid)
        except ProcessLookupError:
            continue
        try:
            found[pidfd] = f"{pid} {Path(f'/proc/{pid}/comm').read_text().strip()}"
        except FileNotFoundError:  # ended and reaped meanwhile
            os.close(pidfd)
            continue
        pending.extend(children.get(pid, []))
    return found


def _running_after(processes: dict[int, str], timeout: float) -> list[str]:
    """The names of the processes still running after `timeout` seconds."""
    running = dict(processes)
    deadline = time.monotonic() + timeout
    while running and (left := deadline - time.monotonic()) > 0:
        ended, _, _ = select.select(list(running), [], [], left)
        for pidfd in ended:
            del running[pidfd]
    return sorted(running.values())


def _makefile(tmp_path: Path) -> Path:
    """A Makefile whose recipe runs pytest as `make test`'s does: one command with no
    character for a shell, which make runs itself (a shell would not pass SIGTERM on)."""
    # Its own base temp: pytest's cleaning of the shared one is no part of stopping.
    command = [sys.executable, "-m", "pytest", "-s", "-q", "-p", "no:cacheprovider"]
    command += [f"--basetemp={tmp_path / 'run'}", *TESTS]  # -s: READY on our pipe at once
    makefile = tmp_path / "Makefile"
    makefile.write_text(f"test:\n\t{' '.join(command)}\n")
    return makefile


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "ctrl-c"])
def test_a_signal_stops_a_test_run_and_every_process_it_started(
    signum: int, tmp_path: Path
) -> None:
    outer_make = ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")  # when this runs under `make test`
    run = subprocess.Popen(
        ["make", "-s", "-f", str(_makefile(tmp_path)), "test"],
        cwd=REPO,
        env={name: value for name, value in os.environ.items() if name not in outer_make},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # a process group of its own, as a terminal's job has
    )
    stdout = run.stdout
    assert stdout is not None
    output: list[str] = []
    up = threading.Event()

    def read() -> None:  # the whole output, so that the run never blocks on its pipe
        for line in stdout:
            output.append(line)
            if line.rstrip().endswith(READY):  # after the progress dot of the test before
                up.set()
        up.set()  # ended before: the check below says so

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    started: dict[int, str] = {}
    try:
        assert up.wait(UP_WITHIN_S) and run.poll() is None, "".join(output)
        started = _descendants(run.pid)
        assert len(started) >= 4, started  # make, pytest, an environment, the JVM
        if signum == signal.SIGTERM:
            os.kill(run.pid, signum)  # to make only
        else:
            os.killpg(run.pid, signum)  # the foreground process group, as Ctrl-C sends
        left = _running_after(started, STOPPED_WITHIN_S)
        assert not left, f"running {STOPPED_WITHIN_S} s after the signal: {left}"
    finally:
        for pidfd in started or _descendants(run.pid):  # the run's, whatever went wrong
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)
            os.close(pidfd)
        run.wait()
        reader.join(STOPPED_WITHIN_S)
