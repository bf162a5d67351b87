# dbmeter's build and test entry points. `make test` is what CI runs.
GO        ?= go
TAGS      ?= rocksdb
FUZZTIME  ?= 5s
SERVICES  := scripts/dev-services.sh

.PHONY: build test unit services services-down bench fuzz kv

build:
	scripts/deps.sh
	$(GO) build -tags '$(TAGS)' -o bin/dbmeter ./cmd/dbmeter

# The whole suite on a fresh machine: Debian packages, throwaway PostgreSQL
# and ClickHouse servers on loopback, every test against them with the
# rocksdb engine built in, and a short run of every fuzz target. The
# servers are stopped at the end whatever happens.
test:
	scripts/deps.sh
	$(SERVICES) up
	set -e; trap '$(SERVICES) down' EXIT; eval "$$($(SERVICES) env)"; \
	  DBMETER_E2E=1 $(GO) test -tags '$(TAGS)' -count=1 -timeout 40m ./... ; \
	  $(MAKE) --no-print-directory fuzz

# Unit tests only: no servers, no cgo engines.
unit:
	$(GO) test -count=1 ./...

services:
	$(SERVICES) up
	$(SERVICES) env

services-down:
	$(SERVICES) down

bench:
	$(GO) test -tags '$(TAGS)' -run '^$$' -bench . -benchmem ./...

# Each fuzz target for FUZZTIME. On a failure scripts/fuzz.sh prints go
# test's output, the crasher it kept under the package's testdata/fuzz/ and
# whether that input fails again on replay.
fuzz:
	@GO='$(GO)' scripts/fuzz.sh '$(FUZZTIME)'

# The main job: the embedded K/V engine matrix, rocksdb included.
kv:
	scripts/deps.sh
	$(GO) run -tags '$(TAGS)' ./cmd/dbmeter kv
