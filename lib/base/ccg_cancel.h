/*
 * ccg_cancel.h - stopping a read whose reader is gone.
 *
 * ccg_trace_read_cancel installs its caller's hook (ccg_cancel_fn, in
 * ccg_trace.h) for the calling thread while the read runs; the long loops
 * of a read (the events walk, the statistics and profile walks, a table's
 * lines) call ccg_cancel_poll once per step.  Every CCG_CANCEL_EVERY polls
 * the hook is asked; once it said yes, every later poll of that read says
 * CCG_EINTR, which the loop returns like any other error, so nothing
 * partly computed is kept.  Without a hook a poll costs a test and a
 * branch.
 *
 * The hook lives in thread-local storage rather than in an argument: the
 * loops that must see it are spread over a dozen walks that share no
 * structure, and a read runs on its caller's thread alone (no read hands
 * work to other threads), so the thread is the read.
 */
#ifndef CCG_CANCEL_H
#define CCG_CANCEL_H

#include <stdint.h>

#include "ccg_error.h"
#include "ccg_trace.h"

/* Polls between two questions to the hook. */
#define CCG_CANCEL_EVERY 1024u

/* One thread's hook; fields are the thread's own (no lock). */
typedef struct ccg_cancel {
	ccg_cancel_fn fn;       /* NULL: nothing to ask */
	void *arg;
	uint32_t polls;         /* polls since the hook was last asked */
	int hit;                /* the hook said stop */
} ccg_cancel;

extern __thread ccg_cancel ccg_cancel_cur;

/* Installs fn(arg) for this thread, the hook before it saved in *saved
 * (restore it with ccg_cancel_pop). */
void ccg_cancel_push(ccg_cancel_fn fn, void *arg, ccg_cancel *saved);
void ccg_cancel_pop(const ccg_cancel *saved);

/* Asks the hook now (not only every CCG_CANCEL_EVERY polls). */
ccg_err ccg_cancel_ask(void);

/* Whether the hook has said stop during this read (polls since then
 * return CCG_EINTR). */
static inline int ccg_cancel_stopped(void)
{
	return ccg_cancel_cur.hit;
}

/* CCG_EINTR when the read is to stop, else CCG_OK. */
static inline ccg_err ccg_cancel_poll(void)
{
	if (!ccg_cancel_cur.fn)
		return CCG_OK;
	if (ccg_cancel_cur.hit)
		return CCG_EINTR;
	if (++ccg_cancel_cur.polls < CCG_CANCEL_EVERY)
		return CCG_OK;
	return ccg_cancel_ask();
}

#endif
