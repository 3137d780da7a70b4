# Queyou 雀友 — the two commands a fresh machine needs: `make run` and `make test`.
# Only Python >= 3.11, make and git are assumed; everything else is installed into .venv.

PYTHON ?= python3
# Parallel pytest processes (pytest-xdist); 0 runs the tests in one process.
PYTEST_WORKERS ?= 2
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test setup demo lint typecheck bench clean

run: setup        ## migrate, start Redis (if REDIS_URL is unset), Celery worker+beat and the ASGI server
	$(PY) -m config.launcher run

test: setup       ## the whole test suite (PostgreSQL when DATABASE_URL says so, else SQLite)
	$(PY) -m config.launcher test -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

setup: $(STAMP)

$(STAMP): requirements.txt requirements-dev.txt
	$(PYTHON) -c 'import sys; sys.exit("Python >= 3.11 is required") if sys.version_info < (3, 11) else None'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

demo: setup       ## a club, a room of each variant and four demo users
	DEBUG=1 $(PY) -m config.launcher prepare
	DEBUG=1 $(PY) manage.py migrate --noinput
	DEBUG=1 $(PY) manage.py demo

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: setup
	QUEYOU_TESTING=1 $(VENV)/bin/mypy rules scoring accounts tables config

bench: setup
	$(PY) -m pip install --quiet -r bench/requirements.txt
	$(PY) bench/bench_hands.py
	$(PY) bench/bench_simulate.py

clean:
	rm -rf $(VENV) var .mypy_cache .ruff_cache .pytest_cache
