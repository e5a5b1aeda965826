# Quick start: `make demo` and `make test`. Both create .venv when it is missing.
#
# The fast loop while changing code: `make check` (ruff, mypy, the workflow linters and
# every test that does not drive another program or process, with Hypothesis's short `check`
# profile: 1,424 tests, 66 s of CPU, 68 s of wall time on the 2-core machine, 6 December
# 2026). `make test` runs everything, as CI does: also the tests marked `programs`
# (LibreOffice, Chromium, poppler, subprocesses, memory), after installing those programs,
# and every property with all its examples (the `full` profile). One file or test at a time:
#   .venv/bin/python -m pytest -q -x tests/core/test_pairing.py
#   .venv/bin/python -m pytest -q -m "not programs" tests/workbook
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Every package of the development environment at one exact version (markers where Python
# 3.10 or a system needs another): a fresh clone and CI test with the same tools. The lower
# bounds stay in pyproject.toml; `make lock` brings the lock up to the newest releases.
LOCK := requirements/dev.txt

.PHONY: demo check test lint bench template screenshots clean catalogs lock test-newest

$(STAMP): pyproject.toml $(LOCK)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r $(LOCK) -e '.[dev]'
	touch $(STAMP)

# The lock made anew from pyproject.toml with the newest releases, for every system and every
# Python from 3.10 on (uv, at the version the lock itself names, from the package index only:
# no pip or uv settings of this machine enter it). Each package is one with a wheel for every
# Python it is pinned for (nothing to compile: appscript 1.5 has no Mac wheel for 3.10), but
# win-unicode-console, pure Python, which has only its source. Review the diff, `make check`.
lock:
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet "$$(grep '^uv==' $(LOCK))"
	$(BIN)/uv pip compile --no-config --quiet --upgrade --universal --python-version 3.10 \
		--only-binary :all: --no-binary win-unicode-console --extra dev \
		--custom-compile-command 'make lock' -o $(LOCK) pyproject.toml

# The same checks and tests with the newest release of every dependency, the lock left
# aside, in a virtual environment of their own: tells when a new release breaks something.
# NEWEST_TESTS narrows the run, e.g. make test-newest NEWEST_TESTS='-m "not programs"'.
NEWEST := .venv-newest
NEWEST_TESTS ?=
test-newest:
	test -x $(NEWEST)/bin/python || $(PYTHON) -m venv $(NEWEST)
	$(NEWEST)/bin/python -m pip install --quiet --upgrade pip
	$(NEWEST)/bin/python -m pip install --quiet --upgrade --upgrade-strategy eager -e '.[dev]'
	$(NEWEST)/bin/python -m pip list
	$(NEWEST)/bin/ruff check keizer_xl tests bench templates
	$(NEWEST)/bin/mypy
	$(NEWEST)/bin/python -m pytest -q $(NEWEST_TESTS)

demo: $(STAMP)
	$(BIN)/keizer-xl demo

lint: $(STAMP)
	$(BIN)/ruff check keizer_xl tests bench templates docs
	$(BIN)/ruff format --check keizer_xl tests bench templates docs
	$(BIN)/mypy
	$(BIN)/python .ci/lint-workflows

check: lint
	$(BIN)/python -m pytest -q -m "not programs" --hypothesis-profile check

test: lint
	bash .ci/system-packages
	$(BIN)/python -m pytest -q --hypothesis-profile full

bench: $(STAMP)
	$(BIN)/python bench/run.py

# How the code marks a message (tests/i18n/test_catalogs.py extracts with the same words).
MESSAGES := -k translate -k msg -k _t -k t -k reason -k WorkbookLocked -k WorkbookBusy \
	-k NotAWorkbook -k MissingSheet -k SheetTooLarge:2 -k OutsideSheet -k CopiedFormula \
	-k UnstorableValue -k NotACellValue -k SettingSpec:5 -k _choice:5
LOCALE := keizer_xl/i18n/locale

# The message template (.pot) from the code, each catalog brought up to date with it (a new
# message comes in untranslated: the tests name it until it is), then compiled.
catalogs: $(STAMP)
	$(BIN)/pybabel extract -F keizer_xl/i18n/babel.cfg $(MESSAGES) --no-location \
		--sort-output --omit-header -o $(LOCALE)/keizer_xl.pot keizer_xl
	$(BIN)/pybabel update -i $(LOCALE)/keizer_xl.pot -d $(LOCALE) -D keizer_xl \
		--no-fuzzy-matching --ignore-obsolete -w 96
	# one fixed creation date: no churn per run, no conflict between branches
	sed -i 's/^"POT-Creation-Date: .*/"POT-Creation-Date: 2026-01-01 00:00+0000\\n"/' \
		$(LOCALE)/*/LC_MESSAGES/keizer_xl.po
	$(BIN)/pybabel compile -d $(LOCALE) -D keizer_xl

template: $(STAMP)
	$(BIN)/python -m keizer_xl.workbook.template templates/keizer_xl.xlsx
	$(BIN)/python -m keizer_xl.workbook.template --lite templates/keizer_xl_lite.xlsx
	for lang in nl de it; do $(BIN)/python -m keizer_xl.workbook.template --lite \
		--lang $$lang templates/keizer_xl_lite_$$lang.xlsx || exit 1; done

screenshots: $(STAMP)
	bash .ci/system-packages
	$(BIN)/python docs/render_publish.py docs
	$(BIN)/python docs/render_lite.py docs/lite.png
	$(BIN)/python docs/render_libreoffice.py docs/libreoffice.png

# Pyodide (node, npm's pyodide, the release's own wheels) for the tests that run keizer_xl
# as xlwings Lite does; kept outside the repository and downloaded the first time only.
.PHONY: pyodide
pyodide: $(STAMP)
	bash .ci/system-packages
	$(BIN)/python .ci/pyodide-setup

# What a release publishes (.github/workflows/release.yml runs this): the sdist and the wheel
# (the wheel built from the sdist) in dist/, and the ready workbooks of every language in
# dist/workbooks/: with the buttons (.xlsm) and for xlwings Lite (_lite.xlsx).
WORKBOOK_LANGUAGES := en nl de it
.PHONY: dist
dist: $(STAMP)
	rm -rf dist
	$(BIN)/python -m build --outdir dist .
	mkdir -p dist/workbooks
	for lang in $(WORKBOOK_LANGUAGES); do \
		$(BIN)/keizer-xl new dist/workbooks/keizer_xl_$$lang.xlsm --lang $$lang && \
		$(BIN)/keizer-xl new dist/workbooks/keizer_xl_lite_$$lang.xlsx --lite --lang $$lang \
		|| exit 1; \
	done

clean:
	rm -rf $(VENV) $(NEWEST) .pytest_cache .mypy_cache .ruff_cache .hypothesis
