/*
 * ccg_ids.h - internal to lib/trace/: what an id names, and a location's
 * tree instances: found from an inum, their items and children.
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
#ifndef CCG_TRACE_IDS_H
#define CCG_TRACE_IDS_H

#include "trace_i.h"
#include "ccg_store_times.h"

/* Window directories live far above every tree instance (a trace has
 * fewer than 2^46 directories), and the timeline-N.tsv files of any
 * directory above those (at most CCG_WIN_MAX windows of at most
 * CCG_WIN_STRIDE_MAX groups and locations each lie below): every inum is
 * below 2^50, every id below 2^CCG_ID_BITS. */
#define CCG_WIN_BASE ((uint64_t)1 << 46)
#define CCG_TLN_BASE ((uint64_t)1 << 49)
#define CCG_WIN_STRIDE_MAX ((uint64_t)1 << 28)
/* Most distinct windows (and timeline-N files) looked up in one open. */
#define CCG_WIN_MAX (1u << 20)

_Static_assert(sizeof(ccg_id) == 8, "ids are 64-bit");
_Static_assert(CCG_WIN_BASE + (uint64_t)CCG_WIN_MAX * CCG_WIN_STRIDE_MAX <=
		       CCG_TLN_BASE,
	       "windows lie below the timeline-N files");
_Static_assert(((CCG_TLN_BASE + CCG_WIN_MAX) << CCG_VIEW_BITS) <=
		       ((uint64_t)1 << CCG_ID_BITS),
	       "every id lies below 2^CCG_ID_BITS");

/* refused.tsv's id carries its version (ccg_windows.h) where other
 * files carry their directory's inum (always the root's for it): every
 * version below this fits an id. */
#define CCG_REFUSED_VERSIONS ((uint64_t)1 << 50)
_Static_assert((CCG_REFUSED_VERSIONS << CCG_VIEW_BITS) <=
		       ((uint64_t)1 << CCG_ID_BITS),
	       "refused.tsv's versions fit its ids");

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
typedef struct ccg_where {
	enum { W_ROOT, W_GROUP, W_TREE, W_TIME, W_WIN } kind;
	size_t index;           /* group or location index */
	size_t win;             /* W_WIN: window index */
	uint64_t sub;           /* W_WIN: 0 the window, 1..G a group, then
				 * the locations */
	uint32_t bins;          /* a timeline-N.tsv: N; else 0 */
	uint64_t dir;           /* the directory's inum: for a timeline-N.tsv
				 * its directory's, else the inum itself */
} ccg_where;

/* One node at one place: a location directory, a call or a group. */
typedef struct ccg_inst {
	const ccg_loc *l;
	uint32_t node;          /* store id */
	uint64_t first;         /* its first event in the location's stream */
	uint64_t start, end;    /* absolute (ccg_node_end) */
	uint32_t depth;         /* depth of the node's own events */
	uint32_t parent_depth;  /* depth of the parent's own events */
	ccg_node hdr;
} ccg_inst;

/* The instance as the queries see it. */
static inline ccg_sinst inst_sinst(const ccg_inst *in)
{
	return (ccg_sinst){in->node, in->first, in->start, in->end};
}

/* The items of an instance: references, each one's first event and (for
 * nodes) header, decoded once, and a reader of the location's times to
 * place them. */
typedef struct ccg_titem {
	uint64_t first;         /* its first event */
	ccg_node hdr;           /* a node's header; unset for an event */
} ccg_titem;

typedef struct ccg_titems {
	ccg_ref *refs;          /* CCG_FANOUT_MAX + 1 entries */
	ccg_titem *item;        /* n of them */
	uint32_t n;
	size_t cap;             /* entries of item */
	ccg_tcur *tc;
} ccg_titems;

/* Inums per window: the window, its groups, its locations. */
uint64_t ccg_ids_win_stride(const ccg_trace *t);
/* Window `i` (the table may grow under other threads). */
ccg_win ccg_ids_window(const ccg_trace *t, size_t i);
/* What inum is; -1 when it names nothing. */
int ccg_ids_locate(const ccg_trace *t, uint64_t inum, ccg_where *w);
/* The key of directory w (not a tree directory) among what is kept per
 * directory over several locations: its window (SIZE_MAX for the root
 * and a group) and `sub`: in a window w->sub, else 0 the root, 1 + i
 * group i. */
void ccg_ids_dirkey(const ccg_where *w, size_t *win, uint64_t *sub);
/* The locations a directory covers: all (the root, a window), a group's
 * (a group, a group in a window), or one (a tree node, a location in a
 * window).  Location i is t->locs[members ? members[i] : first + i]. */
size_t ccg_ids_scope(const ccg_trace *t, const ccg_where *w, size_t *first,
		     const uint32_t **members);
/* The instance of a location's directory. */
ccg_err ccg_ids_root(const ccg_trace *t, const ccg_loc *l, ccg_inst *in);
/* The items of `in` into *it (its arrays made on first use; free them
 * with ccg_ids_items_free). */
ccg_err ccg_ids_items(const ccg_trace *t, const ccg_inst *in, ccg_titems *it);
void ccg_ids_items_free(ccg_titems *it);
/* The child instance of `in` for item i of it (a node). */
ccg_err ccg_ids_child(const ccg_inst *in, ccg_titems *it, uint32_t i,
		      ccg_inst *out);
/* Keeps instance `in`, inum `inum`, for ccg_ids_resolve (best effort: a
 * failure only means it is found again by a descent). */
void ccg_ids_remember(const ccg_trace *t, uint64_t inum, const ccg_inst *in);
/* The destructor of t->insts. */
void ccg_ids_forget(void *ctx, void *in);
/* The instance `inum` of location l (W_TREE). */
ccg_err ccg_ids_resolve(const ccg_trace *t, const ccg_loc *l, uint64_t inum,
			ccg_inst *in);
/* Inum of visible child k of `in`, whose inum is `inum`. */
ccg_err ccg_ids_child_inum(const ccg_trace *t, const ccg_inst *in,
			   uint64_t inum, uint32_t k, uint64_t *out);

#endif
