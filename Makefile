# One virtual environment with everything pinned in pyproject.toml, and the MicroPython
# WebAssembly port for `stonegrid web` and rp2040js (the emulated Pico) pinned in package.json /
# package-lock.json.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
WASM := node_modules/@micropython/micropython-webassembly-pyscript/micropython.wasm
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: play test bench clean pico-parts

play: $(VENV)/.installed
	@$(MAKE) --no-print-directory $(WASM) || echo "no npm here: stonegrid web will not run; the virtual board does"
	$(BIN)/stonegrid sim

test: $(VENV)/.installed $(WASM) $(CHROMIUM) pico-parts
	$(BIN)/python -m pytest -q

bench: $(VENV)/.installed $(WASM) pico-parts
	$(BIN)/python -m pip install -q -e '.[bench]' || echo "open_spiel not installable: benchmarking without it"
	$(BIN)/python tests/bench/rules.py
	$(BIN)/python tests/bench/ai.py
	$(BIN)/python tests/bench/flash.py
	$(BIN)/python tests/bench/pico.py

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@

$(WASM): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# The Pico's pinned parts (MicroPython's UF2, the boot ROM) are not kept in git: copied from
# PICO_PARTS, then checked against the sha256 pinned in host/stonegrid/pico/parts/__init__.py
# the steering repo's shared/ beside the checkout, as CI lays it
PICO_PARTS ?= ../shared/micropython-rp2
PARTS := host/stonegrid/pico/parts
PARTS_FILES := $(PARTS)/micropython-v1.28.0-RPI_PICO.uf2 $(PARTS)/rp2040-bootrom-b1.bin
pico-parts: $(PARTS_FILES)

$(PARTS_FILES): | $(VENV)/.installed
	cp $(PICO_PARTS)/$(@F) $@ && chmod u+w $@
	$(BIN)/python -c "from stonegrid.pico import parts; parts.path('$(@F)')" || { rm -f $@; false; }

# tests/test_web.py drives Debian's chromium through Playwright (never a downloaded browser)
$(CHROMIUM):
	$(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium

clean:
	rm -rf $(VENV) build *.egg-info node_modules
