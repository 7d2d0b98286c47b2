"""The template's Secrets Manager secrets, kept in DATA_DIR and served on loopback.

A secret's value is generated once, as CloudFormation's GenerateSecretString would, and
kept in `DATA_DIR/secrets.json` (0600), so tokens signed before a restart stay valid. The
functions read it with their own boto3 client (`AWS_ENDPOINT_URL_SECRETS_MANAGER`):
GetSecretValue and DescribeSecret, to requests signed with the stack's credentials only.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import string
import tempfile
import time
from pathlib import Path
from typing import Any

from local_stack.events import HttpResponse
from local_stack.sigv4 import Credentials, SignedServer
from local_stack.template import ACCOUNT_ID, REGION, Physical, Template
from local_stack.wire import Request

SECRETS_FILE = "secrets.json"
# GenerateSecretString's groups of characters, each by the option that leaves it out.
_GROUPS = {
    "ExcludeLowercase": string.ascii_lowercase,
    "ExcludeUppercase": string.ascii_uppercase,
    "ExcludeNumbers": string.digits,
    "ExcludePunctuation": string.punctuation,
}


def atomic_write(path: Path, data: bytes) -> None:
    """Replace path by data (mode 0600) so that a crash leaves the old or the new file."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)  # mkstemp: 0600
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def generate_secret_string(spec: dict[str, Any]) -> str:
    """What Secrets Manager's GenerateSecretString would produce."""
    length = int(spec.get("PasswordLength", 32))
    exclude = set(str(spec.get("ExcludeCharacters", "")))
    groups = [group for option, group in _GROUPS.items() if not spec.get(option)]
    if spec.get("IncludeSpace"):
        groups.append(" ")
    groups = [g for g in ("".join(c for c in g if c not in exclude) for g in groups) if g]
    if not groups:
        raise ValueError("GenerateSecretString excludes every character")
    alphabet = "".join(groups)
    require_each = spec.get("RequireEachIncludedType", True)
    while True:
        password = "".join(secrets.choice(alphabet) for _ in range(length))
        if not require_each or length < len(groups):
            break
        if all(any(c in g for c in password) for g in groups):
            break
    template = spec.get("SecretStringTemplate")
    if template is None:
        return password
    document = json.loads(str(template))
    document[str(spec.get("GenerateStringKey", "password"))] = password
    return json.dumps(document)


def secret_arn(name: str) -> str:
    """An ARN as Secrets Manager makes it (name, dash, six characters), stable per name."""
    suffix = hashlib.sha256(name.encode()).hexdigest()[:6]
    return f"arn:aws:secretsmanager:{REGION}:{ACCOUNT_ID}:secret:{name}-{suffix}"


class SecretsManager(SignedServer):
    """The template's secrets, generated once, answered over HTTP on a loopback port."""

    service = "secretsmanager"
    content_type = "application/x-amz-json-1.1"

    def __init__(self, template: Template, data_dir: Path, credentials: Credentials) -> None:
        super().__init__(credentials, "secrets-manager")
        self.template = template
        self.path = data_dir / SECRETS_FILE
        self.values: dict[str, tuple[str, str]] = {}  # ARN and name -> (ARN, value)

    def start(self) -> None:
        saved: dict[str, str] = json.loads(self.path.read_text()) if self.path.exists() else {}
        changed = False
        for logical_id in self.template.of_type("AWS::SecretsManager::Secret"):
            props = self.template.resolve(self.template.properties(logical_id))
            name = str(props.get("Name") or logical_id)
            if logical_id not in saved:
                saved[logical_id] = (
                    str(props["SecretString"])
                    if "SecretString" in props
                    else generate_secret_string(props.get("GenerateSecretString") or {})
                )
                changed = True
            arn = secret_arn(name)
            self.values[arn] = self.values[name] = (arn, saved[logical_id])
            self.template.physical[logical_id] = Physical(ref=arn, attributes={"Id": arn})
        if changed:
            atomic_write(self.path, json.dumps(saved, indent=1).encode())
        super().start()

    def signed(self, request: Request) -> HttpResponse:
        try:
            document = json.loads(request.body or b"{}")
        except ValueError:
            document = {}
        target = next((v for k, v in request.headers if k.lower() == "x-amz-target"), "")
        status, answer = self._answer(target, document if isinstance(document, dict) else {})
        return HttpResponse(
            status, [("Content-Type", self.content_type)], json.dumps(answer).encode()
        )

    def _answer(self, target: str, request: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """(status, body) of one Secrets Manager JSON-protocol request."""
        operation = target.rpartition(".")[2]
        if operation not in ("GetSecretValue", "DescribeSecret"):
            return 400, {"__type": "InvalidRequestException", "message": f"{operation}: not here"}
        found = self.values.get(str(request.get("SecretId", "")))
        if found is None:
            return 400, {
                "__type": "ResourceNotFoundException",
                "message": "Secrets Manager can't find the specified secret.",
            }
        arn, value = found
        name = arn.rsplit(":", 1)[1].rsplit("-", 1)[0]
        body: dict[str, Any] = {"ARN": arn, "Name": name, "CreatedDate": time.time()}
        if operation == "GetSecretValue":
            body |= {"SecretString": value, "VersionId": "local", "VersionStages": ["AWSCURRENT"]}
        return 200, body
