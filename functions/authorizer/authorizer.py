"""The Lambda TOKEN authorizer: a valid bearer token lets its user in, on every route.

The allow policy covers every method and path of the stage, because API Gateway caches it
per token across routes; the user reaches the functions as `principalId` and `context`,
with the token's `exp`, which the functions check themselves: the cached answer may
outlive the token.
"""

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from blackjack_service.observability import logger
from blackjack_service.settings import settings
from blackjack_service.tokens import InvalidToken, verify

settings()  # read at start: a function whose environment lacks one fails here, naming it


@logger.inject_lambda_context
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    try:
        token = verify(event.get("authorizationToken"))
    except InvalidToken as error:
        logger.info("token refused", extra={"reason": str(error)})
        raise Exception("Unauthorized") from None  # API Gateway's 401: the exact message
    identity = token.identity
    return {
        "principalId": identity.account_id,
        "policyDocument": {
            "Version": "2012-10-17",
            "Statement": [
                {
                    "Action": "execute-api:Invoke",
                    "Effect": "Allow",
                    "Resource": _whole_stage(str(event.get("methodArn", ""))),
                }
            ],
        },
        "context": {"login": identity.login, "nick": identity.nick, "exp": token.expires_at},
    }


def _whole_stage(method_arn: str) -> str:
    """arn:aws:execute-api:<region>:<account>:<api>/<stage>/<method>/<path> -> every method
    and path of that stage."""
    api, _, rest = method_arn.partition("/")
    stage = rest.split("/", 1)[0]
    return f"{api}/{stage}/*/*"
