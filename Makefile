# dbmeter's build and test entry points. `make test` is what CI runs.
GO        ?= go
TAGS      ?= rocksdb
FUZZTIME  ?= 5s
SERVICES  := scripts/dev-services.sh

.PHONY: build test unit services services-down bench fuzz faults race kv scripts-test

# The binary records which commit it was built from, and -dirty when the
# checkout had uncommitted changes (`dbmeter version`, every result's
# "tool"): Go stamps both when -buildvcs=true, which overrides a
# GOFLAGS=-buildvcs=false in the environment. Go finds the repository only
# where .git is a directory: in a linked git worktree (.git is a file) it
# finds none, or an enclosing checkout's commit (golang/go#58218), so
# there nothing is stamped, the binary says "devel", and the build says so.
GIT_DIR    := $(shell git rev-parse --path-format=absolute --git-dir 2>/dev/null)
GIT_COMMON := $(shell git rev-parse --path-format=absolute --git-common-dir 2>/dev/null)
BUILDVCS   := $(if $(filter-out $(GIT_COMMON),$(GIT_DIR)),false,true)

build:
	scripts/deps.sh
	@[ $(BUILDVCS) = true ] || echo "build: $(CURDIR) is a linked git worktree: Go cannot stamp the commit here (golang/go#58218), bin/dbmeter will say devel; build in a clone for a stamped binary" >&2
	$(GO) build -buildvcs=$(BUILDVCS) -tags '$(TAGS)' -o bin/dbmeter ./cmd/dbmeter

# The whole suite on a fresh machine: Debian packages, throwaway PostgreSQL
# and ClickHouse servers on loopback, every test against them with the
# rocksdb engine built in, the concurrent core under the race detector, and
# a short run of every fuzz target. The servers are stopped at the end
# whatever happens.
# Each stage prints a line when it starts, and the long ones say every
# minute that they are still running.
# make test's servers are its own (a state file per invocation): a
# developer's `scripts/dev-services.sh up` in the same checkout meanwhile
# starts another pair, and make test's closing `down` stops only its own.
test: export DBMETER_SERVICES_STATE := /tmp/dbmeter-make-test.$(shell echo $$PPID).state
test:
	@$(call stage,1/7 Debian packages for the build and the tests: scripts/deps.sh test)
	scripts/deps.sh test
	@$(call stage,2/7 PostgreSQL 15 and ClickHouse 18.16 on loopback: $(SERVICES) up)
	$(SERVICES) up
	@set -e; trap '$(SERVICES) down' EXIT; eval "$$($(SERVICES) env)"; \
	  $(call stage,3/7 every package against them: go test ./... (the longest stage; a package prints ok when it ends)); \
	  $(call ticking,DBMETER_E2E=1 $(GO) test -tags '$(TAGS)' -count=1 -timeout 40m ./...); \
	  $(call stage,4/7 the concurrent core under the race detector: make race); \
	  $(call ticking,$(MAKE) --no-print-directory race); \
	  $(call stage,5/7 ClickHouse outage tests on servers of their own: make faults); \
	  $(call ticking,$(MAKE) --no-print-directory faults); \
	  $(call stage,6/7 every fuzz target for $(FUZZTIME): make fuzz); \
	  $(MAKE) --no-print-directory fuzz; \
	  $(call stage,7/7 the scripts' own tests: make scripts-test); \
	  $(MAKE) --no-print-directory scripts-test; \
	  $(call stage,done)

# stage prints a stage's line with the time since make test began;
# ticking runs a command and, while it runs, prints a line a minute (a
# failing command ends the recipe through set -e, and the trap stops both).
# set -e holds inside a trap in dash (make's sh): a kill of a ticker that
# is already gone must not stop the trap before it brings the servers down.
TEST_T0 := $(shell date +%s)
stage = echo "make test: $(1) [$$(( $$(date +%s) - $(TEST_T0) ))s]" >&2
ticking = { ( while sleep 60; do echo "make test: ... still running [$$(( $$(date +%s) - $(TEST_T0) ))s]" >&2; done ) & tick=$$!; \
	  trap 'kill $$tick 2>/dev/null || :; $(SERVICES) down' EXIT; $(1); kill $$tick; trap '$(SERVICES) down' EXIT; }

# The load engine, its histograms and where runs go are concurrent by
# design: their tests also run under the race detector.
race:
	$(GO) test -race -count=1 ./internal/load ./internal/hist ./internal/sink ./internal/plan

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

# The ClickHouse outage tests of every client path (stop and SIGKILL of the
# server mid-run) need a server of their own, so that stopping it disturbs
# no other test: they get a private pair of servers, removed afterwards.
faults:
	@state=$$(mktemp -u /tmp/dbmeter-faults.XXXXXX); \
	  trap 'DBMETER_SERVICES_STATE=$$state $(SERVICES) down' EXIT; \
	  DBMETER_SERVICES_STATE=$$state $(SERVICES) up && \
	  eval "$$(DBMETER_SERVICES_STATE=$$state $(SERVICES) env)" && \
	  DBMETER_FAULT=1 DBMETER_E2E=1 DBMETER_SERVICES_STATE=$$state \
	    $(GO) test -p 1 -tags '$(TAGS)' -count=1 -timeout 20m -run '^TestOutage' ./internal/ch/insert ./internal/ch/query/clients

# Each fuzz target for FUZZTIME. On a failure scripts/fuzz.sh prints go
# test's output, the crasher it kept under the package's testdata/fuzz/ and
# whether that input fails again on replay.
fuzz:
	@GO='$(GO)' scripts/fuzz.sh '$(FUZZTIME)'

# The scripts make test stands on have tests of their own: dev-services
# (up, env, stale state, down) on a state file of its own, and the fuzz
# stage on a throwaway module. About 20 s together.
scripts-test:
	bash scripts/dev-services_test.sh
	GO='$(GO)' bash scripts/fuzz_test.sh

# The main job: the embedded K/V engine matrix, rocksdb included, from the
# stamped binary so that the result names its commit. More flags:
# make kv KVFLAGS='--fsync both --json kv.json'
kv: build
	bin/dbmeter kv $(KVFLAGS)
