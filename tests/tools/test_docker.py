"""The docker files agree with the application they ship (no Docker engine needed: the files are read).

The Dockerfile runs the `heronlog` console script as a non-root user with a health check on the app's real
`/healthz`; both compose files parse, and every service's command, ports, environment and health check agree
with what the code reads (api.server.environment), the port `heronlog serve` listens on, docker/redis.conf and
docker/nginx.conf (the proxy in front: its limits the API's, its own refusals problem documents of the API's
error codes). The nginx config runs for real in tests/hostile/test_slow_clients.py.
"""

from __future__ import annotations

import http.server
import importlib.util
import json
import re
import threading
import tomllib
from collections.abc import Iterator, Mapping
from types import ModuleType, SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

import pytest

from api.app import create_app
from api.resources.errors import STATUS, title_of
from api.server.cli import build_parser, serve_settings
from api.server.environment import DEFAULTS, variables
from api.server.runtime import KEEPALIVE_SECONDS
from replay.config import StoreConfig
from tests.docker_files import (
    DOCKER,
    ROOT,
    Instruction,
    compose,
    dockerfile,
    dockerignore,
    env_of,
    final_stage,
    in_context,
    stage,
)

REDIS_PORT = 6379  # redis.conf does not set `port`: the server's default
PYTHON_VARIABLES = {
    "PYTHONDONTWRITEBYTECODE",
    "PYTHONUNBUFFERED",
    "PIP_NO_CACHE_DIR",
    "PIP_DISABLE_PIP_VERSION_CHECK",
}


# --- reading the files ------------------------------------------------------------------------------------------


def redis_conf() -> dict[str, str]:
    settings = {}
    for raw in (DOCKER / "redis.conf").read_text().splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition(" ")
            settings[key.lower()] = value.strip()
    return settings


def load_healthcheck() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docker_healthcheck", DOCKER / "healthcheck.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def healthcheck_destination() -> str:
    """Where the Dockerfile puts docker/healthcheck.py in the image."""
    for instruction in final_stage():
        words = instruction.words()
        if instruction.keyword == "COPY" and words[0] == "docker/healthcheck.py":
            return words[-1]
    pytest.fail("the final stage does not copy docker/healthcheck.py")


def serve_args(environ: Mapping[str, str], argv: list[str]) -> Any:
    """What `heronlog <argv>` would run with, in this environment: its command, and the settings `serve` would
    start with (host, port, workers, connections...)."""
    args = build_parser().parse_args(argv)
    return SimpleNamespace(command=args.command, **vars(serve_settings(args, environ)))


def app_routes() -> set[str]:
    app = create_app({"STORE": StoreConfig(kind="memory")})
    return {rule.rule for rule in app.url_map.iter_rules()}


# --- the Dockerfile ---------------------------------------------------------------------------------------------


def base_images() -> list[str]:
    """Each stage's base image, with the Dockerfile's ARG defaults put in."""
    defaults = dict(
        instruction.arguments.split("=", 1)
        for instruction in dockerfile()
        if instruction.keyword == "ARG" and instruction.stage < 0 and "=" in instruction.arguments
    )
    return [
        re.sub(r"\$\{(\w+)\}", lambda match: defaults[match.group(1)], instruction.arguments.split()[0])
        for instruction in dockerfile()
        if instruction.keyword == "FROM"
    ]


def test_the_image_is_slim_python_and_runs_as_a_user_it_creates_that_is_not_root() -> None:
    stages = base_images()
    assert stages and all(re.match(r"python:3\.\d+-slim\b", stage) for stage in stages)
    final = final_stage()
    [user] = [instruction.arguments for instruction in final if instruction.keyword == "USER"]
    uid = user.split(":")[0]
    assert uid not in ("root", "0")
    created = " ".join(instruction.arguments for instruction in final if instruction.keyword == "RUN")
    assert re.search(rf"useradd\b[^&]*--uid {uid}\b", created), "USER names a user the image does not create"
    # the user comes after everything that needs root
    keywords = [instruction.keyword for instruction in final]
    assert "RUN" not in keywords[keywords.index("USER") :]


def test_the_entry_point_is_the_heronlog_console_script_and_its_command_a_real_subcommand() -> None:
    final = final_stage()
    [entrypoint] = [instruction.words() for instruction in final if instruction.keyword == "ENTRYPOINT"]
    [command] = [instruction.words() for instruction in final if instruction.keyword == "CMD"]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert entrypoint == ["heronlog"]
    # the launcher makes `serve` cooperative (gevent) before the app loads, then hands over to api.server.cli
    assert project["scripts"]["heronlog"] == "api.server.launch:main"
    installed = " ".join(instruction.arguments for instruction in final if instruction.keyword == "RUN")
    assert re.search(rf"pip install\b.*\b{project['name']}\b", installed)
    env = env_of(final)
    args = serve_args(env, command)
    assert args.command == "serve"
    # listening on every interface of the container, on the port it exposes
    assert args.host == "0.0.0.0"
    [exposed] = [instruction.arguments for instruction in final if instruction.keyword == "EXPOSE"]
    assert int(exposed) == args.port == int(env["HERONLOG_PORT"])


def test_the_health_check_runs_the_shipped_script_against_the_apps_readiness() -> None:
    final = final_stage()
    [check] = [instruction.arguments for instruction in final if instruction.keyword == "HEALTHCHECK"]
    _, _, command = check.partition("CMD ")
    assert Instruction(0, "CMD", command.strip()).words() == ["python", healthcheck_destination()]
    script = (DOCKER / "healthcheck.py").read_text()
    assert "/readyz" in script
    assert "/readyz" in app_routes()
    assert variables()["HERONLOG_PORT"].default == load_healthcheck().DEFAULT_PORT


def test_every_copied_file_exists_and_is_in_the_build_context() -> None:
    ignore = dockerignore()
    stage_names = {
        instruction.arguments.split()[-1]
        for instruction in dockerfile()
        if instruction.keyword == "FROM" and " AS " in instruction.arguments.upper()
    }
    copied = 0
    for instruction in dockerfile():
        if instruction.keyword != "COPY":
            continue
        words = instruction.words()
        options = [word for word in words if word.startswith("--")]
        sources = [word for word in words if not word.startswith("--")][:-1]
        if options:
            assert options[0].removeprefix("--from=") in stage_names
            continue
        for source in sources:
            assert (ROOT / source).exists(), source
            assert in_context(source, ignore), f"{source} is excluded by Dockerfile.dockerignore"
            copied += 1
    assert copied >= 5


def test_the_image_sets_only_variables_the_app_reads() -> None:
    env = env_of(final_stage())
    unknown = set(env) - set(variables()) - PYTHON_VARIABLES
    assert not unknown


# --- the health check script ------------------------------------------------------------------------------------


@pytest.fixture
def http_answering() -> Iterator[Any]:
    """Start a loopback HTTP server answering /readyz with a given status; yields a starter."""
    servers: list[http.server.ThreadingHTTPServer] = []

    def start(status: int) -> int:
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(status if self.path == "/readyz" else 404)
                self.end_headers()

            def log_message(self, *_args: Any) -> None:
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return int(server.server_address[1])

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def test_the_health_check_script_is_healthy_only_when_readyz_answers_200(
    http_answering: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = load_healthcheck()
    monkeypatch.setenv("HERONLOG_PORT", str(http_answering(200)))
    assert script.main() == 0
    monkeypatch.setenv("HERONLOG_PORT", str(http_answering(503)))
    assert script.main() == 1
    with http.server.HTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler) as closed:
        port = closed.server_address[1]
    monkeypatch.setenv("HERONLOG_PORT", str(port))
    assert script.main() == 1


# --- the compose files ------------------------------------------------------------------------------------------


def redis_services(document: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        name: service
        for name, service in document["services"].items()
        if str(service.get("image", "")).startswith("redis:") and service.get("command")
    }


def check_redis_service(document: Mapping[str, Any], name: str) -> list[str]:
    """A Redis service runs redis-server with docker/redis.conf, mounted read-only, data in a named volume,
    and a health check; returns its command."""
    service = document["services"][name]
    command = [str(word) for word in service["command"]]
    assert command[0] == "redis-server"
    mounts = {volume.split(":")[1]: volume.split(":")[0] for volume in service["volumes"]}
    assert mounts[command[1]] == "./redis.conf" and (DOCKER / "redis.conf").exists()
    assert f"./redis.conf:{command[1]}:ro" in service["volumes"]
    assert mounts["/data"] in document["volumes"], "the data must live in a named volume"
    assert service["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]
    return command


def test_the_shipped_redis_settings_lose_no_acknowledged_write_and_never_evict() -> None:
    settings = redis_conf()
    assert settings["appendonly"] == "yes"
    assert settings["appendfsync"] == "always"
    assert settings["maxmemory-policy"] == "noeviction"
    assert "port" not in settings and "bind" not in settings  # the compose files rely on the defaults


def check_api_service(document: Mapping[str, Any], name: str) -> StoreConfig:
    """An API service: built from docker/Dockerfile, environment made of variables the app reads and valid
    for it, published on the port `heronlog serve` listens on, the image's health check. Returns its store."""
    service = document["services"][name]
    assert service["build"]["context"] == ".."
    assert (DOCKER / ".." / service["build"]["dockerfile"]).resolve() == DOCKER / "Dockerfile"
    environment = {key: str(value) for key, value in service["environment"].items()}
    assert set(environment) <= set(variables()), set(environment) - set(variables())
    store = StoreConfig.from_environ(environment)
    assert store.kind == "redis"
    assert store.redis_url is not None
    first, *more = store.redis_url.split(",")  # a cluster's URL may name several nodes
    target = urlsplit(first)
    assert target.hostname in redis_services(document) and (target.port or REDIS_PORT) == REDIS_PORT
    for node in more:
        host, _, port = node.split("/", 1)[0].rpartition(":")
        assert host in redis_services(document) and int(port) == REDIS_PORT
    args = serve_args({**env_of(final_stage()), **environment}, ["serve"])
    assert args.host == "0.0.0.0"
    # Only the proxy is published: nginx is the API's one client, and its X-Forwarded-For names the real one.
    assert "ports" not in service, "the API is reached through the proxy only"
    assert args.trusted_proxies == 1
    assert f"server api:{args.port};" in nginx_conf()
    assert service["healthcheck"]["test"] == ["CMD", "python", healthcheck_destination()]
    assert args.workers >= 1 and args.connections >= 2100
    return store


def nginx_conf() -> str:
    return (DOCKER / "nginx.conf").read_text()


def nginx_setting(name: str) -> str:
    """The value of an nginx directive that appears once in docker/nginx.conf."""
    [value] = re.findall(rf"^\s*{name}\s+([^;]+);", nginx_conf(), re.MULTILINE)
    return value.strip()


def check_proxy_service(document: Mapping[str, Any], apis: list[str]) -> None:
    """The proxy: nginx on a pinned image with docker/nginx.conf mounted read-only, published on this machine
    only on the port the config listens on, waiting for the APIs to be healthy, a user that is not root on a
    read-only file system whose only writable folder is the /tmp the config writes to."""
    service = document["services"]["proxy"]
    assert str(service["image"]).startswith("nginx:")
    assert "./nginx.conf:/etc/nginx/nginx.conf:ro" in service["volumes"]
    published = [str(port).rsplit(":", 2) for port in service["ports"]]
    assert [container for *_, container in published] == [nginx_setting("listen")]
    # published on this machine only, unless the operator names another address
    assert [address for address, *_ in published] == ["${HERONLOG_PUBLISH_ADDRESS:-127.0.0.1}"]
    assert {name: dep["condition"] for name, dep in service["depends_on"].items()} == dict.fromkeys(
        apis, "service_healthy"
    )
    assert str(service["user"]).split(":")[0] not in ("0", "root")
    assert service["read_only"] is True and service["tmpfs"] == ["/tmp"]
    assert service["cap_drop"] == ["ALL"]
    written = re.findall(r"^\s*(?:pid|\w+_temp_path)\s+(\S+);", nginx_conf(), re.MULTILINE)
    assert len(written) == 6 and all(path.startswith("/tmp/") for path in written), written


def test_compose_runs_durable_redis_and_the_api_that_waits_for_it() -> None:
    document = compose("compose.yaml")
    assert set(redis_services(document)) == {"redis"}
    check_redis_service(document, "redis")
    store = check_api_service(document, "api")
    check_proxy_service(document, ["api"])
    assert store.shards == 1
    assert document["services"]["api"]["depends_on"]["redis"]["condition"] == "service_healthy"
    assert "ports" not in document["services"]["redis"], "Redis stays private to the compose network"


def is_worker(service: Mapping[str, Any]) -> bool:
    return service.get("command") == ["worker"]


def test_compose_cluster_runs_three_masters_with_replicas_an_init_job_and_two_sharded_apis() -> None:
    document = compose("compose.cluster.yaml")
    nodes = {name: s for name, s in redis_services(document).items() if "--cluster-enabled" in s["command"]}
    assert len(nodes) == 6
    data_volumes = set()
    for name in nodes:
        command = check_redis_service(document, name)
        assert command[command.index("--cluster-enabled") + 1] == "yes"
        assert "--cluster-config-file" in command
        # a master down stops only its own slots
        assert command[command.index("--cluster-require-full-coverage") + 1] == "no"
        data_volumes.add(next(v.split(":")[0] for v in nodes[name]["volumes"] if v.endswith(":/data")))
    assert len(data_volumes) == 6, "each node keeps its own data"

    init = document["services"]["cluster-init"]
    assert init["entrypoint"] == ["sh", "/usr/local/bin/cluster-init.sh"]
    assert "./cluster-init.sh:/usr/local/bin/cluster-init.sh:ro" in init["volumes"]
    script = (DOCKER / "cluster-init.sh").read_text()
    assert 'redis-cli --cluster create $NODES --cluster-replicas "${REPLICAS:-0}"' in script
    assert init["environment"]["REPLICAS"] == "1"  # three masters, one replica each
    assert init["environment"]["NODES"].split() == [f"{name}:{REDIS_PORT}" for name in sorted(nodes)]
    assert {name: dep["condition"] for name, dep in init["depends_on"].items()} == dict.fromkeys(
        nodes, "service_healthy"
    )

    apis = [
        name
        for name, service in document["services"].items()
        if "build" in service and not is_worker(service)
    ]
    assert len(apis) >= 2
    check_proxy_service(document, apis)
    for name in apis:
        # each answers to "api", the proxy's upstream: nginx spreads the requests over all of them
        assert document["services"][name]["networks"]["default"]["aliases"] == ["api"]
        store = check_api_service(document, name)
        assert store.shards > 1, "games are spread over several shards"
        assert document["services"][name]["environment"]["REDIS_CLUSTER"] == "yes"
        # acknowledged once the master's replica holds it too
        assert document["services"][name]["environment"]["REDIS_WAIT_REPLICAS"] == "1"
        assert document["services"][name]["depends_on"]["cluster-init"]["condition"] == (
            "service_completed_successfully"
        )


def test_the_proxy_takes_what_the_api_takes_and_refuses_the_rest_in_the_api_error_shape() -> None:
    # A body over the API's limit is refused by nginx before any of it is read.
    assert nginx_setting("client_max_body_size") == f"{DEFAULTS['MAX_CONTENT_LENGTH'] // (1024 * 1024)}m"
    # nginx lets go of a kept-alive connection to the API before gunicorn closes it (no request sent down a
    # connection being closed)
    upstream = re.search(r"upstream heronlog \{(.*?)\}", nginx_conf(), re.DOTALL)
    assert upstream is not None
    [kept] = re.findall(r"keepalive_timeout\s+(\d+)s;", upstream.group(1))
    assert int(kept) < KEEPALIVE_SECONDS
    # The client's address replaces any X-Forwarded-For it sent (a client cannot choose its rate-limit address).
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in nginx_conf()
    # Answers are buffered (a slow reader costs nginx a file, not the API a connection); event streams are not,
    # as they say themselves (X-Accel-Buffering: no).
    assert nginx_setting("proxy_buffering") == "on" and nginx_setting("proxy_request_buffering") == "on"
    # Every answer nginx makes itself is a problem document of an error code the API knows, with its status and
    # its title, and every refusal it names has one.
    answers = re.findall(r"return (\d{3}) '(\{.*?\})';", nginx_conf())
    assert len(answers) >= 3
    for status, text in answers:
        problem = json.loads(text)
        code = problem["error_code"]
        assert STATUS[code] == problem["status"] == int(status), problem
        assert problem["type"] == f"/api/problems/{code}" and problem["title"] == title_of(code), problem
        assert set(problem) == {"type", "title", "status", "detail", "error_code", "rule", "details"}
    named = set(re.findall(r"error_page [^@;]*@(\w+);", nginx_conf()))
    assert (
        named
        == set(re.findall(r"location @(\w+) \{", nginx_conf()))
        == {json.loads(text)["error_code"] for _, text in answers}
    )


@pytest.mark.parametrize("file", ["compose.yaml", "compose.cluster.yaml"])
def test_compose_runs_analysis_workers_that_scale_on_the_apis_queue(file: str) -> None:
    """A `worker` service runs `heronlog worker` from the same image, on the store and the task queue the API
    services send jobs to; nothing pins it to one container (no name, no published port), so `--scale worker=N`
    runs N of them."""
    from replay.analysis_queue import queue_location

    document = compose(file)
    worker = document["services"]["worker"]
    assert is_worker(worker) and build_parser().parse_args(worker["command"]).command == "worker"
    assert worker["build"]["context"] == ".." and "container_name" not in worker and "ports" not in worker
    environment = {key: str(value) for key, value in worker["environment"].items()}
    assert set(environment) <= set(variables()), set(environment) - set(variables())
    store = StoreConfig.from_environ(environment)
    queue = queue_location(store, environment)
    host = urlsplit(queue.split(",")[0]).hostname
    assert host in redis_services(document) and document["services"][host]["healthcheck"]
    depends = worker["depends_on"]
    assert all(depends[name]["condition"].startswith("service_") for name in depends)
    for name, service in document["services"].items():
        if "build" in service and not is_worker(service):
            api_environment = {key: str(value) for key, value in service["environment"].items()}
            api_store = StoreConfig.from_environ(api_environment)
            assert queue_location(api_store, api_environment) == queue, f"{name} sends jobs to another queue"
            assert api_store.redis_prefix == store.redis_prefix


def test_the_docs_document_both_compose_commands() -> None:
    page = (ROOT / "docs" / "operations" / "docker.md").read_text()
    assert "docker compose -f docker/compose.yaml up" in page
    assert "docker compose -f docker/compose.cluster.yaml up" in page


# --- pins, labels and the build context without BuildKit ---------------------------------------------------------


def test_base_images_name_a_minor_version_on_a_debian_release_and_can_be_pinned_by_digest() -> None:
    # a floating tag (latest, 3, 3.11-slim) changes under a rebuild; a digest is given with --build-arg
    for image in base_images():
        assert re.fullmatch(r"python:3\.\d+-slim-(bookworm|trixie)(@sha256:[0-9a-f]{64})?", image), image
    assert "ARG PYTHON_IMAGE=" in (DOCKER / "Dockerfile").read_text()
    for name in ("compose.yaml", "compose.cluster.yaml"):
        for service in compose(name)["services"].values():
            if "image" in service:
                assert re.fullmatch(
                    r"(redis|nginx):\d+\.\d+(\.\d+)?-(bookworm|trixie)(@sha256:[0-9a-f]{64})?",
                    service["image"],
                )


def test_the_image_installs_exactly_the_pinned_packages_of_every_runtime_dependency() -> None:
    from importlib.metadata import requires

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    pins = {}
    for line in (DOCKER / "constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, pinned = line.partition("==")
            pins[canonicalize_name(name)] = pinned
    build = [instruction.arguments for instruction in stage(0) if instruction.keyword == "RUN"]
    assert any("--constraint docker/constraints.txt" in command for command in build)
    assert env_of(stage(0))["PIP_CONSTRAINT"] == "docker/constraints.txt"  # the wheel's build backend too
    # every runtime dependency, and theirs (as this environment resolved them), is pinned within its range
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    seen: set[str] = set()
    pending = [Requirement(text) for text in project["dependencies"]]
    while pending:
        requirement = pending.pop()
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is not pinned in docker/constraints.txt (run tools/lock.py)"
        assert requirement.specifier.contains(pins[name], prereleases=True), (name, pins[name])
        if name in seen:
            continue
        seen.add(name)
        for extra in requirement.extras:
            pending.extend(
                Requirement(text)
                for text in requires(name) or []
                if Requirement(text).marker is not None
                and Requirement(text).marker.evaluate({"extra": extra})
            )
        # what the installed package needs (installed versions may differ from the pins: ranges are checked)
        pending.extend(Requirement(text) for text in requires(name) or [] if Requirement(text).marker is None)
    build_backend = Requirement(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"][0]
    )
    assert build_backend.specifier.contains(pins["setuptools"])


def test_the_image_carries_the_oci_labels() -> None:
    labels = " ".join(
        instruction.arguments for instruction in final_stage() if instruction.keyword == "LABEL"
    )
    for key in ("title", "description", "licenses", "version", "revision", "created", "vendor", "base.name"):
        assert f"org.opencontainers.image.{key}=" in labels, key
    assert 'org.opencontainers.image.licenses="MIT"' in labels
    assert (ROOT / "LICENSE").is_file() and in_context("LICENSE", dockerignore())


def test_the_build_context_is_the_same_with_or_without_buildkit() -> None:
    # BuildKit reads docker/Dockerfile.dockerignore; the classic builder only the root's .dockerignore
    assert (ROOT / ".dockerignore").read_text() == (DOCKER / "Dockerfile.dockerignore").read_text()
