"""`python -m local_stack invoke FUNCTION EVENT`: one function, one event, as
`sam local invoke` runs them, without Docker.

The function runs as the running stack runs it, on the same template and DATA_DIR. The
event is passed as it is, as SAM does; the response is printed as JSON on stdout, the logs
go to stderr. A function that raises prints Lambda's error document and exits 1.

`--login NAME` mints a session token for NAME with the local secret and puts it in the
event, with the authorizer's answer for a route behind one, as API Gateway does.
"""

from __future__ import annotations

import argparse
import copy
import json
import logging
import os
import sys
import traceback
import uuid
import warnings
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

from local_stack import document
from local_stack.apis import gateway_for
from local_stack.events import HttpRequest
from local_stack.execution_environment import FunctionError
from local_stack.gateway.authorizer import AuthorizerDenied
from local_stack.runtime import LambdaFunction
from local_stack.stack import LocalStack
from local_stack.template import TemplateError

# A handler of our own, run as a function of the stack, that signs tokens (see there).
TOKEN_MINTER = Path(__file__).with_name("token_minter")
SECRET_VARIABLE = "TOKEN_SECRET_ARN"


class InvokeError(Exception):
    """The invocation cannot be made as asked (an unknown function, a bad event...)."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m local_stack invoke",
        description="Invoke one function of the template with one event, as `sam local "
        "invoke` does: the response on stdout, the logs on stderr.",
    )
    parser.add_argument("function", help="the function's logical id, e.g. RoundsFunction")
    parser.add_argument("event", help="the event file (JSON), or - to read it from stdin")
    parser.add_argument(
        "--env-vars",
        type=Path,
        metavar="FILE.json",
        help='environment overrides, as SAM reads them: {"Parameters": {...}} for every '
        "function, {FUNCTION: {...}} for one; only variables the template declares",
    )
    parser.add_argument(
        "--login",
        metavar="NAME",
        help="mint a session token for NAME with the local secret and send it in the event",
    )
    parser.add_argument("--template", type=Path, default=Path("template.yaml"))
    parser.add_argument("--data-dir", type=Path, default=Path(os.environ.get("DATA_DIR", ".local")))
    return parser.parse_args(argv)


def read_json(source: str, what: str) -> dict[str, Any]:
    """A JSON object from a file, or from stdin for `-`."""
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
        document = json.loads(text)
    except (OSError, ValueError) as exc:
        raise InvokeError(f"cannot read the {what} {source}: {exc}") from exc
    if not isinstance(document, dict):
        raise InvokeError(f"the {what} {source} is not a JSON object")
    return document


def apply_env_vars(stack: LocalStack, document: dict[str, Any]) -> None:
    """An --env-vars document, as SAM reads it: `Parameters` for every function, then a
    function's own entry (by logical id or name); only variables the template declares."""
    requested: set[str] = set()
    applied: set[str] = set()
    for function in stack.functions.values():
        wanted: dict[str, Any] = {}
        for key in ("Parameters", function.name, function.logical_id):
            section = document.get(key) or {}
            if not isinstance(section, dict):
                raise InvokeError(f"--env-vars: {key} is not an object")
            wanted.update(section)
        declared = {k: v for k, v in wanted.items() if k in function.environment}
        function.environment.update({k: "" if v is None else str(v) for k, v in declared.items()})
        requested |= wanted.keys()
        applied |= declared.keys()
    ignored = requested - applied
    if ignored:
        logging.getLogger("local_stack").warning(
            "--env-vars: %s not in the template's environment: ignored, as SAM does",
            ", ".join(sorted(ignored)),
        )


def mint_token(stack: LocalStack, function: LambdaFunction, login: str) -> str:
    """A session token for login, signed with the local secret: the minter runs with the
    invoked function's environment and layers, so it reads the key the functions read."""
    if SECRET_VARIABLE not in function.environment:
        raise InvokeError(f"--login: {function.logical_id} has no {SECRET_VARIABLE}")
    minter = LambdaFunction(
        logical_id="LocalTokenMinter",
        name="local-token-minter",
        code_dir=TOKEN_MINTER,
        handler="minter.handler",
        layer_dirs=function.layer_dirs,
        environment=dict(function.environment),
        aws_environment=function.aws_environment,
    )
    try:
        return str(stack.invoke(minter, {"login": login}, str(uuid.uuid4())))
    finally:
        minter.stop()  # not one of the stack's functions: its environment ends here


def with_login(
    stack: LocalStack, function: LambdaFunction, event: dict[str, Any], login: str
) -> dict[str, Any]:
    """The event as it would reach the function for a request with login's token."""
    bearer = f"Bearer {mint_token(stack, function, login)}"
    event = copy.deepcopy(event)
    if event.get("type") == "TOKEN":
        event["authorizationToken"] = bearer
        return event
    method, path = str(event.get("httpMethod", "")), str(event.get("path", ""))
    request = HttpRequest(method, path, "", [], b"")
    gateway = gateway_for(stack.gateways, request)
    found = None if gateway is None else gateway.routes.match(method, path)
    if gateway is None or found is None:
        raise InvokeError(f"--login: no route of the template for {method} {path}")
    route = found[0]
    authorizer = route.authorizer
    name = authorizer.identity_header if authorizer else "Authorization"
    headers = {k: v for k, v in (event.get("headers") or {}).items() if k.lower() != name.lower()}
    event["headers"] = {**headers, name: bearer}
    multi = event.get("multiValueHeaders") or {}
    event["multiValueHeaders"] = {
        **{k: v for k, v in multi.items() if k.lower() != name.lower()},
        name: [bearer],
    }
    if authorizer is not None:  # its answer, as API Gateway puts it in the event
        request.headers.append((name, bearer))
        try:
            context = gateway.authorization.authorize(authorizer, request)
        except AuthorizerDenied as denied:
            raise InvokeError(f"{authorizer.function.logical_id}: {denied.kind}") from denied
        event.setdefault("requestContext", {})["authorizer"] = context
    return event


def invoke(
    stack: LocalStack,
    logical_id: str,
    event: dict[str, Any],
    *,
    login: str | None = None,
    env_vars: dict[str, Any] | None = None,
) -> Any:
    """The function's answer to the event, on a started stack; its exceptions propagate."""
    function = stack.functions.get(logical_id)
    if function is None:
        names = ", ".join(sorted(stack.functions))
        raise InvokeError(f"no function {logical_id} in the template (it has {names})")
    apply_env_vars(stack, env_vars or {})
    if login is not None:
        event = with_login(stack, function, event, login)
    return stack.invoke(function, event, str(uuid.uuid4()))


def lambda_error(exc: BaseException) -> dict[str, Any]:
    """The document Lambda returns for a function that raised, as its environment made
    it; for a failure of the stack's own (no frames of the function), the same fields."""
    if isinstance(exc, FunctionError):
        return exc.document
    return {"errorMessage": str(exc), "errorType": type(exc).__name__, "stackTrace": []}


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    logging.getLogger("botocore").setLevel(logging.WARNING)
    warnings.filterwarnings("ignore", message="No application metrics to publish")
    failed = False
    try:
        event = read_json(args.event, "event")
        env_vars = read_json(str(args.env_vars), "--env-vars file") if args.env_vars else {}
        # stdout is the response's alone: the functions' workers write to stderr, and so
        # does whatever this process prints meanwhile.
        with redirect_stdout(sys.stderr):
            document.write_for(args.template)
            stack = LocalStack(args.template, args.data_dir)
            stack.start()
            try:
                result = invoke(stack, args.function, event, login=args.login, env_vars=env_vars)
            except InvokeError:
                raise
            except Exception as exc:
                traceback.print_exc()
                result, failed = lambda_error(exc), True
            finally:
                stack.stop()
    except (InvokeError, TemplateError) as exc:
        print(f"local_stack invoke: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=2, ensure_ascii=False))
    return 1 if failed else 0
