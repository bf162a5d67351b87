#!/usr/bin/env python3
"""Reads `go test -json` and says where the time went.

  testsummary.py stream LOG   reads go test -json on stdin, saves it to LOG and
                              prints what plain `go test` prints: a line per
                              package, and the output of a test that fails
                              (of every test with TESTSUMMARY_VERBOSE=1);
                              exits 1 when a package or a test failed.
  testsummary.py failed LOG   prints, for each test of LOG that failed and
                              has no failed subtest, its package and a -run
                              pattern that matches it alone (for a re-run).
  testsummary.py report DIR   prints each stage's seconds from DIR/stages (a
                              line "EPOCH NAME" as each stage starts, "EPOCH
                              done" at the end; a stage whose parts run at
                              once also has "EPOCH & NAME" as a part starts
                              and "EPOCH &end STATUS NAME" as it ends,
                              scripts/stagepart.sh), the 10 slowest tests
                              of every DIR/*.json, with their package, and
                              every test that failed with the last lines it
                              printed (a CI log may keep only its tail).

make test writes both (its TESTLOG directory) and calls report at the end.
"""
import glob
import json
import os
import re
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


def short(pkg):
    """A package as the tables name it: its path in the module."""
    return pkg.removeprefix("github.com/dbmeter/dbmeter/")


def events(path):
    """The go test -json events of the log at path (a line that is not one,
    such as a build error printed as text, is skipped)."""
    with open(path) as f:
        for line in f:
            try:
                yield json.loads(line)
            except ValueError:
                continue


def slowest(paths, n=10):
    tests = []
    for path in paths:
        stage = os.path.basename(path).removesuffix(".json")
        for ev in events(path):
            test = ev.get("Test")
            # Top-level tests only: a subtest's time is in its parent's.
            if ev.get("Action") in ("pass", "fail") and test and "/" not in test:
                tests.append((ev.get("Elapsed", 0.0), short(ev.get("Package", "")), test, stage))
    tests.sort(reverse=True)
    return tests[:n]


def failures(paths, lines=20):
    """Every test that failed, in the order they failed (a subtest, which
    says why, before its parent), each (stage, package, test, its last
    output lines)."""
    out = []
    for path in paths:
        stage = os.path.basename(path).removesuffix(".json")
        printed = {}
        for ev in events(path):
            key = (ev.get("Package", ""), ev.get("Test"))
            if ev.get("Action") == "output":
                printed.setdefault(key, []).append(ev.get("Output", ""))
            elif ev.get("Action") == "fail":
                pkg, test = key
                out.append((stage, pkg, test or "(package)", printed.get(key, [])[-lines:] if lines else []))
    return out


def rerun_passes(paths):
    """The (package, test) pairs that passed in the re-run logs: the failed
    test re-run, and its subtests."""
    return {(ev.get("Package", ""), ev["Test"]) for path in paths for ev in events(path)
            if ev.get("Action") == "pass" and ev.get("Test")}


def failed_leaves(path):
    """(package, -run pattern) of each failed test without a failed subtest."""
    failed = [(pkg, test) for _, pkg, test, _ in failures([path], 0) if test != "(package)"]
    names = {t for _, t in failed}
    out = []
    for pkg, test in failed:
        if any(n.startswith(test + "/") for n in names):
            continue
        pattern = "/".join("^" + re.escape(part) + "$" for part in test.split("/"))
        out.append((pkg, pattern))
    return out


def read_stages(path):
    """The stages in the order they started, each (start, end, name, parts),
    a part (start, end, name, status); end is None for a part that never
    said it ended (status None), and a stage ends where the next begins."""
    stages, open_parts = [], {}
    try:
        with open(path) as f:
            lines = [line.rstrip("\n").partition(" ")[::2] for line in f]
    except FileNotFoundError:
        return []
    for epoch, rest in lines:
        t = int(epoch)
        if rest.startswith("& "):
            part = [t, None, rest[2:], None]
            open_parts[part[2]] = part
            if stages:
                stages[-1][3].append(part)
        elif rest.startswith("&end "):
            status, _, name = rest[5:].partition(" ")
            part = open_parts.pop(name, None)
            if part is not None:
                part[1], part[3] = t, int(status)
        else:
            if stages:
                stages[-1][1] = t
            stages.append([t, None, rest, []])
    if stages and stages[-1][2] == "done":
        stages.pop()
    return stages


def print_stages(stages):
    # make test stopped part way: the last stage (and any part that never
    # ended) ran until now.
    now = int(time.time())
    print("where the time went (seconds per stage):")
    for t0, t1, name, parts in stages:
        print(f"  {(t1 or now) - t0:6d}  {name}")
        for p0, p1, pname, status in parts:
            how = {None: " (did not end)", 0: ""}.get(status, f" (failed, status {status})")
            print(f"  {(p1 or now) - p0:6d}      {pname}{how}")
    print(f"  {(stages[-1][1] or now) - stages[0][0]:6d}  in all")


def report(log_dir):
    stages = read_stages(os.path.join(log_dir, "stages"))
    if stages:
        print_stages(stages)
    top = slowest(sorted(glob.glob(os.path.join(log_dir, "*.json"))))
    if top:
        print("the 10 slowest tests:")
        for elapsed, pkg, test, stage in top:
            print(f"  {elapsed:8.1f}s  {pkg} {test}  ({stage})")
    logs = sorted(glob.glob(os.path.join(log_dir, "*.json")))
    failed = failures([p for p in logs if ".rerun-" not in p])
    passed_again = rerun_passes([p for p in logs if ".rerun-" in p])
    if failed:
        print("the tests that failed, with the last lines each printed:")
        for stage, pkg, test, text in failed:
            again = "; passed when run again alone" if (pkg, test) in passed_again else ""
            print(f"  --- {short(pkg)} {test}  ({stage}{again})")
            for t in text:
                sys.stdout.write("      " + t if t.strip() else t)
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == "stream":
        return stream(argv[2])
    if len(argv) == 3 and argv[1] == "failed":
        for pkg, pattern in failed_leaves(argv[2]):
            print(pkg, pattern)
        return 0
    if len(argv) == 3 and argv[1] == "report":
        return report(argv[2])
    sys.stderr.write("usage: testsummary.py stream LOG < go-test-json | testsummary.py failed LOG | testsummary.py report DIR\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
