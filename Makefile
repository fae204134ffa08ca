# pw_adaptive: two commands do all the set-up on a fresh Debian machine, then run.
#   make demo   serve a fixture portal and crawl it with a sample query
#   make test   ruff, mypy and the whole pytest suite (browser tests included)
#   make peers  the peer crawlers' own virtualenv (Crawl4AI), see benchmarks/peers/README.md

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
BASE_STAMP := $(VENV)/.installed-base-stamp
STAMP := $(VENV)/.installed-stamp
# Offline, Chromium stalls on every DNS look-up of an outside host: tests,
# the demo and the benchmarks resolve nothing but loopback.
export PW_ADAPTIVE_BROWSER_ARGS ?= "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"

.PHONY: all demo test lint unit e2e bench chromium peers clean

all: test

$(PY):
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "pw_adaptive needs Python >= 3.11 ($(PYTHON) is older)"; exit 1; }
	$(PYTHON) -m venv $(VENV)

# The package alone: all that a crawl (and so the demo) needs.
$(BASE_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e .
	@touch $(BASE_STAMP)

# The test tools, the segmenters (Japanese, Thai, Korean, Vietnamese; tests/text/test_languages.py;
# wordfreq for compounds, tests/text/test_compounds.py) and
# the ray extra: tests/e2e/test_batch_browser.py runs a
# batch on a local Ray.
$(STAMP): $(BASE_STAMP)
	$(PY) -m pip install -q -e '.[test,ray,segmenters]'
	@touch $(STAMP)

chromium: $(BASE_STAMP)
	@bash scripts/ensure-chromium.sh $(PY)

demo: chromium
	$(PY) -m pw_adaptive.demo

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

unit: $(STAMP)
	$(VENV)/bin/pytest -m "not e2e" -q

e2e: chromium $(STAMP)
	$(VENV)/bin/pytest -m e2e -q

test: chromium lint
	$(VENV)/bin/pytest -q

# The real corpus's sites that are not in shared/ are laid out from their
# snapshots when those are on this machine (benchmarks/corpus/layout.py);
# the benchmarks skip a site that is not laid out.
bench: chromium peers
	$(PY) -m pip install -q -e '.[bench]'
	-$(PY) benchmarks/corpus/layout.py
	$(PY) benchmarks/extraction.py --json benchmarks/results/extraction.json
	$(PY) benchmarks/core_speed.py --quick
	$(PY) benchmarks/quality.py --json benchmarks/results/quality.json
	$(PY) benchmarks/speed.py --json benchmarks/results/speed.json
	$(PY) benchmarks/startup.py --json benchmarks/results/startup.json

# Crawl4AI lives in its own virtualenv: it pins its own Playwright and brings
# a large dependency tree that the project must not share. No browser is
# downloaded (crawl4ai-setup is never run): the peers drive the system
# Chromium, see benchmarks/peers/README.md.
PEERS_VENV ?= .venv-peers
PEERS_STAMP := $(PEERS_VENV)/.installed-stamp

$(PEERS_STAMP): benchmarks/peers/requirements.txt
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 10))' || \
		{ echo "Crawl4AI needs Python >= 3.10 ($(PYTHON) is older)"; exit 1; }
	test -x $(PEERS_VENV)/bin/python || $(PYTHON) -m venv $(PEERS_VENV)
	PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 $(PEERS_VENV)/bin/python -m pip install -q --upgrade pip
	PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 $(PEERS_VENV)/bin/python -m pip install -q -r benchmarks/peers/requirements.txt
	CRAWL4AI_NO_CLOUD_NOTICE=1 CRAWL4_AI_BASE_DIRECTORY=$(PEERS_VENV) $(PEERS_VENV)/bin/python -c \
		'from crawl4ai.__version__ import __version__ as v; print("crawl4ai", v, "in $(PEERS_VENV)")'
	@touch $(PEERS_STAMP)

peers: $(PEERS_STAMP) $(STAMP)

clean:
	rm -rf $(VENV) $(PEERS_VENV) .pytest_cache .mypy_cache .ruff_cache *.egg-info
