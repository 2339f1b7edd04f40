"""The environment heronlog reads is one table (api.server.environment.variables), the docs' configuration
page lists all of it, and the code cannot read a variable that is not in it."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from api.server.environment import DEFAULTS, SETTING_MEANINGS, server_setting, variables
from replay.config import STORE_VARIABLES, StoreConfig, setting

ROOT = Path(__file__).resolve().parents[2]
CONFIGURATION = ROOT / "docs" / "operations" / "configuration.md"


def test_the_docs_configuration_table_lists_every_variable_with_its_default() -> None:
    page = CONFIGURATION.read_text()
    rows = dict(re.findall(r"^\| `([A-Z_]+)` \| (.+?) \|", page, flags=re.MULTILINE))
    expected = {
        name: "—" if variable.default is None else f"`{variable.default}`"
        for name, variable in variables().items()
    }
    assert rows == expected


def test_every_api_setting_is_documented() -> None:
    assert set(SETTING_MEANINGS) == set(DEFAULTS)
    assert all(variable.meaning for variable in variables().values())


def test_reading_an_undeclared_variable_is_a_bug() -> None:
    with pytest.raises(KeyError):
        setting({"SOMETHING_ELSE": "x"}, "SOMETHING_ELSE")
    with pytest.raises(KeyError):
        server_setting({}, "HERONLOG_NOT_A_SETTING")


def test_empty_variables_fall_back_to_their_defaults() -> None:
    assert server_setting({"HERONLOG_PORT": ""}, "HERONLOG_PORT") == "8000"
    store = StoreConfig.from_environ(
        {"REDIS_URL": "redis://h:6379/0", "HERONLOG_SHARDS": "", "REDIS_KEY_PREFIX": ""}
    )
    assert (store.kind, store.shards, store.redis_prefix) == ("redis", 1, "heronlog")
    assert {variable.name for variable in STORE_VARIABLES} <= set(variables())


def test_the_warm_cache_budget_is_megabytes_and_a_wrong_one_is_refused() -> None:
    from replay.config import ConfigError, open_log

    assert StoreConfig.from_environ({"HERONLOG_STORE": "memory"}).cache_mb == 48
    config = StoreConfig.from_environ({"HERONLOG_STORE": "memory", "HERONLOG_CACHE_MB": "8"})
    log = open_log(config)
    assert log.cache is not None and log.cache.budget == 8 * 1024 * 1024
    log.close()
    assert (
        open_log(StoreConfig.from_environ({"HERONLOG_STORE": "memory", "HERONLOG_CACHE_MB": "0"})).cache
        is None
    )
    for wrong in ("-1", "lots", "nan"):
        with pytest.raises(ConfigError):
            StoreConfig.from_environ({"HERONLOG_STORE": "memory", "HERONLOG_CACHE_MB": wrong})


@pytest.mark.parametrize(
    "case",
    [
        # One worker keeps the master's socket; several take a socket each (SO_REUSEPORT) unless told otherwise.
        ("reuse_port", "HERONLOG_REUSE_PORT", "no", "yes", "HERONLOG_REUSE_PORT is auto, yes or no"),
        # Each worker on a CPU of its own when they fill the machine (api.server.pinning), unless told otherwise.
        ("pin_workers", "HERONLOG_PIN_WORKERS", "auto", "no", "HERONLOG_PIN_WORKERS is auto, yes or no"),
    ],
)
def test_serves_choices_come_from_the_flag_or_the_environment_and_others_are_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], case: tuple[str, str, str, str, str]
) -> None:
    from api.server.cli import build_parser, main, serve_settings

    option, variable, default, other, refused = case
    flag = "--" + option.replace("_", "-")

    def chosen(*argv: str) -> str:
        value = getattr(serve_settings(build_parser().parse_args(["serve", *argv]), os.environ), option)
        return {True: "yes", False: "no"}.get(value, value)

    monkeypatch.delenv(variable, raising=False)
    assert chosen() == default
    assert chosen(flag, other) == other
    monkeypatch.setenv(variable, other)
    assert chosen() == other
    monkeypatch.setenv(variable, "sometimes")
    assert main(["serve"]) == 2  # refused before anything starts
    assert f"{refused}, not 'sometimes'" in capsys.readouterr().err


def test_a_served_worker_freezes_its_start_up_objects_and_collects_garbage_less_often() -> None:
    import gc

    from api.server.collector import Freezer, tune_worker_gc

    threshold = gc.get_threshold()
    try:
        installed = tune_worker_gc()
        assert gc.get_threshold()[0] == 10_000
        assert gc.get_freeze_count() > 0
        assert tune_worker_gc() is installed, "installed once, however often a worker is tuned"
        assert sum(isinstance(callback, Freezer) for callback in gc.callbacks) == 1
    finally:
        gc.callbacks[:] = [callback for callback in gc.callbacks if not isinstance(callback, Freezer)]
        gc.unfreeze()
        gc.set_threshold(*threshold)


def test_gunicorn_takes_the_worker_hook() -> None:
    """gunicorn refuses a server hook whose positional arguments are not exactly the worker."""
    from gunicorn.config import Config

    from api.server.collector import tune_worker_gc

    config = Config()
    config.set("post_worker_init", tune_worker_gc)
    assert config.post_worker_init is tune_worker_gc


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ([], []),
        (["PORT=8080"], ["--port", "8080"]),
        (["HOST=0.0.0.0", "PORT=81"], ["--host", "0.0.0.0", "--port", "81"]),
    ],
)
def test_make_run_leaves_the_address_to_heronlog_serve_unless_given(
    arguments: list[str], expected: list[str]
) -> None:
    # make run once always passed --port 8000, so the HERONLOG_PORT that serve reads itself was ignored.
    root = ROOT
    shown = subprocess.run(
        ["make", "-n", "-C", str(root), "run", *arguments],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "MAKEFLAGS": ""},
    ).stdout
    command = next(line for line in shown.splitlines() if "heronlog serve" in line).split()
    assert command[command.index("serve") + 1 :] == expected
