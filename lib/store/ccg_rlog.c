#define _GNU_SOURCE /* O_TMPFILE, memfd_create */

#include "ccg_rlog.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "ccg_grow.h"
#include "ccg_lru.h"
#include "ccg_pio.h"

/* Largest spill file (offsets stay far from overflow). */
#define CCG_SPILL_MAX (1ULL << 56)
/* Caches the chunks are spread over, by chunk number, so that threads
 * reading at once rarely wait for one lock. */
#define CCG_SPILL_SHARDS 8

/* The spill file's bytes [0, end): below `moved` in the folder's file
 * (fd), from `moved` on in memory (mfd, a memfd), once the folder had no
 * room for more. */
struct ccg_spill {
	int fd;
	int mfd;                /* -1 until the folder is full; set under mu
				 * before `moved` */
	uint64_t moved;         /* atomic (set once, under mu): the offset
				 * from which bytes are in mfd; UINT64_MAX
				 * while they all fit the folder */
	size_t mem_max;         /* most bytes mfd may hold (0: no bound) */
	int refs;               /* atomic */
	ccg_lru *cache[CCG_SPILL_SHARDS]; /* whole chunks, by chunk number */
	pthread_mutex_t mu;
	uint64_t end;           /* bytes written to the file: mu */
	int errnum;             /* errno of the first failed write: mu */
};

/* A chunk of the file (or a record's bytes read apart), as cached. */
typedef struct chunk {
	size_t len;
	unsigned shard;         /* the cache that handed it out */
	int whole;              /* a whole chunk, cached; else bytes read
				 * apart, held only by their reader */
	unsigned char d[];
} chunk;

static void chunk_destroy(void *ctx, void *value)
{
	(void)ctx;
	free(value);
}

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

ccg_err ccg_spill_open(const char *dir, size_t cache_bytes, size_t mem_max,
		       ccg_spill **out)
{
	ccg_spill *sp = calloc(1, sizeof *sp);
	if (!sp)
		return CCG_ENOMEM;
	ccg_err err = CCG_OK;
	for (int i = 0; !err && i < CCG_SPILL_SHARDS; i++)
		err = ccg_lru_create(cache_bytes / CCG_SPILL_SHARDS,
				     chunk_destroy, NULL, &sp->cache[i]);
	if (!err && (sp->fd = open_unlinked(dir && *dir ? dir : ".")) < 0)
		err = CCG_EIO;
	if (err) {
		for (int i = 0; i < CCG_SPILL_SHARDS; i++)
			ccg_lru_free(sp->cache[i]);
		free(sp);
		return err;
	}
	sp->mfd = -1;
	sp->moved = UINT64_MAX;
	sp->mem_max = mem_max;
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
	if (sp->mfd >= 0)
		close(sp->mfd);
	for (int i = 0; i < CCG_SPILL_SHARDS; i++)
		ccg_lru_free(sp->cache[i]);
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

int ccg_spill_errno(ccg_spill *sp)
{
	pthread_mutex_lock(&sp->mu);
	int e = sp->errnum;
	pthread_mutex_unlock(&sp->mu);
	return e;
}

uint64_t ccg_spill_in_memory(ccg_spill *sp)
{
	pthread_mutex_lock(&sp->mu);
	uint64_t n = sp->mfd >= 0 ? sp->end - sp->moved : 0;
	pthread_mutex_unlock(&sp->mu);
	return n;
}

/* len bytes at file offset `at` (>= `moved`) into memory, within mem_max;
 * under mu.  A write the bound refuses fails as the folder's did. */
static ccg_err mem_write(ccg_spill *sp, const void *p, size_t len,
			 uint64_t at)
{
	if (sp->mem_max && (at - sp->moved > sp->mem_max ||
			    len > sp->mem_max - (at - sp->moved))) {
		errno = ENOSPC;
		return CCG_EIO;
	}
	return ccg_pio_all(sp->mfd, NULL, p, len, at - sp->moved);
}

/* Appends len bytes to the file; *off receives where.  Written under the
 * lock, so every byte below `end` is in the file.  When the folder has
 * no room (ENOSPC, EDQUOT), the bytes from there on go to memory, up to
 * mem_max of them. */
static ccg_err spill_write(ccg_spill *sp, const void *p, size_t len,
			   uint64_t *off)
{
	ccg_err err = CCG_ERANGE;
	pthread_mutex_lock(&sp->mu);
	*off = sp->end;
	if (len > CCG_SPILL_MAX - sp->end)
		goto out;
	errno = 0;
	if (sp->mfd < 0 && !(err = ccg_pio_all(sp->fd, NULL, p, len, sp->end)))
		goto done;
	int full = errno == ENOSPC || errno == EDQUOT;
	if (sp->mfd < 0 && full &&
	    (sp->mfd = memfd_create("ccgfs-spill", MFD_CLOEXEC)) >= 0)
		__atomic_store_n(&sp->moved, sp->end, __ATOMIC_RELEASE);
	else if (sp->mfd < 0 && full)
		errno = ENOSPC; /* the folder's reason, not memfd's */
	if (sp->mfd >= 0)
		err = mem_write(sp, p, len, sp->end);
	if (err)
		goto out;
done:
	sp->end += len;
out:
	if (err == CCG_EIO && !sp->errnum)
		sp->errnum = errno ? errno : EIO;
	pthread_mutex_unlock(&sp->mu);
	return err;
}

/* Reads bytes [off, off + len) of the file, written before: from the
 * folder's file, from memory, or from both. */
static ccg_err spill_pread(ccg_spill *sp, void *buf, size_t len, uint64_t off)
{
	uint64_t moved = __atomic_load_n(&sp->moved, __ATOMIC_ACQUIRE);
	size_t below = off >= moved ? 0
		       : len < moved - off ? len : (size_t)(moved - off);
	ccg_err err = below ? ccg_pio_all(sp->fd, buf, NULL, below, off)
			    : CCG_OK;
	if (!err && below < len)
		err = ccg_pio_all(sp->mfd, (char *)buf + below, NULL,
				  len - below, off + below - moved);
	return err;
}

/* Bytes [off, off + len) of the file: inside a cached chunk when they lie
 * in one whole chunk, else read apart; *hold is pinned in the cache. */
static ccg_err spill_read(ccg_spill *sp, uint64_t off, size_t len,
			  const unsigned char **p, void **hold)
{
	uint64_t k = off / CCG_SPILL_CHUNK, at = k * CCG_SPILL_CHUNK;
	unsigned shard = (unsigned)(k % CCG_SPILL_SHARDS);
	ccg_lru *cache = sp->cache[shard];
	int whole = (off + len - 1) / CCG_SPILL_CHUNK == k;
	chunk *c = whole ? ccg_lru_get(cache, k, 0) : NULL;
	if (!c) {
		/* Only whole chunks are cached: the file's last one grows. */
		whole = whole && at + CCG_SPILL_CHUNK <= ccg_spill_bytes(sp);
		size_t n = whole ? CCG_SPILL_CHUNK : len;
		uint64_t from = whole ? at : off;
		if (!(c = malloc(sizeof *c + n)))
			return CCG_ENOMEM;
		c->len = n;
		c->shard = shard;
		c->whole = whole;
		ccg_err err = spill_pread(sp, c->d, n, from);
		if (err) {
			free(c);
			return err;
		}
		void *v;
		err = whole ? ccg_lru_add(cache, k, 0, c, sizeof *c + n, &v)
			    : ccg_lru_hold(cache, c);
		if (err)
			return err;
		if (whole)
			c = v;
		else
			at = off;
	}
	*p = c->d + (off - at);
	*hold = c;
	return CCG_OK;
}

/* ---- the log ---- */

static ccg_err push_seg(ccg_rlog *l, uint64_t start, uint64_t file)
{
	if (CCG_GROW(l->seg, l->nseg + 1, l->capseg))
		return CCG_ENOMEM;
	l->seg[l->nseg++] = (ccg_rlog_seg){start, file};
	return CCG_OK;
}

/* Adds the offset of a record ending at logical offset `end`. */
static ccg_err push_off(ccg_rlog *l, uint64_t end)
{
	if (CCG_GROW(l->off, (size_t)l->n + 2, l->cap))
		return CCG_ENOMEM;
	l->off[++l->n] = end;
	return CCG_OK;
}

ccg_err ccg_rlog_add(ccg_rlog *l, const void *p, size_t len)
{
	if (l->n >= UINT32_MAX - 1)
		return CCG_ERANGE;
	if (ccg_buf_add(&l->mem, p, len))
		return CCG_ENOMEM;
	ccg_err err = push_off(l, l->base + l->mem.len);
	if (err) {
		ccg_buf_setlen(&l->mem, l->mem.len - len);
		return err;
	}
	size_t keep = l->keep ? l->keep : CCG_SPILL_BYTES;
	return l->sp && l->mem.len >= keep ? ccg_rlog_flush(l) : CCG_OK;
}

ccg_err ccg_rlog_flush(ccg_rlog *l)
{
	if (!l->sp || !l->mem.len)
		return CCG_OK;
	uint64_t at;
	ccg_err err;
	if (CCG_GROW(l->seg, l->nseg + 1, l->capseg))
		return CCG_ENOMEM;
	if ((err = spill_write(l->sp, l->mem.data, l->mem.len, &at)))
		return err;
	push_seg(l, l->base, at);
	l->base += l->mem.len;
	ccg_buf_reset(&l->mem);
	return CCG_OK;
}

/* The segment holding logical offset `at` (< base), or nseg. */
static size_t seg_of(const ccg_rlog *l, uint64_t at)
{
	size_t lo = 0, hi = l->nseg;
	while (hi - lo > 1) {
		size_t m = lo + (hi - lo) / 2;
		if (l->seg[m].start <= at)
			lo = m;
		else
			hi = m;
	}
	return l->nseg && l->seg[lo].start <= at ? lo : l->nseg;
}

/* Where record `id` is: *p its bytes when it is in memory (or empty),
 * else NULL and *seg, *foff its segment and file offset. */
static ccg_err place(const ccg_rlog *l, uint32_t id, const unsigned char **p,
		     size_t *len, size_t *seg, uint64_t *foff)
{
	if (id >= l->n)
		return CCG_ENOENT;
	uint64_t at = l->off[id];
	*len = (size_t)(l->off[id + 1] - at);
	*p = NULL;
	if (at >= l->base || !*len) {
		*p = (const unsigned char *)l->mem.data + (at - l->base);
		if (!*len)
			*p = (const unsigned char *)"";
		return CCG_OK;
	}
	if ((*seg = seg_of(l, at)) == l->nseg)
		return CCG_EFORMAT;
	*foff = l->seg[*seg].file + (at - l->seg[*seg].start);
	return CCG_OK;
}

/* Gives back a chunk (or bytes read apart) spill_read handed out. */
static void pin_put(ccg_spill *sp, void *hold)
{
	if (hold)
		ccg_lru_put(sp->cache[((const chunk *)hold)->shard], hold);
}

ccg_err ccg_rlog_get(const ccg_rlog *l, uint32_t id, const unsigned char **p,
		     size_t *len, void **hold)
{
	size_t k = 0;
	uint64_t foff = 0;
	*hold = NULL;
	ccg_err err = place(l, id, p, len, &k, &foff);
	if (err || *p)
		return err;
	return spill_read(l->sp, foff, *len, p, hold);
}

void ccg_rlog_pins_release(ccg_rlog_pins *pins)
{
	for (int i = 0; i < CCG_RLOG_PINS; i++) {
		pin_put(pins->sp, pins->c[i]);
		pins->c[i] = NULL;
	}
	pin_put(pins->sp, pins->odd);
	pins->odd = NULL;
	ccg_spill_unref(pins->sp);
	pins->sp = NULL;
}

ccg_err ccg_rlog_get_pinned(const ccg_rlog *l, ccg_rlog_pins *pins,
			    uint32_t id, const unsigned char **p, size_t *len)
{
	size_t s = 0;
	uint64_t foff = 0;
	ccg_err err = place(l, id, p, len, &s, &foff);
	if (err || *p)
		return err;
	if (pins->sp != l->sp) {
		ccg_rlog_pins_release(pins);
		pins->sp = ccg_spill_ref(l->sp);
	}
	pin_put(pins->sp, pins->odd);
	pins->odd = NULL;
	uint64_t k = foff / CCG_SPILL_CHUNK, at = k * CCG_SPILL_CHUNK;
	if ((foff + *len - 1) / CCG_SPILL_CHUNK == k)
		for (int i = 0; i < CCG_RLOG_PINS; i++)
			if (pins->c[i] && pins->k[i] == k) {
				*p = ((const chunk *)pins->c[i])->d +
				     (foff - at);
				return CCG_OK;
			}
	void *hold;
	if ((err = spill_read(l->sp, foff, *len, p, &hold)))
		return err;
	if (!((chunk *)hold)->whole) {
		pins->odd = hold;
		return CCG_OK;
	}
	unsigned i = pins->next++ % CCG_RLOG_PINS;
	pin_put(pins->sp, pins->c[i]);
	pins->c[i] = hold;
	pins->k[i] = k;
	return CCG_OK;
}

ccg_err ccg_rlog_next(ccg_rlog_iter *it, const unsigned char **p,
		      size_t *len)
{
	const ccg_rlog *l = it->l;
	size_t k = 0;
	uint64_t foff = 0;
	ccg_err err = place(l, it->next, p, len, &k, &foff);
	if (err)
		return err;
	uint64_t at = l->off[it->next++];
	if (*p)
		return CCG_OK;
	if (foff < it->lo || foff + *len > it->lo + it->win.len) {
		/* A window from here to the segment's end, a megabyte or
		 * the record, whichever is more. */
		uint64_t seg_end = k + 1 < l->nseg ? l->seg[k + 1].start
						   : l->base;
		uint64_t want = seg_end - at;
		if (want > CCG_SPILL_BYTES)
			want = *len > CCG_SPILL_BYTES ? *len : CCG_SPILL_BYTES;
		ccg_buf_reset(&it->win);
		if (ccg_buf_reserve(&it->win, (size_t)want))
			return CCG_ENOMEM;
		if ((err = spill_pread(l->sp, it->win.data, (size_t)want,
				       foff)))
			return err;
		ccg_buf_setlen(&it->win, (size_t)want);
		it->lo = foff;
	}
	*p = (const unsigned char *)it->win.data + (foff - it->lo);
	return CCG_OK;
}

void ccg_rlog_iter_free(ccg_rlog_iter *it)
{
	ccg_buf_free(&it->win);
}

void ccg_rlog_release(const ccg_rlog *l, void *hold)
{
	pin_put(l->sp, hold);
}

ccg_err ccg_rlog_append(ccg_rlog *dst, const ccg_rlog *src)
{
	if (src->nseg && src->sp != dst->sp)
		return CCG_EINVAL;
	ccg_err err = src->nseg ? ccg_rlog_flush(dst) : CCG_OK;
	/* src's file bytes follow dst's (mem is empty when src has any). */
	uint64_t shift = ccg_rlog_bytes(dst);
	for (size_t k = 0; !err && k < src->nseg; k++)
		err = push_seg(dst, shift + src->seg[k].start, src->seg[k].file);
	if (!err && src->nseg)
		dst->base = shift + src->base;
	for (uint32_t i = 0; !err && i < src->n; i++) {
		uint64_t a = src->off[i], b = src->off[i + 1];
		if (a < src->base)
			err = push_off(dst, shift + b);
		else
			err = ccg_rlog_add(dst, src->mem.data + (a - src->base),
					   (size_t)(b - a));
	}
	return err;
}

void ccg_rlog_clear(ccg_rlog *l)
{
	ccg_buf_reset(&l->mem);
	l->base = 0;
	l->n = 0;
	l->nseg = 0;
}

void ccg_rlog_free(ccg_rlog *l)
{
	ccg_buf_free(&l->mem);
	free(l->off);
	free(l->seg);
	ccg_spill_unref(l->sp);
	memset(l, 0, sizeof *l);
}
