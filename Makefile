# Quick start: `make demo` and `make test`. Both create .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench template screenshots clean catalogs

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/keizer-xl demo

lint: $(STAMP)
	$(BIN)/ruff check keizer_xl tests bench templates
	$(BIN)/mypy

test: lint
	bash .ci/system-packages
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python bench/run.py

catalogs: $(STAMP)
	$(BIN)/pybabel compile -d keizer_xl/i18n/locale -D keizer_xl

template: $(STAMP)
	$(BIN)/python -m keizer_xl.workbook.template templates/keizer_xl.xlsx

screenshots: $(STAMP)
	bash .ci/system-packages
	$(BIN)/python docs/render_publish.py docs

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
