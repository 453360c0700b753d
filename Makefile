# cardtable: two commands for a fresh machine (see README.md).
#   make play   create .venv, install cardtable, serve the games in a browser (prints the URL)
#   make play-terminal   the same, but play Royal Casino in the terminal
#   make test   create .venv, install cardtable[test], run the whole suite (what CI runs)
#   make test-fast   the same checks, but pytest skips the tests marked slow (under a minute)
# Installing is skipped when .venv is already up to date with pyproject.toml.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
PIP := $(PY) -m pip --disable-pip-version-check --quiet
# Tools run as `python -m …`, so a venv whose scripts point elsewhere still works.
LINT_IMPORTS := $(PY) -c 'import sys; from importlinter.cli import lint_imports_command as c; sys.exit(c())'

.PHONY: play play-terminal test test-fast lint playthroughs bench help

help:
	@echo "make play   serve the games in a browser: open the printed URL (sets up $(VENV) first)"
	@echo "make play-terminal   play Royal Casino against the computer in the terminal"
	@echo "make test   run the whole test suite: ruff, mypy, import-linter, pytest (what CI runs)"
	@echo "make test-fast   the same without the tests marked slow (long conformance runs, browsers)"
	@echo "make playthroughs   regenerate the golden playthroughs after an intended rules change"
	@echo "make bench  random playouts of every game (cardtable bench)"

play: $(VENV)/.installed
	$(PY) -m cardtable.cli.main serve

play-terminal: $(VENV)/.installed
	$(PY) -m cardtable.cli.main play royal-casino

test: lint
	$(PY) -m pytest -n 2

test-fast: lint
	$(PY) -m pytest -n 2 -m "not slow"

lint: $(VENV)/.installed-test
	$(PY) -m ruff check
	$(PY) -m ruff format --check
	$(PY) -m mypy
	$(LINT_IMPORTS)

playthroughs: $(VENV)/.installed
	$(PY) scripts/playthroughs.py

bench: $(VENV)/.installed
	@for game in $$($(PY) -c 'from cardtable.games import REGISTRY; print(*REGISTRY.names())'); do \
		$(PY) -m cardtable.cli.main bench $$game --seconds 10 || exit 1; \
	done

# A virtualenv that works here (a missing or dangling interpreter is recreated).
$(PY):
	$(PYTHON) -m venv --clear $(VENV)

# The package (editable), reinstalled only when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(PY)
	$(PIP) install -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PIP) install -e '.[test]'
	@touch $@ $(VENV)/.installed
