"""The `heronlog` command as a packager and an operator expect it: `--version`, help for every command and
argument, `--data` beside HERONLOG_DATA, an export that only reads, and heronlog's own words in one format."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from api.server.cli import build_parser, main
from replay.config import StoreConfig, open_log
from replay.health import package_version


def test_version_prints_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"heronlog {package_version()}"


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    [action] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def test_every_command_and_every_argument_has_help() -> None:
    parser = build_parser()
    [action] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    helped = {choice.dest for choice in action._choices_actions if choice.help}
    assert helped == set(subcommands(parser))
    for name, command in subcommands(parser).items():
        for argument in command._actions:
            if isinstance(argument, argparse._HelpAction):
                continue
            assert argument.help, f"heronlog {name}: {argument.option_strings or argument.dest} has no help"


def test_data_stands_in_for_heronlog_data_in_every_command_that_opens_a_store() -> None:
    parser = build_parser()
    for name in ("serve", "export", "import", "revalidate", "backup", "restore"):
        assert "--data" in subcommands(parser)[name]._option_string_actions, name


def finished_store(folder: Path) -> str:
    log = open_log(StoreConfig(kind="sqlite", sqlite_path=folder / "heronlog.sqlite"))
    game_id = log.create_game({"players": ["Aiko", "Ben"], "seed": 3}).game_id
    log.close()
    return str(game_id)


def heronlog(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {key: value for key, value in os.environ.items() if not key.startswith(("HERONLOG_", "REDIS_"))}
    return subprocess.run(
        [sys.executable, "-m", "api.server.cli", *args],
        cwd=cwd,
        env={**environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2]), **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_export_reads_only_and_creates_no_store(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    run = heronlog("export", "00000000-0000-4000-8000-000000000000", cwd=empty)
    assert run.returncode == 1 and "no store at" in run.stderr
    assert list(empty.iterdir()) == [], "export made a data folder"
    data = tmp_path / "data"
    game_id = finished_store(data)
    store = data / "heronlog.sqlite"
    before = store.stat().st_mtime_ns, store.stat().st_size
    store.chmod(0o444)
    try:
        for fmt in ("json", "text", "bgstats", "bgg"):
            run = heronlog("export", "--data", str(data), "--format", fmt, game_id, cwd=empty)
            assert run.returncode == 0, run.stderr
            assert run.stdout
    finally:
        store.chmod(0o644)
    assert (store.stat().st_mtime_ns, store.stat().st_size) == before


def test_heronlog_own_words_are_json_lines_when_the_log_format_is_json(tmp_path: Path) -> None:
    text = heronlog("export", "not-an-id", cwd=tmp_path)
    assert text.stderr == "heronlog: 'not-an-id' is not a game id\n"
    as_json = heronlog("export", "not-an-id", cwd=tmp_path, HERONLOG_LOG_FORMAT="json")
    [line] = as_json.stderr.splitlines()
    entry = json.loads(line)
    assert entry["level"] == "error" and entry["message"] == "'not-an-id' is not a game id"
    assert entry["logger"] == "heronlog.cli" and "time" in entry
