"""The Docker image's two stages, rehearsed without a Docker engine (there is none on the machines that build
heronlog), then the image's command served and spoken to over real HTTP.

tests/unit/test_docker.py reads the docker files; this module runs what they say, as far as a machine without
Docker can:

* **build**: the build context holds only what ``docker/Dockerfile.dockerignore`` lets through; the build
  stage's ``COPY`` lines copy from it into a folder standing for its ``WORKDIR``, and its ``pip`` commands run
  there, word for word but for the image's paths (``/wheels``);
* **run**: a fresh virtualenv of the same Python stands for the slim image; the final stage's ``pip install``
  runs in it from those wheels alone (``--no-index``), and ``docker/healthcheck.py`` is copied where the
  Dockerfile puts it;
* **serve**: the image's ``ENTRYPOINT`` and ``CMD`` run with the image's ``ENV`` and nothing else (no
  ``PYTHONPATH``, another working folder than the sources), as the image's numeric user when the tests run
  as root, on a loopback port; the ``HEALTHCHECK`` command must report healthy, and the pages, their static
  files, the API docs, the catalog and the embedded store must all work from the installed wheel.

What differs from a real build, and why: the base image is this machine's Python 3.11 rather than
``python:3.11-slim`` (the same minor version); pip may use this machine's download cache (the image sets
``PIP_NO_CACHE_DIR`` to keep its layers small, which changes nothing of what is installed); ``useradd`` and
``chown`` are not run (the user is taken by number, as ``USER`` names it); the server binds 127.0.0.1
instead of the container's 0.0.0.0, as every test here stays on loopback.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis

from tests.api_helpers import ApiClient, http_transport
from tests.docker_files import (
    ROOT,
    Instruction,
    compose,
    dockerignore,
    env_of,
    final_stage,
    in_context,
    stage,
)
from tests.e2e.conftest import Served, serve

WHEELS = "/wheels"  # the folder the Dockerfile's stages hand the wheels over in


@dataclass(frozen=True)
class Image:
    """What the rehearsal built: the image's Python, its root folder, and the image's user."""

    root: Path
    python: Path
    user: int

    @property
    def bin(self) -> Path:
        return self.python.parent

    def inside(self, path: str) -> Path:
        """An absolute path of the image, in the rehearsal's folder."""
        return self.root / path.lstrip("/")


def pip_commands(instructions: list[Instruction]) -> list[list[str]]:
    """The ``pip`` commands of a stage's ``RUN`` lines, as words, with the image's wheel folder left as is."""
    commands = []
    for instruction in instructions:
        if instruction.keyword != "RUN":
            continue
        for part in instruction.arguments.split("&&"):
            words = shlex.split(part)
            if words and words[0] == "pip":
                commands.append(words[1:])
    return commands


def rooted(words: list[str], root: Path) -> list[str]:
    """Words with the image's wheel folder moved under the rehearsal's root."""
    wheels = str(root / WHEELS.lstrip("/"))
    return [word.replace(WHEELS, wheels) for word in words]


def stage_env(instructions: list[Instruction]) -> dict[str, str]:
    """The environment a stage's ``pip`` runs in: this process's, with that stage's ``ENV`` (and no other
    stage's: Docker does not carry ``ENV`` from one stage into the next)."""
    env = {**os.environ, **env_of(instructions)}
    env.pop("PIP_NO_CACHE_DIR", None)  # see the module's docstring
    env.pop("PYTHONPATH", None)
    return env


def run(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> None:
    done = subprocess.run(command, check=False, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{shlex.join(command)} failed:\n{done.stdout}\n{done.stderr}"


def copy_into_context(context: Path) -> int:
    """The build context: every file of the repository that the ignore file lets through. Returns how many.
    Folders the rules leave out, with no ``!`` rule reaching inside them (``.git``, ``.venv``...), are not
    walked."""
    rules = dockerignore()
    copied = 0
    for folder, subfolders, files in os.walk(ROOT):
        base = Path(folder).relative_to(ROOT).as_posix().removeprefix(".")
        prefix = f"{base}/" if base else ""
        subfolders[:] = [
            name
            for name in sorted(subfolders)
            if in_context(prefix + name, rules) or any(rule.startswith(f"!{prefix}{name}/") for rule in rules)
        ]
        for name in sorted(files):
            if in_context(prefix + name, rules):
                (context / prefix).mkdir(parents=True, exist_ok=True)
                shutil.copy2(Path(folder) / name, context / prefix / name)
                copied += 1
    return copied


def workdir(instructions: list[Instruction], root: Path) -> Path:
    [folder] = [instruction.arguments for instruction in instructions if instruction.keyword == "WORKDIR"]
    return root / folder.lstrip("/")


def copy_from_context(instructions: list[Instruction], context: Path, destination: Path, root: Path) -> None:
    """A stage's ``COPY`` lines from the build context (``--from`` lines hand over wheels: not needed here)."""
    for instruction in instructions:
        words = instruction.words()
        if instruction.keyword != "COPY" or any(word.startswith("--") for word in words):
            continue
        *sources, target = words
        into = root / target.lstrip("/") if target.startswith("/") else destination / target
        into_folder = target.endswith("/") or len(sources) > 1
        for source in sources:
            origin = context / source
            assert origin.exists(), f"COPY {source}: not in the build context"
            if origin.is_dir():  # a folder's contents go into the target, as Docker copies them
                shutil.copytree(origin, into, dirs_exist_ok=True)
            else:
                (into if into_folder else into.parent).mkdir(parents=True, exist_ok=True)
                shutil.copy2(origin, into / origin.name if into_folder else into)


@pytest.fixture(scope="module")
def image() -> Iterator[Image]:
    # Not pytest's tmp_path: its folders are private to root, and the image's user must read this one.
    root = Path(tempfile.mkdtemp(prefix="heronlog-image-"))
    root.chmod(0o755)
    try:
        context = root / "context"
        assert copy_into_context(context) > 20
        assert not (context / "tests").exists() and not list(context.rglob("__pycache__"))

        build = stage(0)
        source = workdir(build, root)
        copy_from_context(build, context, source, root)
        pip_env = stage_env(build)
        for words in pip_commands(build):
            run([sys.executable, "-m", "pip", *rooted(words, root)], cwd=source, env=pip_env)

        final = final_stage()
        base = getattr(sys, "_base_executable", sys.executable)
        venv = root / "image"
        run([base, "-m", "venv", "--without-pip", str(venv)], cwd=root)
        python = venv / "bin" / "python"
        for words in pip_commands(final):
            run(
                [sys.executable, "-m", "pip", "--python", str(python), *rooted(words, root)],
                cwd=root,
                env=stage_env(final),  # a stage's ENV is its own: the build stage's does not reach it
            )
        copy_from_context(final, context, workdir(final, root), root)

        [user] = [instruction.arguments for instruction in final if instruction.keyword == "USER"]
        uid = int(user.split(":")[0]) if os.geteuid() == 0 else os.geteuid()
        for folder in (env_of(final)["HERONLOG_DATA"], str(workdir(final, Path("/")))):
            (root / folder.lstrip("/")).mkdir(parents=True, exist_ok=True)
            if os.geteuid() == 0:
                os.chown(root / folder.lstrip("/"), uid, uid)
        yield Image(root, python, uid)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def image_environment(image: Image) -> dict[str, str]:
    """The image's ENV and nothing of this test's own environment, with the image's paths under its root."""
    env = env_of(final_stage())
    env["HERONLOG_DATA"] = str(image.inside(env["HERONLOG_DATA"]))
    env["HERONLOG_HOST"] = "127.0.0.1"
    env["HERONLOG_PORT"] = "{port}"
    return {**env, "PATH": f"{image.bin}:/usr/bin:/bin", "HOME": str(workdir(final_stage(), image.root))}


def on_port(env: dict[str, str], server: Served) -> dict[str, str]:
    """``env`` with the port ``serve`` chose for ``server`` in place of ``{port}``."""
    port = server.url.rsplit(":", 1)[1]
    return {name: value.replace("{port}", port) for name, value in env.items()}


def command_of(image: Image) -> list[str]:
    final = final_stage()
    [entrypoint] = [instruction.words() for instruction in final if instruction.keyword == "ENTRYPOINT"]
    [command] = [instruction.words() for instruction in final if instruction.keyword == "CMD"]
    program, *rest = entrypoint + command
    return [str(image.bin / program), *rest]


def health_check(image: Image, env: dict[str, str]) -> int:
    """The image's HEALTHCHECK command, run as the image's user; its exit status."""
    [check] = [instruction.arguments for instruction in final_stage() if instruction.keyword == "HEALTHCHECK"]
    words = Instruction(0, "CMD", check.partition("CMD ")[2].strip()).words()
    program, script = words
    assert program == "python"
    done = subprocess.run(
        [str(image.bin / program), str(image.inside(script))],
        check=False,
        env=env,
        user=image.user,
        group=image.user,
        capture_output=True,
        timeout=30,
    )
    return done.returncode


@pytest.fixture
def served(image: Image, tmp_path: Path) -> Iterator[tuple[Served, dict[str, str]]]:
    env = image_environment(image)
    for running in serve(
        tmp_path, env, command=command_of(image), inherit=False, user=image.user, cwd=Path(env["HOME"])
    ):
        yield running, on_port(env, running)


def test_the_installed_image_imports_heronlog_from_its_own_site_packages_not_the_sources(
    image: Image,
) -> None:
    done = subprocess.run(
        [
            str(image.python),
            "-c",
            "import api, domain, replay; print(api.__file__, domain.__file__, replay.__file__)",
        ],
        env={"PATH": "/usr/bin:/bin"},
        cwd=image.root,
        capture_output=True,
        text=True,
        check=True,
    )
    for path in done.stdout.split():
        assert Path(path).is_relative_to(image.root / "image"), path
        assert not Path(path).is_relative_to(ROOT), path


def test_the_image_serves_as_its_user_is_healthy_and_works_from_the_installed_wheel(
    image: Image, served: tuple[Served, dict[str, str]]
) -> None:
    server, env = served
    assert health_check(image, env) == 0
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    [uids] = [line.split()[1:] for line in status.splitlines() if line.startswith("Uid:")]
    assert {int(uid) for uid in uids} == {image.user}
    if os.geteuid() == 0:
        assert image.user != 0

    api = ApiClient(http_transport(server.url))
    home = api.get("/")
    assert home.status == 200 and "heronlog" in home.body
    for asset in ("/static/board.js", "/static/style.css", "/static/heron.svg"):
        assert api.get(asset).status == 200, asset
    assert api.get("/api/docs").status == 200
    assert api.get("/api/openapi.json").status == 200

    game_id, owner, _ = api.create(players=3, seed=11)
    listing = api.legal(game_id, owner)
    played = api.play(game_id, listing.body["moves"][0], owner, listing.etag)
    assert played.status == 201, played.body
    assert api.get(f"/games/{game_id}").status == 200
    assert api.get(f"/games/{game_id}/replay").status == 200

    # the embedded store's file is in the image's data volume, written by the image's user
    [database] = list(Path(env["HERONLOG_DATA"]).glob("heronlog.sqlite*"))[:1]
    assert database.stat().st_uid == image.user

    # STOPSIGNAL: the master finishes and exits cleanly; the health check then reports unhealthy
    [stop] = [instruction.arguments for instruction in final_stage() if instruction.keyword == "STOPSIGNAL"]
    server.process.send_signal(getattr(signal, stop))
    assert server.process.wait(timeout=30) == 0, server.output()
    assert health_check(image, env) == 1


COMPOSED = {"compose.yaml": ("api", "redis_url"), "compose.cluster.yaml": ("api-1", "cluster_url")}
"""Each compose file, the API service rehearsed from it, and the fixture of the test server it stands for."""


@pytest.mark.parametrize("file", sorted(COMPOSED))
def test_the_image_serves_a_compose_files_api_on_redis_writing_nowhere_but_tmp(
    image: Image, tmp_path: Path, request: pytest.FixtureRequest, file: str
) -> None:
    """A compose file's API service: its environment (Redis, or the Redis Cluster and its shards, instead of
    the embedded store), on a read-only file system with a ``/tmp`` of its own. Here the image's folders belong
    to root, so the image's user may write only to /tmp, as in that service."""
    service_name, url_fixture = COMPOSED[file]
    service = compose(file)["services"][service_name]
    assert service["read_only"] is True and "/tmp" in service["tmpfs"]
    url = str(request.getfixturevalue(url_fixture))
    prefix = f"rehearsal{uuid.uuid4().hex[:8]}"
    env = image_environment(image)
    env.update({name: str(value) for name, value in service["environment"].items()})
    env.update(REDIS_URL=url, REDIS_KEY_PREFIX=prefix, HERONLOG_HOST="127.0.0.1", HERONLOG_PORT="{port}")
    if "REDIS_WAIT_REPLICAS" in env:
        # make test's cluster has masters only: no replica could confirm a write (the replicas' WAIT is
        # tested on its own, tests/integration/store/test_replicas.py)
        env["REDIS_WAIT_REPLICAS"] = "0"
    read_only = image.root / f"read-only-{prefix}"
    read_only.mkdir()
    env.update(HERONLOG_DATA=str(read_only / "data"), HOME=str(read_only))
    for server in serve(
        tmp_path, env, command=command_of(image), inherit=False, user=image.user, cwd=read_only
    ):
        assert health_check(image, on_port(env, server)) == 0
        api = ApiClient(http_transport(server.url))
        game_id, owner, _ = api.create(players=2, seed=5)
        listing = api.legal(game_id, owner)
        assert api.play(game_id, listing.body["moves"][0], owner, listing.etag).status == 201
        assert api.get("/metrics").status == 200
        assert f"events kept in redis {url} (key prefix {prefix!r}" in server.output()
    client: Any = (
        redis.RedisCluster.from_url(url) if env.get("REDIS_CLUSTER") == "yes" else redis.Redis.from_url(url)
    )
    try:
        assert list(client.scan_iter(match="{" + prefix + ":*")), "the game was not written to Redis"
    finally:
        client.close()
    assert not any(read_only.iterdir()), "the image wrote outside /tmp"
