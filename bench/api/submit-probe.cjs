// Diagnostic preload for bench/api's submit row (issue 20): where a submit's time goes behind pollers.
//   BENCH_ONLY=submit BENCH_SETUPS=sqlite BENCH_BIG_CELLS=0 BENCH_CELLS=2 \
//   BENCH_NODE_ARGS="--require ./bench/api/submit-probe.cjs" PROBE_OUT=/tmp/probe.jsonl npx tsx bench/api/run.ts
// One JSON line per POST /api/fea/submit: queueMs (the client's send, header x-sent-at, to the server's
// 'request' event: connect, accept, read), newConn (accept → request, when the connection is new),
// serverMs ('request' → reply finished), the event-loop turns in between and their lengths, requests
// parsed and replies ended meanwhile (the polls it shared the loop with), the process's CPU time, GC
// pauses overlapping it. `globalThis.__mark?.(name)` calls added to the server's code while diagnosing
// land in `marks` (ms after the 'request' event). Not loaded by anything else.
const http = require('node:http');
const fs = require('node:fs');
const { PerformanceObserver, performance, monitorEventLoopDelay } = require('node:perf_hooks');

const OUT = process.env.PROBE_OUT || `submit-probe-${process.pid}.jsonl`;
const now = () => performance.timeOrigin + performance.now();
let parsed = 0;
let accepts = 0;
let ended = 0;
const gcs = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcs.push({ t0: performance.timeOrigin + e.startTime, ms: e.duration, kind: e.detail?.kind ?? e.kind });
    if (gcs.length > 5000) gcs.splice(0, 2500);
  }
}).observe({ entryTypes: ['gc'] });
const eld = monitorEventLoopDelay({ resolution: 1 });
eld.enable();

const origEnd = http.ServerResponse.prototype.end;
http.ServerResponse.prototype.end = function (...a) {
  ended++;
  return origEnd.apply(this, a);
};

let inflight = 0;
let turnLoop = false;
let lastTurn = 0;
const turns = []; // [t, gapMs]
function turn() {
  const t = now();
  turns.push([t, t - lastTurn]);
  lastTurn = t;
  if (turns.length > 20000) turns.splice(0, 10000);
  if (inflight > 0) setImmediate(turn);
  else turnLoop = false;
}
globalThis.__marks = null;
globalThis.__mark = (name) => {
  if (globalThis.__marks) globalThis.__marks.push([name, now()]);
};

const origEmit = http.Server.prototype.emit;
http.Server.prototype.emit = function (ev, ...a) {
  if (ev === 'connection') {
    accepts++;
    a[0].__acceptedAt = now();
  } else if (ev === 'request') {
    parsed++;
    const [req, res] = a;
    if (req.method === 'POST' && req.url === '/api/fea/submit') {
      const rec = {
        sent: Number(req.headers['x-sent-at']) || null,
        accepted: req.socket.__acceptedAt,
        arrive: now(),
        parsed0: parsed,
        accepts0: accepts,
        ended0: ended,
        cpu0: process.cpuUsage(),
        marks: [],
      };
      globalThis.__marks = rec.marks; // one submit at a time in the bench
      inflight++;
      if (!turnLoop) {
        turnLoop = true;
        lastTurn = rec.arrive;
        setImmediate(turn);
      }
      const turnsFrom = turns.length;
      res.once('finish', () => {
        inflight--;
        const fin = now();
        const cpu = process.cpuUsage(rec.cpu0);
        const myTurns = turns.slice(turnsFrom).map((x) => +x[1].toFixed(2));
        const gc = gcs.filter((g) => g.t0 + g.ms >= rec.arrive && g.t0 <= fin);
        const line = {
          status: res.statusCode,
          queueMs: rec.sent ? +(rec.arrive - rec.sent).toFixed(2) : null,
          newConn: rec.accepted > rec.arrive - 5000 ? +(rec.arrive - rec.accepted).toFixed(2) : null,
          serverMs: +(fin - rec.arrive).toFixed(2),
          turns: myTurns.length,
          maxTurnMs: myTurns.length ? Math.max(...myTurns) : 0,
          turnMs: myTurns.slice(0, 30),
          parsed: parsed - rec.parsed0,
          accepts: accepts - rec.accepts0,
          acceptsTotal: accepts,
          ended: ended - rec.ended0,
          cpuMs: +((cpu.user + cpu.system) / 1000).toFixed(2),
          gcMs: +gc.reduce((s, g) => s + g.ms, 0).toFixed(2),
          gcN: gc.length,
          marks: rec.marks.map(([n, t]) => [n, +(t - rec.arrive).toFixed(2)]),
          at: rec.arrive,
          eldP99: +(eld.percentile(99) / 1e6).toFixed(1),
          eldMax: +(eld.max / 1e6).toFixed(1),
        };
        eld.reset();
        fs.appendFileSync(OUT, `${JSON.stringify(line)}\n`);
      });
    }
  }
  return origEmit.call(this, ev, ...a);
};
