"""The live server against its own description, by schemathesis: requests generated from
``/api/v1/openapi.json`` (its examples, its coverage of each schema's edges, fuzzing, and
stateful runs that follow a created game), on a fresh SQLite database under the production
server, every answer checked: no 5xx, each status documented, each content type and body the
one described, required headers, what a request missing one gets, 405s with their ``Allow``,
invalid requests refused.

One check is left out, and why: ``positive_data_acceptance`` (a schema-valid request is
accepted). The description says what JSON Schema can; what it cannot (two sides of one name,
a sheet's per-deal lists as long as its game, a special book the sheet does not name, the rules
of a deal) the server refuses with a 400 naming the field, and the operation's description says
so. A 413 (a body over the server's bound, which JSON Schema does not state) is a refusal too.

The run is bounded: a few examples an operation and a time budget, a couple of minutes on two
cores. The rate limits are raised for the run (a fuzzer is one client writing fast): the
limiter's own answers are tested in tests/api/test_ratelimit.py.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.helpers import ProductionServer

SCHEMATHESIS = Path(sys.executable).with_name("st")
MAX_EXAMPLES = 5  # per operation and phase: 39 operations in about two minutes
MAX_TIME = 150  # seconds, the whole run's budget
CONFIG = """
[checks.negative_data_rejection]
expected-statuses = [400, 401, 403, 404, 405, 406, 409, 413, 415, 422, 428, 429]
"""
UNLIMITED = {f"SCOREPAD_{name}": "100000 per minute" for name in ("LIMIT_CREATE", "LIMIT_WRITE", "LIMIT_REFUSED",
                                                                  "LIMIT_BUILD")}


def test_the_server_meets_its_description_under_schemathesis(tmp_path: Path, migrated_database: Path):
    database = tmp_path / "schemathesis.sqlite"
    shutil.copyfile(migrated_database, database)
    (tmp_path / "schemathesis.toml").write_text(CONFIG)
    with ProductionServer(str(database), str(tmp_path / "server.log"), threads=2, env=UNLIMITED) as server:
        ran = subprocess.run(
            [str(SCHEMATHESIS), "--config-file", str(tmp_path / "schemathesis.toml"), "run",
             f"{server.base}/api/v1/openapi.json", "--url", server.base, "--checks", "all",
             "--exclude-checks", "positive_data_acceptance", "--max-examples", str(MAX_EXAMPLES),
             "--max-time", str(MAX_TIME), "--workers", "1", "--generation-deterministic", "--no-color",
             "--report", "junit", "--report-junit-path", str(tmp_path / "junit.xml")],
            cwd=tmp_path, capture_output=True, text=True, timeout=MAX_TIME + 240,
            env={**os.environ, "NO_COLOR": "1"})
    summary = ran.stdout[ran.stdout.rfind("SUMMARY"):] if "SUMMARY" in ran.stdout else ran.stdout[-4000:]
    assert ran.returncode == 0, f"{summary}\n{ran.stderr[-2000:]}\n(failures in {tmp_path / 'junit.xml'})"
    selected, tested = re.search(r"Selected: (\d+)/(\d+)", summary), re.search(r"Tested: (\d+)", summary)
    assert selected and tested, summary
    assert int(tested.group(1)) == int(selected.group(1)) == int(selected.group(2)), "an operation went untested"
