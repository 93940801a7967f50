/*
 * ccg_chan.c - a message's channel and its sequence numbers (ccg_chan.h).
 * The counter is the library's hash map (ccg_map.h) of channels.
 */
#include "ccg_chan.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_fields.h"
#include "ccg_map.h"

int ccg_chan_of(const ccg_defs *d, ccg_kind kind, const unsigned char *f,
		size_t len, uint64_t self, ccg_chan *c)
{
	int send = kind == CCG_EV_MPI_SEND || kind == CCG_EV_MPI_ISEND;
	uint64_t rank, comm, tag;
	if (!send && kind != CCG_EV_MPI_RECV && kind != CCG_EV_MPI_IRECV)
		return CCG_CHAN_NONE;
	if (ccg_field_u(kind, f, len, 0, &rank) ||
	    ccg_field_u(kind, f, len, 1, &comm) ||
	    ccg_field_u(kind, f, len, 2, &tag))
		return CCG_CHAN_NONE;
	/* The peer as the records render it: never the location itself
	 * through COMM_SELF. */
	const uint64_t me = UINT64_MAX - 1;
	uint64_t peer = ccg_defs_rank_location(d, comm, rank, me);
	if (peer == me || peer == UINT64_MAX)
		return CCG_CHAN_NONE;
	*c = (ccg_chan){send ? self : peer, send ? peer : self, comm, tag};
	return send ? CCG_CHAN_SEND : CCG_CHAN_RECV;
}

/* The counts by channel and direction: the direction in the tag's top
 * bit (OTF2's tags are 32-bit). */
struct ccg_chanseq {
	ccg_map m;
};

ccg_err ccg_chanseq_create(ccg_chanseq **out)
{
	*out = calloc(1, sizeof **out);
	return *out ? CCG_OK : CCG_ENOMEM;
}

void ccg_chanseq_free(ccg_chanseq *q)
{
	if (!q)
		return;
	ccg_map_free(&q->m);
	free(q);
}

ccg_err ccg_chanseq_next(ccg_chanseq *q, const ccg_chan *c, int dir,
			 uint64_t *k)
{
	ccg_mkey key = {{c->sender, c->receiver, c->comm,
			 c->tag ^ ((uint64_t)(dir == CCG_CHAN_RECV) << 63)}};
	size_t slot;
	int found;
	ccg_err err = ccg_map_slot(&q->m, &key, &slot, &found);
	if (err)
		return err;
	*k = q->m.val[slot]++;
	return CCG_OK;
}
