# One virtual environment with everything pinned in pyproject.toml.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: play test bench clean

play: $(VENV)/.installed
	$(BIN)/stonegrid sim

test: $(VENV)/.installed
	$(BIN)/python -m pytest -q

bench: $(VENV)/.installed
	$(BIN)/python -m pip install -q -e '.[bench]' || echo "open_spiel not installable: benchmarking without it"
	$(BIN)/python tests/bench/rules.py
	$(BIN)/python tests/bench/ai.py
	$(BIN)/python tests/bench/flash.py

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@

clean:
	rm -rf $(VENV) build *.egg-info
