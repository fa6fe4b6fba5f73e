# One virtual environment with everything pinned in pyproject.toml, and the MicroPython
# WebAssembly port for `stonegrid web` and rp2040js (the emulated Pico) pinned in package.json /
# package-lock.json.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
WASM := node_modules/@micropython/micropython-webassembly-pyscript/micropython.wasm
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: play test bench clean

play: $(VENV)/.installed
	@$(MAKE) --no-print-directory $(WASM) || echo "no npm here: stonegrid web will not run; the virtual board does"
	$(BIN)/stonegrid sim

test: $(VENV)/.installed $(WASM) $(CHROMIUM)
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

$(WASM): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# tests/test_web.py drives Debian's chromium through Playwright (never a downloaded browser)
$(CHROMIUM):
	$(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium

clean:
	rm -rf $(VENV) build *.egg-info node_modules
