#define _GNU_SOURCE

#include "ccg_index.h"
#include "ccg_store_raw.h"
#include "ccg_index_tmp.h"

#include <errno.h>
#include <fcntl.h>
#include <lz4.h>
#include <lz4hc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ccg_codec.h"
#include "ccg_grow.h"
#include "ccg_pio.h"
#include "ccg_hash.h"
#include "ccg_search.h"
#include "ccg_lru.h"
#include "ccg_par.h"

/* Raw bytes gathered before a block is compressed and written: small, as
 * a cold query reads a block for each record it needs from far apart
 * (doc/index-format.md). */
#define CCG_INDEX_BLOCK (16 * 1024)
/* The same with LZ4HC (a small graph, ccg_index_params.level): its whole
 * index is soon read anyway, and bigger blocks compress better. */
#define CCG_INDEX_BLOCK_HC (64 * 1024)
/* Blocks gathered per writing thread before they are compressed at once
 * and written in order; at most CCG_INDEX_BATCH_MAX in all. */
#define CCG_INDEX_BATCH 8
#define CCG_INDEX_BATCH_MAX 256
/* Largest raw block a reader accepts. */
#define CCG_INDEX_BLOCK_MAX (16u << 20)
/* Indexes up to this size have every block verified when opened: a few
 * milliseconds, so a remount stays about as quick as a process start
 * (larger ones check each block when it is first read). */
#define CCG_INDEX_VERIFY_ALL (8u << 20)
/* Largest header and directory a reader accepts. */
#define CCG_INDEX_HEADER_MAX (64u << 20)
#define CCG_INDEX_FOOTER_LEN 40
/* Bytes of decompressed blocks cached until ccg_index_store sets its own
 * budget. */
#define CCG_INDEX_CACHE_DEFAULT (64u << 20)

static const char index_magic[8] = {'C', 'C', 'G', 'I', 'D', 'X', '0', '1'};
static const char footer_magic[8] = {'C', 'C', 'G', 'E', 'N', 'D', '0', '1'};

static uint64_t checksum(const void *p, size_t len)
{
	return ccg_hash(p, len, CCG_INDEX_SEED).a;
}

/* Little-endian fields of n bytes. */
static void put_le(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static void put64(unsigned char *p, uint64_t v)
{
	put_le(p, v, 8);
}

static uint64_t get64(const unsigned char *p)
{
	return get_le(p, 8);
}

/* ------------------------------------------------------------------ */
/* Writing                                                              */

typedef struct dirent_blk {
	uint64_t first, offset;
	uint32_t csize, rsize;
	uint64_t sum;
} dirent_blk;

/* A section: its records and blocks (`cap` only while writing). */
typedef struct section {
	uint64_t nrecs;
	dirent_blk *blocks;
	size_t nblocks, cap;
} section;

/* A block gathered, waiting for its turn to be compressed and written. */
typedef struct pend_blk {
	ccg_buf raw;            /* record count, then the records */
	char *c;                /* compressed */
	size_t ccap;
	int csize;              /* 0: not compressed (yet, or LZ4 failed);
				 * -1: no memory to */
	int sec;
	uint64_t first;         /* its first record's number */
} pend_blk;

struct ccg_index_writer {
	char *path, *tmp;
	int fd;                 /* the temporary, locked while written */
	int errnum;             /* errno of the first failed write, or 0 */
	uint64_t pos;           /* bytes written */
	int cur;                /* section being written */
	int level;              /* LZ4HC level, 0 for fast LZ4 */
	ccg_buf raw;            /* records of the block being gathered */
	uint64_t raw_first, raw_count;
	pend_blk *pend;         /* blocks gathered, in file order */
	size_t npend, batch;    /* how many, and how many make a batch */
	int threads;            /* compressing a batch */
	size_t next_job;        /* next block of a batch to compress: atomic */
	section secs[CCG_SEC__COUNT];
};

static ccg_err write_all(ccg_index_writer *w, const void *p, size_t len)
{
	errno = 0;
	ccg_err err = ccg_pio_all(w->fd, NULL, p, len, w->pos);
	if (!err)
		w->pos += len;
	else if (!w->errnum)
		w->errnum = errno ? errno : EIO;
	return err;
}

/* Never replace a file that is not an index (a trace's own file, say): an
 * existing file must be named *.ccg or carry the index magic. */
static ccg_err refuse_foreign(const char *path, ccg_buf *msg)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	/* A symlink is not followed: rename replaces the link itself. */
	int fd = ccg_index_is_name(base)
			 ? -1
			 : open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK |
					      O_NOFOLLOW);
	if (fd < 0)
		return CCG_OK;
	char magic[8];
	struct stat st;
	int foreign = fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
		      (st.st_size > 0 && (pread(fd, magic, 8, 0) != 8 ||
					  memcmp(magic, index_magic, 8)));
	close(fd);
	if (!foreign)
		return CCG_OK;
	if (msg)
		ccg_buf_addf(msg, "%s exists and is not an index; not replacing it",
			     path);
	return CCG_EINVAL;
}

/* The header: magic, version, its length, tolerance, fan-out, the hash of
 * the identity, checksum. */
static ccg_err header(const ccg_index_params *p, const ccg_buf *identity,
		      ccg_buf *h)
{
	unsigned char fixed[8] = {0};
	ccg_buf_add(h, index_magic, 8);
	ccg_buf_add(h, fixed, 8); /* version and length, below */
	uint64_t rel;
	memcpy(&rel, &p->tol_rel, sizeof rel);
	ccg_put_u(h, p->tol_abs);
	ccg_put_u(h, rel);
	ccg_put_u(h, p->fanout);
	ccg_hash128 idh = ccg_hash(identity->data, identity->len, CCG_INDEX_SEED);
	put64(fixed, idh.a);
	ccg_buf_add(h, fixed, 8);
	put64(fixed, idh.b);
	ccg_buf_add(h, fixed, 8);
	ccg_buf_add(h, fixed, 8); /* checksum, below */
	if (ccg_buf_status(h))
		return CCG_ENOMEM;
	unsigned char *hp = (unsigned char *)h->data;
	put_le(hp + 8, CCG_INDEX_VERSION, 4);
	put_le(hp + 12, h->len, 4);
	put64(hp + h->len - 8, checksum(hp, h->len - 8));
	return CCG_OK;
}

ccg_err ccg_index_begin(const char *path, const ccg_index_params *p,
			const ccg_buf *identity, ccg_index_writer **out,
			ccg_buf *msg)
{
	ccg_index_writer *w = calloc(1, sizeof *w);
	ccg_buf h = CCG_BUF_INIT;
	ccg_err err = CCG_ENOMEM;
	if (!w)
		return CCG_ENOMEM;
	w->fd = -1;
	w->cur = -1;
	w->level = p->hc_level;
	w->threads = p->threads < 1			? 1
		     : p->threads > CCG_PAR_MAX ? CCG_PAR_MAX
						: p->threads;
	w->batch = (size_t)w->threads * CCG_INDEX_BATCH;
	if (w->threads == 1)
		w->batch = 1;
	if (w->batch > CCG_INDEX_BATCH_MAX)
		w->batch = CCG_INDEX_BATCH_MAX;
	if (!(w->pend = calloc(w->batch, sizeof *w->pend)) ||
	    !(w->path = strdup(path)))
		goto fail;
	if ((err = refuse_foreign(path, msg)))
		goto fail;
	ccg_index_tmp_sweep(path);
	if ((err = ccg_index_tmp_open(path, p->mode ? p->mode : 0600, &w->fd,
				      &w->tmp, msg)))
		goto fail;
	if ((err = header(p, identity, &h)))
		goto fail;
	if ((err = write_all(w, h.data, h.len))) {
		if (msg)
			ccg_buf_addf(msg, "cannot write %s: %s", w->tmp,
				     strerror(w->errnum));
		goto fail;
	}
	ccg_buf_free(&h);
	*out = w;
	return CCG_OK;
fail:
	ccg_buf_free(&h);
	ccg_index_abort(w);
	return err;
}

/* Compresses the blocks of a batch, taking them from a shared counter. */
static void *compress_main(void *arg)
{
	ccg_index_writer *w = *(ccg_index_writer **)arg;
	size_t k;
	while ((k = __atomic_fetch_add(&w->next_job, 1, __ATOMIC_RELAXED)) <
	       w->npend) {
		pend_blk *b = &w->pend[k];
		int len = (int)b->raw.len;
		size_t bound = (size_t)LZ4_compressBound(len);
		b->csize = -1;
		if (CCG_GROW(b->c, bound, b->ccap))
			continue;
		b->csize = w->level > 0
				   ? LZ4_compress_HC(b->raw.data, b->c, len,
						     (int)bound, w->level)
				   : LZ4_compress_default(b->raw.data, b->c, len,
							  (int)bound);
	}
	return NULL;
}

/* Compresses the gathered blocks (on w->threads threads) and writes them
 * in order, each into its section's directory. */
static ccg_err write_pending(ccg_index_writer *w)
{
	ccg_index_writer *args[CCG_PAR_MAX];
	size_t n = w->npend < (size_t)w->threads ? w->npend : (size_t)w->threads;
	for (size_t k = 0; k < n; k++)
		args[k] = w;
	w->next_job = 0;
	if (n)
		ccg_par_run(n, compress_main, args, sizeof *args);
	ccg_err err = CCG_OK;
	for (size_t k = 0; !err && k < w->npend; k++) {
		pend_blk *b = &w->pend[k];
		section *s = &w->secs[b->sec];
		if (b->csize <= 0)
			err = b->csize < 0 ? CCG_ENOMEM : CCG_EFORMAT;
		else if (CCG_GROW(s->blocks, s->nblocks + 1, s->cap))
			err = CCG_ENOMEM;
		if (err)
			break;
		dirent_blk *d = &s->blocks[s->nblocks++];
		d->first = b->first;
		d->offset = w->pos;
		d->csize = (uint32_t)b->csize;
		d->rsize = (uint32_t)b->raw.len;
		d->sum = checksum(b->c, (size_t)b->csize);
		err = write_all(w, b->c, (size_t)b->csize);
	}
	w->npend = 0;
	return err;
}

/* Ends the block being gathered; writes the batch once it is full. */
static ccg_err flush_block(ccg_index_writer *w)
{
	if (w->cur < 0 || w->raw_count == 0)
		return CCG_OK;
	pend_blk *b = &w->pend[w->npend];
	ccg_buf_reset(&b->raw);
	ccg_put_u(&b->raw, w->raw_count);
	ccg_buf_add(&b->raw, w->raw.data, w->raw.len);
	if (ccg_buf_status(&b->raw) || b->raw.len > CCG_INDEX_BLOCK_MAX)
		return b->raw.len > CCG_INDEX_BLOCK_MAX ? CCG_ERANGE
							: CCG_ENOMEM;
	b->sec = w->cur;
	b->first = w->raw_first;
	w->npend++;
	w->raw_first += w->raw_count;
	w->raw_count = 0;
	ccg_buf_reset(&w->raw);
	return w->npend == w->batch ? write_pending(w) : CCG_OK;
}

ccg_err ccg_index_add(ccg_index_writer *w, enum ccg_section sec,
		      const void *rec, size_t len)
{
	ccg_err err;
	if ((int)sec < w->cur || sec >= CCG_SEC__COUNT)
		return CCG_EINVAL;
	if ((int)sec != w->cur) {
		if ((err = flush_block(w)))
			return err;
		w->cur = (int)sec;
		w->raw_first = 0;
	}
	ccg_put_u(&w->raw, len);
	ccg_buf_add(&w->raw, rec, len);
	if (ccg_buf_status(&w->raw))
		return CCG_ENOMEM;
	w->raw_count++;
	w->secs[sec].nrecs++;
	if (w->raw.len >= (w->level > 0 ? CCG_INDEX_BLOCK_HC : CCG_INDEX_BLOCK))
		return flush_block(w);
	return CCG_OK;
}

typedef struct add_ctx {
	ccg_index_writer *w;
	enum ccg_section sec;
} add_ctx;

static ccg_err add_record(void *ctx, const unsigned char *p, size_t len)
{
	add_ctx *a = ctx;
	return ccg_index_add(a->w, a->sec, p, len);
}

ccg_err ccg_index_add_store(ccg_index_writer *w, const ccg_store *s)
{
	static const enum ccg_section sec[] = {CCG_SEC_NODES, CCG_SEC_EVENTS,
					       CCG_SEC_TIMES};
	ccg_err err = CCG_OK;
	for (int k = 0; !err && k < 3; k++) {
		add_ctx a = {w, sec[k]};
		err = ccg_store_each_record(s, k, add_record, &a);
	}
	return err;
}

const char *ccg_index_write_error(const ccg_index_writer *w)
{
	return w && w->errnum ? strerror(w->errnum) : NULL;
}

void ccg_index_abandon(void)
{
	ccg_index_tmp_abandon();
}

void ccg_index_abort(ccg_index_writer *w)
{
	if (!w)
		return;
	if (w->fd >= 0)
		close(w->fd);
	if (w->tmp) {
		unlink(w->tmp);
		ccg_index_tmp_done(w->tmp);
		free(w->tmp);
	}
	for (int s = 0; s < CCG_SEC__COUNT; s++)
		free(w->secs[s].blocks);
	for (size_t k = 0; w->pend && k < w->batch; k++) {
		ccg_buf_free(&w->pend[k].raw);
		free(w->pend[k].c);
	}
	free(w->pend);
	ccg_buf_free(&w->raw);
	free(w->path);
	free(w);
}

ccg_err ccg_index_commit(ccg_index_writer *w, uint64_t *bytes, ccg_buf *msg)
{
	ccg_buf d = CCG_BUF_INIT;
	ccg_err err = flush_block(w);
	if (!err)
		err = write_pending(w);
	for (int s = 0; s < CCG_SEC__COUNT; s++) {
		section *sec = &w->secs[s];
		ccg_put_u(&d, sec->nrecs);
		ccg_put_u(&d, sec->nblocks);
		for (size_t b = 0; b < sec->nblocks; b++) {
			dirent_blk *e = &sec->blocks[b];
			ccg_put_u(&d, e->first);
			ccg_put_u(&d, e->offset);
			ccg_put_u(&d, e->csize);
			ccg_put_u(&d, e->rsize);
			ccg_put_u(&d, e->sum);
		}
	}
	if (!err && ccg_buf_status(&d))
		err = CCG_ENOMEM;
	uint64_t dir_off = w->pos;
	if (!err)
		err = write_all(w, d.data, d.len);
	unsigned char f[CCG_INDEX_FOOTER_LEN];
	memcpy(f, footer_magic, 8);
	put64(f + 8, dir_off);
	put64(f + 16, d.len);
	put64(f + 24, d.len ? checksum(d.data, d.len) : 0);
	put64(f + 32, checksum(f, 32));
	if (!err)
		err = write_all(w, f, sizeof f);
	ccg_buf_free(&d);
	if (!err && fsync(w->fd) != 0) {
		w->errnum = errno;
		err = CCG_EIO;
	}
	/* Renamed while still locked, so no sweep takes it meanwhile;
	 * listed until then, so a signal before removes it. */
	if (!err && rename(w->tmp, w->path) != 0) {
		w->errnum = errno;
		err = CCG_EIO;
	}
	if (!err)
		ccg_index_tmp_done(w->tmp);
	if (close(w->fd) != 0 && !err) {
		w->errnum = errno;
		err = CCG_EIO;
	}
	w->fd = -1;
	if (err && msg)
		ccg_buf_addf(msg, "cannot write index %s: %s", w->path,
			     w->errnum ? strerror(w->errnum) : ccg_err_text(err));
	if (!err && bytes)
		*bytes = w->pos;
	if (err) {
		unlink(w->tmp);
		ccg_index_tmp_done(w->tmp);
	}
	free(w->tmp);
	w->tmp = NULL;
	ccg_index_abort(w);
	return err;
}

/* ------------------------------------------------------------------ */
/* Reading                                                              */

/* A decompressed block; in the cache, its key is (section, block). */
typedef struct cblock {
	unsigned char *data;
	uint32_t *start, *len;  /* per record, into data */
	uint32_t count;
	size_t bytes;           /* what it costs the cache */
} cblock;

struct ccg_index {
	int fd;
	uint64_t size;
	section secs[CCG_SEC__COUNT];
	ccg_lru *cache;         /* of cblocks, for ccg_index_store */
};

static void cblock_free(cblock *b)
{
	if (!b)
		return;
	free(b->data);
	free(b->start);
	free(b->len);
	free(b);
}

/* Reads, checks and decompresses block `blk` of section `sec`. */
static ccg_err load_block(const ccg_index *x, int sec, uint64_t blk,
			  cblock **out)
{
	const dirent_blk *d = &x->secs[sec].blocks[blk];
	char *c = malloc(d->csize ? d->csize : 1);
	cblock *b = calloc(1, sizeof *b);
	ccg_err err = CCG_ENOMEM;
	if (!c || !b)
		goto fail;
	b->data = malloc(d->rsize ? d->rsize : 1);
	if (!b->data)
		goto fail;
	if ((err = ccg_pio_all(x->fd, c, NULL, d->csize, d->offset)))
		goto fail;
	err = CCG_EFORMAT;
	if (checksum(c, d->csize) != d->sum)
		goto fail;
	int n = LZ4_decompress_safe(c, (char *)b->data, (int)d->csize,
				    (int)d->rsize);
	if (n < 0 || (uint32_t)n != d->rsize)
		goto fail;
	const unsigned char *p = b->data, *end = b->data + d->rsize;
	uint64_t count;
	if (ccg_varint_get(&p, end, &count) || count > d->rsize)
		goto fail;
	uint64_t want = blk + 1 < x->secs[sec].nblocks
				? x->secs[sec].blocks[blk + 1].first - d->first
				: x->secs[sec].nrecs - d->first;
	if (count != want)
		goto fail;
	b->count = (uint32_t)count;
	b->start = malloc((count ? count : 1) * sizeof *b->start);
	b->len = malloc((count ? count : 1) * sizeof *b->len);
	if (!b->start || !b->len) {
		err = CCG_ENOMEM;
		goto fail;
	}
	for (uint32_t i = 0; i < b->count; i++) {
		uint64_t len;
		if (ccg_varint_get(&p, end, &len) || len > (uint64_t)(end - p))
			goto fail;
		b->start[i] = (uint32_t)(p - b->data);
		b->len[i] = (uint32_t)len;
		p += len;
	}
	if (p != end)
		goto fail;
	b->bytes = d->rsize + count * 8 + sizeof *b;
	free(c);
	*out = b;
	return CCG_OK;
fail:
	free(c);
	cblock_free(b);
	return err;
}

static void cblock_destroy(void *ctx, void *value)
{
	(void)ctx;
	cblock_free(value);
}

/* Block `blk` of section `sec`, pinned in the cache: give it back with
 * ccg_lru_put. */
static ccg_err block_get(ccg_index *x, int sec, uint64_t blk, cblock **out)
{
	cblock *b = ccg_lru_get(x->cache, (uint64_t)sec, blk);
	if (b) {
		*out = b;
		return CCG_OK;
	}
	ccg_err err = load_block(x, sec, blk, &b);
	void *v;
	if (!err && !(err = ccg_lru_add(x->cache, (uint64_t)sec, blk, b,
					  b->bytes, &v)))
		*out = v;
	return err;
}

/* Block holding record `id` of section `sec`. */
static int block_of(const ccg_index *x, int sec, uint64_t id, uint64_t *blk)
{
	const section *s = &x->secs[sec];
	if (id >= s->nrecs || s->nblocks == 0)
		return -1;
	/* The last block whose first record is <= id (block 0 holds
	 * record 0, so there is one). */
	size_t k = ccg_search(s->blocks, s->nblocks, sizeof *s->blocks,
			      offsetof(dirent_blk, first), id + 1);
	*blk = k ? k - 1 : 0;
	return 0;
}

static ccg_err parse_directory(ccg_index *x, const unsigned char *p,
			       size_t len, uint64_t lo, uint64_t hi)
{
	const unsigned char *end = p + len;
	for (int s = 0; s < CCG_SEC__COUNT; s++) {
		section *sec = &x->secs[s];
		uint64_t nrecs, nblocks;
		if (ccg_varint_get(&p, end, &nrecs) ||
		    ccg_varint_get(&p, end, &nblocks) ||
		    nblocks > (uint64_t)(end - p) || nblocks > nrecs ||
		    (nrecs && !nblocks))
			return CCG_EFORMAT;
		sec->nrecs = nrecs;
		sec->nblocks = (size_t)nblocks;
		sec->blocks = calloc(nblocks ? nblocks : 1, sizeof *sec->blocks);
		if (!sec->blocks)
			return CCG_ENOMEM;
		for (size_t b = 0; b < sec->nblocks; b++) {
			dirent_blk *e = &sec->blocks[b];
			uint64_t v[5];
			for (int i = 0; i < 5; i++)
				if (ccg_varint_get(&p, end, &v[i]))
					return CCG_EFORMAT;
			e->first = v[0];
			e->offset = v[1];
			e->sum = v[4];
			if (v[2] > CCG_INDEX_BLOCK_MAX ||
			    v[3] > CCG_INDEX_BLOCK_MAX || v[1] < lo ||
			    v[1] > hi || v[2] > hi - v[1] || v[0] >= nrecs ||
			    (b == 0 && v[0] != 0) ||
			    (b > 0 && v[0] <= sec->blocks[b - 1].first))
				return CCG_EFORMAT;
			e->csize = (uint32_t)v[2];
			e->rsize = (uint32_t)v[3];
		}
	}
	return p == end ? CCG_OK : CCG_EFORMAT;
}

static ccg_err check_header(const unsigned char *h, size_t len,
			    const ccg_buf *identity,
			    const ccg_index_params *want, ccg_buf *why)
{
	const unsigned char *p = h + 16, *end = h + len - 8;
	uint64_t abs, rel, fanout;
	if (ccg_varint_get(&p, end, &abs) || ccg_varint_get(&p, end, &rel) ||
	    ccg_varint_get(&p, end, &fanout) || end - p != 16) {
		ccg_buf_adds(why, "malformed header");
		return CCG_EFORMAT;
	}
	double drel;
	memcpy(&drel, &rel, sizeof drel);
	ccg_hash128 idh = {0, 0};
	if (identity)
		idh = ccg_hash(identity->data, identity->len, CCG_INDEX_SEED);
	if (identity && (get64(p) != idh.a || get64(p + 8) != idh.b)) {
		ccg_buf_adds(why, "the trace changed since the index was built");
		return CCG_ESTALE;
	}
	if (want && (abs != want->tol_abs || drel != want->tol_rel)) {
		ccg_buf_addf(why, "built with tolerance %llu ticks / %g%%, "
				  "asked for %llu ticks / %g%%",
			     (unsigned long long)abs, drel * 100,
			     (unsigned long long)want->tol_abs,
			     want->tol_rel * 100);
		return CCG_ESTALE;
	}
	if (want && fanout != want->fanout) {
		ccg_buf_addf(why, "built with fan-out %llu, asked for %u",
			     (unsigned long long)fanout, want->fanout);
		return CCG_ESTALE;
	}
	return CCG_OK;
}

/* Reads and checks the header; *hlen receives its length. */
static ccg_err read_header(ccg_index *x, const ccg_buf *identity,
			   const ccg_index_params *want, uint32_t *hlen,
			   ccg_buf *why)
{
	unsigned char fixed[16], *h = NULL;
	if (x->size < 16 + 8 + CCG_INDEX_FOOTER_LEN ||
	    ccg_pio_all(x->fd, fixed, NULL, 16, 0) || memcmp(fixed, index_magic, 8)) {
		ccg_buf_adds(why, "not an index file (or truncated)");
		return CCG_EFORMAT;
	}
	uint32_t version = (uint32_t)get_le(fixed + 8, 4);
	*hlen = (uint32_t)get_le(fixed + 12, 4);
	if (version != CCG_INDEX_VERSION) {
		ccg_buf_addf(why, "index format %u, this ccgfs writes %u",
			     version, CCG_INDEX_VERSION);
		return CCG_ESTALE;
	}
	ccg_err err = CCG_EFORMAT;
	if (*hlen < 24 || *hlen > CCG_INDEX_HEADER_MAX ||
	    *hlen > x->size - CCG_INDEX_FOOTER_LEN || !(h = malloc(*hlen)) ||
	    ccg_pio_all(x->fd, h, NULL, *hlen, 0) ||
	    checksum(h, *hlen - 8) != get64(h + *hlen - 8))
		ccg_buf_adds(why, "damaged header");
	else
		err = check_header(h, *hlen, identity, want, why);
	free(h);
	return err;
}

/* Reads and checks the footer and the directory behind the header of
 * `hlen` bytes. */
static ccg_err read_directory(ccg_index *x, uint32_t hlen, ccg_buf *why)
{
	unsigned char f[CCG_INDEX_FOOTER_LEN], *d = NULL;
	if (ccg_pio_all(x->fd, f, NULL, sizeof f, x->size - sizeof f) ||
	    memcmp(f, footer_magic, 8) || checksum(f, 32) != get64(f + 32)) {
		ccg_buf_adds(why, "damaged or missing footer (interrupted build?)");
		return CCG_EFORMAT;
	}
	uint64_t doff = get64(f + 8), dlen = get64(f + 16);
	uint64_t dend = x->size - sizeof f;
	ccg_err err = CCG_OK;
	if (doff < hlen || doff > dend || dlen != dend - doff ||
	    dlen > CCG_INDEX_HEADER_MAX || !(d = malloc(dlen ? dlen : 1)) ||
	    ccg_pio_all(x->fd, d, NULL, dlen, doff) ||
	    (dlen ? checksum(d, dlen) : 0) != get64(f + 24) ||
	    parse_directory(x, d, dlen, hlen, doff)) {
		ccg_buf_adds(why, "damaged directory");
		err = CCG_EFORMAT;
	}
	free(d);
	return err;
}

/* Checks every block of a small index now. */
static ccg_err verify_blocks(ccg_index *x, ccg_buf *why)
{
	if (x->size > CCG_INDEX_VERIFY_ALL)
		return CCG_OK;
	for (int s = 0; s < CCG_SEC__COUNT; s++) {
		for (size_t b = 0; b < x->secs[s].nblocks; b++) {
			cblock *cb;
			ccg_err err = load_block(x, s, b, &cb);
			if (err) {
				ccg_buf_addf(why, "damaged block %zu of section %d",
					     b, s);
				return err;
			}
			cblock_free(cb);
		}
	}
	return CCG_OK;
}

ccg_err ccg_index_open(const char *path, const ccg_buf *identity,
		       const ccg_index_params *want, ccg_index **out,
		       ccg_buf *why)
{
	ccg_buf dummy = CCG_BUF_INIT;
	if (!why)
		why = &dummy;
	ccg_index *x = calloc(1, sizeof *x);
	ccg_err err = CCG_ENOMEM;
	uint32_t hlen;
	struct stat st;
	if (!x)
		return CCG_ENOMEM;
	x->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (x->fd < 0 || fstat(x->fd, &st) != 0) {
		ccg_buf_addf(why, "cannot open: %s", strerror(errno));
		err = CCG_EIO;
	} else if (!S_ISREG(st.st_mode)) {
		ccg_buf_adds(why, "not a regular file");
		err = CCG_EFORMAT;
	} else if (!ccg_lru_create(CCG_INDEX_CACHE_DEFAULT, cblock_destroy,
				   NULL, &x->cache)) {
		x->size = (uint64_t)st.st_size;
		if (!(err = read_header(x, identity, want, &hlen, why)) &&
		    !(err = read_directory(x, hlen, why)))
			err = verify_blocks(x, why);
	}
	ccg_buf_free(&dummy);
	if (!err)
		*out = x;
	else
		ccg_index_close(x);
	return err;
}

void ccg_index_close(ccg_index *x)
{
	if (!x)
		return;
	ccg_lru_free(x->cache);
	for (int s = 0; s < CCG_SEC__COUNT; s++)
		free(x->secs[s].blocks);
	if (x->fd >= 0)
		close(x->fd);
	free(x);
}

uint64_t ccg_index_bytes(const ccg_index *x)
{
	return x->size;
}

uint64_t ccg_index_count(const ccg_index *x, enum ccg_section sec)
{
	return sec < CCG_SEC__COUNT ? x->secs[sec].nrecs : 0;
}

uint64_t ccg_index_section_bytes(const ccg_index *x, enum ccg_section sec)
{
	uint64_t sum = 0;
	for (size_t b = 0; sec < CCG_SEC__COUNT && b < x->secs[sec].nblocks; b++)
		sum += x->secs[sec].blocks[b].csize;
	return sum;
}

ccg_err ccg_index_each(ccg_index *x, enum ccg_section sec,
		       ccg_err (*fn)(void *ctx, const unsigned char *rec,
				     size_t len),
		       void *ctx)
{
	if (sec >= CCG_SEC__COUNT)
		return CCG_EINVAL;
	for (size_t b = 0; b < x->secs[sec].nblocks; b++) {
		cblock *cb = NULL;
		ccg_err err = load_block(x, sec, b, &cb);
		if (err)
			return err;
		for (uint32_t i = 0; !err && i < cb->count; i++)
			err = fn(ctx, cb->data + cb->start[i], cb->len[i]);
		cblock_free(cb);
		if (err)
			return err;
	}
	return CCG_OK;
}

ccg_err ccg_index_record(ccg_index *x, enum ccg_section sec, uint64_t id,
			 const unsigned char **p, size_t *len, void **hold)
{
	uint64_t blk;
	cblock *b;
	if (sec >= CCG_SEC__COUNT || block_of(x, sec, id, &blk))
		return CCG_ENOENT;
	ccg_err err = block_get(x, sec, blk, &b);
	if (err)
		return err;
	uint64_t i = id - x->secs[sec].blocks[blk].first;
	if (i >= b->count) {
		ccg_lru_put(x->cache, b);
		return CCG_EFORMAT;
	}
	*p = b->data + b->start[i];
	*len = b->len[i];
	*hold = b;
	return CCG_OK;
}

void ccg_index_release(ccg_index *x, void *hold)
{
	ccg_lru_put(x->cache, hold);
}

static ccg_err src_get(void *ctx, int which, uint32_t id,
		       const unsigned char **p, size_t *len, void **hold)
{
	static const int secs[] = {CCG_SEC_NODES, CCG_SEC_EVENTS, CCG_SEC_TIMES};
	if (which < 0 || which > 2)
		return CCG_EINVAL;
	return ccg_index_record(ctx, secs[which], id, p, len, hold);
}

static void src_release(void *ctx, void *hold)
{
	ccg_index_release(ctx, hold);
}

ccg_err ccg_index_store(ccg_index *x, size_t cache_bytes, ccg_store **out)
{
	if (x->secs[CCG_SEC_NODES].nrecs > CCG_STORE_MAX_IDS ||
	    x->secs[CCG_SEC_EVENTS].nrecs > CCG_STORE_MAX_IDS ||
	    x->secs[CCG_SEC_TIMES].nrecs > CCG_STORE_MAX_IDS)
		return CCG_EFORMAT;
	ccg_lru_set_budget(x->cache, cache_bytes);
	ccg_store_source src = {
		.ctx = x,
		.nnodes = (uint32_t)x->secs[CCG_SEC_NODES].nrecs,
		.nevents = (uint32_t)x->secs[CCG_SEC_EVENTS].nrecs,
		.ntimes = (uint32_t)x->secs[CCG_SEC_TIMES].nrecs,
		.bytes = x->size,
		.get = src_get,
		.release = src_release,
	};
	return ccg_store_open_source(&src, out);
}
