"""One logger, one metrics emitter and one tracer per function (Powertools), configured by
the template's POWERTOOLS_* environment."""

import warnings
from decimal import Decimal

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit

# Most requests record no metric; that is expected, not worth a warning per request.
warnings.filterwarnings("ignore", "No application metrics to publish", UserWarning)

logger = Logger()
metrics = Metrics()
tracer = Tracer()

ROUNDS_STARTED = "RoundsStarted"
ROUNDS_SETTLED = "RoundsSettled"
HOUSE_COINS_WON = "HouseCoinsWon"
HOUSE_COINS_LOST = "HouseCoinsLost"


def count(name: str, value: float = 1, unit: MetricUnit = MetricUnit.Count) -> None:
    metrics.add_metric(name=name, unit=unit, value=value)


def record_outcome(started: bool, house_net: Decimal | None) -> None:
    """Rounds started and settled, and the coins the house won or lost on the user's boxes."""
    if started:
        count(ROUNDS_STARTED)
    if house_net is not None:
        count(ROUNDS_SETTLED)
        if house_net > 0:
            count(HOUSE_COINS_WON, float(house_net))
        elif house_net < 0:
            count(HOUSE_COINS_LOST, float(-house_net))
