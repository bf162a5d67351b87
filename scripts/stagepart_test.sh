#!/usr/bin/env bash
# Test for scripts/stagepart.sh and the stage table of scripts/testsummary.py
# (make test's stage whose parts run at once): a part's lines say whose
# they are, its status is the command's, its start and end are noted; a
# SIGTERM reaches the part's whole process group and the part waits for
# the group's cleanup; the table gives each part its own seconds under its
# stage, whatever overlaps. Runs in a temporary directory, in a second.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TESTLOG=$tmp/log
mkdir -p "$TESTLOG"

fails=0
pass() { printf 'ok   %s\n' "$*"; }
fail() { printf 'FAIL %s\n' "$*"; fails=$((fails + 1)); }
check() {  # check DESCRIPTION COMMAND...
	local d=$1; shift
	if "$@"; then pass "$d"; else fail "$d"; fi
}

# 1. A part that passes and one that fails, run at once.
"$here/stagepart.sh" one "the first part" sh -c 'echo a; echo b >&2' >"$tmp/one.out" &
p1=$!
"$here/stagepart.sh" two "the second part" sh -c 'echo c; exit 3' >"$tmp/two.out" &
p2=$!
wait $p1; rc1=$?
wait $p2; rc2=$?
check "a passing part exits 0" test "$rc1" -eq 0
check "a failing part exits with its command's status" test "$rc2" -eq 3
check "stdout and stderr prefixed with the tag" test "$(sort "$tmp/one.out" | tr '\n' ' ')" = "one| a one| b "
check "the start noted" grep -qx '[0-9]* & the second part' "$TESTLOG/stages"
check "the end noted with the status" grep -qx '[0-9]* &end 3 the second part' "$TESTLOG/stages"

# 2. SIGTERM to make test's whole process group (the part among it): the
# command's group is stopped, and its cleanup (a trap, as make faults
# brings its servers down) runs and is heard to its last line before the
# part ends.
rm -f "$TESTLOG/stages"
cat >"$tmp/cleanup.sh" <<EOF
trap 'sleep 0.3; echo cleaned; echo cleaned >"$tmp/cleaned"; exit 143' TERM
sleep 30 & wait
EOF
# setsid: a process group of the test's own, standing for make test's.
setsid "$here/stagepart.sh" term "a stopped part" sh "$tmp/cleanup.sh" >"$tmp/term.out" &
p=$!
sleep 0.5
start=$SECONDS
kill -TERM -- -$p
wait $p; rc=$?
check "a stopped part fails" test "$rc" -ne 0
check "its cleanup ran before it ended" test -f "$tmp/cleaned"
check "its cleanup's output was heard" grep -qx 'term| cleaned' "$tmp/term.out"
check "the sleep in its group was stopped too" test $((SECONDS - start)) -lt 10
check "its end is noted" grep -qx '[0-9]* &end 143 a stopped part' "$TESTLOG/stages"

# 3. The table: a stage whose parts overlap each other and the next stage.
cat >"$TESTLOG/stages" <<'EOF'
1000 1/3 first
1010 2/3 three at once
1010 & part a
1011 & part b
1012 & part c
1300 &end 0 part b
1400 &end 1 part a
1400 3/3 last
1405 &end 0 part c
1450 done
EOF
python3 "$here/testsummary.py" report "$TESTLOG" >"$tmp/table"
want='where the time went (seconds per stage):
      10  1/3 first
     390  2/3 three at once
     390      part a (failed, status 1)
     289      part b
     393      part c
      50  3/3 last
     450  in all'
check "the table gives each part its seconds" test "$(cat "$tmp/table")" = "$want"
# Stopped part way: what has not ended ran until now.
printf '%s 1/1 only\n%s & part\n' $(( $(date +%s) - 20 )) $(( $(date +%s) - 10 )) >"$TESTLOG/stages"
python3 "$here/testsummary.py" report "$TESTLOG" >"$tmp/table"
check "an unfinished part said so" grep -Eq '^ +1[01]      part \(did not end\)$' "$tmp/table"
check "an unfinished stage runs until now" grep -Eq '^ +(20|21)  1/1 only$' "$tmp/table"

# 4. A failed test's last lines come after the table: a CI log may keep only its tail.
cat >"$TESTLOG/faults.json" <<'EOF'
{"Action":"output","Package":"github.com/dbmeter/dbmeter/internal/ch/insert","Test":"TestOutage/seasclick","Output":"    outage_test.go:99: no interval after the restart\n"}
{"Action":"fail","Package":"github.com/dbmeter/dbmeter/internal/ch/insert","Test":"TestOutage/seasclick","Elapsed":9}
{"Action":"output","Package":"github.com/dbmeter/dbmeter/internal/ch/insert","Test":"TestOk","Output":"    fine\n"}
{"Action":"pass","Package":"github.com/dbmeter/dbmeter/internal/ch/insert","Test":"TestOk","Elapsed":1}
EOF
python3 "$here/testsummary.py" report "$TESTLOG" >"$tmp/table"
check "a failed subtest is named with its stage" grep -qx '  --- internal/ch/insert TestOutage/seasclick  (faults)' "$tmp/table"
check "with what it printed" grep -q 'outage_test.go:99: no interval after the restart' "$tmp/table"
check "a test that passed prints nothing of its own" sh -c "! grep -q fine '$tmp/table'"

# 5. A test that fails once passes when run again alone (GOTEST_RERUN=1), and
# the status is the re-run's; one that always fails still fails.
mod=$tmp/mod
mkdir -p "$mod/flaky"
printf 'module github.com/dbmeter/dbmeter\n\ngo 1.22\n' >"$mod/go.mod"
cat >"$mod/flaky/flaky_test.go" <<'EOF'
package flaky

import (
	"os"
	"testing"
)

func TestSteady(t *testing.T) {}

func TestFlaky(t *testing.T) {
	t.Run("once", func(t *testing.T) {
		if _, err := os.Stat("failed-once"); err != nil {
			os.WriteFile("failed-once", nil, 0o644)
			t.Fatal("the first time")
		}
	})
}

func TestBroken(t *testing.T) {
	if os.Getenv("BROKEN") == "1" {
		t.Fatal("every time")
	}
}
EOF
(cd "$mod" && GOTEST_RERUN=1 GOFLAGS=-mod=mod "$here/gotest-json.sh" "$TESTLOG/flaky.json" -count=1 ./... >"$tmp/rerun.out" 2>&1)
check "a test that failed once and passed alone passes the stage" test $? -eq 0
check "it was run again alone" grep -q '\^TestFlaky\$/\^once\$ failed; running it once more' "$tmp/rerun.out"
python3 "$here/testsummary.py" report "$TESTLOG" >"$tmp/table"
check "the summary still lists its first failure, passed again" grep -q -- '--- flaky TestFlaky/once  (flaky; passed when run again alone)' "$tmp/table"
(cd "$mod" && rm -f failed-once && BROKEN=1 GOTEST_RERUN=1 GOFLAGS=-mod=mod "$here/gotest-json.sh" "$TESTLOG/broken.json" -count=1 -run 'TestBroken|TestSteady' ./... >"$tmp/broken.out" 2>&1)
check "a test that fails every time fails the stage" test $? -ne 0
check "only the failed test was run again" sh -c "! grep -q 'TestSteady.*failed' '$tmp/broken.out'"
rm -f "$TESTLOG"/flaky*.json "$TESTLOG"/broken*.json

if ((fails)); then
	echo "--- the last table:"
	cat "$tmp/table"
	echo "$fails check(s) failed"
	exit 1
fi
echo "all checks passed"
