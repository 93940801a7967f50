/* Internal state of the -finstrument-functions tracer (libccgfs-trace). */
#ifndef CCGFS_TRACE_I_H
#define CCGFS_TRACE_I_H

#include <stddef.h>
#include <stdint.h>

/* One recorded event, 16 bytes: the time (ns, CLOCK_MONOTONIC) and the
 * function address, with CCGT_LEAVE set for a Leave. */
typedef struct {
	uint64_t t;
	uint64_t a;
} ccgt_event;

#define CCGT_LEAVE (UINT64_C(1) << 63)

/* One pthread: its events (owned), never freed before the archive is
 * written, so threads that ended are written too. */
typedef struct ccgt_thread {
	struct ccgt_thread *next;
	uint32_t index;      /* 0, 1, ... in the order of first events */
	ccgt_event *ev;      /* cap events, NULL when none could be allocated */
	size_t n, cap;
	int stopped;         /* the buffer filled: nothing more is recorded */
	uint64_t stop_t;     /* time of the first dropped event */
	uint64_t dropped;    /* events not recorded since the stop */
	int busy;            /* inside a record (atomic): exit waits for it */
} ccgt_thread;

/* Writes every thread of the list `head` (borrowed) as an OTF2 archive
 * into dir; returns 0, or -1 after printing why on stderr. */
int ccgt_write_archive(const char *dir, ccgt_thread *head, uint32_t nthreads);

#endif
