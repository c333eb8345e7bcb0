"""The HTTP API fuzzed in schemathesis's stateful mode: sequences of requests that follow the
OpenAPI links (a new game's id and game master's token to its lifecycle; a joined seat's token to
its orders, ready, draw, press and leave), every answer checked by every check.

In process over ASGI, on an in-memory SQLite database; bounded by ``MAX_EXAMPLES`` sequences of at
most ``STEPS`` requests (about 20 s).
"""

from __future__ import annotations

from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings

from interboard.service.api import RateLimits, create_app

from .test_fuzz import excluded_for

MAX_EXAMPLES = 80
STEPS = 15

app = create_app("sqlite://", sweep=None, limits=RateLimits.off())
schema = schemathesis.openapi.from_dict(app.openapi())
schema.app = app
schema.location = "/openapi.json"
schema.config.max_stream_events = 1
schema.config.update(request_timeout=5)


class Workflow(schema.as_state_machine()):  # type: ignore[misc]
    def validate_response(
        self, response: Any, case: schemathesis.Case[Any], additional_checks: Any = None, **kwargs: Any
    ) -> None:
        # As schemathesis's own, with the exclusions test_fuzz.py explains.
        case.validate_response(
            response,
            additional_checks=additional_checks,
            excluded_checks=excluded_for(case, response),
            transport_kwargs=kwargs or None,
            recorder=self.recorder,
        )


TestWorkflow = Workflow.TestCase
TestWorkflow.settings = settings(
    max_examples=MAX_EXAMPLES,
    stateful_step_count=STEPS,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
