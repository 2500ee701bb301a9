"""Golden-case results as JUnit XML or JSON, for CI."""
from __future__ import annotations

import json
from xml.etree import ElementTree as ET

from ppgcheck.ci.golden import CaseResult


def render_junit(results: list[CaseResult]) -> str:
    failed = sum(not r.passed for r in results)
    suite = ET.Element("testsuite", name="ppgcheck golden cases", tests=str(len(results)),
                       failures=str(failed), errors="0")
    for r in results:
        case = ET.SubElement(suite, "testcase", classname=r.name.rsplit("/", 1)[0], name=r.name)
        if not r.passed:
            failure = ET.SubElement(case, "failure", message=r.description)
            failure.text = "\n".join(r.failures)
    return ET.tostring(suite, encoding="unicode")


def render_results_json(results: list[CaseResult]) -> str:
    return json.dumps({"passed": sum(r.passed for r in results),
                       "failed": sum(not r.passed for r in results),
                       "cases": [{"case": r.name, "description": r.description,
                                  "passed": r.passed, "failures": r.failures} for r in results]},
                      indent=2)
