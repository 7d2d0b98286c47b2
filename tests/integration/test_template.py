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


def test_every_function_has_an_errors_and_a_throttles_alarm() -> None:
    identifier, collection, fragment = TEMPLATE.data["Resources"]["Fn::ForEach::FunctionAlarms"]
    assert sorted(f"{short}Function" for short in collection) == FUNCTIONS
    ((_, (metric, metrics, alarms)),) = fragment.items()
    assert sorted(metrics) == ["Errors", "Throttles"]
    ((logical_id, alarm),) = alarms.items()
    assert logical_id == f"${{{identifier}}}${{{metric}}}Alarm"
    dimension = alarm["Properties"]["Dimensions"][0]
    assert dimension["Value"] == {"Ref": {"Fn::Sub": f"${{{identifier}}}Function"}}
    assert alarm["Properties"]["AlarmActions"] == [{"Ref": "AlarmTopic"}]
