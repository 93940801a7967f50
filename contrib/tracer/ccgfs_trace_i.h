/* Internal state of the -finstrument-functions tracer (libccgfs-trace).
 *
 * Each thread owns a fixed buffer cut into bins (ccgfs_trace_buf.c).  A
 * bin belongs to one reduction item: the one item of "stop", an event
 * class ("class") or a call-stack level ("level").  When no bin is free,
 * the strategy reduces one item - all its bins go back to the free list -
 * or stops recording, so a thread never uses more than its buffer.  Within
 * an item events are in time order; the writer merges the items. */
#ifndef CCGFS_TRACE_I_H
#define CCGFS_TRACE_I_H

#include <stddef.h>
#include <stdint.h>

/* One recorded event, 16 bytes: the time (ns, CLOCK_MONOTONIC; strictly
 * increasing per thread, except that a metric has the time of the Enter
 * or Leave it belongs to and comes first) and a word whose top 4 bits are
 * the kind and the rest the payload (a function address, a metric
 * value).  A record of several slots keeps them together in one bin;
 * every slot has the record's time, the words after the first are data
 * (the MPI records, ccgfs_trace_mpi.h). */
typedef struct {
	uint64_t t;
	uint64_t a;
} ccgt_event;

#define CCGT_KIND_SHIFT 60
#define CCGT_PAYLOAD(a) ((a) & ((UINT64_C(1) << CCGT_KIND_SHIFT) - 1))
#define CCGT_KIND(a) ((unsigned)((a) >> CCGT_KIND_SHIFT))
#define CCGT_WORD(kind, payload) \
	(((uint64_t)(kind) << CCGT_KIND_SHIFT) | CCGT_PAYLOAD(payload))
enum {
	CCGT_K_ENTER, CCGT_K_LEAVE, CCGT_K_METRIC,
	/* MPI (libccgfs-trace-mpi): a call's Enter and Leave, then the
	 * point-to-point and collective records */
	CCGT_K_MPI_ENTER, CCGT_K_MPI_LEAVE, CCGT_K_SEND, CCGT_K_RECV,
	CCGT_K_ISEND, CCGT_K_IRECV, CCGT_K_ISEND_DONE, CCGT_K_IRECV_REQ,
	CCGT_K_COLL_BEGIN, CCGT_K_COLL_END, CCGT_K_REQ_MARK,
	CCGT_K_PAD = 15
};
#define CCGT_MAX_SLOTS 3

/* Slots a record of `kind` takes. */
static inline unsigned ccgt_slots(unsigned kind)
{
	switch (kind) {
	case CCGT_K_SEND: case CCGT_K_RECV: case CCGT_K_ISEND:
	case CCGT_K_IRECV: case CCGT_K_COLL_END:
		return 3;
	default:
		return 1;
	}
}

/* Event classes, the items of the "class" strategy.  In the "level"
 * strategy the MPI classes (mpi, p2p, coll) form one more item that is
 * never dropped. */
enum {
	CCGT_C_FUNC, CCGT_C_COUNTER, CCGT_C_MPI, CCGT_C_P2P, CCGT_C_COLL,
	CCGT_NCLASSES
};
#define CCGT_IS_MPI_CLASS(c) ((c) >= CCGT_C_MPI)
extern const char *const ccgt_class_names[CCGT_NCLASSES];

enum { CCGT_STOP, CCGT_CLASS, CCGT_LEVEL };
extern const char *const ccgt_reduce_names[3];

#define CCGT_NONE UINT32_MAX

/* The bins of one item: a chain from head to tail (bin numbers, CCGT_NONE
 * when it has none); fill slots used in the tail; n records held. */
typedef struct {
	uint32_t head, tail, fill;
	uint64_t n;
} ccgt_item;

/* Settings shared by all threads, fixed at the first event. */
typedef struct {
	int strategy;                  /* CCGT_STOP, _CLASS, _LEVEL */
	uint8_t order[CCGT_NCLASSES];  /* classes, the first dropped first */
	uint64_t buffer;               /* bytes per thread */
	uint64_t limit;                /* bytes for all threads together */
	uint64_t used;                 /* atomic: of limit, taken by bins */
	int cputime;                   /* record the thread's CPU time */
} ccgt_config;

/* One pthread, never freed before the archive is written (threads that
 * ended are written too).  Only its own thread touches it while
 * recording; the exit waits for `busy` to clear before reading it. */
typedef struct ccgt_thread {
	struct ccgt_thread *next;
	uint32_t index;        /* 0, 1, ... in the order of first events */
	ccgt_config *cfg;      /* shared; only cfg->used changes */
	uint64_t used;         /* bytes of the limit it took: its items, and
				* bin_bytes per bin it used */
	uint64_t bin_bytes;    /* a bin's slots and link */
	uint32_t fresh;        /* bins [fresh, nbins) never used yet */
	uint32_t granted;      /* bins [0, granted) taken from the limit */
	uint32_t chunk_bins;   /* bins taken from the limit at a time */
	ccgt_event *ev;        /* nbins * per_bin slots; NULL when none */
	uint32_t *link;        /* next bin of a chain, per bin */
	ccgt_item *items;      /* nitems */
	uint32_t nbins, per_bin, nitems;
	uint32_t mpi_item;     /* level: the item of the MPI classes */
	uint32_t free_bin;     /* the free bins' chain */
	uint32_t depth;        /* call depth now */
	uint32_t level_limit;  /* level: levels >= this are dropped */
	uint32_t top;          /* level: levels < top may hold bins */
	uint32_t class_dropped; /* class: bit per class dropped */
	int level_cut;         /* level: some level was dropped */
	int stopped;           /* nothing more is recorded */
	uint64_t stop_t;       /* time of the stop */
	uint64_t last_t;       /* time of the last Enter or Leave */
	uint64_t dropped;      /* records stored then freed, or refused */
	uint64_t drop_first, drop_last; /* their time span */
	int busy;              /* inside a record (atomic) */
} ccgt_thread;

/* Nanoseconds of clock `clock_id` (a clockid_t) now (ccgfs_trace.c).
 * Hidden, so that the recording path, in the same file, inlines it. */
__attribute__((visibility("hidden"))) uint64_t ccgt_now(int clock_id);

/* ---- ccgfs_trace_buf.c ---- */

/* Sets up th's bins in `bytes` (bins, links and items all inside it),
 * allocated but untouched; 0, or -1 when not even one bin fits or memory
 * is short (th then records nothing and counts its drops).  A bin is
 * touched, and taken from the process limit cfg->limit, when first
 * used; ccgt_buf_reserve takes the items' bytes (1, or 0 when the limit
 * has no room for them). */
int ccgt_buf_init(ccgt_thread *th, uint64_t bytes);
int ccgt_buf_reserve(ccgt_thread *th);
void ccgt_buf_free(ccgt_thread *th);

/* Stores one record of n slots (1 to CCGT_MAX_SLOTS) of class `cls` at
 * th's current depth; returns 1 when stored, 0 when dropped (counted). */
int ccgt_buf_put(ccgt_thread *th, unsigned cls, const ccgt_event *e,
		 unsigned n);

/* Counts n records dropped at time t (n 0: only widens the span). */
void ccgt_buf_drop(ccgt_thread *th, uint64_t t, uint64_t n);

/* Calls fn on each stored event of th in no particular order, until fn
 * returns nonzero (then -1); 0 after the last. */
int ccgt_buf_scan(const ccgt_thread *th,
		  int (*fn)(void *ctx, const ccgt_event *e), void *ctx);

/* Walks th's stored events in time order: ccgt_merge_open, then
 * ccgt_merge_next until it returns NULL, then ccgt_merge_close. */
typedef struct ccgt_merge ccgt_merge;
ccgt_merge *ccgt_merge_open(const ccgt_thread *th);
const ccgt_event *ccgt_merge_next(ccgt_merge *m);
void ccgt_merge_close(ccgt_merge *m);

/* ---- ccgfs_trace_names.c ---- */

/* A function's name (never NULL), its source file (NULL when unknown)
 * and line (0 when unknown), all owned. */
typedef struct {
	char *name;
	char *file;
	uint32_t line;
	uint64_t file_addr;   /* the address in its object's file */
} ccgt_name;

/* Names the n addresses into out (n entries); 0, or -1 when memory is
 * short (the entries filled so far are still to be freed).  Set
 * CCGFS_TRACE_LINES=0 to skip the source lines (addr2line). */
int ccgt_names_resolve(const uint64_t *addrs, size_t n, ccgt_name *out);
/* Frees names[0..n) and the array. */
void ccgt_names_free(ccgt_name *names, size_t n);

/* ---- ccgfs_trace_elf.c ---- */

/* A function of an ELF symbol table: its address and size in the file,
 * its name (an offset into the table's strings) and binding. */
typedef struct {
	uint64_t value, size;
	size_t name;
	unsigned char bind;
} ccgt_elf_sym;

/* The functions of one file's .symtab and .dynsym, sorted by address. */
typedef struct {
	ccgt_elf_sym *syms;
	size_t nsyms;
	char *strs;
	size_t nstrs;
} ccgt_elf_syms;

/* Reads the function symbols of the ELF file at path into t (to be freed
 * by ccgt_elf_free whatever it returns): 0, also when the file has no
 * symbol table or parts of it are damaged (those parts are skipped), or
 * -1 when it cannot be opened, is no ELF file of this machine or its
 * section headers cannot be read. */
int ccgt_elf_read(const char *path, ccgt_elf_syms *t);
/* The name of the function of t at file address a: one that starts at a,
 * else one whose [value, value + size) holds a; NULL when none. */
const char *ccgt_elf_find(const ccgt_elf_syms *t, uint64_t a);
void ccgt_elf_free(ccgt_elf_syms *t);

/* The objects loaded in the process (dl_iterate_phdr), each one's symbols
 * read the first time an address inside it is looked up. */
typedef struct ccgt_elf ccgt_elf;
/* NULL when memory is short. */
ccgt_elf *ccgt_elf_open(void);
/* The function at run-time address a, or NULL (valid until close). */
const char *ccgt_elf_lookup(ccgt_elf *e, uint64_t a);
void ccgt_elf_close(ccgt_elf *e);

/* ---- ccgfs_trace_write.c ---- */

struct OTF2_EvtWriter_struct;

/* What the stored events of a list of threads hold: their distinct Enter
 * addresses, sorted (addrs, owned: free()), the MPI functions entered (bit
 * k: an MPI Enter of payload k < 64), and their span [t0, t1], drops
 * included (t0 UINT64_MAX and t1 0 when there is none). */
typedef struct {
	uint64_t *addrs;
	size_t naddrs;
	uint64_t mpi_used;
	uint64_t t0, t1;
} ccgt_seen;

/* Gathers *out over the threads from head on (one pass over each one's
 * stored events, in no order).  0, or -1 when memory is short. */
int ccgt_collect(const ccgt_thread *head, ccgt_seen *out);

/* How ccgt_write_thread_to names regions (region: of an Enter or Leave,
 * plain or MPI, by its payload) and writes the records it does not know
 * itself (other: 1 written, 0 skipped, -1 error; NULL skips them). */
typedef struct {
	uint32_t (*region)(void *ctx, unsigned kind, uint64_t payload);
	int (*other)(void *ctx, struct OTF2_EvtWriter_struct *w,
		     const ccgt_event *e);
	void *ctx;
} ccgt_evt_sink;

/* Writes th's events to w (borrowed) in time order, then a Leave for
 * every call still open at its end (the stop time when it stopped);
 * Leaves without an open call are skipped.  Events written into
 * *nwritten, calls closed into *nclosed.  0 or -1. */
int ccgt_write_thread_to(struct OTF2_EvtWriter_struct *w,
			 const ccgt_thread *th, const ccgt_evt_sink *sink,
			 uint64_t *nwritten, size_t *nclosed);

/* The record of what a thread kept and dropped, in uint64 fields (MPI
 * ranks gather them as they are): its events written, then the values
 * of the location properties ccgt_def_thread writes. */
enum {
	CCGT_R_NEV, CCGT_R_STRATEGY, CCGT_R_BUFFER, CCGT_R_USED,
	CCGT_R_DROPPED, CCGT_R_FIRST, CCGT_R_LAST, CCGT_R_LEVEL_CUT,
	CCGT_R_LEVEL, CCGT_R_CLASSES, CCGT_R_STOPPED, CCGT_R_STOP_T,
	CCGT_R_NFIELDS
};
/* The location properties (their keys "CCGFS_TRACE::...", in
 * ccgfs_trace_defs.c). */
enum {
	CCGT_P_REDUCE, CCGT_P_BUFFER, CCGT_P_USED, CCGT_P_DROPPED,
	CCGT_P_FIRST, CCGT_P_LAST, CCGT_P_LEVEL, CCGT_P_CLASSES,
	CCGT_P_STOPPED, CCGT_P_NKEYS
};

/* Fills rec (CCGT_R_NFIELDS) from th; CCGT_R_NEV is left alone. */
void ccgt_record_fill(const ccgt_thread *th, uint64_t *rec);

/* The classes of `mask` (a bit per class) in the order they are dropped,
 * comma-separated, into out (NUL-terminated, cut at size). */
void ccgt_classes_text(const ccgt_config *cfg, uint64_t mask, char *out,
		       size_t size);

struct OTF2_Archive_struct;
/* Sets what both archives share: flushing, OTF2's chunks (at most 4 of
 * 1 MiB per writer, so that writing a thread costs a few MiB) and the
 * creator.  0 or -1. */
int ccgt_archive_setup(struct OTF2_Archive_struct *ar);

/* Says on stderr what was dropped of th (`who`: "thread N" or "rank R
 * thread N"); closed: calls it closed at its end. */
void ccgt_report(const char *who, const ccgt_thread *th, size_t closed);

/* Writes every thread of the list `head` (borrowed) as an OTF2 archive
 * into dir; returns 0, or -1 after printing why on stderr. */
int ccgt_write_archive(const char *dir, ccgt_thread *head, uint32_t nthreads,
		       const ccgt_config *cfg);

/* ---- ccgfs_trace_defs.c: global definitions of both writers ---- */

struct OTF2_GlobalDefWriter_struct;

/* Writes definition `fn` (OTF2_GlobalDefWriter_Write##fn) to the writer
 * `g` in scope; true on error. */
#define CCGT_DEF(fn, ...) \
	(OTF2_GlobalDefWriter_Write##fn(g, __VA_ARGS__) != OTF2_SUCCESS)

/* The global definitions of an archive under way: its writer, the next
 * string id (strings are numbered from 0 as they are defined) and the
 * ids of the strings every archive has. */
typedef struct {
	struct OTF2_GlobalDefWriter_struct *g;   /* borrowed */
	uint32_t next;
	uint32_t empty;                  /* "" */
	uint32_t key[CCGT_P_NKEYS];      /* the location properties' keys */
	uint32_t strategy[3];            /* ccgt_reduce_names */
} ccgt_defs;

/* Starts d on g (NULL: fails): the clock (ns, span [t0, t1]), the
 * strings every archive has (the same ids in both writers) and system
 * tree node 0, this host.  0 or -1. */
int ccgt_defs_open(ccgt_defs *d, struct OTF2_GlobalDefWriter_struct *g,
		   uint64_t t0, uint64_t t1);

/* Defines s, or fmt's text of v (at most 63 bytes), as the next string:
 * its id, or OTF2_UNDEFINED_STRING on error. */
uint32_t ccgt_str(ccgt_defs *d, const char *s);
uint32_t ccgt_strf(ccgt_defs *d, const char *fmt, uint64_t v);

/* Defines location loc, thread `index` (named "thread index") of
 * location group `group`, with rec[CCGT_R_NEV] events, and its record
 * rec (CCGT_R_NFIELDS) as location properties, the classes dropped in
 * cfg's order.  0 or -1. */
int ccgt_def_thread(ccgt_defs *d, const ccgt_config *cfg, uint64_t loc,
		    uint32_t index, uint32_t group, const uint64_t *rec);

/* Defines region `id`, a function of the compiler paradigm named name,
 * in file (NULL or "" when unknown) at line.  0 or -1. */
int ccgt_def_function(ccgt_defs *d, uint32_t id, const char *name,
		      const char *file, uint32_t line);

/* Defines metric class 0 of member 0: the thread's CPU time in ns,
 * accumulated since it began.  0 or -1. */
int ccgt_def_cpu_metric(ccgt_defs *d);

/* ---- ccgfs_trace.c, for the MPI part ---- */

/* A writer of all threads' buffers, as ccgt_write_archive. */
typedef int (*ccgt_writer)(const char *dir, ccgt_thread *head,
			   uint32_t nthreads, const ccgt_config *cfg);

/* Records one record of n slots (kind and data set, times not) of class
 * cls on the calling thread, every slot at a new time; 1 when stored. */
int ccgt_record_ext(unsigned cls, ccgt_event *e, unsigned n);

/* Stops recording and writes through `w` now (also when no thread has
 * recorded anything), instead of at exit; later calls and the exit
 * write nothing. */
void ccgt_finish_with(ccgt_writer w);

/* Appends `suffix` (copied, at most 31 bytes) to the archive's folder
 * when the exit or a signal writes it (an MPI rank that never reached
 * MPI_Finalize writes its own archive there). */
void ccgt_set_exit_suffix(const char *suffix);

#endif
