/*
 * ccg_chan.h - the one pairing of messages: a message's channel and its
 * sequence number.
 *
 * MPI keeps the messages of one sender, receiver, communicator and tag in
 * order, so the k-th send of such a channel is received by its k-th
 * receive.  Every part of ccgfs that pairs a send with its receive takes
 * the channel of a record from ccg_chan_of: trace.json's flows and
 * timeline.svg's message lines number a location's ends of each channel
 * with a ccg_chanseq (ccg_msgseq.c); the wait states (lib/analyze), which
 * read every location at once, keep each channel's unmatched ends in a
 * queue in stream order, which pairs the same k-th with the same k-th
 * and forgets a channel once nothing waits on it; messages.tsv's
 * `received` counts what they paired.
 *
 * Simple API: ccg_chan_of.  Advanced: the sequence counter.
 */
#ifndef CCG_CHAN_H
#define CCG_CHAN_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_defs.h"
#include "ccg_error.h"
#include "ccg_schema.h"

/* A channel: sender and receiver location ids, communicator id, tag. */
typedef struct ccg_chan {
	uint64_t sender, receiver, comm, tag;
} ccg_chan;

enum { CCG_CHAN_NONE = 0, CCG_CHAN_SEND, CCG_CHAN_RECV };

/* What event record `kind` (its fields f, len bytes) is at the location
 * whose id is `self`: a send (MPI_SEND, MPI_ISEND) or a receive (MPI_RECV,
 * MPI_IRECV) of channel *c, or CCG_CHAN_NONE - not a message end, a
 * malformed record, a peer the definitions do not name (or COMM_SELF). */
int ccg_chan_of(const ccg_defs *d, ccg_kind kind, const unsigned char *f,
		size_t len, uint64_t self, ccg_chan *c);

/* ---- advanced: numbering a location's ends of each channel ---- */

typedef struct ccg_chanseq ccg_chanseq;

/* An empty counter.  Ownership: ccg_chanseq_free. */
ccg_err ccg_chanseq_create(ccg_chanseq **out);
void ccg_chanseq_free(ccg_chanseq *q);
/* The number of the next send (dir CCG_CHAN_SEND) or receive (dir
 * CCG_CHAN_RECV) of channel c (0 for its first), counted. */
ccg_err ccg_chanseq_next(ccg_chanseq *q, const ccg_chan *c, int dir,
			 uint64_t *k);

#endif
