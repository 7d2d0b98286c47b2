"""The API's routes as template.yaml declares them: its functions' `Type: Api` events.

The Lambda has no template.yaml: the layer's build (layers/engine/Makefile) runs this
module, which writes the routes as JSON beside it, in `routes.json`. From a checkout
(tests, the local stack, the bench) there is no such file and the template itself is read,
with the local stack's reader (cfn-lint's YAML: a dev tool, never in the layer).
"""

import functools
import json
import sys
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

ROUTES_FILE = Path(__file__).with_name("routes.json")
TEMPLATE = Path(__file__).resolve().parents[3] / "template.yaml"  # in a checkout


@dataclass(frozen=True)
class Route:
    operation: str  # the event's name in the template
    method: str  # upper case
    path: str
    authorizer: str | None  # None: public

    @property
    def public(self) -> bool:
        return self.authorizer is None


def _template_routes() -> list[dict[str, Any]]:
    from local_stack.template import Template  # only a checkout has it (see above)

    return [asdict(route) for route in Template.from_file(TEMPLATE).api_routes()]


@functools.cache
def api_routes() -> tuple[Route, ...]:
    """Every route, in the template's order."""
    found = json.loads(ROUTES_FILE.read_text()) if ROUTES_FILE.is_file() else _template_routes()
    return tuple(
        Route(**{field.name: item[field.name] for field in fields(Route)}) for item in found
    )


if __name__ == "__main__":  # the layer's build: `python -m blackjack_service.routes`
    json.dump([asdict(route) for route in api_routes()], sys.stdout, indent=1)
