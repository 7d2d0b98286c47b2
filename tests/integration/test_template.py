"""What template.yaml promises an operator: every function capped, logged with a retention
and alarmed on; checkov's skips of these checks rely on it."""

from __future__ import annotations

from local_stack.template import Template

from .harness import ROOT

TEMPLATE = Template.from_file(ROOT / "template.yaml")
FUNCTIONS = sorted(TEMPLATE.of_type("AWS::Serverless::Function"))


def test_every_function_has_reserved_concurrency_and_a_log_group_with_retention() -> None:
    for name in FUNCTIONS:
        properties = TEMPLATE.properties(name, "Function")
        assert properties["ReservedConcurrentExecutions"] == {"Ref": "FunctionConcurrency"}, name
        log_group = properties["LoggingConfig"]["LogGroup"]["Ref"]
        assert TEMPLATE.resources[log_group]["Properties"]["RetentionInDays"] > 0


def test_every_function_has_a_throttles_alarm_and_all_but_the_authorizer_an_errors_alarm() -> None:
    resources = TEMPLATE.data["Resources"]
    expected = {
        "Throttles": FUNCTIONS,
        "Errors": [f for f in FUNCTIONS if f != "AuthorizerFunction"],
    }
    for metric, functions in expected.items():
        identifier, collection, fragment = resources[f"Fn::ForEach::Function{metric}Alarms"]
        assert sorted(f"{short}Function" for short in collection) == functions
        ((logical_id, alarm),) = fragment.items()
        assert logical_id == f"${{{identifier}}}{metric}Alarm"
        properties = alarm["Properties"]
        assert properties["MetricName"] == metric
        function = properties["Dimensions"][0]["Value"]
        assert function == {"Ref": {"Fn::Sub": f"${{{identifier}}}Function"}}
        assert properties["AlarmActions"] == [{"Ref": "AlarmTopic"}]


def test_the_apis_answers_through_cloudfront_are_no_store() -> None:
    """SAM's Cors answers preflights with a mock integration whose headers it lets no one
    add to; CloudFront's `/v1/*` behaviour adds no-store where an answer has none."""
    config = TEMPLATE.properties("WebDistribution")["DistributionConfig"]
    (behaviour,) = [b for b in config["CacheBehaviors"] if b["PathPattern"] == "/v1/*"]
    policy = TEMPLATE.properties(behaviour["ResponseHeadersPolicyId"]["Ref"])
    items = policy["ResponseHeadersPolicyConfig"]["CustomHeadersConfig"]["Items"]
    assert {"Header": "Cache-Control", "Value": "no-store", "Override": False} in items


def test_the_web_client_is_served_with_hsts_for_a_year_and_more_with_its_subdomains() -> None:
    policy = TEMPLATE.properties("WebResponseHeadersPolicy")["ResponseHeadersPolicyConfig"]
    hsts = policy["SecurityHeadersConfig"]["StrictTransportSecurity"]
    assert hsts["AccessControlMaxAgeSec"] >= 365 * 24 * 3600
    assert hsts["IncludeSubdomains"] is True and hsts["Override"] is True


def test_the_stage_and_the_distribution_rate_logins_per_address_and_hints_per_token() -> None:
    """The stage's web ACL (which the local stack applies) and CloudFront's have the same
    rules (through CloudFront the stage sees CloudFront's addresses, the distribution the
    viewer's); a block is a 429 throttled with Retry-After at both."""
    association = TEMPLATE.properties("ApiWebAclAssociation")
    assert association["WebACLArn"] == {"Fn::GetAtt": ["ApiWebAcl", "Arn"]}
    stage, distribution = (TEMPLATE.properties(a) for a in ("ApiWebAcl", "WebWebAcl"))
    assert stage["Scope"] == "REGIONAL"
    statements = [(r["Name"], r["Statement"]) for r in stage["Rules"]]
    assert statements == [(r["Name"], r["Statement"]) for r in distribution["Rules"]]
    rates = {name: statement["RateBasedStatement"] for name, statement in statements}
    assert rates["LoginsPerIp"]["AggregateKeyType"] == "IP"
    (key,) = rates["ExpertRequestsPerToken"]["CustomKeys"]
    assert key["Header"]["Name"] == "Authorization"
    # the stage's blocks are API Gateway's WAF_FILTERED answer
    assert all(r["Action"] == {"Block": {}} for r in stage["Rules"])
    api = TEMPLATE.properties("BlackjackApi")["GatewayResponses"]["WAF_FILTERED"]
    assert api["StatusCode"] == "429" and "Retry-After" in api["ResponseParameters"]["Headers"]
    assert '"code": "throttled"' in api["ResponseTemplates"]["application/json"]
    for rule in distribution["Rules"]:
        response = rule["Action"]["Block"]["CustomResponse"]
        assert response["ResponseCode"] == 429
        assert "Retry-After" in {h["Name"] for h in response["ResponseHeaders"]}
        body = distribution["CustomResponseBodies"][response["CustomResponseBodyKey"]]
        assert '"code": "throttled"' in body["Content"]
