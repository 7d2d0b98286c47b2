"""`python -m local_stack`: the API and the web client on http://127.0.0.1:3000;
`python -m local_stack invoke FUNCTION EVENT`: one function with one event.

No Docker, no AWS: each function runs in worker processes, side by side; DynamoDB is DynamoDB
Local, a child JVM; data persists in DATA_DIR (default .local/). Ctrl-C, SIGTERM, SIGHUP
and the death of the parent process stop the stack and the JVM.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from local_stack import document
from local_stack.dynamodb_local import DynamoDBLocalError, signal_on_parent_death
from local_stack.server import start_server, stop_server
from local_stack.stack import LocalStack
from local_stack.template import TemplateError


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m local_stack", description=__doc__)
    parser.add_argument("--template", type=Path, default=Path("template.yaml"))
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "3000")))
    parser.add_argument("--data-dir", type=Path, default=Path(os.environ.get("DATA_DIR", ".local")))
    parser.add_argument("--web-dir", type=Path, default=Path("web"))
    parser.add_argument(
        "--concurrency",
        type=int,
        default=None,
        metavar="N",
        help="execution environments per function, past which it is throttled "
        "(default: its ReservedConcurrentExecutions, else 10)",
    )
    parser.add_argument(
        "--parameter",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a template Parameter's Default (repeatable)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["invoke"]:  # one function, one event: see local_stack/invoke.py
        from local_stack.invoke import main as invoke

        return invoke(argv[1:])
    args = parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    logging.getLogger("botocore").setLevel(logging.WARNING)
    # Powertools warns when a function flushes no metrics; locally metrics are off anyway.
    warnings.filterwarnings("ignore", message="No application metrics to publish")
    if not args.template.is_file():
        print(f"local_stack: no template at {args.template}", file=sys.stderr)
        return 2
    parameters = dict(p.split("=", 1) for p in args.parameter if "=" in p)
    with _stopped_by_signals() as stopping:
        return _serve(args, parameters, stopping)


@contextmanager
def _stopped_by_signals() -> Iterator[threading.Event]:
    """An event that Ctrl-C, SIGTERM, SIGHUP and the death of the parent set, for as long
    as the command runs: the process's handlers are put back after it, as a process that
    runs the command in its own (a test's pytest) must still stop on a signal."""
    stopping = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stopping.set()

    signals = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    before = {signum: signal.signal(signum, on_signal) for signum in signals}
    on_parent_death = os.getppid() != 1
    if on_parent_death:
        signal_on_parent_death(signal.SIGTERM)  # our parent gone (a closed terminal): stop
    try:
        yield stopping
    finally:
        if on_parent_death:
            signal_on_parent_death(0)  # none: what a process starts with
        for signum, handler in before.items():  # None: one not set from Python, i.e. default
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)


def _serve(args: argparse.Namespace, parameters: dict[str, str], stopping: threading.Event) -> int:
    try:
        stack = LocalStack(
            args.template, args.data_dir, parameters=parameters, concurrency=args.concurrency
        )
        document.write_for(args.template)
        stack.start()
    except (TemplateError, DynamoDBLocalError) as exc:
        print(f"local_stack: {exc}", file=sys.stderr)
        return 2
    web_dir = args.web_dir if args.web_dir.is_dir() else None
    try:
        server, thread = start_server(stack, args.host, args.port, web_dir)
    except OSError as exc:
        stack.stop()
        print(f"local_stack: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 2
    print(
        f"Blackjack is running at {server.url} — open it in a browser; "
        f"Ctrl-C stops it (data in {args.data_dir}/)",
        flush=True,
    )
    while not stopping.wait(0.5):
        pass
    print("\nStopping…", flush=True)
    stop_server(server, thread)  # requests in flight finish, and their data is saved
    stack.stop()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # Ctrl-C before the server was up
        sys.exit(130)
