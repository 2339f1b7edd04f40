"""Request ids, the request log and the Prometheus metrics (api.server.observability), on the in-memory store."""

from __future__ import annotations

import io
import json
import logging
import os
import select
import sys
import threading
import time
from typing import Any

import pytest
from eventsourcing.persistence import OperationalError
from flask import Flask
from prometheus_client.parser import text_string_to_metric_families

from api.app import create_app
from api.server import observability
from replay.config import StoreConfig
from tests.api_helpers import ApiClient, flask_transport


def metric_samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a Prometheus text exposition, by (name, sorted labels)."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def scrape(api: ApiClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    answer = api.get("/metrics")
    assert answer.status == 200
    assert answer.headers["content-type"].startswith("text/plain")
    return metric_samples(answer.body)


def test_every_answer_carries_the_request_id_it_was_sent_or_a_new_one(api: ApiClient) -> None:
    sent = api.get("/healthz", **{"X-Request-ID": "phone-42.tap:7"})
    assert sent.headers["x-request-id"] == "phone-42.tap:7"
    first, second = api.get("/healthz"), api.get("/api/nowhere")
    assert len(first.headers["x-request-id"]) == 32
    assert second.headers["x-request-id"] not in ("", first.headers["x-request-id"])
    # An id that could flood or forge log lines is replaced, never echoed.
    for unreasonable in ("x" * 129, "two words", 'quote"d'):
        echoed = api.get("/healthz", **{"X-Request-ID": unreasonable}).headers["x-request-id"]
        assert echoed != unreasonable and len(echoed) == 32


def test_one_log_line_per_request_with_its_route_template_status_and_actor(
    api: ApiClient, caplog: pytest.LogCaptureFixture
) -> None:
    game_id, owner, game = api.create(2, seed=4)
    move = api.legal(game_id).body["moves"][0]
    with caplog.at_level(logging.INFO, logger="heronlog.request"):
        played = api.send(
            "POST",
            f"/api/games/{game_id}/moves",
            move,
            {**api.headers(owner, game["version"]), "X-Request-ID": "tap-1"},
        )
        stale = api.play(game_id, move, owner, game["version"])
    assert played.status == 201
    first, second = [record for record in caplog.records if record.name == "heronlog.request"]
    assert first.__dict__["route"] == "/api/games/<uuid:game_id>/moves"
    assert game_id not in first.getMessage()  # a game's id lets anyone read it: never logged
    fields = {key: first.__dict__[key] for key in ("method", "status", "request_id", "role", "actor")}
    assert fields == {
        "method": "POST",
        "status": 201,
        "request_id": "tap-1",
        "role": "owner",
        "actor": "owner",
    }
    assert first.__dict__["duration_ms"] >= 0
    assert (second.__dict__["status"], second.__dict__["error_code"]) == (412, stale.body["error_code"])


def test_the_json_formatter_writes_one_object_per_line_with_fields_and_traceback() -> None:
    formatter = observability.JsonFormatter()
    record = logging.LogRecord("heronlog.request", logging.INFO, __file__, 1, "GET %s", ("/x",), None)
    record.route = "/x"
    line = json.loads(formatter.format(record))
    assert line["message"] == "GET /x" and line["level"] == "info" and line["route"] == "/x"
    assert line["time"].endswith("+00:00")
    try:
        raise ValueError("boom")
    except ValueError:
        failed = logging.LogRecord("api", logging.ERROR, __file__, 1, "unexpected error", (), sys.exc_info())
    text = formatter.format(failed)
    assert "\n" not in text
    entry = json.loads(text)
    assert entry["error"] == "ValueError: boom"
    assert 'raise ValueError("boom")' in entry["traceback"]


def test_an_unexpected_error_is_a_500_logged_as_json_with_its_request_id_and_traceback(
    app: Flask, api: ApiClient
) -> None:
    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    app.extensions["heronlog"].get().log.queries.page_of_games = broken
    written = io.StringIO()
    handler = logging.StreamHandler(written)
    handler.setFormatter(observability.JsonFormatter())
    logger = logging.getLogger("api")
    logger.addHandler(handler)
    try:
        answer = api.get("/api/games", **{"X-Request-ID": "bug-report-1"})
    finally:
        logger.removeHandler(handler)
    assert answer.error() == (500, "internal_error")
    [line] = [json.loads(text) for text in written.getvalue().splitlines()]
    assert line["request_id"] == "bug-report-1" and line["level"] == "error"
    assert line["error"] == "RuntimeError: a bug" and 'raise RuntimeError("a bug")' in line["traceback"]


def test_metrics_count_requests_moves_conflicts_and_rate_limited_writes() -> None:
    app = create_app(
        {"STORE": StoreConfig(kind="memory"), "RATE_LIMIT_PER_ADDRESS": 2, "RATE_LIMIT_WINDOW": 10**9}
    )
    api = ApiClient(flask_transport(app.test_client()))
    game_id, owner, _ = api.create(2, seed=9)
    listing = api.legal(game_id)
    assert api.play(game_id, listing.body["moves"][0], owner, listing.etag, key="k1").status == 201
    assert api.play(game_id, listing.body["moves"][0], owner, listing.etag, key="k1").status == 201
    assert api.play(game_id, listing.body["moves"][0], owner, listing.etag).status == 412
    api.create(2, seed=1)
    assert api.post("/api/games", {"players": 2}).status == 429
    samples = scrape(api)
    moves_route = (("method", "POST"), ("route", "/api/games/<uuid:game_id>/moves"))
    assert samples[("heronlog_http_requests_total", (*moves_route, ("status", "201")))] == 2
    assert samples[("heronlog_http_requests_total", (*moves_route, ("status", "412")))] == 1
    # the retried key recorded nothing new: one move
    assert samples[("heronlog_moves_recorded_total", ())] == 1
    assert samples[("heronlog_conflicts_total", (("error_code", "stale_version"),))] == 1
    assert samples[("heronlog_rate_limited_total", ())] == 1
    latency_count = ("heronlog_http_request_duration_seconds_count", (("method", "POST"), moves_route[1]))
    assert samples[latency_count] == 3


def test_a_method_http_does_not_define_is_counted_as_other_so_made_up_methods_cannot_grow_the_metrics(
    api: ApiClient,
) -> None:
    assert api.send("GET", "/healthz", None, {}).status == 200
    for index in range(30):
        assert api.send(f"BREW{index}", "/healthz", None, {}).error() == (405, "method_not_allowed")
    samples = scrape(api)
    methods = {dict(labels)["method"] for name, labels in samples if name == "heronlog_http_requests_total"}
    assert methods == {"GET", "other"}
    other = (("method", "other"), ("route", "unmatched"), ("status", "405"))
    assert samples[("heronlog_http_requests_total", other)] == 30
    latency = {
        dict(labels)["method"] for name, labels in samples if name.startswith("heronlog_http_request_dur")
    }
    assert latency == {"GET", "other"}


def test_a_store_outage_is_counted_as_a_store_error(app: Flask, api: ApiClient) -> None:
    game_id, _, _ = api.create(2, seed=2)

    def down(*_args: Any, **_kwargs: Any) -> Any:
        raise OperationalError("connection refused")

    app.extensions["heronlog"].get().log.get_game = down
    assert api.get(f"/api/games/{game_id}").error() == (503, "store_unavailable")
    samples = scrape(api)
    assert samples[("heronlog_store_errors_total", (("route", "/api/games/<uuid:game_id>"),))] == 1


def test_metrics_report_each_workers_cache_against_its_budget_and_its_resident_memory() -> None:
    app = create_app({"STORE": StoreConfig(kind="memory")})
    api = ApiClient(flask_transport(app.test_client()))
    before = scrape(api)
    assert before[("heronlog_cache_bytes", ())] == 0
    assert app.extensions["heronlog"].built is None, "the metrics never build the game log themselves"
    assert before[("heronlog_worker_resident_bytes", ())] > 10_000_000
    game_id, _, _ = api.create(2)
    api.get(f"/api/games/{game_id}")
    samples = scrape(api)
    assert 0 < samples[("heronlog_cache_bytes", ())] <= samples[("heronlog_cache_budget_bytes", ())]
    assert samples[("heronlog_cache_budget_bytes", ())] == 48 * 1024 * 1024
    assert samples[("heronlog_cache_entries", ())] >= 2  # the game and its access stream
    assert samples[("heronlog_cache_lookups_total", (("outcome", "hit"),))] >= 1
    assert ("heronlog_cache_evictions_total", ()) in samples


def test_metrics_need_the_metrics_token_when_one_is_set() -> None:
    app = create_app({"STORE": StoreConfig(kind="memory"), "METRICS_TOKEN": "s3cret"})
    api = ApiClient(flask_transport(app.test_client()))
    assert api.get("/metrics").error() == (401, "unauthorized")
    assert api.get("/metrics", "wrong").error() == (401, "unauthorized")
    assert api.get("/metrics", "s3cret").status == 200


def test_logging_config_refuses_an_unknown_format_or_level() -> None:
    assert observability.logging_config("json", "info")["root"]["level"] == "INFO"
    with pytest.raises(ValueError, match="json or text"):
        observability.logging_config("xml", "info")
    with pytest.raises(ValueError, match="debug, info"):
        observability.logging_config("text", "loud")


def test_gunicorns_logger_writes_through_heronlogs_configuration_and_keeps_no_access_log() -> None:
    from gunicorn.config import Config

    logger_class = observability.gunicorn_logger_class(observability.logging_config("json", "info"))
    gunicorn_error = logging.getLogger("gunicorn.error")
    saved = (list(gunicorn_error.handlers), list(logging.root.handlers), logging.root.level)
    try:
        logger = logger_class(Config())
        [handler] = gunicorn_error.handlers
        assert isinstance(handler.formatter, observability.JsonFormatter)
        assert not logger.access_log_enabled  # no access-log data is built per request
    finally:
        gunicorn_error.handlers[:], logging.root.handlers[:] = saved[0], saved[1]
        logging.root.setLevel(saved[2])


def test_new_request_ids_are_distinct_and_a_forked_worker_draws_its_own_prefix() -> None:
    from api.server import observability

    ids = {observability.request_id_from(None) for _ in range(1000)}
    assert len(ids) == 1000 and all(len(i) == 32 and int(i, 16) >= 0 for i in ids)
    before = observability.request_id_from(None)
    observability._request_ids.reset()  # what os.register_at_fork runs in a gunicorn worker after the fork
    after = observability.request_id_from(None)
    assert before[:16] != after[:16] and after not in ids


def line_handler_on_a_pipe() -> tuple[observability.LineHandler, int]:
    """A JSON line handler writing into a pipe (a container's log), and the pipe's end to read."""
    read, write = os.pipe()
    handler = observability.LineHandler(write)
    handler.setFormatter(observability.JsonFormatter())
    return handler, read


def read_all(handler: observability.LineHandler, read: int) -> list[dict[str, Any]]:
    os.close(handler.fd)
    with os.fdopen(read, "rb") as pipe:
        return [json.loads(line) for line in pipe.read().decode().splitlines()]


def test_the_line_handler_writes_each_record_as_one_line_in_one_write(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    handler, read = line_handler_on_a_pipe()
    writes: list[bytes] = []
    real_write = os.write
    monkeypatch.setattr(os, "write", lambda fd, data: writes.append(bytes(data)) or real_write(fd, data))
    logger = logging.getLogger("heronlog.test.line")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        logger.info("%s %s", "POST", "/api/games", extra={"status": 201})
        logger.warning("élan")
    finally:
        logger.removeHandler(handler)
        monkeypatch.undo()
    lines = read_all(handler, read)
    assert [line["message"] for line in lines] == ["POST /api/games", "élan"]
    assert lines[0]["status"] == 201
    assert len(writes) == 2 and all(write.endswith(b"\n") and write.count(b"\n") == 1 for write in writes)


def test_lines_written_by_many_threads_at_once_arrive_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """Eight threads, as a worker's, each logging 200 requests, and one traceback longer than ``PIPE_BUF``
    among them: every line reads back as the JSON object it was. A pipe that is full takes part of a long
    write and the writer waits for room: here every long write is taken ``PIPE_BUF`` bytes at a time with a
    pause between, so that a short line written meanwhile by another thread would land inside it."""
    handler, read = line_handler_on_a_pipe()
    real_write = os.write

    def write_as_a_full_pipe(fd: int, data: bytes) -> int:
        if len(data) <= select.PIPE_BUF:
            return real_write(fd, data)
        written = real_write(fd, bytes(data[: select.PIPE_BUF]))
        time.sleep(0.002)
        return written

    monkeypatch.setattr(os, "write", write_as_a_full_pipe)
    logger = logging.getLogger("heronlog.test.threads")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    received: list[bytes] = []

    def drain() -> None:  # the pipe's other end, read as a log collector would, while the threads write
        with os.fdopen(read, "rb") as pipe:
            received.append(pipe.read())

    reader = threading.Thread(target=drain)
    reader.start()

    def requests(thread: int) -> None:
        for index in range(200):
            logger.info("request", extra={"writer": thread, "index": index, "padding": "x" * (index * 7)})

    def chained(links: int) -> None:  # a traceback of many chained errors: a line far longer than PIPE_BUF
        if not links:
            raise RuntimeError("link 0")
        try:
            chained(links - 1)
        except RuntimeError as error:
            raise RuntimeError(f"link {links}") from error

    def long_one() -> None:
        try:
            chained(60)
        except RuntimeError:
            logger.exception("a long traceback")

    # The long one first: the others start writing while it is being written.
    threads = [threading.Thread(target=long_one)]
    threads += [threading.Thread(target=requests, args=(thread,)) for thread in range(8)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        logger.removeHandler(handler)
        os.close(handler.fd)
    reader.join()
    lines = [json.loads(line) for line in received[0].decode().splitlines()]
    seen = {(line["writer"], line["index"]) for line in lines if line["message"] == "request"}
    assert seen == {(thread, index) for thread in range(8) for index in range(200)}
    [traceback] = [line for line in lines if line["message"] == "a long traceback"]
    assert len(traceback["traceback"]) > 2 * select.PIPE_BUF
    assert traceback["traceback"].count("RuntimeError: link") == 61
    assert len(lines) == 8 * 200 + 1


def test_serve_logs_through_the_line_handler_in_either_format() -> None:
    for log_format in ("json", "text"):
        config = observability.logging_config(log_format, "info")
        assert config["handlers"]["console"]["class"] == "api.server.observability.LineHandler"


def test_the_metrics_carry_the_build_info_and_the_process_series(api: ApiClient) -> None:
    from replay.health import package_version

    samples = scrape(api)
    [build] = [labels for (name, labels) in samples if name == "heronlog_build_info"]
    assert dict(build)["version"] == package_version() and samples[("heronlog_build_info", build)] == 1
    names = {name for name, _ in samples}
    assert {"process_resident_memory_bytes", "process_cpu_seconds_total", "python_info"} <= names


def test_counters_are_there_from_zero_before_anything_happened(api: ApiClient) -> None:
    samples = scrape(api)
    for code in ("stale_version", "nothing_to_undo", "game_closed"):
        assert samples[("heronlog_conflicts_total", (("error_code", code),))] == 0
    assert samples[("heronlog_rate_limited_total", ())] == 0
    assert samples[("heronlog_moves_recorded_total", ())] == 0
    moves = "/api/games/<uuid:game_id>/moves"
    assert samples[("heronlog_store_errors_total", (("route", moves),))] == 0


def test_the_metrics_answer_openmetrics_to_a_scraper_that_asks_for_it(api: ApiClient) -> None:
    from prometheus_client.openmetrics.parser import text_string_to_metric_families as openmetrics

    answer = api.get("/metrics", Accept="application/openmetrics-text; version=1.0.0; charset=utf-8")
    assert answer.headers["content-type"].startswith("application/openmetrics-text")
    assert answer.body.rstrip().endswith("# EOF")
    families = {family.name for family in openmetrics(answer.body)}
    assert {"heronlog_http_requests", "heronlog_build_info"} <= families
    assert api.get("/metrics").headers["content-type"].startswith("text/plain")


def test_the_request_log_names_the_client_and_the_w3c_trace_it_belongs_to(
    api: ApiClient, caplog: pytest.LogCaptureFixture
) -> None:
    trace = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    with caplog.at_level(logging.INFO, logger="heronlog.request"):
        api.get("/healthz", traceparent=trace, **{"X-Forwarded-For": "203.0.113.7"})
        api.get("/healthz", traceparent="00-00000000000000000000000000000000-00f067aa0ba902b7-01")
        api.get("/healthz", traceparent="not a trace")
    traced, zero, malformed = [
        record.__dict__ for record in caplog.records if record.name == "heronlog.request"
    ]
    assert traced["client"] == "127.0.0.1" and traced["forwarded_for"] == "203.0.113.7"
    assert (traced["trace_id"], traced["parent_id"]) == (
        "4bf92f3577b34da6a3ce929d0e0e4736",
        "00f067aa0ba902b7",
    )
    assert "trace_id" not in zero and "trace_id" not in malformed  # an invalid traceparent is ignored
    line = json.loads(observability.JsonFormatter().format(caplog.records[0]))
    assert line["trace_id"] == "4bf92f3577b34da6a3ce929d0e0e4736" and line["client"] == "127.0.0.1"
