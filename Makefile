# Two set-up commands: `make run` and `make test`.  Both create or refresh ./.venv.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
OUT    ?= out

.PHONY: run test venv install install-test encoder services system-packages clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

venv: $(BIN)/python

install: venv
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[encoder]'

install-test: venv
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'

KEY    := .deid/demo-study.key

# The default encoder, trained once from its recipe with a fixed seed into
# models/encoder/ (minutes on a CPU; the command prints how long), then reused
# until the recipe, its training data or the training code change.
encoder: install
	@$(BIN)/deid train encoder --default

run: install encoder
	@mkdir -p -m 700 .deid
	@test -f $(KEY) || $(BIN)/deid keygen --study demo --out $(KEY)
	@echo "de-identifying samples/notes.jsonl with the rules and the default encoder (models/encoder)"
	$(BIN)/deid run --in samples/notes.jsonl --out $(OUT)/deidentified.jsonl --key-file $(KEY) --recognizers rules,encoder

services:
	@bash scripts/services.sh

system-packages:
	@bash scripts/system-packages.sh

test: install-test system-packages services
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) $(OUT) .pytest_cache
