"""Run the Locust players headless against a local stack started here on a free port (its
data in a temporary folder), or against URL (a deployed stage: `.../prod`, the routes'
/v1 included by the players). Exits non-zero if Locust or the balance check failed.

    python -m loadtest [--url URL] [--users 10] [--spawn-rate 5] [--duration 30s]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from local_stack.server import start_server, stop_server
from local_stack.stack import LocalStack
from local_stack.template import rate_limits_lifted

ROOT = Path(__file__).resolve().parents[1]
LOCUSTFILE = Path(__file__).with_name("locustfile.py")


def run_locust(host: str, users: int, spawn_rate: float, duration: str) -> int:
    command = [
        sys.executable,
        "-m",
        "locust",
        "--locustfile",
        str(LOCUSTFILE),
        "--headless",
        "--only-summary",
        "--host",
        host,
        "--users",
        str(users),
        "--spawn-rate",
        str(spawn_rate),
        "--run-time",
        duration,
        "--stop-timeout",
        "30",  # each player finishes the round it is playing
        "--exit-code-on-error",
        "0",  # the balance check and the failures no retry fixed decide
        "--loglevel",
        "WARNING",
    ]
    return subprocess.run(command, check=False).returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("URL") or None)
    parser.add_argument("--users", type=int, default=int(os.environ.get("USERS", "10")))
    parser.add_argument(
        "--spawn-rate", type=float, default=float(os.environ.get("SPAWN_RATE", "5"))
    )
    parser.add_argument("--duration", default=os.environ.get("DURATION", "30s"))
    args = parser.parse_args()
    if args.url:
        return run_locust(args.url, args.users, args.spawn_rate, args.duration)
    with tempfile.TemporaryDirectory(prefix="blackjack-load-") as data_dir:
        # Every player here comes from 127.0.0.1 and plays faster than a person: the web
        # ACL's limits are raised past the run, as for players at addresses of their own.
        template = ROOT / "template.yaml"
        stack = LocalStack(template, Path(data_dir), parameters=rate_limits_lifted(template))
        stack.start()
        try:
            server, thread = start_server(stack)
            try:
                host = f"http://127.0.0.1:{server.server_address[1]}"
                print(f"local stack at {host} (data in {data_dir})", flush=True)
                return run_locust(host, args.users, args.spawn_rate, args.duration)
            finally:
                stop_server(server, thread)
        finally:
            stack.stop()


if __name__ == "__main__":
    sys.exit(main())
