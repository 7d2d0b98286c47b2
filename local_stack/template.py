"""Loading a SAM template and resolving its intrinsic functions to local values.

cfn-lint's YAML loader turns every short-form tag (`!Ref`, `!GetAtt`, `!Sub`, ...) into its
long form (`{"Ref": ...}`, `{"Fn::GetAtt": [...]}`): the resolver reads one spelling only.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cfnlint.decode.cfn_yaml import loads as _cfn_yaml_loads  # type: ignore[import-untyped]

REGION = "us-east-1"
ACCOUNT_ID = "123456789012"  # the local account of every ARN the stack makes
STACK_NAME = "blackjack-local"
IMPLICIT_API = "ServerlessRestApi"  # the API of `Type: Api` events without a RestApiId

PSEUDO_PARAMETERS: dict[str, str] = {
    "AWS::Region": REGION,
    "AWS::AccountId": ACCOUNT_ID,
    "AWS::StackName": STACK_NAME,
    "AWS::StackId": (
        f"arn:aws:cloudformation:{REGION}:{ACCOUNT_ID}:stack/{STACK_NAME}/"
        "00000000-0000-0000-0000-000000000000"
    ),
    "AWS::Partition": "aws",
    "AWS::URLSuffix": "amazonaws.com",
    "AWS::NotificationARNs": "",
}


# The web ACLs' rate limits: a parameter each, named for what it counts per key and period
# (`WafLoginsPerIpPerMinute`).
RATE_LIMIT_PARAMETER = re.compile(r"Waf\w+Per\w+")


class TemplateError(Exception):
    """The template cannot be served locally (missing, malformed or unsupported)."""


class _NoValue:
    """Marker for `!Ref AWS::NoValue`: the enclosing key or list item disappears."""

    def __repr__(self) -> str:
        return "AWS::NoValue"


NO_VALUE = _NoValue()


def _plain(value: Any) -> Any:
    """Copy cfn-lint's node subclasses into plain dicts, lists and strs."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value


def load_template(path: Path) -> dict[str, Any]:
    """Parse a CloudFormation/SAM template (YAML or JSON) into plain Python data."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise TemplateError(f"cannot read template {path}: {exc}") from exc
    try:
        data = (
            json.loads(text) if text.lstrip().startswith("{") else _cfn_yaml_loads(text, str(path))
        )
    except Exception as exc:  # the loader raises several unrelated types
        raise TemplateError(f"cannot parse template {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise TemplateError(f"template {path} is not a mapping")
    return dict(_plain(data))


def rate_limits_lifted(path: Path, limit: int = 1_000_000) -> dict[str, str]:
    """Every web ACL rate limit of the template at `path` set to `limit`: the parameters of
    a stack whose clients all call from one address with few tokens (the shared test stack,
    the load test), past what they send together; a new limit is lifted with the others."""
    names = (load_template(path).get("Parameters") or {}).keys()
    return {name: str(limit) for name in names if RATE_LIMIT_PARAMETER.fullmatch(name)}


def merge_globals(global_value: Any, own_value: Any) -> Any:
    """SAM's Globals merge: maps merge deeply, lists concatenate, scalars are overridden."""
    if isinstance(global_value, dict) and isinstance(own_value, dict):
        merged = dict(global_value)
        for key, value in own_value.items():
            merged[key] = merge_globals(global_value[key], value) if key in global_value else value
        return merged
    if isinstance(global_value, list) and isinstance(own_value, list):
        return [*global_value, *own_value]
    return own_value


@dataclass(frozen=True)
class ApiRoute:
    """One `Type: Api` event of a function: a method and path its API sends to it."""

    operation: str  # the event's name
    method: str  # upper case, or ANY
    path: str  # with {param} and {proxy+}
    authorizer: str | None  # the event's, else its API's default; None: public
    api: str  # the API's logical id
    function: str  # the function's logical id


@dataclass
class Physical:
    """What a locally provisioned resource resolves to: its Ref and its attributes."""

    ref: str
    attributes: dict[str, Any] = field(default_factory=dict)


class Template:
    """A parsed template plus what is needed to resolve intrinsics in it."""

    def __init__(
        self, data: dict[str, Any], directory: Path, parameters: dict[str, str] | None = None
    ) -> None:
        """parameters override the Parameters' Default values (like sam's overrides)."""
        self.data = data
        self.directory = directory
        self.parameters = dict(parameters or {})
        unknown = set(self.parameters) - set(data.get("Parameters") or {})
        if unknown:
            raise TemplateError(f"unknown parameters {sorted(unknown)}")
        self.resources: dict[str, dict[str, Any]] = {
            name: res
            for name, res in (data.get("Resources") or {}).items()
            if isinstance(res, dict)
        }
        self.physical: dict[str, Physical] = {}
        self._condition_cache: dict[str, bool] = {}

    @classmethod
    def from_file(cls, path: Path, parameters: dict[str, str] | None = None) -> Template:
        return cls(load_template(path), path.resolve().parent, parameters)

    # -- what the template declares ------------------------------------------------

    def of_type(self, *types: str) -> dict[str, dict[str, Any]]:
        """Resources of the given types whose Condition (if any) holds."""
        return {
            name: res
            for name, res in self.resources.items()
            if res.get("Type") in types
            and ("Condition" not in res or self.condition(str(res["Condition"])))
        }

    def globals_for(self, section: str) -> dict[str, Any]:
        value = (self.data.get("Globals") or {}).get(section) or {}
        return dict(value) if isinstance(value, dict) else {}

    def properties(self, name: str, globals_section: str | None = None) -> dict[str, Any]:
        """A resource's Properties, with the SAM Globals of its kind merged in."""
        own = self.resources[name].get("Properties") or {}
        if globals_section is None:
            return dict(own)
        return dict(merge_globals(self.globals_for(globals_section), own))

    def function_code(self, function: str) -> tuple[Path, str]:
        """A function's code folder (its CodeUri) and its Handler (`module.function`)."""
        properties = self.properties(function, "Function")
        code = properties.get("CodeUri")
        if not isinstance(code, str):
            raise TemplateError(f"{function}: CodeUri must be a local folder")
        return (self.directory / code).resolve(), str(properties.get("Handler", ""))

    def handler_modules(self) -> dict[str, Path]:
        """Each function's handler module (`Handler: users.handler`: users) and its folder."""
        code = (self.function_code(f) for f in self.of_type("AWS::Serverless::Function"))
        return {handler.partition(".")[0]: folder for folder, handler in code}

    def api_routes(self) -> Iterator[ApiRoute]:
        """The routes of every function's `Type: Api` events, in the template's order."""
        for function in self.of_type("AWS::Serverless::Function"):
            events = self.properties(function, "Function").get("Events") or {}
            for name, event in events.items():
                if not isinstance(event, dict) or event.get("Type") != "Api":
                    continue
                properties = event.get("Properties") or {}
                api = logical_target(properties.get("RestApiId")) or IMPLICIT_API
                authorizer = (properties.get("Auth") or {}).get(
                    "Authorizer", self._api_auth(api).get("DefaultAuthorizer")
                )
                yield ApiRoute(
                    operation=name,
                    method=str(properties["Method"]).upper().replace("*", "ANY"),
                    path=str(properties["Path"]),
                    authorizer=None if authorizer in (None, "NONE") else str(authorizer),
                    api=api,
                    function=function,
                )

    def function_events(self, kind: str) -> Iterator[tuple[str, dict[str, Any]]]:
        """Each function's events of a `Type` (`SQS`, `DynamoDB`): the function's logical
        id and the event's Properties, as written."""
        for function in self.of_type("AWS::Serverless::Function"):
            events = self.properties(function, "Function").get("Events") or {}
            for event in events.values():
                if isinstance(event, dict) and event.get("Type") == kind:
                    yield function, dict(event.get("Properties") or {})

    def _api_auth(self, api: str) -> dict[str, Any]:
        """An API's Auth (the Globals' for the implicit API or an unknown one)."""
        known = self.resources.get(api, {}).get("Type") == "AWS::Serverless::Api"
        properties = self.properties(api, "Api") if known else self.globals_for("Api")
        auth = properties.get("Auth") or {}
        return dict(auth) if isinstance(auth, dict) else {}

    def parameter_default(self, name: str) -> Any:
        """The parameter's value: the override given, else its Default."""
        if name in self.parameters:
            return self.parameters[name]
        params = self.data.get("Parameters") or {}
        if name not in params:
            raise TemplateError(f"unknown parameter {name}")
        if "Default" not in params[name]:
            raise TemplateError(f"parameter {name} has no Default to run locally with")
        return params[name]["Default"]

    def condition(self, name: str) -> bool:
        if name not in self._condition_cache:
            conditions = self.data.get("Conditions") or {}
            if name not in conditions:
                raise TemplateError(f"unknown condition {name}")
            self._condition_cache[name] = bool(self._evaluate_condition(conditions[name]))
        return self._condition_cache[name]

    def _evaluate_condition(self, value: Any) -> bool:
        if isinstance(value, dict) and len(value) == 1:
            ((key, arg),) = value.items()
            if key == "Condition":
                return self.condition(str(arg))
            if key == "Fn::Equals":
                left, right = (self.resolve(v) for v in arg)
                return str(left) == str(right)
            if key == "Fn::Not":
                return not self._evaluate_condition(arg[0])
            if key == "Fn::And":
                return all(self._evaluate_condition(v) for v in arg)
            if key == "Fn::Or":
                return any(self._evaluate_condition(v) for v in arg)
        raise TemplateError(f"unsupported condition {value!r}")

    # -- intrinsic functions -------------------------------------------------------

    def ref(self, name: str) -> Any:
        if name in PSEUDO_PARAMETERS:
            return PSEUDO_PARAMETERS[name]
        if name == "AWS::NoValue":
            return NO_VALUE
        if name in (self.data.get("Parameters") or {}):
            return self.parameter_default(name)
        if name in self.physical:
            return self.physical[name].ref
        raise TemplateError(f"!Ref {name}: not a parameter nor a locally provisioned resource")

    def get_att(self, name: str, attribute: str) -> Any:
        physical = self.physical.get(name)
        if physical is None or attribute not in physical.attributes:
            raise TemplateError(f"!GetAtt {name}.{attribute}: not available locally")
        return physical.attributes[attribute]

    def resolve(self, value: Any) -> Any:
        """Resolve every intrinsic function in value; AWS::NoValue entries are dropped."""
        if isinstance(value, list):
            items = [self.resolve(v) for v in value]
            return [v for v in items if v is not NO_VALUE]
        if not isinstance(value, dict):
            return value
        if len(value) == 1:
            ((key, arg),) = value.items()
            if key == "Ref":
                return self.ref(str(arg))
            if key == "Condition" and isinstance(arg, str):
                return self.condition(arg)
            if key.startswith("Fn::"):
                return self._function(key, arg)
        resolved = {k: self.resolve(v) for k, v in value.items()}
        return {k: v for k, v in resolved.items() if v is not NO_VALUE}

    def _function(self, key: str, arg: Any) -> Any:
        if key == "Fn::GetAtt":
            parts = arg.split(".", 1) if isinstance(arg, str) else [self.resolve(a) for a in arg]
            return self.get_att(str(parts[0]), str(parts[1]))
        if key == "Fn::Sub":
            if isinstance(arg, str):
                return self._sub(arg, {})
            text, variables = arg
            return self._sub(text, {k: self.resolve(v) for k, v in variables.items()})
        if key == "Fn::Join":
            separator, items = arg
            return str(separator).join(str(v) for v in self.resolve(items))
        if key == "Fn::Select":
            index, items = arg
            return self.resolve(items)[int(self.resolve(index))]
        if key == "Fn::Split":
            separator, text = arg
            return str(self.resolve(text)).split(str(separator))
        if key == "Fn::If":
            name, if_true, if_false = arg
            return self.resolve(if_true if self.condition(str(name)) else if_false)
        if key == "Fn::FindInMap":
            map_name, top, second = (self.resolve(v) for v in arg[:3])
            return self.data["Mappings"][map_name][top][second]
        if key == "Fn::Base64":
            return base64.b64encode(str(self.resolve(arg)).encode()).decode()
        if key == "Fn::GetAZs":
            return [f"{REGION}a", f"{REGION}b", f"{REGION}c"]
        if key in ("Fn::Equals", "Fn::Not", "Fn::And", "Fn::Or"):
            return self._evaluate_condition({key: arg})
        raise TemplateError(f"{key} is not supported by the local stack")

    _SUB_PATTERN = re.compile(r"\$\{([^}]*)\}")

    def _sub(self, text: str, variables: Mapping[str, Any]) -> str:
        def replace(match: re.Match[str]) -> str:
            name = match.group(1).strip()
            if name.startswith("!"):  # ${!Literal} is the escape for a literal ${Literal}
                return "${" + name[1:] + "}"
            if name in variables:
                return str(variables[name])
            if "." in name and not name.startswith("AWS::"):
                resource, attribute = name.split(".", 1)
                return str(self.get_att(resource, attribute))
            return str(self.ref(name))

        return self._SUB_PATTERN.sub(replace, text)


def logical_target(value: Any) -> str | None:
    """The logical id a `!GetAtt X.Arn` / `!Ref X` / `!Sub ${X.Arn}` points at, if any."""
    if isinstance(value, dict) and len(value) == 1:
        ((key, arg),) = value.items()
        if key == "Ref" and isinstance(arg, str):
            return arg
        if key == "Fn::GetAtt":
            parts = arg.split(".", 1) if isinstance(arg, str) else arg
            return str(parts[0])
        if key == "Fn::Sub" and isinstance(arg, str):
            match = re.search(r"\$\{([A-Za-z0-9]+)(?:\.[A-Za-z]+)?\}", arg)
            return match.group(1) if match else None
    return None
