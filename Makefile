# Tatib. `make run` starts everything; `make test` runs every test.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := run

export TATIB_DATA_DIR ?= $(CURDIR)/.data
BIN := $(CURDIR)/bin
GO_MODULES := shared migrations server
FRONT_SRC := $(shell find frontend/src frontend/public -type f 2>/dev/null) $(wildcard frontend/index.html frontend/ortu.html frontend/vite.config.* frontend/vite.portal.config.* frontend/tsconfig*.json frontend/scripts/*.mjs)
WEB_DIST := server/internal/web/dist

.PHONY: run dev build frontend frontend-deps gen test test-deps test-gen test-go test-openapi test-frontend test-size test-e2e vet bench db-start db-stop desktop test-desktop test-fuzz clean help

help:
	@echo "make run       build and start Tatib on the private PostgreSQL cluster (with a demo school)"
	@echo "make test      vet and every test (Go with -race, front end, browser, desktop smoke)"
	@echo "make gen       regenerate the committed OpenAPI document and the front end's wire types"
	@echo "make dev       Vite dev server with /api proxied to the Go server"
	@echo "make db-stop   stop the private PostgreSQL cluster"
	@echo "make bench     benchmarks"
	@echo "make desktop   build the desktop app (bin/tatib-desktop)"

## Front end ---------------------------------------------------------------

frontend/node_modules/.installed: frontend/package.json $(wildcard frontend/package-lock.json)
	cd frontend && (npm ci --no-audit --no-fund || npm install --no-audit --no-fund)
	touch $@

frontend-deps: frontend/node_modules/.installed

# npm run build also writes <file>.gz and <file>.br beside each asset (scripts/precompress.mjs);
# the server sends them to browsers that accept them. The build manifest (.vite/) is for
# scripts/bundle-size.mjs only, never served.
$(WEB_DIST)/index.html: frontend/node_modules/.installed $(FRONT_SRC)
	cd frontend && npm run build
	find $(WEB_DIST) -mindepth 1 ! -name .keep -delete
	cp -r frontend/dist/. $(WEB_DIST)/
	rm -rf $(WEB_DIST)/.vite

frontend: $(WEB_DIST)/index.html

## Generated files ------------------------------------------------------------

# The OpenAPI document the server serves (assembled from server/internal/api/openapi/*.json and
# the schemas generated from Go) and the front end's wire types generated from it by
# openapi-typescript (frontend/scripts/gen-api.mjs). Both are committed,
# so a change of the contract shows in review as a change of the types; make test fails when
# a regeneration changes them.
GEN_DOC := frontend/src/api/openapi.json
GEN_TS := frontend/src/api/schema.gen.ts
GEN_FILES := $(GEN_DOC) $(GEN_TS)

gen: frontend-deps
	go run ./server/cmd/tatib-server openapi > $(GEN_DOC).tmp
	mv $(GEN_DOC).tmp $(GEN_DOC)
	cd frontend && node scripts/gen-api.mjs

## Go ---------------------------------------------------------------------

build: frontend
	mkdir -p $(BIN)
	go build -o $(BIN)/tatib-server ./server/cmd/tatib-server
	go build -o $(BIN)/tatib-sim ./server/cmd/tatib-sim

db-start:
	@scripts/db.sh start

db-stop:
	@scripts/db.sh stop

run: build
	@if [ -z "$${DATABASE_URL:-}" ]; then scripts/db.sh start; fi
	@addr=$${TATIB_ADDR:-127.0.0.1:8080}; \
	 echo; echo "  Tatib: open http://$$addr/ in a browser."; \
	 echo "  Sign in as 'admin': with TATIB_ADMIN_PASSWORD if you set it, else the password printed below on first start."; \
	 echo "  Demo users' passwords are printed the same way. Stop with Ctrl-C; stop the database with 'make db-stop'."; echo
	@export DATABASE_URL=$${DATABASE_URL:-$$(scripts/db.sh url)} TATIB_ALLOW_LOCAL_SOURCES=$${TATIB_ALLOW_LOCAL_SOURCES:-1}; exec $(BIN)/tatib-server serve

dev: frontend-deps build
	@if [ -z "$${DATABASE_URL:-}" ]; then scripts/db.sh start; fi
	@export DATABASE_URL=$${DATABASE_URL:-$$(scripts/db.sh url)} TATIB_ALLOW_LOCAL_SOURCES=$${TATIB_ALLOW_LOCAL_SOURCES:-1}; \
	 $(BIN)/tatib-server serve & trap "kill $$!" EXIT; cd frontend && npm run dev

## Tests --------------------------------------------------------------------

vet:
	@for m in $(GO_MODULES); do (cd $$m && go vet ./...); done
	@cd desktop && CGO_ENABLED=0 go vet ./...
	@test -z "$$(gofmt -l $(GO_MODULES) desktop main.go)" || { echo "gofmt needed:"; gofmt -l $(GO_MODULES) desktop main.go; exit 1; }

# Fails when the committed generated files differ from what make gen writes now.
test-gen: gen
	@if [ -n "$$(git status --porcelain -- $(GEN_FILES))" ]; then \
	  git --no-pager diff --stat -- $(GEN_FILES); git status --short -- $(GEN_FILES); \
	  echo "make test: the generated files are stale: run make gen and commit them"; exit 1; fi

# Tests run against the private cluster unless TATIB_TEST_DATABASE_URL is set;
# each test gets its own database cloned from a migrated template. Everything runs under the
# race detector, then the heap measurements again without it (instrumented they take a minute).
# go test's own vet pass is off: make vet has just run every analyzer over the same code.
test-go: vet
	@if [ -z "$${TATIB_TEST_DATABASE_URL:-}" ]; then scripts/db.sh start; fi
	@export TATIB_TEST_DATABASE_URL=$${TATIB_TEST_DATABASE_URL:-$$(scripts/db.sh url postgres)}; \
	 for m in $(GO_MODULES); do (cd $$m && TZ=UTC go test -race -vet=off -count=1 ./...) || exit 1; done; \
	 cd server && TZ=UTC go test -vet=off -count=1 -run 'PeakMemory' ./internal/violationtype/

# The OpenAPI document as the server serves it, linted by Redocly (redocly.yaml; problems kept on
# purpose are listed one by one in .redocly.lint-ignore.yaml). The other checks of the document
# are Go tests: every API test's answer against its schema (apitest), and a Go client generated
# by oapi-codegen that must compile (TestOpenAPIGoClient, tools/openapi-client).
test-openapi: frontend-deps
	mkdir -p $(BIN)
	go run ./server/cmd/tatib-server openapi > $(BIN)/openapi.json
	REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true frontend/node_modules/.bin/redocly lint bin/openapi.json

test-frontend: frontend-deps
	cd frontend && npm run lint && TZ=UTC npm run test --if-present

# The sign-in page's download stays under its budget (250 kB gzipped), and every Mantine
# component it shows has its styles in that first download.
test-size: frontend
	cd frontend && node scripts/bundle-size.mjs --check

test-e2e: build
	@if [ -z "$${TATIB_TEST_DATABASE_URL:-}" ]; then scripts/db.sh start; fi
	@export TATIB_TEST_DATABASE_URL=$${TATIB_TEST_DATABASE_URL:-$$(scripts/db.sh url postgres)}; \
	 cd frontend && TZ=UTC E2E_WORKERS=$${E2E_WORKERS:-2} TATIB_SERVER_BIN=$(BIN)/tatib-server npm run e2e --if-present

# The import parser's fuzz test beyond its seed corpus, briefly; run it
# longer by hand with FUZZTIME=10m make test-fuzz.
FUZZTIME ?= 10s
test-fuzz:
	cd server && go test -run '^$$' -fuzz=FuzzParseImport -fuzztime=$(FUZZTIME) ./internal/violationtype/

# Installs what the tests need on a fresh Debian machine when run as root, or stops with the
# exact apt-get command (scripts/test-deps.sh).
test-deps:
	@scripts/test-deps.sh

# Each stage in order, with the time each took printed at the end.
test:
	@MAKE="$(MAKE)" scripts/test-stages.sh test-deps test-gen test-go test-openapi test-fuzz test-frontend test-size test-e2e test-desktop

## Desktop ------------------------------------------------------------------

# The desktop app embeds the same front-end build as the server (go:embed
# cannot reach outside desktop/, so it gets a copy). Plain go build, no CLI. The app reads
# its files from its own binary, so the precompressed copies (.gz, .br) stay out.
desktop: frontend
	find desktop/frontend-dist -mindepth 1 ! -name .keep -delete
	cp -r frontend/dist/. desktop/frontend-dist/
	find desktop/frontend-dist \( -name '*.gz' -o -name '*.br' \) -delete
	rm -rf desktop/frontend-dist/.vite
	mkdir -p $(BIN)
	cd desktop && go build -tags desktop,production,webkit2_41 \
	  -ldflags "-w -s -X main.version=$$(git describe --always --dirty 2>/dev/null || echo dev)" -o $(BIN)/tatib-desktop .

# Unit tests without Wails (CGO off, no tags), then the smoke test: the real
# app against the real server under Xvfb, with an OS notification on D-Bus.
test-desktop: build desktop
	cd desktop && CGO_ENABLED=0 TZ=UTC go test -count=1 ./...
	@if [ -z "$${TATIB_TEST_DATABASE_URL:-}" ]; then scripts/db.sh start; fi
	@export TATIB_TEST_DATABASE_URL=$${TATIB_TEST_DATABASE_URL:-$$(scripts/db.sh url postgres)}; \
	 scripts/desktop-smoke.sh

# Go benchmarks (attendancebench generates a school year of 3 million attendance rows first:
# about a minute on 2 cores), then the first load in the browser: sizes per file of the sign-in
# page and a homeroom teacher's first screen, and the time to first screen on slow 4G and 3G;
# then the gate kiosk (Face-ID) with a fake camera: face in view → answer and its parts.
bench: build
	@if [ -z "$${TATIB_TEST_DATABASE_URL:-}" ]; then scripts/db.sh start; fi
	@export TATIB_TEST_DATABASE_URL=$${TATIB_TEST_DATABASE_URL:-$$(scripts/db.sh url postgres)}; \
	 (cd server && TZ=UTC go test -p 1 -run '^$$' -bench . -benchmem ./...) && \
	 cd frontend && TZ=UTC TATIB_SERVER_BIN=$(BIN)/tatib-server node e2e/bench-load.mjs && \
	 TZ=UTC TATIB_SERVER_BIN=$(BIN)/tatib-server node e2e/bench-kiosk.mjs

clean:
	rm -rf $(BIN) frontend/dist
	find $(WEB_DIST) -mindepth 1 ! -name .keep -delete
