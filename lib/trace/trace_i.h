/*
 * trace_i.h - internal to lib/trace/: the open trace and what its modules
 * share.  Nothing outside lib/trace/ includes this file.
 *
 * The modules, in the order a request meets them:
 *   ccg_dir.c      the directory table (kind x file -> size, read) and the
 *                  public stat/lookup/readdir/read
 *   ccg_ids.c      the id scheme: what an id names, tree instances
 *   ccg_windows.c  time windows and timeline-N.tsv, found by lookup
 *   ccg_winname.c  window names: parsing, the default split of time/
 *   ccg_names.c    directory names of groups, locations and calls
 *   ccg_events.c   events.tsv: a walk over a subtree, whole or windowed;
 *                  its lines as JSON for trace.json, with the calls
 *                  clipped at the span's bounds
 *   ccg_msgseq.c   the sequence numbers that pair a message's two ends
 *   ccg_chrome.c   trace.json of any directory: its locations' lines
 *   ccg_metrics.c  metrics.tsv: a walk over a subtree, whole or windowed
 *   ccg_merge.c    a window's (or the root's, a group's) events.tsv or
 *                  metrics.tsv merged over its locations
 *   ccg_tables.c   stats.tsv, profile.folded, messages.tsv, timeline.tsv,
 *                  imbalance.tsv, profile-locations.folded, patterns.tsv
 *                  of any directory
 *   ccg_info.c     info, README, regions.tsv, locations.tsv, definitions.tsv
 *   ccg_waitset.c  waits.tsv and critical-path.tsv: the wait states
 *                  found at build time, kept in the index
 *   ccg_svgview.c  timeline.svg: rows gathered from the graph, drawn by
 *                  lib/render/ccg_svg.c; its messages: ccg_svgmsgs.c
 *   ccg_open.c     opening: the index or a build, the location records
 *
 * Ids.  id = inum << CCG_VIEW_BITS | view: the low bits say which file of a
 * directory (V_DIR: the directory itself), the high bits its instance
 * number (inum).  Inum 0 is the root, 1..G the location groups, then each
 * location's tree instances in preorder from that location's base (its own
 * directory), then `time/` at t->ninums.  Window directories live from
 * CCG_WIN_BASE on (window k's directory at CCG_WIN_BASE + k * stride, its
 * groups and locations after it), timeline-N.tsv files from CCG_TLN_BASE
 * on.  Tree ids are a function of the trace and options alone, so they are
 * the same on every mount; window and timeline-N ids are handed out in
 * lookup order (listing time/ looks its windows up) and stay valid while
 * the trace is open.  A store node id
 * is a `node`; an instance number is an `inum`.
 */
#ifndef CCG_TRACE_I_H
#define CCG_TRACE_I_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "ccg_trace.h"
#include "ccg_analyze.h"
#include "ccg_build.h"
#include "ccg_defs.h"
#include "ccg_index.h"
#include "ccg_ingest.h"
#include "ccg_render.h"
#include "ccg_lru.h"
#include "ccg_stats.h"
#include "ccg_store.h"
#include "ccg_table.h"

/* Bits of an id that select the view. */
#define CCG_VIEW_BITS 5
/* Window directories live far above every tree instance (a trace has
 * fewer than 2^46 directories), and the timeline-N.tsv files of any
 * directory above those (at most CCG_WIN_MAX windows of at most
 * CCG_WIN_STRIDE_MAX groups and locations each lie below): every inum is
 * below 2^50, every id below 2^CCG_ID_BITS. */
#define CCG_WIN_BASE ((uint64_t)1 << 46)
#define CCG_TLN_BASE ((uint64_t)1 << 49)
#define CCG_WIN_STRIDE_MAX ((uint64_t)1 << 28)
/* Bins of timeline.tsv, and the most a timeline-N.tsv may have. */
#define CCG_TIMELINE_BINS 100
#define CCG_TIMELINE_MAX 100000
/* Bytes of query results the cache keeps. */
#define CCG_STATS_CACHE (64u << 20)
/* Bytes of message sequence numbers kept (12 per message event); a
 * location with more message events than fit has none. */
#define CCG_MSGSEQ_CACHE (32u << 20)
/* Bytes of resolved tree instances kept (a walk down a deep tree finds
 * each directory's instance from its parent's, not by a descent from the
 * location's root). */
#define CCG_INST_CACHE (1u << 20)
/* Bytes of timeline.svg texts kept. */
#define CCG_SVG_CACHE (32u << 20)
/* Most distinct windows (and timeline-N files) looked up in one open. */
#define CCG_WIN_MAX (1u << 20)

_Static_assert(sizeof(ccg_id) == 8, "ids are 64-bit");
_Static_assert(CCG_WIN_BASE + (uint64_t)CCG_WIN_MAX * CCG_WIN_STRIDE_MAX <=
		       CCG_TLN_BASE,
	       "windows lie below the timeline-N files");
_Static_assert(((CCG_TLN_BASE + CCG_WIN_MAX) << CCG_VIEW_BITS) <=
		       ((uint64_t)1 << CCG_ID_BITS),
	       "every id lies below 2^CCG_ID_BITS");

enum view {
	V_DIR = 0,
	V_INFO,
	V_EVENTS,
	V_README,
	V_REGIONS,
	V_LOCATIONS,
	V_DEFINITIONS,
	V_PATTERNS,
	V_STATS,
	V_TIMELINE,
	V_FOLDED,
	V_MESSAGES,
	V_METRICS,
	/* comparing locations: imbalance, the profile per location */
	V_IMBALANCE,
	V_FOLDED_LOC,
	/* slices for other tools: viewers, pictures */
	V_JSON,
	V_SVG,
	/* answers (lib/analyze) */
	V_SUMMARY,
	V_EFFICIENCY,
	V_LONGEST,
	V_COUNTERS,
	/* who waits for whom (lib/analyze/ccg_waits.h) */
	V_WAITS,
	V_CRITPATH,
	/* names refused in this mount (changes while mounted) */
	V_REFUSED,
	V__COUNT
};
_Static_assert(V__COUNT <= (1 << CCG_VIEW_BITS), "views fit their bits");

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

typedef struct loc {
	const ccg_def_location *def;
	uint32_t group;         /* index into trace.groups */
	char *dirname;
	char idstr[24];         /* location column of events.tsv */
	uint32_t root;          /* root node in the store */
	uint32_t tbase;         /* first time record */
	uint64_t base;          /* inum of the location directory */
	uint64_t first, last;   /* smallest and largest timestamps: every
				 * time of the stream lies in [first, last]
				 * (ccg_tcur refuses others); first > last
				 * when empty */
	uint64_t nevents;
	uint32_t max_depth;
	ccg_span span;          /* lossy: range of event time errors */
	ccg_repairs rep;
	ccg_err err;
	char *errmsg;           /* NULL when the location read cleanly */
	ccg_sloc sl;            /* the location as queries see it */
} loc;

/* Location l, the i-th, as queries see it. */
static inline ccg_sloc ccg_loc_sloc(const loc *l, size_t i)
{
	return (ccg_sloc){(uint32_t)i, l->tbase, l->nevents,
			  l->nevents ? l->last : 0, !l->rep.out_of_order,
			  l->nevents ? l->first : 0};
}

/* Location l's root instance as queries see it: node l->root from the
 * stream's first event, spanning [first, last] (0 to 0 when empty). */
static inline ccg_sinst ccg_loc_sroot(const loc *l)
{
	int empty = l->first > l->last;
	return (ccg_sinst){l->root, 0, empty ? 0 : l->first,
			   empty ? 0 : l->last};
}

typedef struct group {
	const char *name;
	uint64_t id;            /* definition id, UINT64_MAX for "ungrouped" */
	uint64_t type;
	char *dirname;
	uint32_t *locs;
	uint32_t nlocs;
	uint64_t events;        /* its locations' events */
} group;

/* A LOCATION_PROPERTY definition: its owner and record index. */
typedef struct ccg_lprop {
	uint64_t owner;
	size_t record;
} ccg_lprop;

/* A looked-up time window, absolute ticks [t0, t1). */
typedef struct win {
	uint64_t t0, t1;
} win;

/* A looked-up timeline-N.tsv: the directory's inum and N. */
typedef struct tln {
	uint64_t dir;
	uint64_t bins;
} tln;

struct wmerge;
typedef struct ccg_sumset ccg_sumset;
typedef struct ccg_waitset ccg_waitset;

/* Everything of an open trace that changes after ccg_trace_open: the
 * tables lookups fill in and the texts made on first read.  Each field
 * names the lock that protects it. */
/* Refused names kept for refused.tsv, and those also said on stderr. */
#define CCG_REFUSED_KEPT 32
#define CCG_REFUSED_SAID 100

/* A name a lookup refused and why; both owned (malloc). */
typedef struct ccg_refusal {
	char *path;             /* from the root: "time/2s-1s" */
	char *why;
} ccg_refusal;

typedef struct trace_mut {
	pthread_mutex_t win_mu;
	win *wins;              /* win_mu: looked-up windows */
	size_t nwins, capwins;  /* win_mu */
	tln *tlns;              /* win_mu: looked-up timeline-N.tsv */
	size_t ntlns, captlns;  /* win_mu */
	struct wmerge **merges; /* win_mu: merged window events.tsv, by
				 * window and scope */
	size_t nmerges, capmerges; /* win_mu */
	uint64_t merge_kept;    /* win_mu: bytes of kept merged texts */
	pthread_mutex_t pat_mu;
	ccg_buf *pat_root;      /* pat_mu: patterns.tsv of the root */
	ccg_buf **pat_loc;      /* pat_mu: per location, when made */
	size_t nlocs_pat;       /* pat_mu */
	uint64_t reads;         /* atomic: file reads served (a size query
				 * is not one) */
	int refused_said;       /* atomic: a read refused a malformed record
				 * and said so (once per trace) */
	pthread_mutex_t ref_mu;
	ccg_refusal refused[CCG_REFUSED_KEPT]; /* ref_mu: the last refused
				 * names, a ring; refused[(nrefused - 1) %
				 * CCG_REFUSED_KEPT] the newest */
	uint64_t nrefused;      /* ref_mu: names refused so far */
} trace_mut;

/* An open trace.  Every field but `mut`'s contents is set by
 * ccg_trace_open and read-only afterwards. */
struct ccg_trace {
	char *anchor;
	ccg_options opt;
	ccg_defs *defs;
	ccg_store *store;
	loc *locs;
	size_t nlocs;
	group *groups;
	size_t ngroups;
	uint32_t *by_id;        /* location indices in id order */
	ccg_lprop *lprops;      /* location properties by owner, then
				 * definition order (ccg_info_static) */
	size_t nlprops;
	char **region_safe;     /* per region index */
	uint32_t *region_class; /* per region index: first equal safe name */
	uint64_t zero;          /* names count ticks from here */
	unsigned w_time;        /* width of times in events.tsv */
	unsigned w_rel;         /* width of times in directory names */
	unsigned w_depth;       /* width of the depth column */
	uint64_t events;        /* all locations */
	uint64_t ninums;        /* first inum past the last tree instance */
	uint64_t first, last;   /* over all locations */
	uint32_t max_depth;
	double build_seconds;   /* reading OTF2 and building the graph */
	double open_seconds;    /* this open, index or build included */
	int built;              /* this open built the graph from OTF2 */
	int from_index;         /* served from the index file */
	char *index_path;       /* NULL when there is no index */
	ccg_index *index;
	ccg_statcache *stats;   /* cached per-instance statistics */
	ccg_lru *insts;         /* resolved tree instances by inum (its own
				 * lock) */
	ccg_lru *svgs;          /* timeline.svg texts by directory inum */
	ccg_lru *msgseqs;       /* message sequence numbers by location
				 * (ccg_msgseq.c; its own lock) */
	ccg_sumset *sums;       /* stored results of large instances */
	uint64_t sums_min;      /* ... of this many events or more */
	ccg_an *an;             /* the answers' analysis (its kinds) */
	ccg_waitset *waits;     /* wait states and the critical path */
	uint32_t longest;       /* calls per region longest.tsv lists (0:
				 * none) */
	uint64_t longest_stored; /* ... that the index's results hold */
	uint64_t index_bytes;
	uint64_t nodes_offered, bytes_offered, graph_bytes;
	uint64_t otf2_bytes;    /* the archive's .evt files */
	uint64_t lossy_shared;  /* events whose stored time differs */
	double lossy_max_rel;   /* largest such difference relative to the
				 * time since the event before */
	uint64_t max_err;       /* largest event time error, ticks */
	uint64_t serial;        /* unique per open (tags thread memos) */
	ccg_secfmt secs;        /* seconds since the zero, as files show
				 * them */
	ccg_buf ev_header;      /* the events.tsv header */
	ccg_buf fixed[V__COUNT]; /* the root's README, info, regions.tsv,
				  * locations.tsv and definitions.tsv, by
				  * view; the others empty */
	trace_mut *mut;         /* what changes after open, with its locks */
};

/* A time cursor over l's stream, refusing times outside [first, last]. */
static inline void ccg_loc_tcur(ccg_tcur *tc, const ccg_trace *t,
				const loc *l)
{
	ccg_tcur_init(tc, t->store, l->tbase, l->nevents, l->first, l->last);
}

/* A value cursor (initialised) over location l's stream. */
static inline void ccg_loc_vcur(ccg_vcur *vc, const ccg_trace *t,
				const loc *l)
{
	ccg_vcur_retarget(vc, t->store, l->tbase, l->nevents);
}

/* ---- ccg_ids.c: what an id names ---- */

static inline ccg_id ccg_id_make(uint64_t inum, enum view v)
{
	return inum << CCG_VIEW_BITS | (uint64_t)v;
}

static inline uint64_t ccg_id_inum(ccg_id id)
{
	return id >> CCG_VIEW_BITS;
}

static inline enum view ccg_id_view(ccg_id id)
{
	return (enum view)(id & ((1u << CCG_VIEW_BITS) - 1));
}

/* What an inum is. */
typedef struct where {
	enum { W_ROOT, W_GROUP, W_TREE, W_TIME, W_WIN } kind;
	size_t index;           /* group or location index */
	size_t win;             /* W_WIN: window index */
	uint64_t sub;           /* W_WIN: 0 the window, 1..G a group, then
				 * the locations */
	uint32_t bins;          /* a timeline-N.tsv: N; else 0 */
	uint64_t dir;           /* the directory's inum: for a timeline-N.tsv
				 * its directory's, else the inum itself */
} where;

/* One node at one place: a location directory, a call or a group. */
typedef struct inst {
	const loc *l;
	uint32_t node;          /* store id */
	uint64_t first;         /* its first event in the location's stream */
	uint64_t start, end;    /* absolute (ccg_node_end) */
	uint32_t depth;         /* depth of the node's own events */
	uint32_t parent_depth;  /* depth of the parent's own events */
	ccg_node hdr;
} inst;

/* The instance as the queries see it. */
static inline ccg_sinst inst_sinst(const inst *in)
{
	return (ccg_sinst){in->node, in->first, in->start, in->end};
}

/* The items of an instance: references, each one's first event and (for
 * nodes) header, decoded once, and a reader of the location's times to
 * place them. */
typedef struct titem {
	uint64_t first;         /* its first event */
	ccg_node hdr;           /* a node's header; unset for an event */
} titem;

typedef struct titems {
	ccg_ref *refs;          /* CCG_FANOUT_MAX + 1 entries */
	titem *item;            /* n of them */
	uint32_t n;
	size_t cap;             /* entries of item */
	ccg_tcur *tc;
} titems;

/* Inums per window: the window, its groups, its locations. */
uint64_t ccg_ids_win_stride(const ccg_trace *t);
/* Window `i` (the table may grow under other threads). */
win ccg_ids_window(const ccg_trace *t, size_t i);
/* What inum is; -1 when it names nothing. */
int ccg_ids_locate(const ccg_trace *t, uint64_t inum, where *w);
/* The locations a directory covers: all (the root, a window), a group's
 * (a group, a group in a window), or one (a tree node, a location in a
 * window).  Location i is t->locs[members ? members[i] : first + i]. */
size_t ccg_ids_scope(const ccg_trace *t, const where *w, size_t *first,
		     const uint32_t **members);
/* The instance of a location's directory. */
ccg_err ccg_ids_root(const ccg_trace *t, const loc *l, inst *in);
/* The items of `in` into *it (its arrays made on first use; free them
 * with ccg_ids_items_free). */
ccg_err ccg_ids_items(const ccg_trace *t, const inst *in, titems *it);
void ccg_ids_items_free(titems *it);
/* The child instance of `in` for item i of it (a node). */
ccg_err ccg_ids_child(const inst *in, titems *it, uint32_t i, inst *out);
/* Keeps instance `in`, inum `inum`, for ccg_ids_resolve (best effort: a
 * failure only means it is found again by a descent). */
void ccg_ids_remember(const ccg_trace *t, uint64_t inum, const inst *in);
/* The destructor of t->insts. */
void ccg_ids_forget(void *ctx, void *in);
/* The instance `inum` of location l (W_TREE). */
ccg_err ccg_ids_resolve(const ccg_trace *t, const loc *l, uint64_t inum,
			inst *in);
/* Inum of visible child k of `in`, whose inum is `inum`. */
ccg_err ccg_ids_child_inum(const ccg_trace *t, const inst *in, uint64_t inum,
			   uint32_t k, uint64_t *out);

/* ---- ccg_winname.c: window names ---- */

/* What a window name is read against: the trace's zero, first and last
 * event times (absolute ticks), the clock's ticks per second (0: none)
 * and the event count. */
typedef struct ccg_wclock {
	uint64_t zero, first, last, res, events;
} ccg_wclock;

ccg_wclock ccg_winname_clock(const ccg_trace *t);
/* The absolute ticks [t0, t1) a window name ("T0-T1", "1-2ms", "10%-20%",
 * ... see README) names into *out; -1 when it names none. */
int ccg_winname_parse(const ccg_wclock *c, const char *name, win *out);
/* As ccg_winname_parse; when the name is refused (-1), why in plain
 * words (with the accepted forms when the name's form is wrong) is
 * appended to `why`. */
int ccg_winname_why(const ccg_wclock *c, const char *name, ccg_buf *why);

/* The default split `ls time/` lists: windows k0 .. k0+n-1, window k
 * from k x step to (k + 1) x step in `unit` (0 ticks from the zero, 1 s,
 * 2 ms, 3 us, 4 ns), numbers zero-padded to `width` digits. */
typedef struct ccg_wsplit {
	uint64_t k0, n, step;
	unsigned unit, width;
} ccg_wsplit;

/* The default split of the trace on clock c (n 0 when it has no
 * events). */
void ccg_winname_split(const ccg_wclock *c, ccg_wsplit *s);
/* Appends the name of window k (0 .. n-1) of the split. */
void ccg_winname_split_name(const ccg_wsplit *s, uint64_t k, ccg_buf *out);

/* ---- ccg_windows.c: windows and timeline-N.tsv by lookup ---- */

/* The window directory named `name` under time/. */
ccg_err ccg_windows_lookup(const ccg_trace *t, const char *name,
			   ccg_id *out);
/* refused.tsv: the last CCG_REFUSED_KEPT names refused under time/,
 * oldest first, with why; appended to b. */
ccg_err ccg_windows_refused_text(const ccg_trace *t, ccg_buf *b);
/* How many windows `ls time/` lists. */
uint64_t ccg_windows_count(const ccg_trace *t);
/* Listed window k of time/: its id and its name appended to `name`. */
ccg_err ccg_windows_entry(const ccg_trace *t, uint64_t k, ccg_id *out,
			  ccg_buf *name);
/* The info file of window directory w (the window, a group or a location
 * in it), appended to b. */
ccg_err ccg_windows_info(const ccg_trace *t, const where *w, ccg_buf *b);
/* timeline-N.tsv of directory inum `dir`: `rest` is "N.tsv". */
ccg_err ccg_windows_timeline(const ccg_trace *t, uint64_t dir,
			     const char *rest, ccg_id *out);

/* ---- ccg_names.c: directory names ---- */

ccg_err ccg_names_regions(ccg_trace *t);
ccg_err ccg_names_groups(ccg_trace *t);
/* Frees what the two above made, when the trace closes (before its
 * definitions go). */
void ccg_names_free(ccg_trace *t);
/* Index of region id `region` in the definitions, SIZE_MAX if unknown. */
size_t ccg_names_region_index(const ccg_trace *t, uint64_t region);
/* Appends "GROUP/LOCATION", the location's path from the mount. */
void ccg_names_location_path(const ccg_trace *t, const loc *l, ccg_buf *b);
/* A directory of a location's tree: the location's index, its inum. */
typedef struct ccg_callref {
	uint32_t loc;
	uint64_t inum;
} ccg_callref;
/* The paths ("GROUP/LOCATION/CALL/...") of directories c[0 .. n), sorted
 * by (loc, inum), appended to out as strings (each ended by a NUL), the
 * i-th at out->data + at[i]: one descent a location, each level's
 * children named once for every path below it. */
ccg_err ccg_names_paths(const ccg_trace *t, const ccg_callref *c, size_t n,
			ccg_buf *out, size_t *at);
/* The location whose definition id is `id`, NULL if none. */
const loc *ccg_names_location_of(const ccg_trace *t, uint64_t id);
/* A ccg_table_path_fn over the trace `ctx`: the path of location `id`,
 * "-" when the trace has none of that id. */
void ccg_names_id_path(const void *ctx, uint64_t id, ccg_buf *b);

/* A visible child as its name needs it. */
typedef struct named_child {
	uint64_t start, end;
	uint8_t is_call;
	uint64_t region;
} named_child;

/* The visible children of an instance, described, in order. */
typedef struct kids {
	titems it;
	uint32_t *item_of;      /* visible child k -> item index */
	named_child *desc;
	uint32_t n;
} kids;

ccg_err ccg_kids_load(const ccg_trace *t, const inst *in, kids *k);
void ccg_kids_free(kids *k);
/* Appends the name of visible child j. */
void ccg_kids_name(const ccg_trace *t, const kids *k, uint32_t j,
		   ccg_buf *out);

/* ---- ccg_events.c: events.tsv ---- */

/* Which events of a location's stream a walk keeps: all (`windowed` 0),
 * or those inside [t0, t1) - where the location's times never fall, the
 * index range i0 .. i1 - 1 (`by_index`), else each event by its time. */
typedef struct evwin {
	int windowed, by_index;
	uint64_t t0, t1, i0, i1;
} evwin;

/* The window [t0, t1) of location l, whose times tc reads: its index
 * range found by two time searches, remembered per thread (a merge asks
 * again for every chunk it reads). */
ccg_err ccg_events_evwin(const ccg_trace *t, const loc *l, ccg_tcur *tc,
			 uint64_t t0, uint64_t t1, evwin *out);

/* How the n events from event `first` on meet e (a CCG_COVER_ value):
 * told by index, else PART (only the events' times can tell). */
static inline int ccg_evwin_cover(const evwin *e, uint64_t first,
				  uint64_t n)
{
	if (!e->windowed)
		return CCG_COVER_ALL;
	if (!e->by_index)
		return CCG_COVER_PART;
	if (first + n <= e->i0 || first >= e->i1)
		return CCG_COVER_NONE;
	return first < e->i0 || first + n > e->i1 ? CCG_COVER_PART
						  : CCG_COVER_ALL;
}

/* Whether event idx is inside e (its time read through tc when the index
 * cannot tell; *err set when it cannot be read). */
static inline int ccg_evwin_inside(const evwin *e, ccg_tcur *tc,
				   uint64_t idx, ccg_err *err)
{
	uint64_t at;
	if (!e->windowed)
		return 1;
	if (e->by_index)
		return idx >= e->i0 && idx < e->i1;
	if ((*err = ccg_tcur_get(tc, idx, &at)))
		return 0;
	return at >= e->t0 && at < e->t1;
}

/* Size of the events.tsv of `in`. */
uint64_t ccg_events_size(const ccg_trace *t, const inst *in);
/* Appends up to `len` bytes of the events.tsv of `in` from `off`. */
ccg_err ccg_events_read(const ccg_trace *t, const inst *in, uint64_t off,
			size_t len, ccg_buf *out);
/* Size (out NULL) or up to `len` bytes from `off` of a location's
 * events.tsv inside [t0, t1), header included. */
ccg_err ccg_events_window(const ccg_trace *t, const loc *l, uint64_t t0,
			  uint64_t t1, uint64_t off, size_t len, ccg_buf *out,
			  uint64_t *size);
/* Appends the part of the events.tsv header (lossy note included) that
 * [*off, *off + len) covers, moves *off past it, and returns out->len at
 * which the read of `len` bytes ends. */
size_t ccg_events_header(const ccg_trace *t, uint64_t *off, size_t len,
			 ccg_buf *out);
/* Appends up to `len` bytes of the body (no header) of a location's
 * events.tsv inside [t0, t1), from body offset `off`. */
ccg_err ccg_events_window_body(const ccg_trace *t, const loc *l,
			       uint64_t t0, uint64_t t1, uint64_t off,
			       size_t len, ccg_buf *out);

/* Size (out NULL) or up to `len` bytes from `off` of location l's
 * part of a trace.json after its metadata: its events (those of `in`, a
 * tree directory of l; or those inside window wn; or all) as lines
 * (ccg_json.h), preceded by a clipped "B" for each call open at the
 * span's start and followed by a clipped "E" for each call open at its
 * end, so that every call in the span begins and ends in it. */
ccg_err ccg_events_json(const ccg_trace *t, const loc *l, const inst *in,
			const win *wn, uint64_t off, size_t len, ccg_buf *out,
			uint64_t *size);

/* Called for each event of a location in stream order (its index, kind
 * and TSV record: NAME \t ATTRIBUTES \n); an error stops the walk. */
typedef ccg_err (*ccg_event_fn)(void *ctx, uint64_t idx, ccg_kind kind,
				const char *tail, size_t tail_len);
ccg_err ccg_events_each(const ccg_trace *t, const loc *l, ccg_event_fn fn,
			void *ctx);

/* ---- ccg_msgseq.c: the sequence numbers that pair messages ---- */

/* SEQ of message event idx of location l (ccg_json.h): how many earlier
 * messages of l have its sender, receiver, tag and communicator;
 * UINT64_MAX when l has more message events than CCG_MSGSEQ_CACHE holds
 * numbers for.  A location's numbers are counted in one pass over its
 * events and kept in t->msgseqs (12 bytes per message event). */
ccg_err ccg_msgseq_get(const ccg_trace *t, const loc *l, uint64_t idx,
		       uint64_t *seq);
/* The destructor of t->msgseqs. */
void ccg_msgseq_forget(void *ctx, void *value);

/* ---- ccg_chrome.c: trace.json ---- */

/* Whether directory w (the root or a group) has a trace.json: it holds
 * at most opt.json_max events.  Every other directory has one. */
int ccg_chrome_listed(const ccg_trace *t, const where *w);
/* Size (out NULL) or up to `len` bytes from `off` of the trace.json of
 * directory w (with `in` for a tree directory). */
ccg_err ccg_chrome_file(const ccg_trace *t, const where *w, const inst *in,
			uint64_t off, size_t len, ccg_buf *out,
			uint64_t *size);

/* ---- ccg_metrics.c: metrics.tsv ---- */

/* Size of the metrics.tsv of `in`. */
uint64_t ccg_metrics_size(const ccg_trace *t, const inst *in);
/* Appends up to `len` bytes of the metrics.tsv of `in` from `off`. */
ccg_err ccg_metrics_read(const ccg_trace *t, const inst *in, uint64_t off,
			 size_t len, ccg_buf *out);
/* Size (out NULL) or up to `len` bytes from `off` of a location's
 * metrics.tsv inside window wn (NULL: all of it), header included. */
ccg_err ccg_metrics_window(const ccg_trace *t, const loc *l, const win *wn,
			   uint64_t off, size_t len, ccg_buf *out,
			   uint64_t *size);
/* The same without the header: its size (out NULL), or up to `len`
 * bytes from body offset `off`. */
ccg_err ccg_metrics_window_body(const ccg_trace *t, const loc *l,
				const win *wn, uint64_t off, size_t len,
				ccg_buf *out, uint64_t *size);

/* ---- ccg_merge.c: a file over several locations, merged in time order ---- */

/* Size (out NULL, no merging) or up to `len` bytes from `off` of the
 * merged events.tsv or metrics.tsv (view v) of directory w: a window
 * (wn, its interval), or the root or a group (wn NULL: all events). */
ccg_err ccg_merge_view(const ccg_trace *t, const where *w, enum view v,
		       const win *wn, uint64_t off, size_t len, ccg_buf *out,
		       uint64_t *size);
void ccg_merge_free(struct wmerge *m);

/* ---- ccg_tables.c: tables of any directory ---- */

/* One piece of a directory's scope: a node instance of location l, whose
 * directory is inum `inum`. */
typedef struct ccg_part {
	const loc *l;
	ccg_sinst in;
	uint64_t inum;
} ccg_part;

/* A directory's scope: a list of parts - a call directory is one part, a
 * location its root, a group or the root every member's root, a window
 * directory the roots of the locations it covers that have events - and,
 * in a window, the window [t0, t1). */
typedef struct ccg_scope {
	ccg_part *p;            /* &one, or an array of its own */
	size_t n;
	int windowed;
	uint64_t t0, t1;
	ccg_part one;
} ccg_scope;

/* The scope of directory w (in: its instance, for a tree directory).
 * Ownership: ccg_scope_free. */
ccg_err ccg_scope_of(const ccg_trace *t, const where *w, const inst *in,
		     ccg_scope *s);
void ccg_scope_free(ccg_scope *s);

/* stats.tsv, profile.folded, messages.tsv, timeline.tsv, imbalance.tsv or
 * profile-locations.folded (view v) of the directory `w` (with `in` for a
 * tree directory) into the sink: appended, or only measured. */
ccg_err ccg_tables_text(const ccg_trace *t, const where *w, const inst *in,
			enum view v, ccg_sink *out);
/* A directory's scope as doc/analysis.md defines it ("The scope and its
 * span"): its span, absolute ticks from start to end, and its number of
 * locations.  The root, a group and a location span the trace (first to
 * last event), a call or group node itself, a window [T0, T1) cut to
 * the trace's span; a window leaves out locations without events. */
typedef struct tspan {
	uint64_t start, end;
	size_t nlocs;
} tspan;

/* The scope of directory `w` (with `in` for a tree directory). */
tspan ccg_tables_span(const ccg_trace *t, const where *w, const inst *in);

/* The scope's summed location time: its span's length times its
 * locations. */
static inline unsigned __int128 tspan_loc_time(tspan s)
{
	return (unsigned __int128)(s.end - s.start) * s.nlocs;
}

/* The patterns.tsv text of the root (l NULL) or a location, made once. */
ccg_err ccg_tables_patterns(const ccg_trace *t, const loc *l,
			    const ccg_buf **out);

/* ---- the build ---- */

/* Calls per region longest.tsv lists under opt (0: no longest.tsv). */
uint32_t ccg_options_longest(const ccg_options *opt);

/* The options of ccg_ingest that opt gives; records spill to spill_dir
 * (NULL: $TMPDIR; borrowed, as o keeps it). */
void ccg_options_ingest(const ccg_options *opt, const char *spill_dir,
			ccg_ingest_opts *o);
/* Rank 0 of a build shared among processes (t->opt.dist, ccg_dist.h):
 * as ccg_ingest, into t->defs and t->store and *il, *n, and also
 * t->sums; o as ccg_options_ingest made it. */
ccg_err ccg_dist_build(ccg_trace *t, const ccg_ingest_opts *o,
		       ccg_ingest_loc **il, size_t *n, ccg_buf *msg);

/* ---- ccg_sumset.c: stored results of large instances ---- */

/* Computes the stored results of every location of a freshly built t. */
ccg_err ccg_sumset_build(ccg_trace *t, ccg_sumset **out);
/* Made piece by piece instead (a build shared among processes): an empty
 * set; the records of one location's part, as bytes (ccg_ingest's part:
 * keys name its node ids); those bytes added to s, the part's node ids
 * turned into the whole's by map (nmap entries); then, once, sorted with
 * each key once. */
/* Ownership: ccg_sumset_free. */
ccg_err ccg_sumset_create(ccg_sumset **out);
ccg_err ccg_sumset_walk_part(const ccg_store *part, const ccg_an *an,
			     const ccg_sloc *sl, const ccg_sinst *root,
			     uint64_t min_events, ccg_buf *out);
ccg_err ccg_sumset_add_part(ccg_sumset *s, const unsigned char *p, size_t len,
			    const ccg_ref *map, uint32_t nmap);
void ccg_sumset_finish(ccg_sumset *s);
/* Appends them to the index being written (section CCG_SEC_SUMS). */
ccg_err ccg_sumset_write(const ccg_sumset *s, ccg_index_writer *w);
/* Their keys from an index (the results stay in x, borrowed). */
ccg_err ccg_sumset_load(ccg_index *x, ccg_sumset **out);
/* Lets the queries of c read them (s NULL: nothing); instances of
 * min_events events or more have them, of the kinds whose bit
 * (1 << kind) `kinds` sets. */
void ccg_sumset_attach(ccg_sumset *s, uint64_t min_events, unsigned kinds,
		       ccg_statcache *c);
size_t ccg_sumset_count(const ccg_sumset *s);
void ccg_sumset_free(ccg_sumset *s);

/* ---- ccg_svgview.c: timeline.svg ---- */

/* The timeline.svg text of directory w (the root, a group, a location or
 * a window directory), drawn on first use and cached: *out is pinned,
 * give it back with ccg_svgview_put. */
ccg_err ccg_svgview_get(const ccg_trace *t, const where *w,
			const ccg_buf **out);
void ccg_svgview_put(const ccg_trace *t, const ccg_buf *b);
/* The destructor of t->svgs. */
void ccg_svgview_forget(void *ctx, void *value);

/* ---- ccg_answers.c: the answers' files ---- */

/* The analysis of t's definitions (made once; again after a reset). */
ccg_err ccg_answers_prepare(ccg_trace *t);
/* summary.tsv, efficiency.tsv, longest.tsv or counters.tsv (view v) of
 * directory w (with `in` for a tree directory) into the sink. */
ccg_err ccg_answers_text(const ccg_trace *t, const where *w, const inst *in,
			 enum view v, ccg_sink *out);

/* ---- ccg_info.c: info files and the root's fixed files ---- */

void ccg_info_node(const ccg_trace *t, const inst *in, int is_loc,
		   ccg_buf *b);
void ccg_info_group(const group *g, ccg_buf *b);
/* Renders readme, info, regions, locations and definitions once. */
ccg_err ccg_info_static(ccg_trace *t);

/* ---- ccg_waitset.c: waits.tsv and critical-path.tsv ---- */

/* The wait states and critical path of built trace t (its store and
 * locations).  When they cannot be found (a record the walks refuse:
 * *failed says why), the set holds none.  Ownership: ccg_waitset_free. */
ccg_err ccg_waitset_build(const ccg_trace *t, ccg_waitset **out,
			  ccg_err *failed);
/* Appends its records to the index's CCG_SEC_WAITS section. */
ccg_err ccg_waitset_write(const ccg_waitset *ws, ccg_index_writer *w);
/* The set of t's index x (borrowed: it outlives the set). */
ccg_err ccg_waitset_load(const ccg_trace *t, ccg_index *x,
			 ccg_waitset **out);
void ccg_waitset_free(ccg_waitset *ws);
/* Appends to rows (n of them, room for cap) one row (count 0, lost 1) per
 * send of part p of scope s that no receive pairs with (messages.tsv's
 * `received`). */
ccg_err ccg_waitset_lost(const ccg_trace *t, const ccg_scope *s,
			 const ccg_part *p, ccg_msg_row **rows, size_t *n,
			 size_t *cap);
/* waits.tsv or critical-path.tsv (view v) of directory w (in: its
 * instance, for a tree directory). */
ccg_err ccg_waitset_text(const ccg_trace *t, const where *w, const inst *in,
			 enum view v, ccg_sink *out);

#endif
