# Two commands for a fresh machine:  make run  (set up what the app needs, then start it)
#                                    make test (set up everything, then run every test)
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
# What the app needs to run: the runtime dependencies only.
RUN_STAMP := $(VENV)/.installed-run
# Everything: the training and dev extras too (tests, benchmarks, the bundle).
ALL_STAMP := $(VENV)/.installed

.PHONY: run test setup lint bench bundle clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --upgrade pip

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -e .
	touch $(RUN_STAMP)

$(ALL_STAMP): pyproject.toml | $(BIN)/python
	# torch first, pinned, so nothing pulls a CUDA build of it
	$(BIN)/pip install "torch==2.13.0"
	$(BIN)/pip install -e ".[training,dev]"
	touch $(ALL_STAMP) $(RUN_STAMP)

setup: $(ALL_STAMP)

# Where `make test` has installed the training stack into the same .venv, the
# `sottovoce` command still keeps torch and transformers out of its process
# (app.main.keep_training_stack_out).
run: $(RUN_STAMP)
	$(BIN)/sottovoce $(ARGS)

test: $(ALL_STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/lint-imports
	$(BIN)/ruff check .
	$(BIN)/mypy core app ui training
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q

bench: $(ALL_STAMP)
	for b in benchmarks/bench_*.py; do $(BIN)/python $$b; done

# The desktop bundle (dist/sottovoce); installers/README.md has the other platforms.
# GPU=vulkan: with llama.cpp's Vulkan backend beside the CPU one (compiled once, cached in build/).
bundle: $(ALL_STAMP)
	$(BIN)/python installers/build.py $(if $(GPU),--llama $(GPU))

clean:
	rm -rf $(VENV) build dist *.egg-info
