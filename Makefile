# Two commands for a fresh machine:  make run  (set up, then start the app)
#                                    make test (set up, then run every test)
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test setup lint bench bundle clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --upgrade pip
	# torch first, pinned, so nothing pulls a CUDA build of it
	$(BIN)/pip install "torch==2.13.0"
	$(BIN)/pip install -e ".[training,dev]"
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/sottovoce $(ARGS)

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/lint-imports
	$(BIN)/ruff check .
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q

bench: $(STAMP)
	for b in benchmarks/bench_*.py; do $(BIN)/python $$b; done

# The desktop bundle (dist/sottovoce); installers/README.md has the other platforms.
bundle: $(STAMP)
	$(BIN)/python installers/build.py

clean:
	rm -rf $(VENV) build dist *.egg-info
