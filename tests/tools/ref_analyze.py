#!/usr/bin/python3
"""Reference answers for summary.tsv, efficiency.tsv, longest.tsv and
counters.tsv (doc/analysis.md), computed from `otf2-print` output alone
with exact integers, independently of ccgfs (counters.tsv in
tools/ref_counters.py, which also reads the exact values of doubles with
the OTF2 Python reader).

Definitions come from `otf2-print -G`: regions (paradigm, role), location
groups, locations (type, group), metric members (mode, value type, unit),
metric classes and instances, the clock (resolution, offset).  Events come
from `otf2-print -L ID` per location (through otf2_split, one run per
trace); calls are rebuilt by calltree.activations with the repairs ccgfs
makes, calls still open closing at the location's last timestamp.

Tables come back as rows of strings in the mount's form, except that a
location is named by its id (the `location` column of summary.tsv and
longest.tsv, the `slowest_location`, `fastest_location` and `left_out`
values of efficiency.tsv); longest.tsv has no `path` column (the oracle
makes no directory names).  A window is [T0, T1) in absolute ticks.

  ref_analyze.py TRACE.otf2 [--window T0-T1] [--group ID | --location ID]
                 [--longest N] [--files summary,efficiency,longest,counters]

prints the tables of the root (or of the group or location), or of the
window T0-T1 given in ticks since the trace's zero.
"""
import argparse
import bisect
import os
import re
import subprocess
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import calltree  # noqa: E402

# OTF2's enumerations, by number (otf2-print may print `"MPI" <4>` or
# `INVALID <40>` instead of a name).
PARADIGMS = ["UNKNOWN", "USER", "COMPILER", "OPENMP", "MPI", "CUDA",
             "MEASUREMENT_SYSTEM", "PTHREAD", "HMPP", "OMPSS", "HARDWARE",
             "GASPI", "UPC", "SHMEM", "WINTHREAD", "QTTHREAD", "ACETHREAD",
             "TBBTHREAD", "OPENACC", "OPENCL", "MTAPI", "SAMPLING", "NONE",
             "HIP", "KOKKOS"]
ROLES = ["UNKNOWN", "FUNCTION", "WRAPPER", "LOOP", "CODE", "PARALLEL",
         "SECTIONS", "SECTION", "WORKSHARE", "SINGLE", "SINGLE_SBLOCK",
         "MASTER", "CRITICAL", "CRITICAL_SBLOCK", "ATOMIC", "BARRIER",
         "IMPLICIT_BARRIER", "FLUSH", "ORDERED", "ORDERED_SBLOCK", "TASK",
         "TASK_CREATE", "TASK_WAIT", "COLL_ONE2ALL", "COLL_ALL2ONE",
         "COLL_ALL2ALL", "COLL_OTHER", "FILE_IO", "POINT2POINT", "RMA",
         "DATA_TRANSFER", "ARTIFICIAL", "THREAD_CREATE", "THREAD_WAIT",
         "TASK_UNTIED", "ALLOCATE", "DEALLOCATE", "REALLOCATE",
         "FILE_IO_METADATA"]
LOCATION_TYPES = ["UNKNOWN", "CPU_THREAD", "ACCELERATOR_STREAM", "METRIC"]

CATEGORIES = ["computation", "mpi_p2p", "mpi_collective", "mpi_other",
              "openmp", "accelerator", "io", "measurement", "idle",
              "outside"]
MPI_LIKE = {"MPI", "SHMEM", "GASPI", "UPC"}
THREADING = {"OPENMP", "PTHREAD", "WINTHREAD", "QTTHREAD", "ACETHREAD",
             "TBBTHREAD", "OMPSS"}
ACCEL = {"CUDA", "HIP", "OPENCL", "OPENACC", "HMPP"}
COLLECTIVE = {"BARRIER", "COLL_ONE2ALL", "COLL_ALL2ONE", "COLL_ALL2ALL",
              "COLL_OTHER"}
OPENMP_ROLES = {"BARRIER", "IMPLICIT_BARRIER", "TASK_WAIT", "CRITICAL",
                "ATOMIC", "FLUSH", "ORDERED", "TASK_CREATE", "THREAD_CREATE",
                "THREAD_WAIT", "FUNCTION", "WRAPPER", "ARTIFICIAL",
                "UNKNOWN"}
CONSTRUCT_ROLES = {"LOOP", "CODE", "PARALLEL", "SECTIONS", "SECTION",
                   "WORKSHARE", "SINGLE", "SINGLE_SBLOCK", "MASTER",
                   "CRITICAL_SBLOCK", "ORDERED_SBLOCK", "TASK",
                   "TASK_UNTIED"}
ACC_CONSTRUCTS = ("acc_compute", "acc_data", "acc_parallel", "acc_kernels",
                  "acc_serial")
TASK_ROLES = {"TASK", "TASK_UNTIED"}
MPI_CATS = {"mpi_p2p", "mpi_collective", "mpi_other"}
GPU_TYPES = {"ACCELERATOR_STREAM", "GPU"}
U64 = 1 << 64


def category(name, paradigm, role):
    """A region's category from its name, paradigm and role (analysis.md's
    table, the first matching line)."""
    if name == "<idle>" or name.startswith("<idle> "):
        return "idle"
    if name == "lo2s" or name.startswith(("lo2s ", "lo2s:")):
        return "measurement"
    if role in ("FILE_IO", "FILE_IO_METADATA"):
        return "io"
    if role == "ARTIFICIAL" and name in ("TRACE BUFFER FLUSH",
                                         "MEASUREMENT OFF"):
        return "measurement"
    if paradigm == "MEASUREMENT_SYSTEM":
        if role == "ARTIFICIAL" or name == "APEX MAIN":
            return "computation"
        return "measurement"
    if paradigm in ACCEL and role == "ARTIFICIAL":
        return "measurement"
    if paradigm == "OPENACC" and any(name == c or name.startswith(c + "@")
                                     for c in ACC_CONSTRUCTS):
        return "computation"
    if paradigm in ACCEL and role in CONSTRUCT_ROLES:
        return "computation"
    if paradigm in MPI_LIKE:
        if role == "ARTIFICIAL":
            return "computation"
        if role == "POINT2POINT":
            return "mpi_p2p"
        if role in COLLECTIVE:
            return "mpi_collective"
        return "mpi_other"
    if paradigm in THREADING and role in OPENMP_ROLES:
        return "openmp"
    if paradigm in ACCEL:
        return "accelerator"
    return "computation"


# ---- numbers (analysis.md, "Numbers") -------------------------------------

def decimals(res):
    """The fewest decimals dec with 10^dec >= res."""
    dec = 0
    while 10 ** dec < res:
        dec += 1
    return dec


def point(q, places):
    """Integer q printed with the point `places` from the right."""
    sign = "-" if q < 0 else ""
    q = abs(q)
    if not places:
        return sign + str(q)
    ip, fp = divmod(q, 10 ** places)
    return "%s%d.%s" % (sign, ip, str(fp).zfill(places))


def seconds(ticks, res):
    """A duration (or a time since the zero) in seconds; `-` without a
    resolution."""
    if not res:
        return "-"
    dec = decimals(res)
    return point((ticks * 10 ** dec + res // 2) // res, dec)


def mean_seconds(total, n, res):
    """total / n ticks in seconds; `-` without a resolution or n."""
    if not res or not n:
        return "-"
    dec = decimals(res)
    return point((total * 10 ** dec + (n * res) // 2) // (n * res), dec)


def share(num, den, places):
    """num / den, with 4 digits of the quotient (x 10^4) rounded half up,
    the point `places` from the right: 2 for a percentage, 4 for a ratio;
    `-` for a zero denominator."""
    if not den:
        return "-"
    return point((num * 10 ** 4 + den // 2) // den, places)


def ratio(f):
    """A Fraction (or None: undefined) as a ratio with 4 decimals."""
    if f is None:
        return "-"
    return share(f.numerator, f.denominator, 4)


def fdiv(a, b):
    """a / b as a Fraction; None when either is undefined or b is zero."""
    if a is None or b is None or b == 0:
        return None
    return Fraction(a) / Fraction(b)


def decimal3(num, den):
    """num / den rounded half up to 3 decimals (counters' means); `-` for
    a zero denominator."""
    if not den:
        return "-"
    return point((num * 1000 + den // 2) // den, 3)


def signed64(v):
    v %= U64
    return v - U64 if v >= 1 << 63 else v


def shortest(v):
    s = "%.15g" % v
    return s if float(s) == v else "%.17g" % v


def escape(s):
    if not s:
        return "-"
    return (s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
            .replace("\r", "\\r").replace('"', '\\"'))


def unit_text(unit, base, exp):
    """The unit column as metrics.tsv writes it: a scale in front."""
    if exp:
        scale = ("2^" if base == "BINARY" else "10^") + str(exp)
        return scale + (" " + escape(unit) if unit else "")
    return escape(unit)


# ---- definitions ----------------------------------------------------------

CLOCK_RE = re.compile(r"Ticks per Seconds: (\d+), Global Offset: (\d+)")
ENUM = r'(?:"[^"]*" <(\d+)>|(\w+)(?: <(\d+)>)?)'
REGION_DEF_RE = re.compile(r'^REGION\s+(\d+)\s+Name: "(.*)" <\d+> \(Aka\. ',
                           re.S)
ROLE_PAR_RE = re.compile(r', Role: ' + ENUM + r', Paradigm: ' + ENUM +
                         r', Flags: ')
GROUP_DEF_RE = re.compile(r'^LOCATION_GROUP\s+(\d+)\s+Name: "(.*)" <\d+>, '
                          r'Type: ', re.S)
LOC_DEF_RE = re.compile(r'^LOCATION\s+(\d+)\s+Name: "(.*)" <\d+>, Type: '
                        r'(\w+)(?: <(\d+)>)?, # Events: (\d+), '
                        r'Group: "(.*)" <(\d+)>$', re.S)
MEMBER_DEF_RE = re.compile(
    r'^METRIC_MEMBER\s+(\d+)\s+Name: "(.*)" <\d+>, Descr\.: .*, '
    r'Type: \w+(?: <\d+>)?, Mode: (\w+)(?: <(\d+)>)?, '
    r'Value Type: (\w+)(?: <\d+>)?, '
    r'Base: (\w+)(?: <\d+>)?, Exponent: (-?\d+), Unit: (?:"(.*)" <\d+>|'
    r'UNDEFINED)$', re.S)
CLASS_DEF_RE = re.compile(r'^METRIC_CLASS\s+(\d+)\s+.*?\d+ Members?: (.*)$')
INSTANCE_DEF_RE = re.compile(r'^METRIC_INSTANCE\s+(\d+)\s+Class: (\d+),')
MEMBER_REF_RE = re.compile(r'" <(\d+)>(?=, "|$)')
COMM_DEF_RE = re.compile(r'^COMM\s+(\d+)\s+Name: .*, Group: (?:"[^"]*" <(\d+)>|'
                         r'UNDEFINED)')
GROUP_SIZE_RE = re.compile(r'^GROUP\s+(\d+)\s+Name: .*, Type: (\w+).*?'
                           r', (\d+) Members?')
# An MPI message record: its peer (the location otf2-print names), its
# communicator and tag; a collective's end: operation, communicator, root.
P2P_RE = re.compile(r'(Receiver|Sender): \d+ \(.*?<(\d+)>\), Communicator: '
                    r'.*?<(\d+)>, Tag: (\d+)')
COLL_RE = re.compile(r'Operation: (\w+), Communicator: .*?<(\d+)>, Root: '
                     r'(?:\d+ \(.*?<(\d+)>\)|(\S+))')
METRIC_EV_RE = re.compile(r'^Metric: (\d+), (\d+) Values?: ?(.*)$')
VALUE_RE = re.compile(r'<(\d+)>; (\w+); ([^);]*)\)')
METRIC_MODES = {  # OTF2_MetricMode by number
    0: "ACCUMULATED_START", 2: "ACCUMULATED_POINT", 3: "ACCUMULATED_LAST",
    4: "ACCUMULATED_NEXT", 17: "ABSOLUTE_POINT", 18: "ABSOLUTE_LAST",
    19: "ABSOLUTE_NEXT", 34: "RELATIVE_POINT", 35: "RELATIVE_LAST",
    36: "RELATIVE_NEXT"}


def enum_name(names, groups):
    """A name from ENUM's groups (number in quotes' form, word, number
    after the word): by number where otf2-print gives one."""
    quoted, word, num = groups
    n = quoted if quoted is not None else num
    if n is None:
        return word
    n = int(n)
    return names[n] if n < len(names) else "#%d" % n


class Definitions:
    """What `otf2-print -G TRACE` says, as far as the analysis needs."""

    def __init__(self, text):
        self.res = None
        self.offset = None
        self.regions = {}     # id -> (name, paradigm, role)
        self.groups = {}      # id -> name
        self.locations = []   # (id, name, type, group id), definition order
        self.members = {}     # id -> dict; definition order
        self.classes = {}     # id -> [member ids]
        self.instances = {}   # id -> class id
        self.comm_group = {}  # communicator id -> its group id
        self.group_size = {}  # group id -> members (COMM_SELF: 0)
        self.self_groups = set()  # groups of type COMM_SELF
        for line in self._records(text.splitlines()):
            if line.startswith("CLOCK_PROPERTIES"):
                m = CLOCK_RE.search(line)
                if m:
                    self.res = int(m.group(1)) or None
                    self.offset = int(m.group(2))
            elif line.startswith("REGION "):
                m = REGION_DEF_RE.match(line)
                rp = [x.groups() for x in ROLE_PAR_RE.finditer(line)]
                if not m or not rp:
                    raise ValueError("region not understood: " + line)
                role = enum_name(ROLES, rp[-1][:3])
                paradigm = enum_name(PARADIGMS, rp[-1][3:])
                self.regions[int(m.group(1))] = (m.group(2), paradigm, role)
            elif line.startswith("LOCATION_GROUP "):
                m = GROUP_DEF_RE.match(line)
                if m:
                    self.groups[int(m.group(1))] = m.group(2)
            elif line.startswith("LOCATION "):
                m = LOC_DEF_RE.match(line)
                if not m:
                    raise ValueError("location not understood: " + line)
                ltype = m.group(3)
                if m.group(4) is not None:
                    n = int(m.group(4))
                    ltype = LOCATION_TYPES[n] if n < len(LOCATION_TYPES) \
                        else "#%d" % n
                self.locations.append((int(m.group(1)), m.group(2), ltype,
                                       int(m.group(7))))
            elif line.startswith("METRIC_MEMBER "):
                m = MEMBER_DEF_RE.match(line)
                if not m:
                    raise ValueError("metric member not understood: " + line)
                mode = m.group(3)
                if m.group(4) is not None:
                    mode = METRIC_MODES.get(int(m.group(4)), mode)
                self.members[int(m.group(1))] = {
                    "name": m.group(2), "mode": mode, "vtype": m.group(5),
                    "base": m.group(6), "exp": int(m.group(7)),
                    "unit": m.group(8) or ""}
            elif line.startswith("METRIC_CLASS "):
                m = CLASS_DEF_RE.match(line)
                if m:
                    self.classes[int(m.group(1))] = [
                        int(x) for x in MEMBER_REF_RE.findall(m.group(2))]
            elif line.startswith("COMM "):
                m = COMM_DEF_RE.match(line)
                if m and m.group(2) is not None:
                    self.comm_group[int(m.group(1))] = int(m.group(2))
            elif line.startswith("GROUP "):
                m = GROUP_SIZE_RE.match(line)
                if m:
                    self.group_size[int(m.group(1))] = \
                        0 if m.group(2) == "COMM_SELF" else int(m.group(3))
                    if m.group(2) == "COMM_SELF":
                        self.self_groups.add(int(m.group(1)))
            elif line.startswith("METRIC_INSTANCE "):
                m = INSTANCE_DEF_RE.match(line)
                if m:
                    self.instances[int(m.group(1))] = int(m.group(2))

    RECORD_RE = {"REGION ": ROLE_PAR_RE, "LOCATION ": LOC_DEF_RE,
                 "LOCATION_GROUP ": GROUP_DEF_RE,
                 "METRIC_MEMBER ": MEMBER_DEF_RE}

    @classmethod
    def _records(cls, lines):
        """The definitions one per item: a name holding a newline spreads
        a record over several lines (at most 8 are joined)."""
        i = 0
        while i < len(lines):
            line = lines[i]
            i += 1
            rx = next((r for k, r in cls.RECORD_RE.items()
                       if line.startswith(k)), None)
            if rx is None or rx.search(line):
                yield line
                continue
            joined = line
            for j in range(i, min(i + 8, len(lines))):
                joined += "\n" + lines[j]
                if rx.search(joined):
                    line, i = joined, j + 1
                    break
            yield line

    def class_members(self, metric):
        """The member ids of a METRIC event's class or instance."""
        if metric in self.instances:
            return self.classes.get(self.instances[metric])
        return self.classes.get(metric)


# ---- locations ------------------------------------------------------------

class Location:
    """One location's events, calls and what each call means.

    acts[i] = [region, name, start, duration, parent, nested] in Enter
    order (a parent comes before its callees); per call: eff[i], the
    category of its exclusive time (its region's; on an accelerator
    stream always `accelerator`), mpi[i] (its region is an mpi_* one).
    `works`: it has calls."""

    def __init__(self, lid, ltype, group, events, defs):
        self.id, self.type, self.group = lid, ltype, group
        self.events = events
        self.times = [e[1] for e in events]
        self.first = min(self.times) if events else None
        self.last = max(self.times) if events else None
        self.at = []
        self.acts = calltree.activations(events, at=self.at)
        self.works = bool(self.acts)
        self.stream = ltype in GPU_TYPES
        n = len(self.acts)
        self.cat, self.eff = [None] * n, [None] * n
        self.mpi = [False] * n
        for i, a in enumerate(self.acts):
            name, paradigm, role = defs.regions.get(a[0], ("", "UNKNOWN",
                                                           "UNKNOWN"))
            cat = self.cat[i] = category(name, paradigm, role)
            self.eff[i] = "accelerator" if self.stream else cat
            self.mpi[i] = self.eff[i] in MPI_CATS
        self.starts = [a[2] for a in self.acts]

    def clips(self, s0, s1):
        """(index, ticks inside [s0, s1)) of every call with time there;
        None, None: the whole trace (every call whole)."""
        if s0 is None:
            for i, a in enumerate(self.acts):
                yield i, a[3]
            return
        for i in range(bisect.bisect_left(self.starts, s1)):
            a = self.acts[i]
            c = min(a[2] + a[3], s1) - max(a[2], s0)
            if c > 0:
                yield i, c

    def self_times(self, s0, s1):
        """Per call, its time in [s0, s1) when it is the innermost call
        ({index: ticks}), and the time inside any call."""
        own, inside = {}, 0
        for i, c in self.clips(s0, s1):
            own[i] = own.get(i, 0) + c
            p = self.acts[i][4]
            if p is None:
                inside += c
            else:
                own[p] = own.get(p, 0) - c
        return own, inside


# ---- the trace ------------------------------------------------------------

class Trace:
    """A trace's definitions and every location's calls.  `order` gives
    the locations' order (ids, as in locations.tsv); default: definition
    order."""

    def __init__(self, defs_text, events, order=None):
        """defs_text: what `otf2-print -G` prints; events: location id ->
        its events (calltree.parse_events), None when otf2-print cannot
        show them."""
        self.defs = Definitions(defs_text)
        self.res = self.defs.res
        self.loc = {}
        # Locations the reference cannot follow: names otf2-print splits
        # over lines.
        self.broken = []
        for lid, _name, ltype, group in self.defs.locations:
            ev = events.get(lid)
            if ev is None:
                self.broken.append(lid)
            self.loc[lid] = Location(lid, ltype, group, ev or [], self.defs)
        ids = [l[0] for l in self.defs.locations]
        self.order = list(order) if order is not None else ids
        self.rank = {lid: k for k, lid in enumerate(self.order)}
        times = [(l.first, l.last) for l in self.loc.values()
                 if l.first is not None]
        self.first = min(t[0] for t in times) if times else None
        self.last = max(t[1] for t in times) if times else None
        off = self.defs.offset or 0
        self.zero = off if self.first is None or self.first >= off \
            else self.first
        # A group's master: its first CPU thread (in `order`); the other
        # CPU threads are workers when the trace has OpenMP PARALLEL
        # regions.
        self.master = {}
        for lid in self.order:
            l = self.loc[lid]
            if l.type == "CPU_THREAD" and l.group not in self.master:
                self.master[l.group] = lid
        # Workers: the other CPU threads of a group, in a trace with
        # PARALLEL regions of a threading paradigm or task regions.
        self.omp_parallel = any((p in THREADING and r == "PARALLEL") or
                                r in TASK_ROLES for
                                _, p, r in self.defs.regions.values())
        # No call of a computation region anywhere: the time between
        # calls is computation.
        self.runtime_only = not any(
            c == "computation" for l in self.loc.values() for c in l.cat)
        cpus = {}
        for l in self.loc.values():
            if l.type == "CPU_THREAD":
                cpus[l.group] = cpus.get(l.group, 0) + 1
        # Hybrid: the definitions have MPI regions, and some group has
        # several CPU threads.
        mpi_regions = any(p == "MPI" for _, p, _ in
                          self.defs.regions.values())
        self.hybrid = mpi_regions and any(n > 1 for n in cpus.values())
        self.comm_size = {c: self.defs.group_size.get(g, 0)
                          for c, g in self.defs.comm_group.items()}
        self.defs.self_comms = {c for c, g in self.defs.comm_group.items()
                                if g in self.defs.self_groups}

    @classmethod
    def load(cls, anchor, order=None):
        """The trace of an anchor file, through otf2-print."""
        text = subprocess.run(["otf2-print", "-G", anchor], check=True,
                              capture_output=True, text=True,
                              errors="replace").stdout
        ids = [int(l.split()[1]) for l in text.splitlines()
               if l.startswith("LOCATION ")]
        tr = cls(text, {lid: calltree.location_events(anchor, lid)
                        for lid in ids}, order)
        import ref_counters
        tr.exact = ref_counters.exact_metrics(anchor, [
            lid for lid, l in tr.loc.items()
            if any(e[0] == "METRIC" for e in l.events)])
        return tr

    # -- scopes --
    def root(self):
        return list(self.order)

    def group(self, gid):
        return [lid for lid in self.order if self.loc[lid].group == gid]

    def in_window(self, lids):
        """A window's locations: those with events."""
        return [lid for lid in lids if self.loc[lid].first is not None]

    def span(self, t0=None, t1=None):
        """The scope's span (s0, s1): the trace's, or [t0, t1) cut to it."""
        if self.first is None:
            return 0, 0
        if t0 is None:
            return self.first, self.last
        s0, s1 = max(t0, self.first), min(t1, self.last)
        return s0, max(s0, s1)

    def _clip_window(self, t0, t1):
        """The span for clipping calls: None, None for the whole trace."""
        if t0 is None:
            return None, None
        return self.span(t0, t1)

    # -- summary.tsv --
    def worker(self, lid):
        l = self.loc[lid]
        return l.type == "CPU_THREAD" and self.omp_parallel and \
            self.master.get(l.group) != lid

    def columns(self, lid, t0=None, t1=None):
        """{category or outside: ticks} of a location in the scope."""
        s0, s1 = self.span(t0, t1)
        c0, c1 = self._clip_window(t0, t1)
        l = self.loc[lid]
        cats = dict.fromkeys(CATEGORIES, 0)
        own, inside = l.self_times(c0, c1)
        for i, v in own.items():
            cats[l.eff[i]] += v
        # Between its calls, from its first to its last event.
        act = (max(l.first, s0), min(l.last, s1)) \
            if l.first is not None else (1, 0)
        gap = max(0, max(0, act[1] - act[0]) - inside)
        if self.worker(lid) or l.stream:
            cats["idle"] += gap
        elif self.runtime_only:
            cats["computation"] += gap
        else:
            gap = 0
        cats["outside"] = max(0, (s1 - s0) - inside - gap)
        return cats

    def summary_ticks(self, lids, t0=None, t1=None):
        """[(location id or a total's name, time, {category: ticks})]."""
        s0, s1 = self.span(t0, t1)
        length = s1 - s0
        rows = []
        totals = [["all_threads", 0, dict.fromkeys(CATEGORIES, 0)],
                  ["all_streams", 0, dict.fromkeys(CATEGORIES, 0)]]
        for lid in lids:
            l = self.loc[lid]
            if not l.works:
                continue
            cats = self.columns(lid, t0, t1)
            tot = totals[1 if l.stream else 0]
            tot[1] += length
            for c in CATEGORIES:
                tot[2][c] += cats[c]
            rows.append((lid, length, cats))
        rows.append(tuple(totals[0]))
        if totals[1][1]:
            rows.append(tuple(totals[1]))
        return rows

    def summary(self, lids, t0=None, t1=None):
        res = self.res
        head = ["location", "seconds"]
        for c in CATEGORIES:
            head += ["%s_seconds" % c, "%s_percent" % c]
        out = [head]
        for lid, time, cats in self.summary_ticks(lids, t0, t1):
            # without a resolution seconds() gives "-"
            row = [str(lid), seconds(time, res)]
            for c in CATEGORIES:
                row.append(seconds(cats[c], res))
                row.append(share(cats[c], time, 2))
            out.append(row)
        return out

    # -- efficiency.tsv --
    def _active(self, l, s0, s1, t1):
        """A location's first to last event, cut to [s0, s1]; None when
        it has no events there (all after a window's end, or before its
        start)."""
        if l.first is None or l.last < s0 or l.first > s1 or \
                (t1 is not None and l.first >= t1):
            return None
        return max(l.first, s0), min(l.last, s1)

    def included(self, lids, t0=None, t1=None):
        """The scope's threads: working locations but the accelerator
        streams, with time in the span, in the scope's order."""
        s0, s1 = self.span(t0, t1)
        return [lid for lid in lids if self.loc[lid].works and
                not self.loc[lid].stream and
                self._active(self.loc[lid], s0, s1, t1) is not None]

    def efficiency_values(self, lids, t0=None, t1=None):
        s0, s1 = self.span(t0, t1)
        c0, c1 = self._clip_window(t0, t1)
        inc = self.included(lids, t0, t1)
        left = [lid for lid in lids if lid not in inc]
        useful, nonmpi = {}, {}
        r0 = r1 = None
        for lid in inc:
            l = self.loc[lid]
            master = self.master.get(l.group) == lid
            act = self._active(l, s0, s1, t1)
            r0 = act[0] if r0 is None else min(r0, act[0])
            r1 = act[1] if r1 is None else max(r1, act[1])
            # Useful computation: summary.tsv's computation.
            useful[lid] = self.columns(lid, t0, t1)["computation"]
            if master:
                own, _ = l.self_times(c0, c1)
                nonmpi[lid] = act[1] - act[0] - sum(
                    v for i, v in own.items() if l.mpi[i])
        runtime = (r1 - r0) if r0 is not None else 0
        return {"included": inc, "left_out": left, "useful": useful,
                "nonmpi": nonmpi, "runtime": runtime}

    # -- the critical computation (efficiency.tsv) --
    def useful_prefix(self, lid):
        """(times, sums, useful) of a location: its time from its first
        to its last event cut into pieces at every call's start and end,
        piece k from times[k] on, useful (its innermost call's category
        is computation; between calls: summary.tsv's rule) or not, sums[k]
        the useful ticks before it."""
        l = self.loc[lid]
        gap = self.runtime_only and not self.worker(lid) and not l.stream
        pieces, stack = [], []
        cur = [l.first]

        def upto(t, useful):
            if t > cur[0]:
                pieces.append((cur[0], useful))
                cur[0] = t

        def end(i):
            return self.loc[lid].acts[i][2] + self.loc[lid].acts[i][3]

        def useful_of(i):
            return l.eff[i] == "computation"

        for i, a in enumerate(l.acts):
            while stack and end(stack[-1]) <= a[2]:
                top = stack.pop()
                upto(end(top), useful_of(top))
            upto(a[2], useful_of(stack[-1]) if stack else gap)
            stack.append(i)
        while stack:
            top = stack.pop()
            upto(end(top), useful_of(top))
        upto(l.last, gap)
        pieces.append((cur[0], False))
        times = [p[0] for p in pieces]
        sums, acc = [], 0
        for k, (t, u) in enumerate(pieces):
            sums.append(acc)
            if u and k + 1 < len(pieces):
                acc += pieces[k + 1][0] - t
        return times, sums, [p[1] for p in pieces]

    def useful_at(self, pre, t):
        """The useful ticks of a location before time t (pre:
        useful_prefix)."""
        times, sums, useful = pre
        k = bisect.bisect_right(times, t) - 1
        if k < 0:
            return 0
        return sums[k] + (t - times[k] if useful[k] else 0)

    def offsets(self):
        """Each thread's clock's offset at its end, what its clock of
        useful computation exceeds its useful computation by (analysis.md,
        "Efficiency"): the MPI records of every location in
        time order (ties: definition order, then stream order); a
        thread's clock at a record is its useful computation before it
        plus its offset; a receive raises the receiver's offset so that
        its clock at the receive is at least the sender's at the send (the
        k-th send of a channel with its k-th receive), a collective (the
        k-th of a communicator on each member, complete when all the
        communicator's members came, else at the end) each member's to
        the greatest of those it waits for.  OpenMP: a worker thread's
        top-level call (work forked to it) raises it to its group's first
        CPU thread's clock at the call's start; the outermost OpenMP
        barrier calls of a location group form episodes (each location's
        next barrier call, those entered by the time the first of them
        ends), taken when that end passes (after the records of that
        time), every member raised to the greatest clock at the members'
        entries."""
        if getattr(self, "_offsets", None) is not None:
            return self._offsets
        defidx = {lid: k for k, (lid, _, _, _) in
                  enumerate(self.defs.locations)}
        thread = {lid: l.works and not l.stream and l.type != "METRIC"
                  for lid, l in self.loc.items()}
        ops = []
        pre = {}
        barrier = {rid for rid, (_, par, role) in self.defs.regions.items()
                   if par == "OPENMP" and role in ("BARRIER",
                                                   "IMPLICIT_BARRIER")}
        first_cpu = {}
        for lid, _, ltype, g in self.defs.locations:
            if ltype == "CPU_THREAD" and g not in first_cpu:
                first_cpu[g] = lid
        for lid, l in self.loc.items():
            if not l.events or l.type == "METRIC":
                continue
            d = defidx[lid]
            enter = [k for k, e in enumerate(l.events)
                     if e[0] in calltree.ENTERS]
            inside = {}
            for i, a in enumerate(l.acts):
                up = a[4] is not None and inside[a[4]]
                inside[i] = up or a[0] in barrier
                if a[0] in barrier and not up:
                    ops.append((a[2], 0, d, enter[i], lid, "BARRIER",
                                (a[2], a[2] + a[3])))
                    ops.append((a[2] + a[3], 1, d, enter[i], lid,
                                "DECIDE", None))
            if not thread[lid]:
                continue
            pre[lid] = self.useful_prefix(lid)
            if self.worker(lid):
                for i, a in enumerate(l.acts):
                    if a[4] is None:
                        ops.append((a[2], 0, d, enter[i], lid, "FORK",
                                    None))
            for seq, e in enumerate(l.events):
                if e[0] in ("MPI_SEND", "MPI_ISEND", "MPI_RECV",
                            "MPI_IRECV", "MPI_COLLECTIVE_END"):
                    ops.append((e[1], 0, d, seq, lid, e[0], e[4]))
        ops.sort(key=lambda o: o[:4])
        queues = {}  # location group -> {location: [barrier calls]}
        qpos = {}
        off = dict.fromkeys(self.loc, 0)
        chans, colls, count = {}, {}, {}

        def raise_to(lid, comp, c):
            if c > comp and c - comp > off[lid]:
                off[lid] = c - comp

        def coll_done(members, op, root):
            sync = ("from_root" if op in ("BCAST", "SCATTER", "SCATTERV")
                    else "to_root" if op in ("GATHER", "GATHERV", "REDUCE")
                    else None if op in ("SCAN", "EXSCAN") else "all")
            allc = max(m[2] for m in members)
            rootc = [m[2] for m in members if m[0] == root]
            for m in members:
                if sync == "all" or (sync == "to_root" and m[0] == root):
                    raise_to(m[0], m[1], allc)
                elif sync == "from_root" and rootc and m[0] != root:
                    raise_to(m[0], m[1], rootc[0])

        def episodes(g, now):
            qs = queues.get(g, {})
            while True:
                heads = {x: qs[x][qpos[x]] for x in qs
                         if qpos[x] < len(qs[x])}
                if not heads:
                    return
                m = min(h[1] for h in heads.values())
                if m > now:
                    return
                ep = {x: h for x, h in heads.items() if h[0] <= m}
                top = max([h[3] for x, h in ep.items() if x in pre] + [0])
                for x, h in ep.items():
                    if x in pre:
                        raise_to(x, h[2], top)
                    qpos[x] += 1

        for t, _, _, _, lid, kind, rest in ops:
            if kind == "DECIDE":
                episodes(self.loc[lid].group, t)
                continue
            comp = self.useful_at(pre[lid], t) if lid in pre else 0
            clk = comp + off[lid]
            if kind == "BARRIER":
                queues.setdefault(self.loc[lid].group, {}).setdefault(
                    lid, []).append((rest[0], rest[1], comp, clk))
                qpos.setdefault(lid, 0)
                continue
            if kind == "FORK":
                mi = first_cpu.get(self.loc[lid].group)
                if mi is not None and mi != lid and mi in pre:
                    raise_to(lid, comp, self.useful_at(pre[mi], t) + off[mi])
                continue
            if kind == "MPI_COLLECTIVE_END":
                m = COLL_RE.search(rest)
                if not m:
                    continue
                comm = int(m.group(2))
                k = count.get((lid, comm), 0)
                count[(lid, comm)] = k + 1
                # The root of a communicator of COMM_SELF's group is
                # whoever asks: none.
                root = int(m.group(3)) if m.group(3) and \
                    comm not in self.defs.self_comms else None
                inst = colls.setdefault((comm, k), [m.group(1), root, []])
                inst[2].append((lid, comp, clk))
                size = self.comm_size.get(comm, 0)
                if size and len(inst[2]) >= size:
                    coll_done(inst[2], inst[0], inst[1])
                    del colls[(comm, k)]
                continue
            m = P2P_RE.search(rest)
            if not m or m.group(2) is None:
                continue
            peer, comm, tag = int(m.group(2)), int(m.group(3)), \
                int(m.group(4))
            send = kind in ("MPI_SEND", "MPI_ISEND")
            if peer not in self.loc:
                continue
            key = (lid, peer, comm, tag) if send else (peer, lid, comm, tag)
            q = chans.setdefault(key, [])
            if q and q[0][0] != send:
                other = q.pop(0)
                s_, r_ = ((lid, comp, clk), other[1]) if send else \
                    (other[1], (lid, comp, clk))
                if thread[s_[0]]:
                    raise_to(r_[0], r_[1], s_[2])
            else:
                q.append((send, (lid, comp, clk)))
        for inst in colls.values():
            coll_done(inst[2], inst[0], inst[1])
        self._offsets = {lid: off[lid] for lid in pre}
        return self._offsets

    USEFUL_MEMBERS = {"PAPI_TOT_INS": 0, "instructions": 0,
                      "PAPI_TOT_CYC": 1, "cpu-cycles": 1}

    def useful_counters(self, lids, t0=None, t1=None):
        """([have instructions, have cycles], [sums]) of efficiency.tsv's
        counter rows, from tools/ref_counters.py's increases per region."""
        import ref_counters as rc
        kinds = {mid: self.USEFUL_MEMBERS[d["name"]]
                 for mid, d in self.defs.members.items()
                 if d["name"] in self.USEFUL_MEMBERS and
                 not d["mode"].startswith("ABSOLUTE")}
        have, v = [False, False], [0, 0]
        if not kinds:
            return have, v

        def useful(rid):
            if rid == rc.OUTSIDE:
                return self.runtime_only
            if rid == rc.SPAN:
                return False
            return category(*self.defs.regions.get(
                rid, ("", "UNKNOWN", "UNKNOWN"))) == "computation"

        cr = self.counters_ref()
        for (m, rid), s in cr.same_location(lids, t0, t1).items():
            if m in kinds and useful(rid):
                dbl = rc.is_double(self.defs.members[m])
                have[kinds[m]] = True
                v[kinds[m]] += int(s["excl"]) if dbl else signed64(s["excl"])
        if self.first is not None:
            s0, s1 = self.span(t0, t1)
            for (m, rid), s in cr.meter_rows(lids, s0, s1).items():
                if m in kinds and useful(rid):
                    dbl = rc.is_double(self.defs.members[m])
                    have[kinds[m]] = True
                    v[kinds[m]] += (s["excl"] + rc.UNIT // 2) // rc.UNIT \
                        if dbl else s["excl"]
        return have, v

    # -- imbalance.tsv's category rows --
    def imbalance_categories(self, lids, t0=None, t1=None):
        """The rows category:NAME of imbalance.tsv, over the threads."""
        inc = self.included(lids, t0, t1)
        rows = []
        if not inc:
            return rows
        cols = {lid: self.columns(lid, t0, t1) for lid in inc}
        for c in CATEGORIES:
            vals = [cols[lid][c] for lid in inc]
            mx = max(vals)
            if c != "computation" and not mx:
                continue
            at = inc[vals.index(mx)]
            n, tot = len(vals), sum(vals)
            rows.append(["category:" + c, str(n), str(min(vals)),
                         seconds(min(vals), self.res), decimal3(tot, n),
                         mean_seconds(tot, n, self.res), str(mx),
                         seconds(mx, self.res), str(at),
                         decimal3(mx * n, tot)])
        return rows

    def efficiency(self, lids, t0=None, t1=None):
        v = self.efficiency_values(lids, t0, t1)
        res, inc, useful = self.res, v["included"], v["useful"]
        rt = v["runtime"]
        n = len(inc)
        tot = sum(useful.values())
        mx = max(useful.values()) if inc else None
        mn = min(useful.values()) if inc else None
        rows = [["metric", "value"],
                ["runtime_ticks", str(rt)],
                ["runtime_seconds", seconds(rt, res)],
                ["locations", str(n)]]
        pe = fdiv(tot, n * rt)
        lb = fdiv(tot, n * mx) if n else None
        ce = fdiv(mx, rt) if n else None
        # The critical computation: the scope's threads' greatest clock
        # at the end (useful computation plus offset), at least the most
        # useful computation, at most the runtime; a scope of whole
        # locations only.
        crit = None
        if n and t0 is None:
            off = self.offsets()
            crit = min(max([mx] + [useful[lid] + off.get(lid, 0)
                                   for lid in inc]), rt)
        rows += [["parallel_efficiency", ratio(pe)],
                 ["load_balance", ratio(lb)],
                 ["communication_efficiency", ratio(ce)],
                 ["serialisation_efficiency", ratio(fdiv(mx, crit))],
                 ["transfer_efficiency", ratio(fdiv(crit, rt))],
                 ["computation_seconds_max",
                  seconds(mx, res) if n else "-"],
                 ["computation_seconds_mean", mean_seconds(tot, n, res)],
                 ["computation_seconds_min",
                  seconds(mn, res) if n else "-"],
                 ["critical_computation_seconds",
                  seconds(crit, res) if crit is not None else "-"]]
        slow = fast = "-"
        for lid in inc:  # in order: the first wins a tie
            if slow == "-" or useful[lid] > useful[slow]:
                slow = lid
            if fast == "-" or useful[lid] < useful[fast]:
                fast = lid
        rows += [["slowest_location", str(slow)],
                 ["fastest_location", str(fast)]]
        # The counters of useful computation: instructions and cycles in
        # calls of computation regions (a meter's time in no call too
        # where that is computation); a negative sum counts as none.
        uh, uv = self.useful_counters(lids, t0, t1)
        ins = uv[0] if uh[0] and uv[0] >= 0 else None
        cyc = uv[1] if uh[1] and uv[1] >= 0 else None
        rows += [["useful_instructions", str(ins) if ins is not None
                  else "-"],
                 ["useful_cycles", str(cyc) if cyc is not None else "-"],
                 ["ipc", ratio(fdiv(ins, cyc))],
                 ["frequency_ghz", ratio(fdiv(cyc * res, tot * 10 ** 9))
                  if cyc is not None and res else "-"]]
        if self.hybrid:
            nm = v["nonmpi"]
            m = len(nm)
            mtot = sum(nm.values())
            mmax = max(nm.values()) if m else None
            mpe = fdiv(mtot, m * rt)
            mlb = fdiv(mtot, m * mmax) if m else None
            mce = fdiv(mmax, rt) if m else None
            rows += [["mpi_parallel_efficiency", ratio(mpe)],
                     ["mpi_load_balance", ratio(mlb)],
                     ["mpi_communication_efficiency", ratio(mce)],
                     ["openmp_parallel_efficiency", ratio(fdiv(pe, mpe))],
                     ["openmp_load_balance", ratio(fdiv(lb, mlb))],
                     ["openmp_communication_efficiency",
                      ratio(fdiv(ce, mce))]]
        rows += [["left_out", str(lid)] for lid in v["left_out"]]
        return rows

    # -- longest.tsv --
    def longest_calls(self, lids, n, t0=None, t1=None):
        """[(region id, rank, duration, start, location id)], in the
        file's order."""
        per = {}
        for lid in lids:
            for a in self.loc[lid].acts:
                start, d = a[2], a[3]
                if t0 is not None and not (start < t1 and start + d >= t0):
                    continue
                per.setdefault(a[0], []).append(
                    (-d, start, self.rank[lid], lid))
        out = []
        order = []
        for rid, calls in per.items():
            calls.sort(key=lambda c: c[:3])
            order.append((calls[0][0], rid, calls[:n]))
        order.sort(key=lambda x: x[:2])
        for _, rid, calls in order:
            for k, (nd, start, _, lid) in enumerate(calls):
                out.append((rid, k + 1, -nd, start, lid))
        return out

    def longest(self, lids, n, t0=None, t1=None):
        rows = [["region", "rank", "duration_ticks", "duration_seconds",
                 "start_seconds", "location"]]
        for rid, k, d, start, lid in self.longest_calls(lids, n, t0, t1):
            rows.append([escape(self.defs.regions[rid][0]), str(k), str(d),
                         seconds(d, self.res),
                         self.time_seconds(start), str(lid)])
        return rows

    def time_seconds(self, t):
        """A time since the zero in seconds (no zero padding)."""
        if not self.res:
            return "-"
        return seconds(t - self.zero, self.res)

    # -- counters.tsv: tools/ref_counters.py --
    def calls(self, lids, t0=None, t1=None):
        """Calls per region as stats.tsv counts them (in a window: those
        starting inside)."""
        out = {}
        for lid in lids:
            for a in self.loc[lid].acts:
                if t0 is None or t0 <= a[2] < t1:
                    out[a[0]] = out.get(a[0], 0) + 1
        return out

    def counters_ref(self):
        """The reference of counters.tsv (tools/ref_counters.py), one per
        trace: it keeps what it read."""
        import ref_counters
        if getattr(self, "_counters", None) is None:
            self._counters = ref_counters.Counters(
                self, getattr(self, "exact", None))
        return self._counters

    def counters(self, lids, t0=None, t1=None):
        """counters.tsv's rows."""
        return self.counters_ref().table(lids, t0, t1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("anchor")
    ap.add_argument("--window", help="T0-T1, ticks since the zero")
    ap.add_argument("--group", type=int)
    ap.add_argument("--location", type=int)
    ap.add_argument("--longest", type=int, default=10)
    ap.add_argument("--files", default="summary,efficiency,longest,counters")
    a = ap.parse_args()
    tr = Trace.load(a.anchor)
    if tr.broken:
        print("warning: the reference cannot follow locations %s (names "
              "otf2-print splits over lines)"
              % tr.broken, file=sys.stderr)
    lids = tr.root()
    if a.group is not None:
        lids = tr.group(a.group)
    if a.location is not None:
        lids = [a.location]
    t0 = t1 = None
    if a.window:
        w0, w1 = a.window.split("-")
        t0, t1 = tr.zero + int(w0), tr.zero + int(w1)
        lids = tr.in_window(lids)
    for name in a.files.split(","):
        fn = {"summary": lambda: tr.summary(lids, t0, t1),
              "efficiency": lambda: tr.efficiency(lids, t0, t1),
              "longest": lambda: tr.longest(lids, a.longest, t0, t1),
              "counters": lambda: tr.counters(lids, t0, t1)}[name]
        print("==> %s.tsv <==" % name)
        for row in fn():
            print("\t".join(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
