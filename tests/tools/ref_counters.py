"""Reference of counters.tsv (doc/analysis.md, "Counters per region"),
computed independently of ccgfs with exact integers (and Fractions).

Calls come from ref_analyze.Trace (otf2-print, calltree's repairs).
Sample values: otf2-print prints doubles to 6 significant digits, so the
exact values come from the OTF2 Python reader (python3-otf2), matched to
otf2-print's METRIC events of each location by their order; without the
reader (or for a location where the two disagree) the printed values
stand, and rows of double members of that location are not exact.

Two ways a member's samples count:
  - on a location with calls (Score-P's PAPI counters, written with the
    ENTER and LEAVE records): the increase at a sample belongs to the
    calls open at its place in the stream (ref_analyze's rule, unchanged);
  - on a METRIC location: it counts for the one CPU thread of its location
    group (charged to that thread's calls: the thread's time cut into
    pieces at every start and end of a call, a piece belonging to the
    innermost call open then, or to `(outside)`), or, when the group has
    no CPU thread or several, over the scope's span (`(span)`).  A value
    between two samples: an accumulated (relative: summed) member's is the
    earlier sample's plus the interpolated increase since, rounded down to
    a whole number of the member's unit (a double member's unit is 2^-64:
    its values are floor(v x 2^64), within +-2^126); an absolute member's
    is held from sample to sample (ABSOLUTE_LAST: the later sample's).

A module of ref_analyze.Trace.counters():

  ref_analyze.py TRACE.otf2 --files counters [--window T0-T1] [...]

prints counters.tsv of the root (or of a group, a location, a window).
"""
import bisect
from fractions import Fraction


U64 = 1 << 64
UNIT = 1 << 64          # a double member's unit: 2^-64
CLAMP = 1 << 62         # double values within +-2^62
OUTSIDE = U64 - 2       # the row of time in no call
SPAN = U64 - 3          # the row of a meter over the scope's span
HEAD = ["region", "metric", "unit", "mode", "calls", "inclusive",
        "exclusive", "mean", "min", "max"]


class Exact(list):
    """A location's METRIC events from the OTF2 Python reader: their
    values (a list per event, in stream order); `times` and `members`
    (member ids per event) beside."""

    def __init__(self):
        super().__init__()
        self.times, self.members = [], []


def exact_metrics(anchor, lids=None):
    """{location id: Exact} of the locations lids (None: all) from the
    OTF2 Python reader; None when it cannot read the trace."""
    if lids is not None and not lids:
        return {}
    try:
        import otf2
    except ImportError:
        return None
    out = {}
    ids = {}
    try:
        with otf2.reader.open(anchor) as r:
            evs = r.events
            if lids is not None:
                want = set(lids)
                evs = evs([l for l in r.definitions.locations
                           if l._ref in want])
            for loc, ev in evs:
                if not isinstance(ev, otf2.events.Metric):
                    continue
                x = out.get(loc._ref)
                if x is None:
                    x = out[loc._ref] = Exact()
                m = ev.metric
                if m not in ids:
                    cls = getattr(m, "metric_class", m)
                    ids[m] = [mm._ref for mm in cls.members]
                x.append(list(ev.values))
                x.times.append(ev.time)
                x.members.append(ids[m])
    except Exception:  # a damaged trace: the printed values stand
        return None
    return out


def is_double(d):
    return d["vtype"] in ("DOUBLE", "FLOAT")


def is_absolute(d):
    return d["mode"].startswith("ABSOLUTE")


def unit_value(d, v):
    """A sample's value in the member's unit (None: NaN, no sample)."""
    if isinstance(v, float):
        if v != v:
            return None
        # exact: a double is n / 2^k
        n, k = max(-float(CLAMP), min(float(CLAMP), v)).as_integer_ratio()
        return (n * UNIT if is_double(d) else n) // k
    v = int(v)
    if is_double(d):
        return max(-CLAMP, min(CLAMP, v)) * UNIT
    return v


def point(q, places):
    sign = "-" if q < 0 else ""
    q = abs(q)
    ip, fp = divmod(q, 10 ** places)
    return "%s%d.%s" % (sign, ip, str(fp).zfill(places))


def decimal3(num, den):
    """num / den rounded half up (towards +infinity) to 3 decimals; `-`
    for a zero denominator."""
    if not den:
        return "-"
    return point((num * 1000 + den // 2) // den, 3)


def shortest(v):
    s = "%.15g" % v
    return s if float(s) == v else "%.17g" % v


class Series:
    """One member's samples of a meter: times, values in its unit (a
    relative member's summed)."""

    def __init__(self, d):
        self.d = d
        self.t, self.v = [], []

    def add(self, t, v):
        if self.d["mode"].startswith("RELATIVE"):
            v = self.v[-1] + v if self.v else 0
        self.t.append(t)
        self.v.append(v)

    def value(self, t):
        """The counter at t (accumulated, relative)."""
        t0, v = self.t, self.v
        if t <= t0[0]:
            return v[0]
        if t >= t0[-1]:
            return v[-1]
        i = bisect.bisect_right(t0, t) - 1  # the last at or before t
        inc = (v[i + 1] - v[i]) * (t - t0[i]) // (t0[i + 1] - t0[i])
        if is_double(self.d):
            inc = inc // UNIT * UNIT
        return v[i] + inc

    def integral(self, a, b):
        """(integral of the value over [a, b), time, values held) of an
        absolute member, within the samples' interval."""
        g = w = 0
        held = []
        last = self.d["mode"] == "ABSOLUTE_LAST"
        # the intervals between samples that [a, b) meets
        j0 = max(0, bisect.bisect_right(self.t, a) - 1)
        j1 = min(len(self.t) - 1, bisect.bisect_left(self.t, b) + 1)
        for j in range(j0, j1):
            x0, x1 = max(a, self.t[j]), min(b, self.t[j + 1])
            if x1 > x0:
                val = self.v[j + 1] if last else self.v[j]
                g += val * (x1 - x0)
                w += x1 - x0
                held.append(val)
        return g, w, held

    def counted(self, a, b):
        return min(b, self.t[-1]) > max(a, self.t[0])


class Counters:
    """counters.tsv of the scopes of trace tr (a ref_analyze.Trace);
    exact: exact_metrics() of its anchor, or None."""

    def __init__(self, tr, exact=None):
        self.tr = tr
        self.exact = exact or {}
        self.defs = tr.defs
        threads = {}
        for lid, _, ltype, group in self.defs.locations:
            if ltype == "CPU_THREAD":
                threads.setdefault(group, []).append(lid)
        # A METRIC location counts for its group's one CPU thread, else
        # over the span.
        self.meter_for = {}
        self.meters = {}
        for lid, _, ltype, group in self.defs.locations:
            if ltype != "METRIC":
                continue
            t = threads.get(group, [])
            if len(t) == 1 and group in self.defs.groups:
                self.meter_for[lid] = t[0]
                self.meters.setdefault(t[0], []).append(lid)
            else:
                self.meter_for[lid] = SPAN
        self._series = {}
        self._rows = {}         # (location, s0, s1, outside) -> rows
        self._exact_ok = {}

    # -- samples --
    def samples(self, l):
        """Per member: [(event index, time, value)] in stream order; the
        exact values where the reader has them."""
        import ref_analyze as ra
        out = {}
        exact = self.exact.get(l.id) if self.exact_location(l.id) \
            else None
        k_ev = 0
        for idx, e in enumerate(l.events):
            if e[0] != "METRIC":
                continue
            m = ra.METRIC_EV_RE.match(e[4])
            if not m:
                raise ValueError("metric event not understood: " + e[4])
            ids = self.defs.class_members(int(m.group(1)))
            if exact is not None and ids is not None and \
                    len(ids) >= len(exact[k_ev]):
                for k, value in enumerate(exact[k_ev]):
                    out.setdefault(ids[k], []).append((idx, e[1], value))
                k_ev += 1
                continue
            vals = ra.VALUE_RE.findall(m.group(3))
            for k, (mid, vtype, text) in enumerate(vals):
                member = ids[k] if ids is not None and k < len(ids) \
                    else int(mid)
                if exact is not None and k < len(exact[k_ev]):
                    value = exact[k_ev][k]
                else:
                    value = float(text) if vtype in ("DOUBLE", "FLOAT") \
                        else int(text)
                out.setdefault(member, []).append((idx, e[1], value))
            k_ev += 1
        return out

    def exact_location(self, lid):
        """Whether the reader's METRIC events of lid are otf2-print's."""
        if lid not in self._exact_ok:
            l = self.tr.loc[lid]
            ex = self.exact.get(lid)
            self._exact_ok[lid] = ex is not None and \
                len(ex) == sum(1 for e in l.events if e[0] == "METRIC") \
                and ex.times == [e[1] for e in l.events
                                 if e[0] == "METRIC"]
        return self._exact_ok[lid]

    def series(self, lid):
        """A meter's series by member (none when its times fall)."""
        if lid not in self._series:
            l = self.tr.loc[lid]
            out = {}
            ex = self.exact.get(lid) if self.exact_location(lid) else None
            if l.times != sorted(l.times):
                pass
            elif ex is not None:
                self._series_exact(ex, out)
            else:
                for member, samples in self.samples(l).items():
                    d = self.defs.members.get(member)
                    if d is None:
                        continue
                    s = out.setdefault(member, Series(d))
                    for _, t, v in samples:
                        u = unit_value(d, v)
                        if u is not None:
                            s.add(t, u)
            self._series[lid] = out
        return self._series[lid]

    def _series_exact(self, ex, out):
        """Series from the reader's values (the same as unit_value's,
        inline: the largest meters hold hundreds of thousands)."""
        lim = float(CLAMP)
        for t, ids, vals in zip(ex.times, ex.members, ex):
            for member, v in zip(ids, vals):
                s = out.get(member)
                if s is None:
                    d = self.defs.members.get(member)
                    if d is None:
                        continue
                    s = out[member] = Series(d)
                    s.dbl = is_double(d)
                if isinstance(v, float):
                    if v != v:
                        continue
                    n, k = max(-lim, min(lim, v)).as_integer_ratio()
                    u = ((n << 64) if s.dbl else n) // k
                elif s.dbl:
                    u = max(-CLAMP, min(CLAMP, v)) << 64
                else:
                    u = v
                s.add(t, u)

    # -- samples written with the calls (ref_analyze's rule) --
    def same_location(self, lids, t0, t1):
        acc = {}
        for lid in lids:
            l = self.tr.loc[lid]
            if not l.acts:
                continue
            if t0 is None:
                lo, hi = 0, len(l.events)
            else:
                lo = bisect.bisect_left(l.times, t0)
                hi = bisect.bisect_left(l.times, t1)
            for member, samples in self.samples(l).items():
                d = self.defs.members.get(member)
                if d is None:
                    continue
                mode = d["mode"].split("_")[0]
                if mode not in ("ACCUMULATED", "RELATIVE", "ABSOLUTE"):
                    continue
                exact = not is_double(d)
                for k in range(1, len(samples)):
                    (pi, pt, pv), (ci, ct, cv) = samples[k - 1], samples[k]
                    # Both samples in the scope; the one before the
                    # scope's first among the 64 events before it.
                    if not lo <= ci < hi or pi < lo - 64:
                        continue
                    a = l.at[ci]
                    if a is None:
                        continue
                    if mode == "ABSOLUTE":
                        val = cv if d["mode"] == "ABSOLUTE_LAST" else pv
                        w = ct - pt
                        key = (member, l.acts[a][0])
                        s = acc.setdefault(key, {"vw": 0, "w": 0,
                                                 "min": None, "max": None})
                        s["vw"] += (val * w) if exact else float(val) * w
                        s["w"] += w
                        if w > 0:
                            s["min"] = val if s["min"] is None else \
                                min(s["min"], val)
                            s["max"] = val if s["max"] is None else \
                                max(s["max"], val)
                        continue
                    incr = cv - pv if mode == "ACCUMULATED" else cv
                    seen = set()
                    j = a
                    while j is not None:
                        rid = l.acts[j][0]
                        if rid not in seen:
                            seen.add(rid)
                            s = acc.setdefault((member, rid),
                                               {"incl": 0, "excl": 0})
                            s["incl"] += incr
                            if j == a:
                                s["excl"] += incr
                        j = l.acts[j][4]
        return acc

    # -- meters --
    def pieces(self, lid, s0, s1):
        """The thread's time in [s0, s1) cut at every start and end of a
        call: [(a, b, innermost call index or None)]; and the outermost
        calls of their region, cut to [s0, s1]: [(a, b, region)]."""
        l = self.tr.loc[lid]
        acts = l.acts
        depth = []
        for a in acts:
            depth.append(0 if a[4] is None else depth[a[4]] + 1)
        evs = []
        for i, a in enumerate(acts):
            if a[3] <= 0:
                continue
            evs.append((a[2], 1, depth[i], i))
            evs.append((a[2] + a[3], 0, -depth[i], i))
        evs.sort()
        stack, out, cur = [], [], s0
        for t, kind, _, i in evs:
            t = max(s0, min(s1, t))
            if t > cur:
                out.append((cur, t, stack[-1] if stack else None))
                cur = t
            if kind:
                stack.append(i)
            elif i in stack:
                stack.remove(i)
        if s1 > cur:
            out.append((cur, s1, stack[-1] if stack else None))
        outer = []
        for i, a in enumerate(acts):
            p, nested = a[4], False
            while p is not None:
                nested |= acts[p][0] == a[0]
                p = acts[p][4]
            if nested or a[3] <= 0:
                continue
            x0, x1 = max(s0, a[2]), min(s1, a[2] + a[3])
            if x1 > x0:
                outer.append((x0, x1, a[0]))
        return out, outer

    def meter_rows(self, lids, s0, s1, outside=True):
        """{(member, region): sums} of the meters in the scope: those of
        each location, added."""
        rows = {}
        for lid in lids:
            key = (lid, s0, s1, outside)
            if key not in self._rows:
                self._rows[key] = self.location_rows(lid, s0, s1, outside)
            for k, r in self._rows[key].items():
                x = rows.setdefault(k, {"incl": 0, "excl": 0, "g": 0,
                                        "w": 0, "held": []})
                for f in ("incl", "excl", "g", "w"):
                    x[f] += r[f]
                x["held"] = x["held"] + r["held"]
        return rows

    def location_rows(self, lid, s0, s1, outside):
        """What the meters count in location lid over [s0, s1]."""
        rows = {}

        def row(member, region):
            return rows.setdefault((member, region), {
                "incl": 0, "excl": 0, "g": 0, "w": 0, "held": []})

        def add(member, region, s, a, b):
            if not s.counted(a, b):
                return
            r = row(member, region)
            if is_absolute(s.d):
                g, w, held = s.integral(a, b)
                r["g"] += g
                r["w"] += w
                r["held"] += held
            else:
                r["excl"] += s.value(b) - s.value(a)

        if self.meter_for.get(lid) == SPAN and outside:
            for member, s in self.series(lid).items():
                if s.t:
                    add(member, SPAN, s, s0, s1)
        ms = [self.series(m) for m in self.meters.get(lid, [])]
        ms = [(member, s) for x in ms for member, s in x.items() if s.t]
        if not ms:
            return rows
        pieces, outer = self.pieces(lid, s0, s1)
        acts = self.tr.loc[lid].acts
        for a, b, i in pieces:
            region = OUTSIDE if i is None else acts[i][0]
            if i is None and not outside:
                continue
            for member, s in ms:
                add(member, region, s, a, b)
        for a, b, region in outer:
            for member, s in ms:
                if not is_absolute(s.d) and s.counted(a, b):
                    row(member, region)["incl"] += s.value(b) - s.value(a)
        return rows

    def calls(self, lids, t0=None, t1=None):
        """Calls per region: as stats.tsv counts them, and in a window
        also those open at its start (the calls its sums cover)."""
        out = dict(self.tr.calls(lids, t0, t1))
        if t0 is not None and self.tr.first is not None:
            s0, _ = self.tr.span(t0, t1)
            for lid in lids:
                for a in self.tr.loc[lid].acts:
                    if a[2] < s0 < a[2] + a[3]:
                        out[a[0]] = out.get(a[0], 0) + 1
        return out

    # -- the table --
    def doubles_inexact(self):
        """Names of double members whose rows' values are not exact:
        those recorded on locations with calls (sums of doubles in
        ccgfs), and those of meters whose exact values are not known."""
        out = set()
        for l in self.tr.loc.values():
            if not l.acts and (l.id not in self.meter_for or
                               self.exact_location(l.id)):
                continue
            for member in self.samples(l):
                d = self.defs.members.get(member)
                if d is not None and is_double(d):
                    out.add(d["name"])
        return out

    def table(self, lids, t0=None, t1=None):
        import ref_analyze as ra
        tr = self.tr
        acc = self.same_location(lids, t0, t1)
        s0, s1 = tr.span(t0, t1)
        mrows = self.meter_rows(lids, s0, s1) if tr.first is not None \
            else {}
        ncalls = self.calls(lids, t0, t1)
        res = tr.res or 0
        rows = [list(HEAD)]
        for member, d in self.defs.members.items():
            dbl, absolute = is_double(d), is_absolute(d)
            mode = d["mode"].split("_")[0].lower()
            unit = ra.unit_text(d["unit"], d["base"], d["exp"])
            watts = absolute and d["unit"] == "W" and d["exp"] == 0
            scale = UNIT if dbl else 1
            body = []

            def head(rid, unit_col, mode_col):
                if rid == OUTSIDE:
                    name, c = "(outside)", "-"
                elif rid == SPAN:
                    name, c = "(span)", "-"
                else:
                    name = ra.escape(tr.defs.regions[rid][0])
                    c = str(ncalls.get(rid, 0))
                return [name, ra.escape(d["name"]), unit_col, mode_col, c]

            for (m, rid), s in acc.items():
                if m != member:
                    continue
                c = ncalls.get(rid, 0)
                out = [head(rid, unit, mode)]
                if absolute:
                    if not dbl:
                        mean = decimal3(s["vw"], s["w"]) if s["w"] > 0 \
                            else "-"
                        ext = [str(x) if x is not None else "-"
                               for x in (s["min"], s["max"])]
                        joules = decimal3(s["vw"], res) if res else "-"
                    else:
                        mean = shortest(s["vw"] / s["w"]) if s["w"] > 0 \
                            else "-"
                        ext = [shortest(x) if x is not None else "-"
                               for x in (s["min"], s["max"])]
                        joules = shortest(s["vw"] / res) if res else "-"
                    out[0] += ["-", "-", mean] + ext
                    if watts:
                        out.append(head(rid, "J", "energy") +
                                   ["-", joules, "-", "-", "-"])
                    body.append(((0, rid), out))
                    continue
                if not dbl:
                    incl, excl = ra.signed64(s["incl"]), ra.signed64(s["excl"])
                    vals = [str(incl), str(excl), decimal3(incl, c)]
                    key = excl * 1
                else:
                    incl, excl = s["incl"], s["excl"]
                    vals = [shortest(incl), shortest(excl),
                            shortest(incl / c) if c else "-"]
                    key = (Fraction(max(-CLAMP, min(CLAMP, excl))) *
                           UNIT).__trunc__()
                out[0] += vals + ["-", "-"]
                body.append(((-key, rid), out))
            for (m, rid), s in mrows.items():
                if m != member:
                    continue
                pseudo = rid in (OUTSIDE, SPAN)
                c = ncalls.get(rid, 0)

                def val(x):
                    return shortest(float(Fraction(x, UNIT))) if dbl \
                        else str(x)
                out = [head(rid, unit, mode)]
                if absolute:
                    held = s["held"]
                    out[0] += ["-", "-", decimal3(s["g"], s["w"] * scale),
                               val(min(held)) if held else "-",
                               val(max(held)) if held else "-"]
                    if watts:
                        out.append(head(rid, "J", "energy") + [
                            "-", decimal3(s["g"], res * scale)
                            if res else "-", "-", "-", "-"])
                    body.append(((0, rid), out))
                    continue
                incl = s["excl"] if pseudo else s["incl"]
                mean = "-" if pseudo or not c else decimal3(incl, c * scale)
                out[0] += [val(incl), val(s["excl"]), mean, "-", "-"]
                body.append(((-s["excl"], rid), out))
            body.sort(key=lambda x: x[0])
            for _, out in body:
                rows += out
        return rows
