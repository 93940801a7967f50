#!/usr/bin/env node
// Reads trace.json files (Chrome trace event format) with an independent
// consumer, the trace model of the Chrome DevTools Performance panel
// (scripts/deps-consumer installs it into $CCG_CONSUMER_DIR, default
// ~/.cache/ccgfs-consumer), and prints what it imported, per file:
//
//   file     PATH
//   generic  1 when the model took the trace as a non-browser one
//   process  PID NAME (process_name metadata, a JSON string)
//   thread   PID TID SLICES INSTANTS ZERO DEPTH FIRST END NAME
//   chain    PID TID NAME... the leftmost path of the thread's call tree:
//            its first top-level slice, that one's first child, and so
//            on (at most 16, each a JSON string)
//   flows    flows the model bound to slices
//   mismatch B/E pairs whose names differ (the model's own complaint)
//   message  anything else the model printed while reading
//   error    why the file was rejected (bad JSON, no traceEvents array, a throw)
//
// one `thread` line per thread that has a slice, sorted by pid then tid:
// SLICES counts the calls (B/E pairs and X events), INSTANTS the "I"
// events, ZERO the slices of duration 0 (a B never closed is one of them),
// DEPTH the deepest nesting (1 = top level only), FIRST and END the start
// of the first and the end of the last top-level slice in microseconds
// with three decimals, NAME the thread_name metadata as a JSON string
// (null without one).  Fields are separated by tabs.
//
// The model pairs B with E on one stack for the whole trace, in the order
// of the file: B/E of two threads interleaved in the file are mispaired.
// --by-thread hands it the events grouped by (pid, tid) instead, in file
// order within a thread.
//
// Exits 1 when any file was rejected or had a mismatch, 2 on bad usage or
// a missing consumer, 0 otherwise.
//
//   node tests/tools/json_consumer.mjs [--by-thread] FILE.json...

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// Not under XDG_CACHE_HOME: the tests point that into the build folder.
const dir = process.env.CCG_CONSUMER_DIR || path.join(os.homedir(), '.cache', 'ccgfs-consumer');
const pkg = path.join(dir, 'node_modules', '@paulirish', 'trace_engine');

const args = process.argv.slice(2);
const byThread = args[0] === '--by-thread';
const files = byThread ? args.slice(1) : args;
if (files.length === 0) {
  console.error('usage: json_consumer.mjs [--by-thread] FILE.json...');
  process.exit(2);
}
if (!fs.existsSync(path.join(pkg, 'package.json'))) {
  console.error(`json_consumer: no consumer in ${dir}: run scripts/deps-consumer`);
  process.exit(2);
}
const Trace = await import(pathToFileURL(path.join(pkg, 'models/trace/trace.js')));
const { polyfillDOMRect } = await import(pathToFileURL(path.join(pkg, 'analyze-trace.mjs')));
polyfillDOMRect();  // the model expects a browser's DOMRect
if (!URL.parse) {   // Node.js before 20.18 (Debian 12 has 18)
  URL.parse = (u, base) => { try { return new URL(u, base); } catch { return null; } };
}

function groupByThread(events) {
  const order = new Map();
  const key = (e) => `${e.pid}/${e.tid}`;
  for (const e of events) if (!order.has(key(e))) order.set(key(e), order.size);
  return events.map((e, i) => [order.get(key(e)), i, e])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2]);
}

async function readOne(file, out) {
  const json = JSON.parse(fs.readFileSync(file, 'utf8'));
  let events = json?.traceEvents;
  if (!Array.isArray(events)) throw new Error('no traceEvents array');
  if (byThread) events = groupByThread(events);
  const model = Trace.TraceModel.Model.createWithAllHandlers();
  await model.parse(events);
  const data = model.parsedTrace()?.data;
  if (!data) throw new Error('the model produced no data');
  out.push(`generic\t${data.Meta.traceIsGeneric ? 1 : 0}`);
  const names = data.Meta.processNames;
  for (const pid of [...names.keys()].sort((a, b) => a - b)) {
    out.push(`process\t${pid}\t${JSON.stringify(names.get(pid).args?.name ?? null)}`);
  }
  const { processes, entryToNode } = data.Renderer;
  const pids = [...processes.keys()].sort((a, b) => a - b);
  for (const pid of pids) {
    const threads = processes.get(pid).threads;
    for (const tid of [...threads.keys()].sort((a, b) => a - b)) {
      const t = threads.get(tid);
      let slices = 0, instants = 0, zero = 0, depth = 0;
      for (const e of t.entries) {
        if (e.ph === 'X') {
          slices++;
          if (!e.dur) zero++;
        } else if (e.ph === 'I') {
          instants++;
        }
        depth = Math.max(depth, (entryToNode.get(e)?.depth ?? -1) + 1);
      }
      const roots = [...(t.tree?.roots ?? [])].map((n) => n.entry);
      const first = Math.min(...roots.map((e) => e.ts));
      const end = Math.max(...roots.map((e) => e.ts + (e.dur ?? 0)));
      out.push(['thread', pid, tid, slices, instants, zero, depth,
        first.toFixed(3), end.toFixed(3), JSON.stringify(t.name)].join('\t'));
      const chain = [];
      for (let n = t.tree?.roots?.values().next().value; n && chain.length < 16;
        n = n.children[0]) {
        chain.push(JSON.stringify(n.entry.name));
      }
      if (slices) out.push(['chain', pid, tid, ...chain].join('\t'));
    }
  }
  out.push(`flows\t${data.Flows.flows.length}`);
}

let failed = false;
const saved = { error: console.error, warn: console.warn, log: console.log };
for (const file of files) {
  const out = [`file\t${file}`];
  const said = [];
  console.error = console.warn = console.log = (...a) => said.push(a.join(' '));
  try {
    await readOne(file, out);
  } catch (e) {
    out.push(`error\t${String(e.message ?? e).split('\n')[0]}`);
    failed = true;
  } finally {
    Object.assign(console, saved);
  }
  const mismatch = said.filter((s) => s.startsWith('Begin/End events mismatch'));
  out.push(`mismatch\t${mismatch.length}`);
  if (mismatch.length) failed = true;
  for (const s of said) out.push(`message\t${s.split('\n')[0]}`);
  process.stdout.write(out.join('\n') + '\n');
}
process.exit(failed ? 1 : 0);
