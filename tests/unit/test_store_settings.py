"""Every store setting is checked before a command opens anything: `heronlog serve` and every command that reads
or writes a store stop with one line and exit status 2 on a setting that cannot be used (a `REDIS_URL` of another
scheme or a port that is no port, shards out of range, a cluster word that is none, a data folder that is a
file); a store that does not answer is one line too (exit 1); no command prints a traceback. An unknown
`HERONLOG_*` variable is said, with the setting it most likely meant."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from api.server.cli import main
from api.server.environment import unknown_variables
from replay.config import check_store_settings

GAME = "3f2504e0-4f89-11d3-9a0c-0305e82c3301"

BAD = [
    ({"REDIS_URL": "foo://x"}, "REDIS_URL must start with redis://, rediss:// or unix://, not 'foo://x'"),
    (
        {"REDIS_URL": "redis://127.0.0.1:xx/0"},
        "REDIS_URL has a port that is no port, 'xx', in 'redis://127.0.0.1:xx/0': a whole number from 1 to 65535",
    ),
    ({"HERONLOG_SHARDS": "100"}, "HERONLOG_SHARDS must be a whole number from 1 to 64, not '100'"),
    (
        {"REDIS_URL": "redis://127.0.0.1:6379/0", "REDIS_CLUSTER": "maybe"},
        "REDIS_CLUSTER is auto, yes or no, not 'maybe'",
    ),
    ({"REDIS_WAIT_REPLICAS": "-1"}, "REDIS_WAIT_REPLICAS must be a whole number of 0 or more, not '-1'"),
]

COMMANDS = [
    ["verify"],
    ["backup", "{tmp}/backup"],
    ["restore", "{tmp}/backup"],
    ["revalidate"],
    ["upgrade"],
    ["export", GAME],
]


def one_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("heronlog: ") and "Traceback" not in err, err
    return lines[0][len("heronlog: ") :]


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("REDIS_URL", "HERONLOG_STORE", "HERONLOG_SHARDS", "REDIS_CLUSTER", "REDIS_WAIT_REPLICAS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HERONLOG_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("HERONLOG_LOG_FORMAT", "text")


@pytest.mark.parametrize(("environ", "said"), BAD)
def test_a_real_serve_with_a_bad_store_setting_exits_2_with_one_line(
    environ: dict[str, str], said: str, tmp_path: Path
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "api.server.cli", "serve"],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
        env={
            "PATH": "/usr/bin:/bin",
            "HERONLOG_DATA": str(tmp_path),
            "HERONLOG_LOG_FORMAT": "text",
            **environ,
        },
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert one_line(done.stderr) == said


@pytest.mark.parametrize("bad", BAD)
@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: command[0])
def test_every_command_stops_on_a_bad_store_setting_with_one_line(
    bad: tuple[dict[str, str], str],
    command: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    environ, said = bad
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    assert main([part.format(tmp=tmp_path) for part in command]) == 2
    assert one_line(capsys.readouterr().err) == said


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: command[0])
def test_a_data_folder_that_is_a_file_stops_every_command_with_one_line(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "data").write_text("not a folder")
    code = main([part.format(tmp=tmp_path) for part in command])
    said = one_line(capsys.readouterr().err)
    if command[0] == "export":  # it reads only: there is no store to read there
        assert code == 1 and said.startswith("no store at")
    else:
        assert (code, said) == (2, f"HERONLOG_DATA must name a folder; {tmp_path / 'data'} is a file")


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: command[0])
def test_a_redis_that_does_not_answer_is_one_line_for_every_command(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")  # loopback port 1 refuses connections
    monkeypatch.setenv("REDIS_SOCKET_TIMEOUT", "1")
    if command[0] == "restore":
        (tmp_path / "backup").mkdir()
        (tmp_path / "backup" / "index.json").write_text(
            '{"format": "heronlog.backup", "format_version": 1, "games": []}'
        )
    assert main([part.format(tmp=tmp_path) for part in command]) == 1
    assert one_line(capsys.readouterr().err).startswith("the event store did not answer")


def test_serve_checks_the_data_folder_before_anything_starts(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    done = subprocess.run(
        [sys.executable, "-m", "api.server.cli", "serve"],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "HERONLOG_DATA": str(tmp_path / "file"), "HERONLOG_LOG_FORMAT": "text"},
    )
    assert done.returncode == 2
    assert one_line(done.stderr) == f"HERONLOG_DATA must name a folder; {tmp_path / 'file'} is a file"


def test_export_to_a_folder_that_does_not_exist_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from replay.config import StoreConfig, open_log

    log = open_log(StoreConfig(kind="sqlite", sqlite_path=tmp_path / "data" / "heronlog.sqlite"))
    game_id = log.create_game({"players": 2, "seed": 1}).game_id
    log.close()
    assert main(["export", str(game_id), "-o", str(tmp_path / "missing" / "game.json")]) == 2
    assert one_line(capsys.readouterr().err) == (
        f"cannot write {tmp_path / 'missing' / 'game.json'}: No such file or directory"
    )


def test_an_unknown_heronlog_variable_is_said_with_the_setting_it_likely_meant(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert unknown_variables(
        {"HERONLOG_POTR": "1", "HERONLOG_PORT": "8000", "HERONLOG_TEST_REDIS_URL": "x"}
    ) == ["HERONLOG_POTR is not a heronlog setting and is ignored; did you mean HERONLOG_PORT?"]
    monkeypatch.setenv("HERONLOG_WORKRES", "2")
    assert main(["demo", "--players", "2"]) == 0
    assert (
        "heronlog: HERONLOG_WORKRES is not a heronlog setting and is ignored; did you mean HERONLOG_WORKERS?"
        in (capsys.readouterr().err)
    )


def test_good_store_settings_pass() -> None:
    assert (
        check_store_settings(
            {
                "REDIS_URL": "rediss://user:secret@10.0.0.5:6380,10.0.0.6:6380/2",
                "HERONLOG_SHARDS": "64",
                "REDIS_CLUSTER": "yes",
                "REDIS_SOCKET_TIMEOUT": "2.5",
                "REDIS_WAIT_REPLICAS": "1",
            }
        )
        == []
    )
    assert check_store_settings({"REDIS_URL": "unix:///run/redis.sock"}) == []
    assert check_store_settings({"REDIS_URL": "redis://[::1]:6379/0"}) == []
