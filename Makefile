# The README's two commands. Both create .venv and install the project when needed: `run`
# only what the bot needs, `test` the test tools too (either may come first).
PYTHON ?= python3
VENV := .venv
RUNTIME := $(VENV)/.installed-runtime
# the project with its dev extras (pytest, ruff, hadolint, hypothesis): for test and lint
STAMP := $(VENV)/.installed

.PHONY: run test check lint format bench clean postgres browser activity axe fribidi bytecode

# Debian and Ubuntu ship Python's venv module apart: a failed venv is removed, so that the
# next try starts afresh once python3-venv is installed.
$(VENV)/bin/python:
	@$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); echo "Could not create $(VENV) with \
	$(PYTHON) (3.11 or newer, with its venv module: apt-get install python3-venv)"; exit 1; }
	$(VENV)/bin/python -m pip install --quiet --upgrade pip

$(RUNTIME): pyproject.toml | $(VENV)/bin/python
	$(VENV)/bin/python -m pip install --quiet -e .
	@touch $(RUNTIME)

$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(VENV)/bin/python -m pip install --quiet -e ".[dev]"
	@touch $(STAMP) $(RUNTIME)

run: $(RUNTIME) fribidi bytecode
	$(VENV)/bin/escape-bot run

# The project's modules compiled ahead (only those changed since): where the environment
# says PYTHONDONTWRITEBYTECODE, every start and every spawned CPU worker would otherwise
# compile them again (0.5-0.7 s of a start-up here). The image's `pip install .` does this.
define compile_ahead
	@$(VENV)/bin/python -m compileall -q bot engines render languages bench
endef

bytecode: $(RUNTIME)
	$(compile_ahead)

# Every test, in parallel (pytest-xdist, tests handed out as workers free up); none is
# skipped in CI. Two workers a core: many tests wait on processes, sockets and a browser,
# and the second worker fills those waits (docs/measurements.md, "The test suite").
TEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) * 2 )))
test: $(STAMP) fribidi postgres browser activity axe
	$(compile_ahead)
	$(VENV)/bin/python -m pytest -n $(TEST_WORKERS) --dist worksteal

# The inner loop: lint, the layers, and the tests of what changed since this branch left
# main (tools/changed_tests.py; a fast subset when none or too many are found).
check: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/python -m pytest -n auto --dist worksteal $$($(VENV)/bin/python -m tools.changed_tests)

# The pictures' fonts come with the Python packages; names in Arabic or Hebrew are shaped and
# ordered by Pillow's Raqm layout, which loads the system's FriBidi: install it when missing.
fribidi:
	@if ldconfig -p 2>/dev/null | grep -q 'libfribidi\.so\.0'; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "Installing libfribidi0 for right-to-left names in pictures"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    --no-install-recommends libfribidi0 >/dev/null; \
	else echo "libfribidi0 is missing: names in Arabic or Hebrew are drawn unjoined (apt-get install libfribidi0)"; fi

# The store's tests run on a real PostgreSQL too (the suite starts its own server on
# 127.0.0.1): install Debian's server when missing, without a default cluster or service.
postgres:
	@if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "Installing PostgreSQL for the store tests"; \
	  mkdir -p /etc/postgresql-common; \
	  test -e /etc/postgresql-common/createcluster.conf || \
	    echo "create_main_cluster = false" > /etc/postgresql-common/createcluster.conf; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
	    --no-install-recommends postgresql >/dev/null; \
	else echo "PostgreSQL is not installed (apt-get install postgresql): its store tests are skipped here, and fail in CI"; fi

# The web board's browser test drives Debian's chromium through its chromedriver, and the
# Discord Activity's script is bundled with Node: install what is missing (as root, apt).
browser:
	@if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] && command -v npm >/dev/null; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "Installing chromium, chromium-driver, nodejs and npm for the web board's tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    --no-install-recommends chromium chromium-driver $$(command -v npm >/dev/null || echo nodejs npm) >/dev/null; \
	else echo "chromium, chromium-driver or npm is missing: the browser test is skipped here, and fails in CI"; fi

# The Discord Activity's sign-in: the Embedded App SDK bundled into one static file (only
# `make test` and the Docker image build it; a tokenless `make run` needs no Node).
ACTIVITY := bot/web/activity
activity: bot/web/static/build/activity.js
bot/web/static/build/activity.js: $(ACTIVITY)/package.json $(ACTIVITY)/package-lock.json $(ACTIVITY)/entry.js
	@if command -v npm >/dev/null; then \
	  cd $(ACTIVITY) && npm ci --no-audit --no-fund --loglevel=error && npm run --silent build; \
	else echo "npm is missing: the page is served without the Discord Activity's script"; fi

# axe-core for the web board's accessibility test: injected into the page by the test (never
# served by the page); without npm that test skips here, and fails in CI.
AXE := tests/e2e/axe
axe: $(AXE)/node_modules/axe-core/axe.min.js
$(AXE)/node_modules/axe-core/axe.min.js: $(AXE)/package.json $(AXE)/package-lock.json
	@if command -v npm >/dev/null; then \
	  cd $(AXE) && npm ci --no-audit --no-fund --loglevel=error; \
	else echo "npm is missing: the accessibility test is skipped here, and fails in CI"; fi

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

format: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: $(STAMP) bytecode
	$(VENV)/bin/python -m bench
	$(VENV)/bin/python -m bench.move_path
	$(VENV)/bin/python -m bench.timers
	$(VENV)/bin/python -m bench.load
	$(VENV)/bin/python -m bench.load --db postgresql --processes 1,2,4 --shared
	$(VENV)/bin/python -m bench.limits
	$(VENV)/bin/python -m bench.bands
	$(VENV)/bin/python -m bench.flood
	$(VENV)/bin/python -m bench.web
	$(VENV)/bin/python -m bench.web_flood
	$(VENV)/bin/python -m bench.review
	$(VENV)/bin/python -m bench.replay

clean:
	rm -rf $(VENV) .pytest_cache
