# heronlog: the two commands of the README, and a few helpers.
#   make run   serve the app on http://127.0.0.1:8000 with the embedded SQLite store (HOST=, PORT= to move it)
#   make test  lint, types, unit, integration and e2e tests, with throwaway servers
#   make faults  the long fault scenarios (Redis rollback, failover, a dead shard, corruption), with their figures
# The interpreter the virtualenv is made from: the distribution's Python 3.11 where there is one that can make a
# virtualenv (Debian's python3.11-venv), else python3. A distribution's CPython (Debian's, and the Docker image's
# python:3.11-slim) is built with profile-guided and link-time optimisation; a plain source build (pyenv's
# default) is not, and did heronlog's work in about 9 % more CPU (docs/performance/load.md and
# docs/performance/load-history.md).
# `make PYTHON=/path/to/python3 ...` chooses another; `make clean` first, as an existing .venv is kept.
DISTRO_PYTHON := /usr/bin/python3.11
PYTHON ?= $(if $(shell $(DISTRO_PYTHON) -c "import ensurepip, venv" >/dev/null 2>&1 && echo yes),$(DISTRO_PYTHON),python3)
VENV   := .venv
BIN    := $(VENV)/bin
# `make run HOST=... PORT=...` (or HERONLOG_HOST / HERONLOG_PORT in the environment, which heronlog serve reads
# itself when these are not given; 127.0.0.1:8000 by default).
HOST   ?=
PORT   ?=

.PHONY: run test bench faults lint fmt clean compiled compiled-check

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Re-install only when the project's metadata changes (the stamp is newer than pyproject.toml otherwise).
$(VENV)/.stamp-run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check -q -e .
	touch $@

$(VENV)/.stamp-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check -q -e '.[test]'
	touch $@ $(VENV)/.stamp-run

run: $(VENV)/.stamp-run
	$(BIN)/heronlog serve $(if $(HOST),--host $(HOST)) $(if $(PORT),--port $(PORT))

# tools/teststack.py provisions redis-server (and the browser), starts throwaway servers on free loopback
# ports in a temporary folder, runs every check in order, stops the servers, and exits non-zero on failure.
test: $(VENV)/.stamp-test
	$(BIN)/python tools/teststack.py

# The compiled engine is built first, so that the analysis bench measures both engines (without a C compiler
# it measures the pure one alone).
bench: $(VENV)/.stamp-test
	$(MAKE) compiled || echo "make bench: the compiled engine could not be built; the pure engine is measured alone"
	$(BIN)/python tools/teststack.py --bench

# About 5 minutes: each scenario starts its own servers; the figures go to test-output/faults.md.
faults: $(VENV)/.stamp-test
	$(BIN)/python tools/teststack.py --faults

# The engine compiled with mypyc into build/compiled/ (about 3 minutes of CPU); HERONLOG_ENGINE=compiled runs it.
# `make test` never needs it: the pure source is the reference (docs/performance/index.md).
compiled: $(VENV)/.stamp-test
	$(BIN)/python tools/compile_domain.py

# The compiled engine held to the reference: the engine's unit tests (golden games included) run on it.
compiled-check: compiled
	HERONLOG_ENGINE=compiled $(BIN)/python -m pytest -p no:cacheprovider -q tests/unit/domain tests/unit/test_engine_switch.py

lint: $(VENV)/.stamp-test
	$(BIN)/ruff check . && $(BIN)/ruff format --check .

fmt: $(VENV)/.stamp-test
	$(BIN)/ruff format . && $(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis test-output
