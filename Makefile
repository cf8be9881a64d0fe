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

bench: $(STAMP)
	$(PY) -m engine bench
	$(PY) -m renders bench
	$(PY) -m bench

soak: $(STAMP)
	$(PY) -m bench.soak --kills 50

lint: $(STAMP)
	$(PY) -m ruff check engine renders bot tests bench

clean:
	rm -rf $(VENV) demo-output .pytest_cache
