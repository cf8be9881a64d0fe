# One entry point for everything a maintainer runs. Each target builds the venv on demand.
#
# Interpreter: PYTHON if given (`make test PYTHON=python3.13`), else the newest of python3.13,
# python3.12, python3.11 and python3 that runs and is 3.11-3.13. The venv is rebuilt whenever
# it was made with another Python version; packages are installed with constraints.txt, which
# pins every version the tests depend on (the golden image hashes depend on Pillow's).
VENV        := .venv
PY          := $(VENV)/bin/python
CONSTRAINTS := constraints.txt
SUPPORTED   := import sys; sys.exit(not (3, 11) <= sys.version_info[:2] <= (3, 13))

# With pyenv, its shims only run the versions selected; make every installed version visible
# (inside make only) so that python3.11, python3.12 and python3.13 all resolve.
ifneq ($(shell command -v pyenv 2>/dev/null),)
ifeq ($(origin PYENV_VERSION),undefined)
PYENV_VERSION := $(shell pyenv versions --bare 2>/dev/null | paste -sd: -)
export PYENV_VERSION
endif
endif
RUN_ENV := $(if $(PYENV_VERSION),PYENV_VERSION=$(PYENV_VERSION))

PYTHON ?= $(firstword $(foreach p,python3.13 python3.12 python3.11 python3,\
	$(shell $(RUN_ENV) $(p) -c '$(SUPPORTED)' >/dev/null 2>&1 && echo $(p))))
PYVER  := $(shell $(RUN_ENV) $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
STAMP  := $(VENV)/.installed-$(PYVER)

.PHONY: test run demo board bench bench-ai bench-scale soak lint clean venv python

# Which interpreter make would use; fails when it is missing or unsupported.
python:
	@test -n "$(PYTHON)" && $(PYTHON) -c '$(SUPPORTED)' 2>/dev/null || { \
		echo "Python 3.11, 3.12 or 3.13 is required (set PYTHON=/path/to/python3.x)"; exit 1; }
	@echo "$(PYTHON) (Python $(PYVER))"

$(STAMP): pyproject.toml $(CONSTRAINTS) | python
	@if [ -x $(PY) ] && [ "$$($(PY) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)" != "$(PYVER)" ]; then \
		echo "$(VENV) was built with another Python; rebuilding it with $(PYTHON) ($(PYVER))"; rm -rf $(VENV); fi
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install -q --upgrade pip >/dev/null 2>&1 || true
	$(PY) -m pip install -q -c $(CONSTRAINTS) -e '.[dev,postgres]'
	@rm -f $(VENV)/.installed-*
	@touch $(STAMP)

venv: $(STAMP)

test: $(STAMP)
	$(PY) -m pytest

run: $(STAMP)
	@$(PY) -m bot

demo: $(STAMP)
	@$(PY) -m bot.demo --out demo-output

# Play on the web board against AI seats, offline (no Discord token): prints the link. Options go
# through ARGS, e.g. `make board ARGS="--players 3 --finesse"` (python -m bot.board --help).
board: $(STAMP)
	@$(PY) -m bot.board $(ARGS)

# The quick bench (speed, size and memory budgets; about five minutes) and, with FULL=1, the AI and
# scale benches too; `make bench-ai` is the AI bench alone (strength games, about 90 minutes on 2
# cores), `make bench-scale` the shard bench alone (it starts its own PostgreSQL server). Every
# suite runs even if an earlier one misses a budget; the target fails if any did, after the
# figures of the suites that ran are written into docs/benchmarks.md (from bench-output/).
bench: $(STAMP)
	@rm -rf bench-output; status=0; \
	PROJECTL_BENCH_DIR=bench-output $(PY) -m bench $(if $(FULL),full,quick) || status=1; \
	$(PY) -m bench.docs --results bench-output || status=1; \
	exit $$status

bench-ai: $(STAMP)
	@rm -rf bench-output; status=0; \
	PROJECTL_BENCH_DIR=bench-output $(PY) -m bench ai || status=1; \
	$(PY) -m bench.docs --results bench-output || status=1; \
	exit $$status

bench-scale: $(STAMP)
	@rm -rf bench-output; status=0; \
	PROJECTL_BENCH_DIR=bench-output $(PY) -m bench scale || status=1; \
	$(PY) -m bench.docs --results bench-output || status=1; \
	exit $$status

soak: $(STAMP)
	$(PY) -m bench.soak --kills 50

# ruff on everything; mypy on the packages listed in pyproject.toml ([tool.mypy] packages).
lint: $(STAMP)
	$(PY) -m ruff check engine renders bot tests bench tools
	$(PY) -m mypy

clean:
	rm -rf $(VENV) demo-output .pytest_cache
