"""One logger, one metrics emitter and one tracer per function (Powertools), configured by
the template's POWERTOOLS_* environment."""

import warnings
from decimal import Decimal
from typing import TYPE_CHECKING

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit

if TYPE_CHECKING:
    from aws_lambda_powertools import Tracer

# Most requests record no metric; that is expected, not worth a warning per request.
warnings.filterwarnings("ignore", "No application metrics to publish", UserWarning)

logger = Logger()
metrics = Metrics()
_tracer: "Tracer | None" = None


def tracer() -> "Tracer":
    """The function's tracer, made on its first invocation: Powertools' Tracer imports the
    X-Ray SDK and patches botocore when made (~0.2 s), which the import of every function
    would otherwise pay before it could even answer a health check."""
    global _tracer
    if _tracer is None:
        from aws_lambda_powertools import Tracer

        _tracer = Tracer()
    return _tracer


ROUNDS_STARTED = "RoundsStarted"
ROUNDS_SETTLED = "RoundsSettled"
HOUSE_COINS_WON = "HouseCoinsWon"
HOUSE_COINS_LOST = "HouseCoinsLost"


def count(name: str, value: float = 1, unit: MetricUnit = MetricUnit.Count) -> None:
    metrics.add_metric(name=name, unit=unit, value=value)


def measure_outcome(started: bool, house_net: Decimal | None) -> None:
    """Rounds started and settled, and the coins the house won or lost on the user's boxes."""
    if started:
        count(ROUNDS_STARTED)
    if house_net is not None:
        count(ROUNDS_SETTLED)
        if house_net > 0:
            count(HOUSE_COINS_WON, float(house_net))
        elif house_net < 0:
            count(HOUSE_COINS_LOST, float(-house_net))
