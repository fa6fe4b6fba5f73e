# One virtual environment with every Python package pinned, with its hashes, in
# requirements.lock (the direct pins are pyproject.toml's; `make lock` after changing one), and
# the MicroPython WebAssembly port for `stonegrid web` and rp2040js (the emulated Pico) pinned in
# package.json / package-lock.json.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
WASM := node_modules/@micropython/micropython-webassembly-pyscript/micropython.wasm
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# pytest-xdist on every core; a group stays on one worker, in the order tests/conftest.py sorts
PYTEST := $(BIN)/python -m pytest -q -n auto --dist loadgroup --no-loadscope-reorder
# the tiers `make check` leaves out (pyproject.toml declares them)
SLOW := sim or browser or tools or emulated

.PHONY: play test check bench endgames lock clean

play: $(VENV)/.installed
	@$(MAKE) --no-print-directory $(WASM) || echo "no npm here: stonegrid web will not run; the virtual board does"
	$(BIN)/stonegrid sim

test: $(VENV)/.installed $(WASM) $(CHROMIUM)
	$(PYTEST)

# the quick loop: rules, records, views, tests/both on both runtimes, host unit tests, ruff
check: $(VENV)/.installed $(WASM)
	$(PYTEST) -m "not ($(SLOW))"

bench: $(VENV)/.installed $(WASM)
	$(BIN)/python -m pip install -q --require-hashes -r requirements-bench.lock || echo "open_spiel not installable: benchmarking without it"
	$(BIN)/python tests/bench/rules.py
	$(BIN)/python tests/bench/ai.py
	$(BIN)/python tests/bench/ladder.py
	$(BIN)/python tests/bench/perfect.py
	$(BIN)/python tests/bench/flash.py
	$(BIN)/python tests/bench/pico.py
	$(BIN)/python tests/bench/pico.py --level hard --moves 0 --playouts 0 --no-peak
	$(BIN)/python tests/bench/latency.py
	$(BIN)/python tests/bench/ponder.py
	$(BIN)/python tests/bench/frames.py
	$(BIN)/python tests/bench/readers.py
	STONEGRID_FUZZ=20 $(BIN)/python -m pytest -q -p no:xdist tests/test_fuzz.py

# solve the Morris endgames again (after a change to the rules or the solver) into
# shared_rules/morris_endgames.sgt, and commit it with the change: tests/test_endgames.py
# fails until the table is what the solver writes
endgames: $(VENV)/.installed
	$(BIN)/stonegrid endgames

# the lock holds every package with its hashes, setuptools (the build backend) included, so
# stonegrid itself is installed without fetching anything more
$(VENV)/.installed: pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --require-hashes -r requirements.lock
	$(BIN)/python -m pip install -q --no-deps --no-build-isolation -e .
	touch $@

# Write the lock files again after a pin in pyproject.toml changed, with pip-tools in a venv of
# its own; what pyproject does not pin keeps its locked version (`make lock UPGRADE=--upgrade`
# takes the newest). Commit them, then `make test`.
LOCK := pip-compile --quiet --generate-hashes --allow-unsafe --strip-extras --no-emit-index-url --no-emit-find-links
lock:
	$(PYTHON) -m venv build/lock-venv
	build/lock-venv/bin/python -m pip install -q pip-tools==7.6.2
	CUSTOM_COMPILE_COMMAND="make lock" build/lock-venv/bin/$(LOCK) $(UPGRADE) --extra test --all-build-deps -o requirements.lock pyproject.toml
	CUSTOM_COMPILE_COMMAND="make lock" build/lock-venv/bin/$(LOCK) $(UPGRADE) --extra bench -c requirements.lock -o requirements-bench.lock pyproject.toml

$(WASM): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# tests/test_web.py drives Debian's chromium through Playwright (never a downloaded browser)
$(CHROMIUM):
	$(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium

clean:
	rm -rf $(VENV) build *.egg-info node_modules
