"""dbmeter worker (protocol 1) over clickhouse-driver, Python's native-protocol
ClickHouse client. One process is one connection. Inserts are
client.execute("INSERT INTO t (cols) VALUES", rows) with a list of rows;
queries are client.execute(sql). Protocol: docs/worker-protocol.md."""
import json
import socket
import sys
import time

PROTOCOL = 1


def reply(m):
    sys.stdout.write(json.dumps(m, separators=(",", ":")) + "\n")
    sys.stdout.flush()


try:
    import clickhouse_driver
    from clickhouse_driver import errors as cherrors
except ImportError as e:
    reply({"protocol": PROTOCOL, "language": "python", "runtime": sys.version.split()[0], "library": "",
           "error": "clickhouse-driver is missing (%s): apt-get install python3-clickhouse-driver, or pip install clickhouse-driver" % e})
    sys.exit(1)

reply({"protocol": PROTOCOL, "language": "python", "runtime": sys.version.split()[0],
       "library": "clickhouse-driver " + clickhouse_driver.__version__})


def kind(e):
    if isinstance(e, cherrors.ServerException):
        return "server"
    if isinstance(e, (cherrors.NetworkError, cherrors.SocketTimeoutError, EOFError, OSError)):
        return "connection"
    return "other"


def compression(p):
    """setup's compression (lz4, zstd) as clickhouse-driver takes it, after
    checking that the packages of its extra are here: the driver itself
    fails on them only when the first block is compressed."""
    method = p.get("compression") or ""
    if not method:
        return False
    need = {"lz4": ["lz4", "clickhouse_cityhash"], "zstd": ["zstd", "clickhouse_cityhash"]}.get(method)
    if need is None:
        raise ValueError("clickhouse-driver has no compression %r (lz4, zstd)" % method)
    missing = []
    for m in need:
        try:
            __import__(m)
        except ImportError:
            missing.append(m.replace("_", "-"))
    if missing:
        raise ImportError("clickhouse-driver compresses with %s through the Python packages %s, missing here: "
                          "pip install 'clickhouse-driver[%s]', or drop compress from the DSN" % (method, ", ".join(missing), method))
    return method


def connect(p):
    c = clickhouse_driver.Client(host=p["host"], port=p["port"], user=p["user"], password=p["password"],
                                 database=p["database"], connect_timeout=10, compression=compression(p))
    c.execute("SELECT 1")  # connects (force_connect would leave the connection marked busy)
    # clickhouse-driver sets TCP_NODELAY itself; --tcp-nodelay=false clears it.
    c.connection.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1 if p.get("nodelay", True) else 0)
    return c


def main():
    p = {}
    client = None
    blocks = []
    insert_sql = ""
    for line in sys.stdin:
        req = json.loads(line)
        t0 = time.perf_counter_ns()
        op = req.get("op")
        try:
            if op == "ping":
                reply({"ok": True})
            elif op == "setup":
                p = req["params"]
                if p.get("rows_file"):
                    with open(p["rows_file"]) as f:
                        f.readline()  # header: columns and types, as in setup
                        blocks = [json.loads(b) for b in f]
                    insert_sql = "INSERT INTO %s (%s) VALUES" % (p["table"], ", ".join(p["columns"]))
                client = connect(p)
                reply({"ok": True})
            elif op == "reset":
                if client is not None:
                    client.disconnect()
                client = None
                reply({"ok": True})
            elif op == "insert":
                if client is None:
                    client = connect(p)
                rows = blocks[req["block"]]
                if req["rows"] < len(rows):
                    rows = rows[:req["rows"]]
                client.execute(insert_sql, rows)
                reply({"ok": True, "rows": len(rows), "ns": time.perf_counter_ns() - t0})
            elif op == "commit":
                reply({"ok": True})
            elif op == "query":
                if client is None:
                    client = connect(p)
                res = client.execute(req["sql"])
                reply({"ok": True, "rows": len(res), "ns": time.perf_counter_ns() - t0})
            else:
                reply({"ok": False, "kind": "other", "error": "unknown op %r" % (op,)})
        except Exception as e:  # every failure is a reply; the worker lives on
            # A failed connection is dropped; the next operation connects again.
            if client is not None:
                try:
                    client.disconnect()
                except Exception:
                    pass
            client = None
            msg = str(e).split("Stack trace:")[0].strip()  # the server's own stack trace says nothing to a user
            reply({"ok": False, "kind": kind(e), "error": "%s: %s" % (type(e).__name__, msg)})


main()
