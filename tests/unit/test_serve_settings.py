"""Bad settings stop `heronlog serve` before anything starts, with one clear line on standard error and exit
status 2: never a traceback, never a server that listens and answers nothing (api.server.cli.serve_settings)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

import pytest

from api.server.cli import build_parser, main, serve_settings
from api.server.environment import DEFAULTS, LOWEST, check_api_settings

SERVER_VARIABLES = (
    "HERONLOG_HOST",
    "HERONLOG_PORT",
    "HERONLOG_WORKERS",
    "HERONLOG_CONNECTIONS",
    "HERONLOG_CONCURRENT_REQUESTS",
    "HERONLOG_REUSE_PORT",
    "HERONLOG_PIN_WORKERS",
    "HERONLOG_LOG_FORMAT",
    "HERONLOG_LOG_LEVEL",
)


def one_line(err: str) -> str:
    """What heronlog said on standard error, which must be one line: its words, from a JSON log line (serve's
    default voice) or a plain one ("heronlog: ...")."""
    assert err.count("\n") == 1 and err.endswith("\n"), err
    if err.startswith("{"):
        entry = json.loads(err)
        assert entry["logger"] == "heronlog.cli" and entry["level"] == "error"
        return str(entry["message"])
    assert err.startswith("heronlog: "), err
    return err[len("heronlog: ") : -1]


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    for name in (*SERVER_VARIABLES, *(f"HERONLOG_{name}" for name in DEFAULTS)):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HERONLOG_DATA", str(tmp_path))
    monkeypatch.setenv("REDIS_URL", "")
    monkeypatch.setenv("HERONLOG_STORE", "")


@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        ("HERONLOG_PORT", "abc", "HERONLOG_PORT must be a whole number from 1 to 65535, not 'abc'"),
        ("HERONLOG_PORT", "0", "HERONLOG_PORT must be a whole number from 1 to 65535, not '0'"),
        ("HERONLOG_WORKERS", "0", "HERONLOG_WORKERS must be a whole number from 1 to 256, not '0'"),
        (
            "HERONLOG_CONNECTIONS",
            "-3",
            "HERONLOG_CONNECTIONS must be a whole number from 16 to 1000000, not '-3'",
        ),
        (
            "HERONLOG_CONCURRENT_REQUESTS",
            "eight",
            "HERONLOG_CONCURRENT_REQUESTS must be a whole number from 0 to 10000, not 'eight'",
        ),
        (
            "HERONLOG_RATE_LIMIT_WINDOW",
            "abc",
            "HERONLOG_RATE_LIMIT_WINDOW must be a whole number of 1 or more",
        ),
        ("HERONLOG_RATE_LIMIT_WINDOW", "0", "HERONLOG_RATE_LIMIT_WINDOW must be a whole number of 1 or more"),
        ("HERONLOG_RATE_LIMIT_PER_TOKEN", "1.5", "HERONLOG_RATE_LIMIT_PER_TOKEN must be a whole number"),
        ("HERONLOG_STREAM_POLL_SECONDS", "nan", "HERONLOG_STREAM_POLL_SECONDS must be a number of seconds"),
        (
            "HERONLOG_MAX_CONTENT_LENGTH",
            "2MB",
            "HERONLOG_MAX_CONTENT_LENGTH must be a whole number of 1 or more",
        ),
        ("HERONLOG_LOG_FORMAT", "xml", "HERONLOG_LOG_FORMAT is json or text, not 'xml'"),
        ("HERONLOG_LOG_LEVEL", "loud", "HERONLOG_LOG_LEVEL is debug, info, warning or error, not 'loud'"),
    ],
)
def test_a_bad_variable_stops_serve_with_one_line_naming_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], variable: str, value: str, said: str
) -> None:
    monkeypatch.setenv(variable, value)
    assert main(["serve"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert one_line(err).startswith(said)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--port", "99999"], "--port must be a whole number from 1 to 65535, not '99999'"),
        (["--port", "eighty"], "--port must be a whole number from 1 to 65535, not 'eighty'"),
        (["--workers", "0"], "--workers must be a whole number from 1 to 256, not '0'"),
        (["--connections", "0"], "--connections must be a whole number from 16 to 1000000, not '0'"),
        (["--host", " "], "--host must name an address to listen on"),
    ],
)
def test_a_bad_option_stops_serve_with_one_line_naming_it(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    assert main(["serve", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and one_line(err).startswith(said)


def test_an_option_given_on_the_command_line_wins_over_its_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HERONLOG_PORT", "abc")  # never read: --port is given
    monkeypatch.setenv("HERONLOG_WORKERS", "3")
    settings = serve_settings(build_parser().parse_args(["serve", "--port", "8123"]), os.environ)
    assert (settings.port, settings.workers, settings.connections, settings.host) == (
        8123,
        3,
        4096,
        "127.0.0.1",
    )


def test_a_port_another_server_holds_is_said_before_anything_starts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert one_line(err) == f"cannot listen on 127.0.0.1:{port}: address already in use"


def test_every_api_setting_has_a_lowest_value_and_the_defaults_pass_their_own_check() -> None:
    assert set(LOWEST) == set(DEFAULTS)
    assert check_api_settings({f"HERONLOG_{name}": str(value) for name, value in DEFAULTS.items()}) == []


def test_a_real_serve_with_a_bad_port_exits_at_once_with_one_line_and_no_traceback(tmp_path: object) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "api.server", "serve"],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "HERONLOG_DATA": str(tmp_path), "HERONLOG_PORT": "abc"},
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert one_line(done.stderr) == "HERONLOG_PORT must be a whole number from 1 to 65535, not 'abc'"


def test_a_word_setting_is_taken_as_written_so_what_reads_it_later_agrees(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HERONLOG_LOG_FORMAT", "JSON")  # the logging configuration compares it exactly
    assert main(["serve"]) == 2
    assert capsys.readouterr().err == "heronlog: HERONLOG_LOG_FORMAT is json or text, not 'JSON'\n"


def test_several_workers_take_a_socket_each_by_default_and_one_keeps_the_masters() -> None:
    def reuse(*argv: str) -> bool:
        return serve_settings(build_parser().parse_args(["serve", *argv]), os.environ).reuse_port

    assert reuse() is False and reuse("--workers", "2") is True
    assert reuse("--workers", "2", "--reuse-port", "no") is False and reuse("--reuse-port", "yes") is True
