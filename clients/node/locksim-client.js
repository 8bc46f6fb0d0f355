#!/usr/bin/env node
// locksim real-mode client (protocol 1, docs/real-protocol.md) for the
// Node lock libraries:
//
//   node-redlock              redlock 4 over ioredis, 5 nodes; lock.extend every TTL/3
//   node-redis-semaphore      redis-semaphore's Mutex (its own refresh, every 0.8 TTL)
//   node-redis-semaphore-sem  redis-semaphore's Semaphore of 2 holders
//
// It runs the workload loop of realmode/client.go: acquire, the acquired
// point, read, work, the careful client's lease check, the write point,
// write, the release point, release, think; it reports every call's
// outcome, tells lost leases as the library can tell them, and stalls of
// its heartbeat. LOCKSIM_REAL_DESCRIBE=name prints name's description.
'use strict';

const fs = require('node:fs');
const readline = require('node:readline');
const { performance } = require('node:perf_hooks');
const Redis = require('ioredis');
const Redlock = require('redlock');
const { Mutex, Semaphore } = require('redis-semaphore');

const PROTOCOL = 1;
const SEMAPHORE_HOLDERS = 2; // the catalog's semaphore admits 2 (pattern.SemaphorePermits)
const HEARTBEAT_MS = 2;
const STALL_MS = 2 * HEARTBEAT_MS;

const SUBJECTS = {
  'node-redlock': {
    summary: 'redlock 4 (node) over ioredis on 5 nodes; lock.extend every TTL/3; lock.expiration checked before the write',
    nodes: 5, claims: { Mutex: true }, build: redlockLock,
  },
  'node-redis-semaphore': {
    summary: "redis-semaphore's Mutex (node, ioredis); its refresh every 0.8 TTL; isAcquired checked before the write",
    nodes: 1, claims: { Mutex: true }, build: semaphoreLock(false),
  },
  'node-redis-semaphore-sem': {
    summary: `redis-semaphore's Semaphore of ${SEMAPHORE_HOLDERS} (node, ioredis); its refresh every 0.8 TTL; isAcquired checked before the write`,
    nodes: 1, claims: { MaxHolders: SEMAPHORE_HOLDERS }, build: semaphoreLock(true),
  },
};

class Stop extends Error {}

const ms = (ns) => ns / 1e6;
const nowNs = () => Math.round((performance.timeOrigin + performance.now()) * 1e6);
const sleep = (d) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms(d || 0))));
const message = (e) => (e && e.message) || String(e);
// A command that timed out may have been executed: its outcome is unknown.
const timedOut = (e) => /timed? ?out/i.test(message(e)) && !/^Acquire .* timeout$/.test(message(e));

// The message stream: lines to fd 3, replies on stdin, in order.
function stream() {
  const replies = [];
  const waiting = [];
  let closed = false;
  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  rl.on('line', (line) => (waiting.length ? waiting.shift().resolve(line) : replies.push(line)));
  rl.on('close', () => {
    closed = true;
    while (waiting.length) waiting.shift().reject(new Stop('stdin closed'));
  });
  const next = () => new Promise((resolve, reject) => {
    if (replies.length) resolve(replies.shift());
    else if (closed) reject(new Stop('stdin closed'));
    else waiting.push({ resolve, reject });
  });
  const send = (m) => fs.writeSync(3, JSON.stringify(m) + '\n');
  return { next, send };
}

// A small seeded generator (mulberry32) for the work's jitter.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// redlockLock: redlock 4 with its defaults (driftFactor 0.01, retryJitter
// 100ms), the scenario's retry delay and as many retries as fit in the
// acquire timeout. The lease is the holder's while lock.expiration (start
// + TTL − drift, moved by each extend) is ahead of Date.now() and no
// extend failed.
function redlockLock(setup, clients, tell) {
  const wl = setup.workload;
  const retryDelay = Math.max(1, Math.round(ms(wl.Retry)));
  const redlock = new Redlock(clients, {
    retryDelay, retryCount: Math.max(1, Math.ceil(ms(wl.AcquireTimeout) / retryDelay)),
  });
  let clientErr = null; // a node's error during the call in flight (redlock counts it as a missing vote)
  redlock.on('clientError', (e) => { clientErr = e; });
  const ttl = Math.round(ms(setup.ttl));
  return {
    async acquire() {
      clientErr = null;
      try {
        const lock = await redlock.lock(setup.key, ttl);
        const lease = { token: lock.value, lock, failed: false, timer: null };
        lease.timer = setInterval(() => {
          if (lease.extending || lease.failed) return;
          lease.extending = true;
          lock.extend(ttl).then(() => { lease.extending = false; }, () => {
            lease.failed = true;
            clearInterval(lease.timer);
            tell(lease);
          });
        }, Math.max(1, Math.round(ttl / 3)));
        lease.err = () => (lease.failed ? 'extend failed' : lock.expiration <= Date.now() ? 'expired' : null);
        lease.poll = true; // the watcher polls err
        return lease;
      } catch (e) {
        if (clientErr && timedOut(clientErr)) e.unknown = true;
        throw e;
      }
    },
    async release(lease) {
      clearInterval(lease.timer);
      clientErr = null;
      try {
        await lease.lock.unlock();
      } catch (e) {
        if (clientErr && timedOut(clientErr)) e.unknown = true;
        throw e;
      }
    },
  };
}

// semaphoreLock: redis-semaphore's Mutex or Semaphore with its defaults
// (refresh every 0.8 lockTimeout, acquireAttemptsLimit unlimited), the
// scenario's TTL as lockTimeout, its acquire timeout and retry interval.
// A new lock object for each acquisition (its identifier is the token);
// its onLockLost (the refresh found the lock gone) tells the loss at once,
// and isAcquired is the check before the write.
function semaphoreLock(sem) {
  return (setup, clients, tell) => {
    const wl = setup.workload;
    return {
      async acquire() {
        const lease = {};
        const opts = {
          lockTimeout: Math.round(ms(setup.ttl)), acquireTimeout: Math.round(ms(wl.AcquireTimeout)),
          retryInterval: Math.max(1, Math.round(ms(wl.Retry))), onLockLost: () => tell(lease),
        };
        const m = sem ? new Semaphore(clients[0], setup.key, SEMAPHORE_HOLDERS, opts) : new Mutex(clients[0], setup.key, opts);
        await m.acquire();
        Object.assign(lease, {
          token: m.identifier, key: (sem ? 'semaphore:' : 'mutex:') + setup.key, m,
          err: () => (m.isAcquired ? null : 'lock lost (refresh failed)'),
        });
        return lease;
      },
      async release(lease) {
        const held = lease.m.isAcquired; // release() deletes only a lock it still holds
        await lease.m.release();
        if (!held) throw new Error('release: the lock was lost before (isAcquired false): nothing released');
      },
    };
  };
}

class Client {
  constructor(io, setup, lock) {
    this.io = io;
    this.setup = setup;
    this.lock = lock;
    this.rand = rng(Number(BigInt.asUintN(32, BigInt(setup.seed || 0))) ^ (setup.index + 1));
    this.watched = new Map(); // lease id → lease
  }

  async ask(m) {
    this.io.send(m);
    const r = JSON.parse(await this.io.next());
    if (r.stop) throw new Stop('the run is over');
    return r;
  }

  // heartbeat reports stalls and polls leases that have no callback.
  heartbeat() {
    let last = performance.now();
    this.beat = setInterval(() => {
      const now = performance.now();
      if (now - last >= STALL_MS) this.io.send({ kind: 'stall', gap: Math.round((now - last) * 1e6), at: nowNs() });
      last = now;
      for (const [id, lease] of this.watched) if (lease.poll && lease.err()) this.lost(id);
    }, HEARTBEAT_MS);
  }

  lost(id) {
    if (!this.watched.has(id)) return;
    this.watched.delete(id);
    this.io.send({ kind: 'lost', lease: id, at: nowNs() });
  }

  tell(lease) {
    for (const [id, l] of this.watched) if (l === lease) this.lost(id);
  }

  async cycle() {
    const wl = this.setup.workload;
    const [lease, id] = await this.acquire();
    if (!lease) return sleep(wl.Think);
    await this.at('acquired');
    let inner = null;
    let innerID = 0;
    if (wl.Reenter) {
      [inner, innerID] = await this.acquire();
      if (!inner || lease.err()) return this.abandon(lease, id, inner, innerID);
    }
    const v = (await this.ask({ kind: 'read', lease: id })).value || 0;
    await this.at('work');
    await sleep(this.workTime());
    if (inner) await this.release(inner, innerID);
    await this.guardedWrite(lease, id, v);
    return this.finish(lease, id);
  }

  async abandon(lease, id, inner, innerID) {
    if (inner) await this.release(inner, innerID);
    return this.finish(lease, id);
  }

  async finish(lease, id) {
    await this.at('release');
    await this.release(lease, id);
    await sleep(this.setup.workload.Think);
  }

  async guardedWrite(lease, id, v) {
    const wl = this.setup.workload;
    if (wl.Check) {
      const held = !lease.err();
      await this.ask(held ? { kind: 'check', lease: id, ok: true } : { kind: 'check', lease: id });
      if (!held) return;
    }
    await this.at('write');
    await sleep(wl.Prep);
    await this.ask({ kind: 'write', lease: id, read: v, value: v + 1 });
  }

  // at reports a workload point and sleeps the slowness the reply asks for.
  async at(point) {
    const r = await this.ask({ kind: 'point', point });
    await sleep(r.slow);
  }

  workTime() {
    const wl = this.setup.workload;
    if (!(wl.Jitter > 0)) return wl.Work;
    return wl.Work - wl.Jitter + Math.floor(this.rand() * (2 * wl.Jitter + 1));
  }

  async acquire() {
    await this.ask({ kind: 'invoke', op: 'acquire' });
    let lease = null;
    let err = null;
    try {
      lease = await this.lock.acquire();
    } catch (e) {
      err = e;
    }
    const m = { kind: 'return', op: 'acquire' };
    if (err) {
      m.err = message(err);
      if (err.unknown || timedOut(err)) m.unknown = true;
    } else {
      m.ok = true;
      m.token = lease.token;
      if (lease.key && lease.key !== this.setup.key) m.key = lease.key;
    }
    const r = await this.ask(m);
    if (err) return [null, 0];
    const id = r.lease || 0;
    this.watched.set(id, lease);
    return [lease, id];
  }

  async release(lease, id) {
    this.watched.delete(id); // a loss from here on is told by the release's outcome
    await this.ask({ kind: 'invoke', op: 'release', lease: id });
    const m = { kind: 'return', op: 'release', token: lease.token };
    try {
      await this.lock.release(lease);
      m.ok = true;
    } catch (e) {
      m.err = message(e);
      if (e.unknown || timedOut(e)) m.unknown = true;
    }
    await this.ask(m);
  }
}

function describe(name) {
  const s = SUBJECTS[name];
  if (!s) {
    process.stderr.write(`locksim-client: unknown subject ${JSON.stringify(name)} (known: ${Object.keys(SUBJECTS).join(', ')})\n`);
    return 2;
  }
  process.stdout.write(JSON.stringify({ name, summary: s.summary, nodes: s.nodes, claims: s.claims }) + '\n');
  return 0;
}

function connect(setup) {
  return setup.addrs.map((addr) => {
    const i = addr.lastIndexOf(':');
    // ioredis's defaults, with the scenario's per-command timeout.
    const c = new Redis({ host: addr.slice(0, i), port: Number(addr.slice(i + 1)), commandTimeout: Math.max(1, Math.round(ms(setup.timeout))) });
    c.on('error', () => {}); // a node down on purpose is not news: errors reach the coordinator as outcomes
    return c;
  });
}

async function main() {
  if (process.env.LOCKSIM_REAL_DESCRIBE) return describe(process.env.LOCKSIM_REAL_DESCRIBE);
  const io = stream();
  const setup = JSON.parse(await io.next());
  const subject = SUBJECTS[setup.pattern];
  let fatal = null;
  if (setup.protocol !== PROTOCOL) fatal = `setup: protocol version ${setup.protocol}, this client speaks ${PROTOCOL}`;
  else if (!subject) fatal = `unknown subject ${JSON.stringify(setup.pattern)} (known: ${Object.keys(SUBJECTS).join(', ')})`;
  if (fatal) {
    io.send({ kind: 'fatal', err: fatal });
    return 1;
  }
  const clients = connect(setup);
  let client = null;
  const lock = subject.build(setup, clients, (lease) => client && client.tell(lease));
  client = new Client(io, setup, lock);
  try {
    await client.ask({ kind: 'ready', protocol: PROTOCOL });
    client.heartbeat();
    for (;;) await client.cycle();
  } catch (e) {
    if (e instanceof Stop) return 0;
    throw e;
  } finally {
    clearInterval(client.beat);
    for (const c of clients) c.disconnect();
  }
}

main().then((code) => process.exit(code), (e) => {
  process.stderr.write(`locksim-client: ${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
});
