#!/usr/bin/python3
"""Writes a synthetic trace.json of about SIZE megabytes in the Chrome trace
event format, with lines padded to one length as ccgfs pads them, to time
tests/tools/json_consumer.mjs on files of a given size and check its counts:

- THREADS threads (two per pid), each a run of `outer` calls holding two
  nested calls (depth 2), a counter after each outer call, an instant
  inside each, and a flow from each outer call of thread 0 of pid 0 to the
  same-numbered outer call of thread 1 of pid 0 (the flow events sit at the
  calls' begin times, where the consumer binds them; thread i starts i*100
  ns late, since the consumer drops a flow whose two ends have one time);
- timestamps in microseconds with three decimals, from 1e9 us on, so that
  they have the digits real traces have;
- events grouped by thread (the consumer's B/E stack is global), or with
  --interleave merged by time across threads.

Prints what the consumer should report: one line per thread
`thread PID TID SLICES FIRST END`, and `flows N`.

  json_consumer_gen.py [--threads N] [--interleave] SIZE_MB OUT.json
"""
import argparse
import heapq

WIDTH = 100  # every event line, before its comma
START = 10**12  # ns


def line(ph, pid, tid, ts_ns, name, extra=''):
    ts = ''
    if ts_ns is not None:
        ts = '"ts":%16s,' % ('%d.%03d' % divmod(ts_ns, 1000))
    text = ('{"ph":"%s","pid":%d,"tid":%d,%s"name":"%s"%s}'
            % (ph, pid, tid, ts, name, extra))
    return text.ljust(WIDTH)


def thread_events(pid, tid, index, calls, flow):
    """Yields (ts_ns, line) of one thread, in time order."""
    t = START + 100 * index  # ns
    for k in range(calls):
        if flow == 's':
            yield t, line('s', pid, tid, t, 'msg', ',"id":"%d"' % k)
        yield t, line('B', pid, tid, t, 'outer')
        if flow == 'f':
            yield t, line('f', pid, tid, t, 'msg', ',"id":"%d","bp":"e"' % k)
        yield t + 1000, line('B', pid, tid, t + 1000, 'inner_a')
        yield t + 2500, line('E', pid, tid, t + 2500, 'inner_a')
        yield t + 3000, line('i', pid, tid, t + 3000, 'mark', ',"s":"t"')
        yield t + 3333, line('B', pid, tid, t + 3333, 'inner_b')
        yield t + 4001, line('E', pid, tid, t + 4001, 'inner_b')
        yield t + 5125, line('E', pid, tid, t + 5125, 'outer')
        yield t + 5125, line('C', pid, tid, t + 5125, 'bytes',
                             ',"args":{"value":%d}' % k)
        t += 7777


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--threads', type=int, default=4)
    ap.add_argument('--interleave', action='store_true')
    ap.add_argument('size_mb', type=float)
    ap.add_argument('out')
    a = ap.parse_args()
    per_call = 9 * (WIDTH + 2)  # events of one outer call, with ",\n"
    calls = max(1, int(a.size_mb * 1e6 / per_call / a.threads))
    threads = [(i // 2, i % 2) for i in range(a.threads)]
    meta = [line('M', pid, tid, None, 'thread_name',
                 ',"args":{"name":"thread %d.%d"}' % (pid, tid))
            for pid, tid in threads]
    gens = [thread_events(pid, tid, i, calls,
                          {(0, 0): 's', (0, 1): 'f'}.get((pid, tid)))
            for i, (pid, tid) in enumerate(threads)]
    if a.interleave:
        body = (ln for _, ln in heapq.merge(*gens, key=lambda x: x[0]))
    else:
        body = (ln for g in gens for _, ln in g)
    with open(a.out, 'w') as f:
        f.write('{"traceEvents":[\n')
        first = True
        for ln in (*meta, *body):
            f.write(('' if first else ',\n') + ln)
            first = False
        f.write('\n]}\n')
    for i, (pid, tid) in enumerate(threads):
        first = START + 100 * i
        end = first + (calls - 1) * 7777 + 5125
        print('thread\t%d\t%d\t%d\t%d.%03d\t%d.%03d'
              % (pid, tid, 3 * calls, *divmod(first, 1000), *divmod(end, 1000)))
    print('flows\t%d' % (calls if a.threads >= 2 else 0))


if __name__ == '__main__':
    main()
