/*
 * ccg_mut.h - internal to lib/trace/: everything of an open trace that
 * changes after ccg_trace_open (t->mut): the windows and timeline-N files
 * looked up, the merged texts kept, patterns.tsv made, the meters'
 * rows of whole locations, the reads served,
 * the names refused.  Each field names the lock that protects it.
 */
#ifndef CCG_TRACE_MUT_H
#define CCG_TRACE_MUT_H

#include <pthread.h>

#include "trace_i.h"

/* A window's merged events.tsv or metrics.tsv, kept (ccg_merge.c). */
typedef struct ccg_wmerge ccg_wmerge;
/* A cursor over a merge's streams (ccg_mcur.h), and how many a trace
 * keeps parked between reads. */
typedef struct ccg_mcur ccg_mcur;
#define CCG_MERGE_PARK 8
/* Where each location's part of a directory's trace.json ends
 * (lib/view/ccg_chrome.c). */
typedef struct ccg_jlayout ccg_jlayout;

/* Refused names refused.tsv shows, those kept for its earlier versions
 * (see ccg_windows_refused_text), and those also said on stderr. */
#define CCG_REFUSED_KEPT 32
#define CCG_REFUSED_HIST 1024
#define CCG_REFUSED_SAID 100

/* A name a lookup refused and why; both owned (malloc). */
typedef struct ccg_refusal {
	char *path;             /* from the root: "time/2s-1s" */
	char *why;
} ccg_refusal;

struct ccg_trace_mut {
	pthread_mutex_t win_mu;
	ccg_win *wins;          /* win_mu: looked-up windows */
	size_t nwins, capwins;  /* win_mu */
	ccg_tln *tlns;          /* win_mu: looked-up timeline-N.tsv */
	size_t ntlns, captlns;  /* win_mu */
	ccg_wmerge **merges; /* win_mu: merged window events.tsv, by
				 * window and scope */
	size_t nmerges, capmerges; /* win_mu */
	uint64_t merge_kept;    /* win_mu: bytes of kept merged texts */
	struct ccg_mpark {
		ccg_wmerge *m;  /* the merge it reads; NULL: a free place */
		ccg_mcur *cur;  /* owned */
		uint64_t used;  /* park_tick when parked */
	} parked[CCG_MERGE_PARK]; /* win_mu: cursors the last reads of
				 * merges left where they stopped */
	uint64_t park_tick;     /* win_mu */
	ccg_jlayout **jlayouts; /* win_mu: trace.json layouts of
				 * directories over several locations */
	size_t njlayouts, capjlayouts; /* win_mu */
	pthread_mutex_t pat_mu;
	ccg_buf *pat_root;      /* pat_mu: patterns.tsv of the root */
	ccg_buf **pat_loc;      /* pat_mu: per location, when made */
	size_t nlocs_pat;       /* pat_mu */
	pthread_mutex_t meter_mu;
	ccg_mrows **meter_loc;  /* meter_mu: per location, what the meters
				 * count in its whole stream, once made
				 * (kept until close: read without the
				 * lock once set) */
	size_t nlocs_meter;     /* meter_mu */
	pthread_mutex_t loops_mu;
	ccg_lru *loops_cache;   /* loops_mu to make; then its own lock: the
				 * locations' loops (ccg_loops.h) by index,
				 * bounded */
	struct ccg_looprows *loops_rows; /* loops_mu: per location, where
				 * its loops.tsv rows lie in loops_fd */
	int loops_fd;           /* loops_mu to make and write (-1 none);
				 * read without it: the spill file */
	uint64_t loops_end;     /* loops_mu: bytes written to loops_fd */
	uint64_t reads;         /* atomic: file reads served (a size query
				 * is not one) */
	int refused_said;       /* atomic: a read refused a malformed record
				 * and said so (once per trace) */
	pthread_mutex_t ref_mu;
	ccg_refusal refused[CCG_REFUSED_HIST]; /* ref_mu: the last refused
				 * names, a ring; refused[(nrefused - 1) %
				 * CCG_REFUSED_HIST] the newest */
	uint64_t nrefused;      /* ref_mu: names refused so far */
};

#endif
