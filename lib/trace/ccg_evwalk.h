/*
 * ccg_evwalk.h - internal to lib/trace/: the walk over a location's events
 * that events.tsv (ccg_events.c) and trace.json (ccg_evjson.c) share.  A
 * walk reads through its thread's memo (decoded records, nodes, window
 * ranges, metric units; kept across reads, freed when the thread ends);
 * each pass over a subtree is a cursor of its own (ccg_evwalk_cursor).
 */
#ifndef CCG_TRACE_EVWALK_H
#define CCG_TRACE_EVWALK_H

#include "trace_i.h"
#include "ccg_events.h"
#include "ccg_walk.h"

/* A thread's memo; its entries are private to ccg_evwalk.c. */
typedef struct ccg_evmemo ccg_evmemo;
struct ccg_evmemo_ev;
struct ccg_evmemo_unit;

/* How a walk writes its lines: events.tsv's, or trace.json's
 * (ccg_json.h). */
enum ccg_evfmt { CCG_EVF_TSV, CCG_EVF_JSON };

/* What a walk keeps of each node it enters: the calls its events begin
 * and end (trace.json). */
typedef struct ccg_jframe {
	uint64_t first, n;      /* the node's first event, its events */
	uint64_t region;        /* a call's region */
	uint8_t call, endmode;  /* a call; its enum ccg_node_end */
} ccg_jframe;

/* What a walk over one location reads through. */
typedef struct ccg_evwalk {
	const ccg_trace *t;
	const ccg_loc *l;
	struct ccg_evmemo_ev *ev;
	ccg_walk_memo *nodes;
	ccg_buf *fields_;
	ccg_tcur *tc;           /* the location's times */
	ccg_vcur *vc;           /* its values */
	struct ccg_evmemo_ev *at; /* a split record joined */
	ccg_evwin win;          /* the events it keeps */
	enum ccg_evfmt fmt;     /* how lines are written */
	char pid[24], tid[24];  /* JSON: the location's process, thread */
	size_t ts_width;        /* JSON: width of its times */
	char ctr_tag[48];       /* JSON: its counters' tag (ccg_json.h) */
	const ccg_jframe *outer; /* JSON: the call around the walk's first
				 * node, or NULL */
	uint64_t span_end;      /* JSON: where the file's span ends */
	ccg_buf *name;          /* JSON: a region's name */
	struct ccg_evmemo_unit *units; /* JSON: units of metrics */
} ccg_evwalk;

/* This thread's memo for trace t (emptied if it held another trace);
 * NULL when out of memory. */
ccg_evmemo *ccg_evwalk_memo(const ccg_trace *t);
/* A walk over location l through memo m, over all its events, writing
 * events.tsv lines. */
ccg_evwalk ccg_evwalk_make(const ccg_trace *t, const ccg_loc *l,
			   ccg_evmemo *m);
/* Makes w write trace.json's lines. */
void ccg_evwalk_json(ccg_evwalk *w);
/* Bytes of one events.tsv line of l besides its record's own text. */
uint64_t ccg_evwalk_tsv_fixed(const ccg_trace *t, const ccg_loc *l);
/* Bytes of each of w's lines besides its record's text. */
uint64_t ccg_evwalk_fixed(const ccg_evwalk *w);
/* A cursor over w's location, through the thread's node memo.
 * Ownership: ccg_walk_free. */
ccg_err ccg_evwalk_cursor(const ccg_evwalk *w, ccg_walk **out);
/* Enters the node c has just given (its text length and events), its
 * sums checked against its items'. */
ccg_err ccg_evwalk_enter(ccg_evwalk *w, ccg_walk *c, uint64_t textlen,
			 uint64_t nevents);
/* ccg_evwalk_enter of node item `it`, its frame marked with the call it
 * is (trace.json's clipping and call roles read the frames). */
ccg_err ccg_evwalk_open(ccg_evwalk *w, ccg_walk *c, const ccg_walk_item *it);
/* Bytes of the events of node `id` (first event `first`) inside w's
 * window, `fixed` bytes a line besides its text. */
ccg_err ccg_evwalk_size(ccg_evwalk *w, uint32_t id, uint64_t first,
			uint64_t fixed, uint64_t *size);
/* Appends up to `len` bytes of the body (its lines) of `in` inside w's
 * window, from body offset `off`. */
ccg_err ccg_evwalk_read(ccg_evwalk *w, const ccg_inst *in, uint64_t off,
			size_t len, ccg_buf *out);

#endif
