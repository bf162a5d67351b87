"""A minimal dbmeter worker (protocol 1). It does no database work, so a run
through it measures the protocol alone; put your client's calls where the
comments say."""
import json
import sys
import time

print(json.dumps({"protocol": 1, "language": "python", "runtime": sys.version.split()[0], "library": "none"}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    t0 = time.perf_counter_ns()
    op = req["op"]
    if op in ("setup", "ping", "reset", "commit"):
        # setup: req["params"] holds host, port, user, password, database, …: connect here
        # reset: drop your connection: the next operation connects again
        reply = {"ok": True}
    elif op in ("insert", "query"):
        # insert: the first req["rows"] rows of block req["block"] of params["rows_file"]
        # query: run req["sql"] and read every row
        reply = {"ok": True, "rows": 0, "ns": time.perf_counter_ns() - t0}
    else:
        reply = {"ok": False, "kind": "other", "error": "unknown op " + op}
    print(json.dumps(reply), flush=True)
