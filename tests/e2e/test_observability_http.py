"""Logs and metrics of a real `heronlog serve` with two gunicorn workers: every answer echoes its request id,
which is in exactly one JSON log line; `/metrics` counts the requests of every worker, whichever worker
answers the scrape, and keeps the figures of a worker that was killed."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from prometheus_client.parser import text_string_to_metric_families

from tests.api_helpers import ApiClient, http_transport
from tests.e2e.conftest import serve

REQUESTS = 40


def healthz_count(api: ApiClient) -> float:
    answer = api.get("/metrics")
    assert answer.status == 200
    for family in text_string_to_metric_families(answer.body):
        for sample in family.samples:
            if sample.name == "heronlog_http_requests_total" and sample.labels == {
                "method": "GET",
                "route": "/healthz",
                "status": "200",
            }:
                return sample.value
    return 0.0


def log_lines(output: str) -> list[dict[str, Any]]:
    """The JSON lines of the server's output (the start-up banner is plain text)."""
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def test_request_ids_logs_and_metrics_across_two_workers(redis_url: str, tmp_path: Path) -> None:
    env = {
        "REDIS_URL": redis_url,
        "HERONLOG_STORE": "redis",
        "REDIS_KEY_PREFIX": f"obs-{uuid.uuid4().hex[:8]}",
    }
    with contextlib.contextmanager(serve)(tmp_path, env, "--workers", "2") as served:
        api = ApiClient(http_transport(served.url))
        ids = [f"probe-{index}" for index in range(REQUESTS)]
        before = healthz_count(api)  # the start-up probes of the fixture

        def probe(request_id: str) -> str:
            answer = api.get("/healthz", **{"X-Request-ID": request_id})
            assert answer.status == 200
            return answer.headers["x-request-id"]

        with ThreadPoolExecutor(4) as pool:
            assert list(pool.map(probe, ids)) == ids

        lines = log_lines(served.output())
        requests = [
            line
            for line in lines
            if line["logger"] == "heronlog.request" and str(line["request_id"]).startswith("probe-")
        ]
        assert sorted(line["request_id"] for line in requests) == sorted(ids)
        assert all(
            (line["method"], line["route"], line["status"]) == ("GET", "/healthz", 200) for line in requests
        )
        assert any(line["logger"] == "gunicorn.error" for line in lines), "gunicorn's own lines are JSON too"

        # Every scrape, whichever worker answers it, counts every worker's requests.
        assert [healthz_count(api) for _ in range(4)] == [before + REQUESTS] * 4

        # A worker killed: its figures stay (the new worker adds to them).
        workers = sorted({line["pid"] for line in requests})
        os.kill(workers[0], signal.SIGKILL)
        deadline = time.monotonic() + 30
        while "was sent SIGKILL" not in served.output():
            assert time.monotonic() < deadline, "the master did not notice the killed worker"
            time.sleep(0.1)
        for request_id in ("after-1", "after-2"):
            assert probe(request_id) == request_id
        assert healthz_count(api) == before + REQUESTS + 2
