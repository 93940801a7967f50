#define _GNU_SOURCE /* O_TMPFILE */

#include "ccg_trecs.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ccg_grow.h"
#include "ccg_pio.h"

#define CCG_TREC_FILE (1ULL << 63)
#define CCG_TREC_OFF ((1ULL << 47) - 1)

struct ccg_spill {
	int fd;
	int refs;               /* atomic */
	pthread_mutex_t mu;
	uint64_t end;           /* bytes reserved in the file: mu */
};

/* An unlinked file in dir: O_TMPFILE where the file system has it, else a
 * named one removed at once. */
static int open_unlinked(const char *dir)
{
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	char path[4096];
	if (snprintf(path, sizeof path, "%s/.ccgfs-spill-XXXXXX", dir) >=
	    (int)sizeof path)
		return -1;
	fd = mkstemp(path);
	if (fd >= 0)
		unlink(path);
	return fd;
}

ccg_err ccg_spill_open(const char *dir, ccg_spill **out)
{
	ccg_spill *sp = calloc(1, sizeof *sp);
	if (!sp)
		return CCG_ENOMEM;
	if ((sp->fd = open_unlinked(dir && *dir ? dir : ".")) < 0) {
		free(sp);
		return CCG_EIO;
	}
	sp->refs = 1;
	pthread_mutex_init(&sp->mu, NULL);
	*out = sp;
	return CCG_OK;
}

ccg_spill *ccg_spill_ref(ccg_spill *sp)
{
	if (sp)
		__atomic_add_fetch(&sp->refs, 1, __ATOMIC_RELAXED);
	return sp;
}

void ccg_spill_unref(ccg_spill *sp)
{
	if (!sp || __atomic_sub_fetch(&sp->refs, 1, __ATOMIC_ACQ_REL))
		return;
	close(sp->fd);
	pthread_mutex_destroy(&sp->mu);
	free(sp);
}

uint64_t ccg_spill_bytes(ccg_spill *sp)
{
	pthread_mutex_lock(&sp->mu);
	uint64_t n = sp->end;
	pthread_mutex_unlock(&sp->mu);
	return n;
}

/* Writes len bytes at a fresh place of the file; *off receives it. */
static ccg_err spill_write(ccg_spill *sp, const char *p, size_t len,
			   uint64_t *off)
{
	pthread_mutex_lock(&sp->mu);
	*off = sp->end;
	int room = len <= CCG_TREC_OFF - sp->end;
	if (room)
		sp->end += len;
	pthread_mutex_unlock(&sp->mu);
	return room ? ccg_pio_all(sp->fd, NULL, p, len, *off) : CCG_ERANGE;
}

/* Adds entry e (a record of len bytes). */
static ccg_err push_ent(ccg_trecs *t, uint64_t e, size_t len)
{
	if (CCG_GROW(t->ent, (size_t)t->n + 1, t->cap))
		return CCG_ENOMEM;
	t->ent[t->n++] = e;
	t->bytes += len;
	return CCG_OK;
}

ccg_err ccg_trecs_add(ccg_trecs *t, const void *p, size_t len)
{
	if (len == 0 || len > CCG_TREC_MAX)
		return CCG_EINVAL;
	if (t->pend.len > CCG_TREC_OFF - len)
		return CCG_ERANGE;
	uint64_t e = (uint64_t)t->pend.len << 16 | len;
	if (ccg_buf_add(&t->pend, p, len))
		return CCG_ENOMEM;
	ccg_err err = push_ent(t, e, len);
	if (!err && t->sp && t->pend.len >= CCG_SPILL_BYTES)
		err = ccg_trecs_flush(t);
	return err;
}

ccg_err ccg_trecs_flush(ccg_trecs *t)
{
	if (!t->sp || !t->pend.len)
		return CCG_OK;
	uint64_t base;
	ccg_err err = spill_write(t->sp, t->pend.data, t->pend.len, &base);
	if (err)
		return err;
	for (uint32_t i = t->n; i-- > 0 && !(t->ent[i] & CCG_TREC_FILE);)
		t->ent[i] = CCG_TREC_FILE | (base + (t->ent[i] >> 16)) << 16 |
			    (t->ent[i] & 0xFFFF);
	ccg_buf_reset(&t->pend);
	return CCG_OK;
}

ccg_err ccg_trecs_get(const ccg_trecs *t, uint32_t id, const unsigned char **p,
		      size_t *len, void **hold)
{
	*hold = NULL;
	if (id >= t->n)
		return CCG_ENOENT;
	uint64_t e = t->ent[id], off = e >> 16 & CCG_TREC_OFF;
	*len = (size_t)(e & 0xFFFF);
	if (!(e & CCG_TREC_FILE)) {
		*p = (const unsigned char *)t->pend.data + off;
		return CCG_OK;
	}
	unsigned char *b = malloc(*len);
	if (!b)
		return CCG_ENOMEM;
	ccg_err err = ccg_pio_all(t->sp->fd, b, NULL, *len, off);
	if (err) {
		free(b);
		return err;
	}
	*p = b;
	*hold = b;
	return CCG_OK;
}

ccg_err ccg_trecs_append(ccg_trecs *dst, const ccg_trecs *src)
{
	if (src->sp && src->sp != dst->sp)
		return CCG_EINVAL;
	/* Pending records stay the last ones. */
	ccg_err err = src->n && src->ent[0] & CCG_TREC_FILE
			      ? ccg_trecs_flush(dst)
			      : CCG_OK;
	for (uint32_t i = 0; !err && i < src->n; i++) {
		uint64_t e = src->ent[i];
		size_t len = (size_t)(e & 0xFFFF);
		if (e & CCG_TREC_FILE)
			err = push_ent(dst, e, len);
		else
			err = ccg_trecs_add(dst, src->pend.data + (e >> 16),
					    len);
	}
	return err;
}

void ccg_trecs_clear(ccg_trecs *t)
{
	ccg_buf_reset(&t->pend);
	t->n = 0;
	t->bytes = 0;
}

void ccg_trecs_free(ccg_trecs *t)
{
	ccg_buf_free(&t->pend);
	free(t->ent);
	ccg_spill_unref(t->sp);
	memset(t, 0, sizeof *t);
}
