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

.PHONY: system-packages test test-busy run demo board bench bench-ai bench-scale bench-docs soak lint clean venv python

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

# The whole suite, one worker more than cores (pytest-xdist; TEST_WORKERS=1 for one process): the
# browser, PostgreSQL and the bots' waits leave a core idle otherwise (2 cores: 3:31 against 4:10). `make test-busy`
# runs it while BUSY CPU-bound processes (one per core of a 2-core machine) compete for the
# cores, to show that a slow machine makes no test fail; they are killed however the run ends.
# Python may keep the compiled modules (git-ignored __pycache__/) even where the environment says
# PYTHONDONTWRITEBYTECODE: recompiling every test's rewritten asserts costs each worker ~10 s of CPU.
TEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null) && echo $$((n + 1)) || echo auto)
BUSY         ?= 2
PYTEST       = PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -n $(TEST_WORKERS) --dist worksteal

# PostgreSQL and Chromium for the storage and browser tests, installed with apt-get when missing.
system-packages:
	@tools/system_packages.sh

test: $(STAMP) system-packages
	$(PYTEST)

test-busy: $(STAMP) system-packages
	@pids=""; trap 'kill $$pids 2>/dev/null' EXIT INT TERM; \
	for i in $$(seq $(BUSY)); do $(PY) -c 'while True: pass' & pids="$$pids $$!"; done; \
	echo "$(BUSY) busy processes:$$pids"; \
	$(PYTEST)

run: $(STAMP)
	@$(PY) -m bot

demo: $(STAMP)
	@$(PY) -m bot.demo --out demo-output

# Play on the web board against AI seats, offline (no Discord token): prints the link. Options go
# through ARGS, e.g. `make board ARGS="--players 3 --finesse"` (python -m bot.board --help).
board: $(STAMP)
	@$(PY) -m bot.board $(ARGS)

# The quick bench (speed, size and memory budgets; about two minutes) and, with FULL=1, the AI and
# scale benches too; `make bench-ai` is the AI bench alone (strength games and the AI ladder: hours on 2
# cores), `make bench-scale` the shard bench alone (it starts its own PostgreSQL server). Every
# suite runs even if an earlier one misses a budget; the target fails if any did. The figures are
# printed and saved in $(BENCH_OUT)/ (git-ignored: <suite>.json, and figures.md, the tables);
# no bench writes a tracked file. `make bench-docs` copies the saved tables into
# docs/benchmarks.md, on purpose, after a run worth publishing.
BENCH_OUT := bench-output
BENCH_RUN  = status=0; \
	PROJECTL_BENCH_DIR=$(BENCH_OUT) $(PY) -m bench $(1) || status=1; \
	$(PY) -m bench.docs --results $(BENCH_OUT) || status=1; \
	exit $$status

bench: $(STAMP)
	@$(call BENCH_RUN,$(if $(FULL),full,quick))

bench-ai: $(STAMP)
	@$(call BENCH_RUN,ai)

bench-scale: $(STAMP)
	@$(call BENCH_RUN,scale)

bench-docs: $(STAMP)
	$(PY) -m bench.docs --results $(BENCH_OUT) --doc docs/benchmarks.md

soak: $(STAMP)
	$(PY) -m bench.soak --kills 50

# ruff on everything; mypy on the packages listed in pyproject.toml ([tool.mypy] packages).
lint: $(STAMP)
	$(PY) -m ruff check engine renders bot tests bench tools
	$(PY) -m mypy

clean:
	rm -rf $(VENV) demo-output bench-output .pytest_cache
