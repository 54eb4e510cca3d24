# Two set-up commands: `make run` and `make test`.  Both create or refresh ./.venv.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
OUT    ?= out

.PHONY: run test venv install install-test services system-packages clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

venv: $(BIN)/python

install: venv
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .

install-test: venv
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'

KEY    := .deid/demo-study.key

run: install
	@mkdir -p -m 700 .deid
	@test -f $(KEY) || $(BIN)/deid keygen --study demo --out $(KEY)
	$(BIN)/deid run --in samples/notes.jsonl --out $(OUT)/deidentified.jsonl --key-file $(KEY)

services:
	@bash scripts/services.sh

system-packages:
	@bash scripts/system-packages.sh

test: install-test system-packages services
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) $(OUT) .pytest_cache
