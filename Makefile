# dbmeter's build and test entry points. `make test` is what CI runs.
GO        ?= go
TAGS      ?= rocksdb
FUZZTIME  ?= 5s
SERVICES  := scripts/dev-services.sh

.PHONY: build check test unit machine-load services services-down bench fuzz faults race kv scripts-test

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

# The edit-test loop: the unit tier (no server, no network, nothing that
# runs for seconds; docs/development.md, "Test tiers"), internal/lint's
# rules among it, and go vet. DBMETER_E2E=0 keeps servers named by a
# developer's `eval "$(scripts/dev-services.sh env)"` out of it. go test
# caches each package's result: an unchanged re-run takes seconds.
check:
	$(GO) vet ./...
	DBMETER_E2E=0 $(GO) test ./...

# The unit tier alone (make check without vet).
unit:
	DBMETER_E2E=0 $(GO) test ./...

# The whole suite on a fresh machine, both tiers: Debian packages,
# throwaway PostgreSQL and ClickHouse servers on loopback, every test
# against them with the rocksdb engine built in, the outage tests, the
# machine-load test on its own, the concurrent core under the race
# detector and a short run of every fuzz target. The servers are stopped
# at the end whatever happens.
# Stage 3 runs three go tests at once, as parts (scripts/stagepart.sh;
# each line they print starts with whose it is): the whole tree but
# TestQuickStudies; TestQuickStudies, whose five studies run minutes and
# mostly wait (on fsync under the hdd storage profile, on windows of
# fixed length); and make faults, on servers of its own, which mostly
# waits for outages and restarts. One after another (go test ./... with
# TestQuickStudies in it, then make faults) they took 791-812 s and
# 335-342 s on 2 quiet cores. A failing part fails the stage once the
# others have ended too.
# Each stage prints a line when it starts, and the long ones say every
# minute that they are still running. At the end (pass or fail) it prints
# each stage's seconds, each part's under its stage, and the 10 slowest
# tests (scripts/testsummary.py, from the go test -json logs it keeps in
# TESTLOG).
# make test's servers are its own (a state file per invocation): a
# developer's `scripts/dev-services.sh up` in the same checkout meanwhile
# starts another pair, and make test's closing `down` stops only its own.
# go test caches only what reads no server: a test that reads a server's
# DSN (new ports and password on every `up`) runs every time.
QUICK_TESTS := ^TestQuickStudies$$
# go test runs packages in the order it is given them, two at a time (-p,
# the cores): the longest first, so that none of them starts late and runs
# on alone (internal/cli, minutes, came fifteenth).
LONG_FIRST := ./internal/cli ./internal/ch/insert ./cmd/dbmeter ./internal/sysinfo
test: export DBMETER_SERVICES_STATE := /tmp/dbmeter-make-test.$(shell echo $$PPID).state
test: export TESTLOG := $(or $(TESTLOG),/tmp/dbmeter-make-test-log.$(shell echo $$PPID))
# A go test stage runs a test that failed once more, alone, and passes if
# it then passes (scripts/gotest-json.sh); the summary still lists the
# first failure.
test: export GOTEST_RERUN := 1
test:
	@rm -rf "$$TESTLOG" && mkdir -p "$$TESTLOG"
	@$(call stage,1/7 Debian packages for the build and the tests: scripts/deps.sh test)
	scripts/deps.sh test
	@$(call stage,2/7 PostgreSQL 15 and ClickHouse 18.16 on loopback: $(SERVICES) up)
	$(SERVICES) up
	@set -e; parts=; trap '$(CLEANUP)' EXIT; trap 'exit 130' INT; trap 'exit 143' TERM HUP; \
	  eval "$$($(SERVICES) env)"; \
	  $(call stage,3/7 both tiers against them and the outage tests on servers of their own: three go tests at once (the longest stage; a package prints ok when it ends)); \
	  $(call part,faults,make faults: ClickHouse outage tests on servers of their own,$(MAKE) --no-print-directory faults); \
	  $(call part,quick,TestQuickStudies: every built-in study's quick form,env DBMETER_E2E=1 GO='$(GO)' scripts/gotest-json.sh $$TESTLOG/quick-studies.json -tags '$(TAGS)' -timeout 40m -run '$(QUICK_TESTS)' ./internal/cli); \
	  $(call part,e2e,DBMETER_E2E=1 go test ./... but TestQuickStudies,env DBMETER_E2E=1 GO='$(GO)' scripts/gotest-json.sh $$TESTLOG/e2e.json -tags '$(TAGS)' -timeout 40m -skip '$(QUICK_TESTS)' $(LONG_FIRST) ./...); \
	  $(call ticking,$(JOIN_PARTS)); \
	  $(call stage,4/7 the machine-load tests alone: make machine-load); \
	  $(MAKE) --no-print-directory machine-load; \
	  $(call stage,5/7 the concurrent core under the race detector: make race); \
	  $(call ticking,$(MAKE) --no-print-directory race); \
	  $(call stage,6/7 every fuzz target for $(FUZZTIME): make fuzz); \
	  $(MAKE) --no-print-directory fuzz; \
	  $(call stage,7/7 the scripts' own tests: make scripts-test); \
	  $(MAKE) --no-print-directory scripts-test; \
	  $(call stage,done)

# stage prints a stage's line with the time since make test began (and
# notes when it began in TESTLOG/stages, for the summary); ticking runs a
# command and, while it runs, prints a line a minute (a failing command
# ends the recipe through set -e, and the trap stops both).
# part starts a part of a stage in the background (TAG, NAME, COMMAND) and
# JOIN_PARTS waits for every part started, failing when one failed; when
# the recipe ends early (a failure, ^C) CLEANUP stops the parts still
# running (stagepart.sh passes the SIGTERM to their process groups and
# waits for them: make faults brings its servers down) before the servers.
# set -e holds inside a trap in dash (make's sh), and a signal that comes
# while the trap waits (make passes its SIGTERM on to the recipe, which
# had one already) ends a wait early: CLEANUP ignores both, so that
# nothing stops it before it brings the servers down.
TEST_T0 := $(shell date +%s)
stage = echo "make test: $(1) [$$(( $$(date +%s) - $(TEST_T0) ))s]" >&2; \
	  if [ -n "$$TESTLOG" ]; then echo "$$(date +%s) $(1)" >>"$$TESTLOG/stages"; fi
ticking = { ( while sleep 60; do echo "make test: ... still running [$$(( $$(date +%s) - $(TEST_T0) ))s]" >&2; done ) & tick=$$!; \
	  trap 'kill $$tick 2>/dev/null || :; $(CLEANUP)' EXIT; $(1); kill $$tick; trap '$(CLEANUP)' EXIT; }
part = scripts/stagepart.sh $(1) "$(2)" $(3) & parts="$$parts $$!"
JOIN_PARTS = failed=; for p in $$parts; do wait $$p || failed=1; done; parts=; [ -z "$$failed" ]
CLEANUP = trap "" INT TERM HUP; set +e; for p in $$parts; do kill -TERM $$p 2>/dev/null; done; wait; $(SERVICES) down; $(SUMMARY)
SUMMARY = python3 scripts/testsummary.py report "$$TESTLOG" >&2 || :

# The machine-load tests start busy loops on every core (study compare on
# a run beside them; the machine monitor and reference naming them): they
# run alone, never beside other tests, and go test ./... skips them
# (servertest.Alone; DBMETER_ALONE unset). A test gated so is named here.
ALONE_TESTS := ^(TestStudyCompareMachine|TestMonitorCountsHogs|TestReferenceShowsAHog)$$
machine-load:
	DBMETER_ALONE=1 $(if $(TESTLOG),GO='$(GO)' scripts/gotest-json.sh $(TESTLOG)/machine-load.json,$(GO) test) -p 1 -count=1 -run '$(ALONE_TESTS)' ./internal/cli ./internal/sysinfo

# The load engine, its histograms and where runs go are concurrent by
# design: their tests also run under the race detector.
race:
	$(if $(TESTLOG),GO='$(GO)' scripts/gotest-json.sh $(TESTLOG)/race.json,$(GO) test) -race ./internal/load ./internal/hist ./internal/sink ./internal/plan

services:
	$(SERVICES) up
	$(SERVICES) env

services-down:
	$(SERVICES) down

bench:
	$(GO) test -tags '$(TAGS)' -run '^$$' -bench . -benchmem ./...

# The ClickHouse outage tests of every client path (stop and SIGKILL of the
# server mid-run) need a server of their own, so that stopping it disturbs
# no other test: they get a private pair of servers, removed afterwards,
# also when the run is stopped (make test stops its parts with SIGTERM,
# and dash runs no EXIT trap on a signal it does not trap).
faults:
	@state=$$(mktemp -u /tmp/dbmeter-faults.XXXXXX); \
	  trap 'trap "" INT TERM HUP; DBMETER_SERVICES_STATE=$$state $(SERVICES) down' EXIT; trap 'exit 130' INT; trap 'exit 143' TERM HUP; \
	  DBMETER_SERVICES_STATE=$$state $(SERVICES) up && \
	  eval "$$(DBMETER_SERVICES_STATE=$$state $(SERVICES) env)" && \
	  DBMETER_FAULT=1 DBMETER_E2E=1 DBMETER_SERVICES_STATE=$$state \
	    $(if $(TESTLOG),GO='$(GO)' scripts/gotest-json.sh $(TESTLOG)/faults.json,$(GO) test) -p 1 -tags '$(TAGS)' -count=1 -timeout 20m -run '^TestOutage' ./internal/ch/insert ./internal/ch/query/clients

# Each fuzz target for FUZZTIME. On a failure scripts/fuzz.sh prints go
# test's output, the crasher it kept under the package's testdata/fuzz/ and
# whether that input fails again on replay.
fuzz:
	@GO='$(GO)' scripts/fuzz.sh '$(FUZZTIME)'

# The scripts make test stands on have tests of their own: dev-services
# (up, env, stale state, down) on a state file of its own, the fuzz stage
# on a throwaway module, and the parts of a stage that run at once with
# the table of where the time went. About 20 s together.
scripts-test:
	bash scripts/dev-services_test.sh
	GO='$(GO)' bash scripts/fuzz_test.sh
	bash scripts/stagepart_test.sh

# The main job: the embedded K/V engine matrix, rocksdb included, from the
# stamped binary so that the result names its commit. More flags:
# make kv KVFLAGS='--fsync both --json kv.json'
kv: build
	bin/dbmeter kv $(KVFLAGS)
