# One entry point for everything a maintainer runs. Each target builds the venv on demand.
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: test run demo bench soak lint clean venv

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11 is required (set PYTHON=/path/to/python3.11)"; exit 1; }
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install -q --upgrade pip >/dev/null 2>&1 || true
	$(PY) -m pip install -q -e '.[dev]'
	@touch $(STAMP)

venv: $(STAMP)

test: $(STAMP)
	$(PY) -m pytest

run: $(STAMP)
	@$(PY) -m bot

demo: $(STAMP)
	@$(PY) -m bot.demo --out demo-output

# Every bench runs even if an earlier one misses a budget; the target fails if any did, after
# docs/benchmarks.md's figures section is regenerated from what was measured (bench-output/).
bench: $(STAMP)
	@rm -rf bench-output; status=0; \
	PROJECTL_BENCH_DIR=bench-output $(PY) -m engine bench || status=1; \
	PROJECTL_BENCH_DIR=bench-output $(PY) -m renders bench || status=1; \
	PROJECTL_BENCH_DIR=bench-output $(PY) -m bench || status=1; \
	$(PY) -m bench.docs --results bench-output || status=1; \
	exit $$status

soak: $(STAMP)
	$(PY) -m bench.soak --kills 50

lint: $(STAMP)
	$(PY) -m ruff check engine renders bot tests bench

clean:
	rm -rf $(VENV) demo-output .pytest_cache
