#!/usr/bin/env python3
"""Reads `go test -json` and says where the time went.

  testsummary.py stream LOG   reads go test -json on stdin, saves it to LOG and
                              prints what plain `go test` prints: a line per
                              package, and the output of a test that fails
                              (of every test with TESTSUMMARY_VERBOSE=1);
                              exits 1 when a package or a test failed.
  testsummary.py report DIR   prints each stage's seconds from DIR/stages (a
                              line "EPOCH NAME" as each stage starts, "EPOCH
                              done" at the end) and the 10 slowest tests of
                              every DIR/*.json, with their package.

make test writes both (its TESTLOG directory) and calls report at the end.
"""
import glob
import json
import os
import sys
import time


def stream(log_path):
    verbose = os.environ.get("TESTSUMMARY_VERBOSE") == "1"
    pending = {}  # (package, test) -> output lines held until it ends
    failed = False
    with open(log_path, "w") as log:
        for line in sys.stdin:
            log.write(line)
            try:
                ev = json.loads(line)
            except ValueError:
                # go test prints build errors as text before -json starts.
                sys.stdout.write(line)
                continue
            action, test = ev.get("Action"), ev.get("Test")
            key = (ev.get("Package", ""), test)
            if action == "output":
                text = ev.get("Output", "")
                if (test is None and text != "PASS\n") or verbose:
                    sys.stdout.write(text)
                else:
                    pending.setdefault(key, []).append(text)
            elif action == "build-output":
                sys.stdout.write(ev.get("Output", ""))
            elif action in ("pass", "skip", "fail") and test is not None:
                held = pending.pop(key, [])
                if action == "fail":
                    failed = True
                    sys.stdout.write("".join(held))
            elif action == "fail":
                failed = True
            sys.stdout.flush()
    return 1 if failed else 0


def slowest(paths, n=10):
    tests = []
    for path in paths:
        with open(path) as f:
            for line in f:
                try:
                    ev = json.loads(line)
                except ValueError:
                    continue
                test = ev.get("Test")
                # Top-level tests only: a subtest's time is in its parent's.
                if ev.get("Action") in ("pass", "fail") and test and "/" not in test:
                    pkg = ev.get("Package", "").removeprefix("github.com/dbmeter/dbmeter/")
                    stage = os.path.basename(path).removesuffix(".json")
                    tests.append((ev.get("Elapsed", 0.0), pkg, test, stage))
    tests.sort(reverse=True)
    return tests[:n]


def report(log_dir):
    stages = []
    try:
        with open(os.path.join(log_dir, "stages")) as f:
            for line in f:
                epoch, _, name = line.rstrip("\n").partition(" ")
                stages.append((int(epoch), name))
    except FileNotFoundError:
        pass
    if stages and stages[-1][1] != "done":
        # make test stopped part way: the last stage ran until now.
        stages.append((int(time.time()), "done"))
    if stages:
        print("where the time went (seconds per stage):")
        for (t0, name), (t1, _) in zip(stages, stages[1:]):
            print(f"  {t1 - t0:6d}  {name}")
        print(f"  {stages[-1][0] - stages[0][0]:6d}  in all")
    top = slowest(sorted(glob.glob(os.path.join(log_dir, "*.json"))))
    if top:
        print("the 10 slowest tests:")
        for elapsed, pkg, test, stage in top:
            print(f"  {elapsed:8.1f}s  {pkg} {test}  ({stage})")
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == "stream":
        return stream(argv[2])
    if len(argv) == 3 and argv[1] == "report":
        return report(argv[2])
    sys.stderr.write("usage: testsummary.py stream LOG < go-test-json | testsummary.py report DIR\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
