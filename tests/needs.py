"""Parts of the machine some tests need beyond Python (Debian's Chromium, a PostgreSQL server).

A contributor who has not installed one sees those tests skipped, with the reason. In CI
(``CI`` set), where .ci/run installs every part, a missing one is a failure, so that a test
CI should run can never pass by skipping."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def unavailable(reason: str) -> NoReturn:
    """Skip for want of a part the machine lacks; fail instead in CI, where .ci/run installs it."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason}, though .ci/run installs it")
    pytest.skip(reason)
