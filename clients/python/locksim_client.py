#!/usr/bin/python3
"""locksim real-mode client (protocol 1, docs/real-protocol.md) for redis-py's Lock.

    py-redis-lock   redis.lock.Lock (Debian's python3-redis) on one node

It runs the workload loop of realmode/client.go: acquire, the acquired
point, read, work, the careful client's lease check, the write point,
write, the release point, release, think; it reports every call's outcome
and the stalls of its heartbeat. redis-py's Lock keeps no validity of its
own and does not renew: the holder learns of a loss only by asking Redis
(lock.owned(), the check before the write) or from release's
LockNotOwnedError, so this client sends no lost notice.
LOCKSIM_REAL_DESCRIBE=name prints name's description.

It runs with Debian's /usr/bin/python3, where python3-redis is installed.
"""

import json
import os
import random
import sys
import threading
import time

import redis
from redis.exceptions import LockError, TimeoutError as RedisTimeout

PROTOCOL = 1
HEARTBEAT = 0.002
STALL = 2 * HEARTBEAT

SUBJECTS = {
    "py-redis-lock": {
        "summary": "redis-py's redis.lock.Lock (Debian's python3-redis); no renewal (it has none); lock.owned() checked before the write",
        "nodes": 1,
        "claims": {"Mutex": True},
    },
}


class Stop(Exception):
    """The run is over (a stop reply, or stdin closed)."""


def seconds(ns):
    return (ns or 0) / 1e9


def unknown(exc):
    """A call that timed out may have been executed: its outcome is unknown."""
    return isinstance(exc, (RedisTimeout, TimeoutError))


class Stream:
    """Lines to fd 3, replies on stdin, in order; notices from the heartbeat."""

    def __init__(self):
        self.mu = threading.Lock()

    def send(self, m):
        line = (json.dumps(m, separators=(",", ":")) + "\n").encode()
        with self.mu:
            os.write(3, line)

    def next(self):
        line = sys.stdin.readline()
        if not line:
            raise Stop("stdin closed")
        return json.loads(line)


class PyRedisLock:
    """redis-py's Lock with its defaults (thread_local tokens, no renewal),
    the scenario's TTL as timeout, its retry delay as sleep and its acquire
    timeout as blocking_timeout; a new Lock for each acquisition (r.lock, as
    redis-py's docs show)."""

    def __init__(self, setup, node):
        wl = setup["workload"]
        self.node = node
        self.key = setup["key"]
        self.timeout = seconds(setup["ttl"])
        self.sleep = seconds(wl["Retry"])
        self.blocking_timeout = seconds(wl["AcquireTimeout"])

    def acquire(self):
        lock = self.node.lock(self.key, timeout=self.timeout, sleep=self.sleep, blocking_timeout=self.blocking_timeout)
        if not lock.acquire():
            raise LockError("not acquired within blocking_timeout")
        return {"token": lock.local.token.decode(), "lock": lock}

    @staticmethod
    def held(lease):
        try:
            return lease["lock"].owned()
        except redis.RedisError:
            return False

    @staticmethod
    def release(lease):
        lease["lock"].release()


class Client:
    def __init__(self, io, setup, lock):
        self.io = io
        self.setup = setup
        self.lock = lock
        self.rand = random.Random((setup.get("seed") or 0) ^ (setup["index"] + 1))
        self.stopped = threading.Event()

    def ask(self, m):
        self.io.send(m)
        r = self.io.next()
        if r.get("stop"):
            raise Stop("the run is over")
        return r

    def heartbeat(self):
        last = time.monotonic()
        while not self.stopped.wait(HEARTBEAT):
            now = time.monotonic()
            if now - last >= STALL:
                self.io.send({"kind": "stall", "gap": int((now - last) * 1e9), "at": time.time_ns()})
            last = now

    def cycle(self):
        wl = self.setup["workload"]
        lease, lid = self.acquire()
        if lease is None:
            time.sleep(seconds(wl["Think"]))
            return
        self.at("acquired")
        inner, inner_id = None, 0
        if wl.get("Reenter"):
            inner, inner_id = self.acquire()
            if inner is None or not self.lock.held(lease):
                if inner is not None:
                    self.release(inner, inner_id)
                self.finish(lease, lid)
                return
        v = self.ask({"kind": "read", "lease": lid}).get("value", 0)
        self.at("work")
        time.sleep(seconds(self.work_time()))
        if inner is not None:
            self.release(inner, inner_id)
        self.guarded_write(lease, lid, v)
        self.finish(lease, lid)

    def finish(self, lease, lid):
        self.at("release")
        self.release(lease, lid)
        time.sleep(seconds(self.setup["workload"]["Think"]))

    def guarded_write(self, lease, lid, v):
        wl = self.setup["workload"]
        if wl.get("Check"):
            held = self.lock.held(lease)
            self.ask({"kind": "check", "lease": lid, "ok": True} if held else {"kind": "check", "lease": lid})
            if not held:
                return
        self.at("write")
        time.sleep(seconds(wl.get("Prep")))
        self.ask({"kind": "write", "lease": lid, "read": v, "value": v + 1})

    def at(self, point):
        r = self.ask({"kind": "point", "point": point})
        time.sleep(seconds(r.get("slow")))

    def work_time(self):
        wl = self.setup["workload"]
        jitter = wl.get("Jitter") or 0
        if jitter <= 0:
            return wl["Work"]
        return wl["Work"] - jitter + self.rand.randint(0, 2 * jitter)

    def acquire(self):
        self.ask({"kind": "invoke", "op": "acquire"})
        m = {"kind": "return", "op": "acquire"}
        lease = None
        try:
            lease = self.lock.acquire()
            m["ok"] = True
            m["token"] = lease["token"]
        except (LockError, redis.RedisError) as e:
            m["err"] = str(e) or type(e).__name__
            if unknown(e):
                m["unknown"] = True
        r = self.ask(m)
        if lease is None:
            return None, 0
        return lease, r.get("lease", 0)

    def release(self, lease, lid):
        self.ask({"kind": "invoke", "op": "release", "lease": lid})
        m = {"kind": "return", "op": "release", "token": lease["token"]}
        try:
            self.lock.release(lease)
            m["ok"] = True
        except (LockError, redis.RedisError) as e:
            m["err"] = str(e) or type(e).__name__
            if unknown(e):
                m["unknown"] = True
        self.ask(m)


def describe(name):
    s = SUBJECTS.get(name)
    if s is None:
        print("locksim_client: unknown subject %r (known: %s)" % (name, ", ".join(SUBJECTS)), file=sys.stderr)
        return 2
    print(json.dumps({"name": name, "summary": s["summary"], "nodes": s["nodes"], "claims": s["claims"]}))
    return 0


def main():
    if os.environ.get("LOCKSIM_REAL_DESCRIBE"):
        return describe(os.environ["LOCKSIM_REAL_DESCRIBE"])
    io = Stream()
    try:
        setup = io.next()
    except Stop:
        return 0
    fatal = None
    if setup.get("protocol") != PROTOCOL:
        fatal = "setup: protocol version %s, this client speaks %d" % (setup.get("protocol"), PROTOCOL)
    elif setup.get("pattern") not in SUBJECTS:
        fatal = "unknown subject %r (known: %s)" % (setup.get("pattern"), ", ".join(SUBJECTS))
    if fatal:
        io.send({"kind": "fatal", "err": fatal})
        return 1
    host, _, port = setup["addrs"][0].rpartition(":")
    # redis-py's defaults, with the scenario's per-command timeout.
    node = redis.Redis(host=host, port=int(port), socket_timeout=seconds(setup["timeout"]))
    client = Client(io, setup, PyRedisLock(setup, node))
    beat = threading.Thread(target=client.heartbeat, daemon=True)
    try:
        client.ask({"kind": "ready", "protocol": PROTOCOL})
        beat.start()
        while True:
            client.cycle()
    except (Stop, BrokenPipeError):
        return 0
    finally:
        client.stopped.set()
        node.close()


if __name__ == "__main__":
    sys.exit(main())
