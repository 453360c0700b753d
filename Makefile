# cardtable: two commands for a fresh machine (see README.md).
#   make play   create .venv, install cardtable, serve the games in a browser (prints the URL)
#   make play-terminal   the same, but play Royal Casino in the terminal
#   make test   create .venv, install cardtable[test], run the whole suite (what CI runs)
#   make test-fast   the same checks, but pytest skips the tests marked slow (under a minute)
#   make build   recompile the compiled modules after editing one (make play/test do it too)
# Installing is skipped when .venv is already up to date with pyproject.toml and setup.py.
# The install compiles the hot modules with mypyc (setup.py; about a minute on 2 cores);
# CARDTABLE_PURE=1 make ... installs and runs pure Python instead.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
PIP := $(PY) -m pip --disable-pip-version-check --quiet
# The compiled build's progress from setup.py's output: each extension (four with the code,
# one per game and one for the rest, and a small one per module) and each C file as the
# compiler starts it.
BUILD_PROGRESS := awk '/^building / { print "  building the extension " $$2; fflush() } \
	match($$0, / -c [^ ]+[.]c/) { n++; printf "  [%d] compiling %s\n", n, \
	substr($$0, RSTART + 4, RLENGTH - 4); fflush() }'
# Tools run as `python -m …`, so a venv whose scripts point elsewhere still works.
LINT_IMPORTS := $(PY) -c 'import sys; from importlinter.cli import lint_imports_command as c; sys.exit(c())'

# The modules setup.py compiles, and the tests that also run on the pure-Python modules
# (the conformance suite, the golden playthroughs, perft counts, the fast paths against
# the contract, the same games compiled or not, and the doctests in src/).
COMPILED := $(shell sed -n 's/^    "\(src\/cardtable\/.*\.py\)",$$/\1/p' setup.py)
PURE_TESTS := tests/test_conformance.py tests/test_playthroughs.py tests/test_compiled.py \
	tests/games/royal_casino/test_perft.py tests/games/rummy/test_perft.py \
	tests/games/royal_mastheads/test_perft.py tests/bots/test_fast_paths.py src

.PHONY: play play-terminal test test-fast test-pure lint build playthroughs bench help

help:
	@echo "make play   serve the games in a browser: open the printed URL (sets up $(VENV) first)"
	@echo "make play-terminal   play Royal Casino against the computer in the terminal"
	@echo "make test   run the whole test suite: ruff, mypy, import-linter, pytest (what CI runs)"
	@echo "make test-fast   the same without the tests marked slow (long runs, browsers, hostile clients)"
	@echo "make build  recompile the compiled modules (after editing one of them)"
	@echo "make playthroughs   regenerate the golden playthroughs after an intended rules change"
	@echo "make bench  random playouts of every game (cardtable bench)"

play: build
	$(PY) -m cardtable.cli.main serve

play-terminal: build
	$(PY) -m cardtable.cli.main play royal-casino

# The whole suite on the installed (compiled) modules, then the pure-Python run.
test: lint build
	$(PY) -m pytest -n 2
	$(MAKE) --no-print-directory test-pure

test-fast: lint build
	$(PY) -m pytest -n 2 -m "not slow"

test-pure: $(VENV)/.installed-test
	CARDTABLE_PURE=1 $(PY) -m pytest -n 2 -p no:cacheprovider $(PURE_TESTS)

# Cheapest first, so a slip fails in a second: ruff and the import contracts (under a
# second each), then mypy (seconds with its cache, .mypy_cache; half a minute without).
lint: $(VENV)/.installed-test
	$(PY) -m ruff check
	$(PY) -m ruff format --check
	$(LINT_IMPORTS)
	$(PY) -m mypy

playthroughs: $(VENV)/.installed
	$(PY) scripts/playthroughs.py

bench: $(VENV)/.installed
	@for game in $$($(PY) -c 'from cardtable.games import REGISTRY; print(*REGISTRY.names())'); do \
		$(PY) -m cardtable.cli.main bench $$game --seconds 10 || exit 1; \
	done

# A virtualenv that works here (a missing or dangling interpreter is recreated).
$(PY):
	$(PYTHON) -m venv --clear $(VENV)

# The package (editable) and its dependencies, reinstalled only when pyproject.toml or
# setup.py change; pure Python here, compiled once by the next step.
$(VENV)/.installed: pyproject.toml setup.py | $(PY)
	CARDTABLE_PURE=1 $(PIP) install -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml setup.py | $(PY)
	CARDTABLE_PURE=1 $(PIP) install -e '.[test]'
	@touch $@ $(VENV)/.installed

# The compiled modules (setup.py, mypyc), rebuilt in place after any reinstall and when a
# compiled module's source changes; pure Python when CARDTABLE_PURE=1 or no C compiler.
build: $(VENV)/.compiled
# (With mypy in the venv, as for make test, in place and only what changed; else through
# pip, which compiles everything in a fresh build environment.)
# It shows its progress: a line as mypyc starts, then one per C file compiled and per
# extension built; the whole output goes to $(VENV)/build.log, and its end is shown if the
# build fails.
$(VENV)/.compiled: $(VENV)/.installed $(COMPILED)
	@if $(PY) -c 'import mypyc, setuptools' 2>/dev/null; then \
		echo "compiling $(words $(COMPILED)) modules with mypyc (about 2 minutes on 2 cores):" \
			"type-checking and translating them to C first, then the C compiler"; \
		{ $(PY) setup.py build_ext --inplace 2>&1; echo $$? > $(VENV)/.build-status; } \
			| tee $(VENV)/build.log | $(BUILD_PROGRESS); \
		status=$$(cat $(VENV)/.build-status); rm -f $(VENV)/.build-status; \
		if [ "$$status" != 0 ]; then \
			tail -n 30 $(VENV)/build.log; echo "the build failed (log: $(VENV)/build.log)"; \
			exit $$status; \
		fi; \
	else \
		echo "installing cardtable with pip, which compiles its modules (about 2 minutes)"; \
		$(PY) -m pip --disable-pip-version-check install --no-deps -e .; \
	fi
	@touch $@
