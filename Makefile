# The README's two commands. Both create .venv and install the project when needed.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: run test lint format bench clean postgres

$(STAMP): pyproject.toml
	@test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VENV)/bin/python -m pip install --quiet -e ".[dev]"
	@touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/escape-bot run

test: $(STAMP) postgres
	$(VENV)/bin/python -m pytest

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

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

format: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: $(STAMP)
	$(VENV)/bin/python -m bench
	$(VENV)/bin/python -m bench.timers
	$(VENV)/bin/python -m bench.load

clean:
	rm -rf $(VENV) .pytest_cache
