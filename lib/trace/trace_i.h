/*
 * trace_i.h - internal to lib/trace/ and lib/view/: the open trace and
 * what their modules share: the trace, its locations and groups, the
 * views of a directory.  Nothing else includes it but the tests and
 * fuzzers of their modules.
 *
 * lib/trace/ is the open trace's model, each module declared in its own
 * header (ccg_MODULE.h): ccg_ids (what an id names), ccg_windows (time
 * windows; their names: lib/render/ccg_winname.h), ccg_names (directory
 * names), ccg_evwalk, ccg_events, ccg_metrics and ccg_msgseq (walks over
 * a location's events), ccg_merge (files over several locations),
 * ccg_options (the open's options); ccg_mut.h what changes after open.
 * lib/view/, the stage after it, makes the files and opens the trace:
 * ccg_dir.c (the table of each kind of directory's files; the public
 * stat, lookup, readdir and read), ccg_scope, ccg_answers and
 * ccg_waitset (tables of a directory's scope), ccg_info and ccg_wininfo
 * (info files), ccg_chrome and ccg_svgview (trace.json, timeline.svg),
 * ccg_open (opening: the index, ccg_indexio, or a build), ccg_dist (a
 * build shared among processes).
 */
#ifndef CCG_TRACE_I_H
#define CCG_TRACE_I_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "ccg_trace.h"
#include "ccg_analyze.h"
#include "ccg_bins.h"
#include "ccg_patterns.h"
#include "ccg_build.h"
#include "ccg_defs.h"
#include "ccg_index.h"
#include "ccg_ingest.h"
#include "ccg_tsv.h"
#include "ccg_lru.h"
#include "ccg_stats.h"
#include "ccg_store.h"
#include "ccg_store_times.h"
#include "ccg_store_vals.h"
#include "ccg_sumset.h"
#include "ccg_table.h"
#include "ccg_winname.h"

/* Bits of an id that select the view. */
#define CCG_VIEW_BITS 6
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
/* Bytes of zoomed trace.json files kept (their calls, about 40 bytes a
 * call: ccg_jsonzoom.c). */
#define CCG_ZOOM_CACHE (16u << 20)
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
	/* the root's info: once a read met a record that contradicts what
	 * it was checked against, a version that says so (ccg_dir.c) */
	V_ROOT_INFO,
	/* the loops of the call graph (ccg_loops.h): loops.tsv; a holder's
	 * iterations/ directory (its id: the holder's inum and this view)
	 * and its iterations.tsv */
	V_LOOPS,
	V_ITERS,
	V_ITERTSV,
	/* otf2/, the directory's slice as an OTF2 archive (ccg_slice.h):
	 * the folder, its anchor and global definitions, traces/ ... */
	V_SL_DIR,
	V_SL_ANCHOR,
	V_SL_GDEF,
	V_SL_TRACES,
	/* ... and a location's event and local definition files: of the
	 * directory's own slice (a tree directory, a location in a window;
	 * the id its directory's), and of the slice of the root or window
	 * (_ALL) or group (_GRP) around the location whose directory's
	 * inum the id carries */
	V_SL_EVT,
	V_SL_LDEF,
	V_SL_EVT_ALL,
	V_SL_LDEF_ALL,
	V_SL_EVT_GRP,
	V_SL_LDEF_GRP,
	V__COUNT
};
_Static_assert(V__COUNT <= (1 << CCG_VIEW_BITS), "views fit their bits");

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

typedef struct ccg_loc {
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
	uint32_t bins_n;        /* its preview bins, 0: none */
	ccg_bins *bins;         /* ... (ccg_binsio.h), NULL: none */
	ccg_patkept pat;        /* its patterns.tsv's totals (ccg_binsio.h) */
} ccg_loc;

/* Location l, the i-th, as queries see it. */
static inline ccg_sloc ccg_loc_sloc(const ccg_loc *l, size_t i)
{
	return (ccg_sloc){(uint32_t)i, l->tbase, l->nevents,
			  l->nevents ? l->last : 0, !l->rep.out_of_order,
			  l->nevents ? l->first : 0};
}

/* Location l's root instance as queries see it: node l->root from the
 * stream's first event, spanning [first, last] (0 to 0 when empty). */
static inline ccg_sinst ccg_loc_sroot(const ccg_loc *l)
{
	int empty = l->first > l->last;
	return (ccg_sinst){l->root, 0, empty ? 0 : l->first,
			   empty ? 0 : l->last};
}

typedef struct ccg_group {
	const char *name;
	uint64_t id;            /* definition id, UINT64_MAX for "ungrouped" */
	uint64_t type;
	char *dirname;
	uint32_t *locs;
	uint32_t nlocs;
	uint64_t events;        /* its locations' events */
} ccg_group;

/* A LOCATION_PROPERTY definition: its owner and record index. */
typedef struct ccg_lprop {
	uint64_t owner;
	size_t record;
} ccg_lprop;

/* A looked-up timeline-N.tsv: the directory's inum and N. */
typedef struct ccg_tln {
	uint64_t dir;
	uint64_t bins;
} ccg_tln;

typedef struct ccg_waitset ccg_waitset;

/* What changes after ccg_trace_open, with its locks: ccg_mut.h. */
typedef struct ccg_trace_mut ccg_trace_mut;

/* An open trace.  Every field but `mut`'s contents is set by
 * ccg_trace_open and read-only afterwards. */
struct ccg_trace {
	char *anchor;
	ccg_options opt;
	ccg_defs *defs;
	ccg_store *store;
	ccg_loc *locs;
	size_t nlocs;
	ccg_group *groups;
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
	double phase_seconds[4]; /* of a build: read, answers, waits, write */
	double open_seconds;    /* this open, index or build included */
	int built;              /* this open built the graph from OTF2 */
	int from_index;         /* served from the index file */
	char *index_path;       /* NULL when there is no index */
	ccg_index *index;
	ccg_statcache *stats;   /* cached per-instance statistics */
	ccg_lru *insts;         /* resolved tree instances by inum (its own
				 * lock) */
	ccg_lru *svgs;          /* timeline.svg and iterations.tsv texts by
				 * directory inum and view */
	ccg_lru *zooms;         /* zoomed trace.json files by directory inum
				 * (ccg_jsonzoom.c; its own lock) */
	ccg_lru *msgseqs;       /* message sequence numbers by location
				 * (ccg_msgseq.c; its own lock) */
	struct ccg_slices *slices; /* the otf2/ archives written
				    * (lib/view/ccg_slices.h; its own
				    * locks) */
	ccg_sumset *sums;       /* stored results of large instances */
	uint64_t sums_min;      /* ... of this many events or more */
	ccg_an *an;             /* the answers' analysis (its kinds) */
	int runtime_only;       /* no call is of a computation region
				 * (ccg_answers_setup) */
	ccg_waitset *waits;     /* wait states and the critical path */
	ccg_patkept pat;        /* the root's patterns.tsv's totals
				 * (ccg_binsio.h) */
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
	ccg_trace_mut *mut;     /* what changes after open, with its locks */
};

/* A time cursor over l's stream, refusing times outside [first, last]. */
static inline void ccg_loc_tcur(ccg_tcur *tc, const ccg_trace *t,
				const ccg_loc *l)
{
	ccg_tcur_init(tc, t->store, l->tbase, l->nevents, l->first, l->last);
}

/* A value cursor (initialised) over location l's stream. */
static inline void ccg_loc_vcur(ccg_vcur *vc, const ccg_trace *t,
				const ccg_loc *l)
{
	ccg_vcur_retarget(vc, t->store, l->tbase, l->nevents);
}


#endif
