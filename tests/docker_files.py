"""Reading the docker files as Docker would: the Dockerfile's instructions by stage, their words, the variables
they set, and which files the build context holds (``docker/Dockerfile.dockerignore``).

Shared by the static checks (tests/unit/test_docker.py) and the rehearsal of the image's two stages without a
Docker engine (tests/integration/test_image_rehearsal.py), so that both read the files one way.
"""

from __future__ import annotations

import fnmatch
import shlex
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
DOCKER = ROOT / "docker"


@dataclass(frozen=True)
class Instruction:
    stage: int
    keyword: str
    arguments: str

    def words(self) -> list[str]:
        """The arguments of an exec-form (JSON array) or shell-form instruction, as words."""
        text = self.arguments
        if text.startswith("["):
            return list(yaml.safe_load(text))
        return shlex.split(text)


def dockerfile() -> list[Instruction]:
    """The Dockerfile's instructions, continuation lines joined, comments dropped, each with its stage."""
    lines: list[str] = []
    pending = ""
    for raw in (DOCKER / "Dockerfile").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        lines.append(pending + line)
        pending = ""
    instructions = []
    stage = -1
    for line in lines:
        keyword, _, arguments = line.partition(" ")
        if keyword.upper() == "FROM":
            stage += 1
        instructions.append(Instruction(stage, keyword.upper(), arguments.strip()))
    return instructions


def stage(index: int) -> list[Instruction]:
    """One stage's instructions (``-1``: the final stage, the image that runs)."""
    instructions = dockerfile()
    wanted = instructions[-1].stage if index < 0 else index
    return [instruction for instruction in instructions if instruction.stage == wanted]


def final_stage() -> list[Instruction]:
    return stage(-1)


def env_of(instructions: list[Instruction]) -> dict[str, str]:
    env: dict[str, str] = {}
    for instruction in instructions:
        if instruction.keyword == "ENV":
            for word in shlex.split(instruction.arguments):
                name, _, value = word.partition("=")
                env[name] = value
    return env


def compose(name: str) -> dict[str, Any]:
    """A compose file of docker/, parsed."""
    loaded = yaml.safe_load((DOCKER / name).read_text())
    assert isinstance(loaded, dict)
    return loaded


def dockerignore() -> list[str]:
    """The rules of the build context's ignore file, in order."""
    lines = (DOCKER / "Dockerfile.dockerignore").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.strip().startswith("#")]


def in_context(path: str, rules: list[str]) -> bool:
    """Whether a path is sent to the builder. As Docker reads the rules: a rule applies to a path when it
    matches the path or a folder above it (``**/__pycache__`` leaves out everything in such a folder); the last
    rule that applies wins, and ``!`` re-includes."""
    parts = PurePosixPath(path.rstrip("/")).parts
    prefixes = ["/".join(parts[: depth + 1]) for depth in range(len(parts))]
    kept = True
    for rule in rules:
        negated = rule.startswith("!")
        pattern = rule.removeprefix("!").rstrip("/")
        if any(fnmatch.fnmatch(prefix, pattern) for prefix in prefixes):
            kept = negated
    return kept
