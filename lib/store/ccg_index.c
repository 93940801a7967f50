#define _GNU_SOURCE

#include "ccg_index.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <lz4.h>
#include <lz4hc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ccg_codec.h"
#include "ccg_hash.h"
#include "ccg_lru.h"

/* Raw bytes gathered before a block is compressed and written. */
#define CCG_INDEX_BLOCK (64 * 1024)
/* Largest raw block a reader accepts. */
#define CCG_INDEX_BLOCK_MAX (16u << 20)
/* Indexes up to this size have every block verified when opened. */
#define CCG_INDEX_VERIFY_ALL (64u << 20)
/* Largest header and directory a reader accepts. */
#define CCG_INDEX_HEADER_MAX (64u << 20)
#define CCG_INDEX_FOOTER_LEN 40
#define CCG_INDEX_SEED 0x63636769647831ULL
/* Bytes of decompressed blocks cached until ccg_index_store sets its own
 * budget. */
#define CCG_INDEX_CACHE_DEFAULT (64u << 20)

static const char index_magic[8] = {'C', 'C', 'G', 'I', 'D', 'X', '0', '1'};
static const char footer_magic[8] = {'C', 'C', 'G', 'E', 'N', 'D', '0', '1'};

static uint64_t checksum(const void *p, size_t len)
{
	return ccg_hash(p, len, CCG_INDEX_SEED).a;
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

/* ------------------------------------------------------------------ */
/* Identity and paths                                                   */

static int is_index_name(const char *name)
{
	size_t n = strlen(name);
	return (n > 4 && !strcmp(name + n - 4, ".ccg")) ||
	       strstr(name, ".ccg.tmp.") != NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void identity_entry(ccg_buf *out, const char *name, const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return;
	ccg_put_u(out, strlen(name));
	ccg_buf_adds(out, name);
	ccg_put_u(out, (uint64_t)st.st_size);
	ccg_put_u(out, (uint64_t)st.st_mtim.tv_sec);
	ccg_put_u(out, (uint64_t)st.st_mtim.tv_nsec);
}

/* The archive's base path: the anchor without its extension. */
static char *archive_base(const char *anchor)
{
	char *base = strdup(anchor);
	if (!base)
		return NULL;
	char *slash = strrchr(base, '/');
	char *dot = strrchr(base, '.');
	if (dot && (!slash || dot > slash + 1))
		*dot = '\0';
	return base;
}

ccg_err ccg_index_identity(const char *anchor, ccg_buf *out, ccg_buf *msg)
{
	struct stat st;
	if (stat(anchor, &st) != 0) {
		if (msg)
			ccg_buf_addf(msg, "%s: %s", anchor, strerror(errno));
		return CCG_EIO;
	}
	char *base = archive_base(anchor);
	ccg_buf path = CCG_BUF_INIT;
	char **names = NULL;
	size_t n = 0, cap = 0;
	ccg_err err = CCG_ENOMEM;
	if (!base)
		goto out;
	const char *bname = strrchr(base, '/') ? strrchr(base, '/') + 1 : base;
	identity_entry(out, "anchor", anchor);
	ccg_buf_addf(&path, "%s.def", base);
	identity_entry(out, "def", path.data);
	DIR *dir = opendir(base);
	if (dir) {
		struct dirent *e;
		while ((e = readdir(dir))) {
			/* Dot files and index files are not part of a trace. */
			if (e->d_name[0] == '.' || is_index_name(e->d_name))
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 64;
				char **nn = realloc(names, cap * sizeof *nn);
				if (!nn) {
					closedir(dir);
					goto out;
				}
				names = nn;
			}
			if (!(names[n] = strdup(e->d_name))) {
				closedir(dir);
				goto out;
			}
			n++;
		}
		closedir(dir);
	}
	qsort(names, n, sizeof *names, cmp_str);
	for (size_t i = 0; i < n; i++) {
		ccg_buf name = CCG_BUF_INIT;
		ccg_buf_reset(&path);
		ccg_buf_addf(&path, "%s/%s", base, names[i]);
		ccg_buf_addf(&name, "%s/%s", bname, names[i]);
		if (!ccg_buf_status(&path) && !ccg_buf_status(&name))
			identity_entry(out, name.data, path.data);
		ccg_buf_free(&name);
	}
	err = ccg_buf_status(out) ? CCG_ENOMEM : ccg_buf_status(&path);
out:
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	ccg_buf_free(&path);
	free(base);
	return err;
}

static int mkdirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		int rc = mkdir(path, 0755);
		*p = '/';
		if (rc != 0 && errno != EEXIST)
			return -1;
	}
	return mkdir(path, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* A folder we may write into: access() says so, and its mode has a write
 * bit (root passes access() even on a folder its owner made read-only). */
static int writable_dir(const char *dir)
{
	struct stat st;
	return access(dir, W_OK) == 0 && stat(dir, &st) == 0 &&
	       (st.st_mode & 0222) != 0;
}

ccg_err ccg_index_default_path(const char *anchor, ccg_buf *out)
{
	char *dir = strdup(anchor);
	if (!dir)
		return CCG_ENOMEM;
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir ? 1 : 0] = '\0';
	const char *forced = getenv("CCGFS_INDEX_DIR");
	int writable = !(forced && *forced) && writable_dir(slash ? dir : ".");
	free(dir);
	if (writable) {
		ccg_buf_addf(out, "%s.ccg", anchor);
		return ccg_buf_status(out);
	}
	char real[PATH_MAX];
	if (!realpath(anchor, real))
		snprintf(real, sizeof real, "%s", anchor);
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	ccg_buf d = CCG_BUF_INIT;
	if (forced && *forced)
		ccg_buf_adds(&d, forced);
	else if (xdg && *xdg)
		ccg_buf_addf(&d, "%s/ccgfs", xdg);
	else
		ccg_buf_addf(&d, "%s/.cache/ccgfs", home && *home ? home : "/tmp");
	if (ccg_buf_status(&d)) {
		ccg_buf_free(&d);
		return CCG_ENOMEM;
	}
	mkdirs(d.data);
	char *base = archive_base(real);
	const char *bname = base && strrchr(base, '/') ? strrchr(base, '/') + 1
						       : "trace";
	ccg_buf_addf(out, "%s/%s-%016llx.ccg", d.data, bname,
		     (unsigned long long)checksum(real, strlen(real)));
	free(base);
	ccg_buf_free(&d);
	return ccg_buf_status(out);
}

/* ------------------------------------------------------------------ */
/* Writing                                                              */

typedef struct dirent_blk {
	uint64_t first, offset;
	uint32_t csize, rsize;
	uint64_t sum;
} dirent_blk;

typedef struct section {
	uint64_t nrecs;
	dirent_blk *blocks;
	size_t nblocks, cap;
} section;

struct ccg_index_writer {
	char *path, *tmp;
	int fd;
	uint64_t pos;
	int cur;                /* section being written */
	int level;              /* LZ4HC level, 0 for fast LZ4 */
	ccg_buf raw;            /* records of the block being gathered */
	uint64_t raw_first, raw_count;
	char *cbuf;
	size_t cbuf_cap;
	section secs[CCG_SEC__COUNT];
};

static ccg_err write_all(ccg_index_writer *w, const void *p, size_t len)
{
	const char *c = p;
	while (len) {
		ssize_t k = write(w->fd, c, len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return CCG_EIO;
		c += k;
		len -= (size_t)k;
		w->pos += (uint64_t)k;
	}
	return CCG_OK;
}

ccg_err ccg_index_begin(const char *path, const ccg_index_params *p,
			const ccg_buf *identity, ccg_index_writer **out,
			ccg_buf *msg)
{
	ccg_index_writer *w = calloc(1, sizeof *w);
	ccg_buf tmp = CCG_BUF_INIT, h = CCG_BUF_INIT;
	ccg_err err = CCG_ENOMEM;
	if (!w)
		return CCG_ENOMEM;
	w->fd = -1;
	w->cur = -1;
	w->level = p->hc_level;
	if (!(w->path = strdup(path)))
		goto fail;
	/* Never replace a file that is not an index (a trace's own file, say):
	 * an existing file must be named *.ccg or carry the index magic. */
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	int fd0 = is_index_name(base) ? -1
				      : open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd0 >= 0) {
		char magic[8];
		struct stat st;
		int foreign = fstat(fd0, &st) != 0 || !S_ISREG(st.st_mode) ||
			      (st.st_size > 0 &&
			       (pread(fd0, magic, 8, 0) != 8 ||
				memcmp(magic, index_magic, 8)));
		close(fd0);
		if (foreign) {
			if (msg)
				ccg_buf_addf(msg, "%s exists and is not an index; "
						  "not replacing it", path);
			err = CCG_EINVAL;
			goto fail;
		}
	}
	ccg_buf_addf(&tmp, "%s.tmp.%ld", path, (long)getpid());
	if (ccg_buf_status(&tmp))
		goto fail;
	w->tmp = tmp.data;
	w->fd = open(w->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (w->fd < 0) {
		if (msg)
			ccg_buf_addf(msg, "cannot write %s: %s", w->tmp,
				     strerror(errno));
		err = CCG_EIO;
		goto fail;
	}
	/* Header: magic, version, length, fields, checksum. */
	unsigned char fixed[16];
	ccg_buf_add(&h, index_magic, 8);
	ccg_buf_add(&h, fixed, 8); /* version and length, below */
	uint64_t rel;
	memcpy(&rel, &p->tol_rel, sizeof rel);
	ccg_put_u(&h, p->tol_abs);
	ccg_put_u(&h, rel);
	ccg_put_u(&h, p->fanout);
	ccg_hash128 idh = ccg_hash(identity->data, identity->len, CCG_INDEX_SEED);
	put64(fixed, idh.a);
	ccg_buf_add(&h, fixed, 8);
	put64(fixed, idh.b);
	ccg_buf_add(&h, fixed, 8);
	ccg_buf_add(&h, fixed, 8); /* checksum, below */
	if (ccg_buf_status(&h))
		goto fail;
	unsigned char *hp = (unsigned char *)h.data;
	for (int i = 0; i < 4; i++) {
		hp[8 + i] = (unsigned char)(CCG_INDEX_VERSION >> (8 * i));
		hp[12 + i] = (unsigned char)(h.len >> (8 * i));
	}
	put64(hp + h.len - 8, checksum(hp, h.len - 8));
	if ((err = write_all(w, h.data, h.len))) {
		if (msg)
			ccg_buf_addf(msg, "cannot write %s", w->tmp);
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

static ccg_err flush_block(ccg_index_writer *w)
{
	if (w->cur < 0 || w->raw_count == 0)
		return CCG_OK;
	ccg_buf blk = CCG_BUF_INIT;
	ccg_put_u(&blk, w->raw_count);
	ccg_buf_add(&blk, w->raw.data, w->raw.len);
	if (ccg_buf_status(&blk) || blk.len > CCG_INDEX_BLOCK_MAX) {
		ccg_buf_free(&blk);
		return blk.len > CCG_INDEX_BLOCK_MAX ? CCG_ERANGE : CCG_ENOMEM;
	}
	size_t bound = (size_t)LZ4_compressBound((int)blk.len);
	if (bound > w->cbuf_cap) {
		char *c = realloc(w->cbuf, bound);
		if (!c) {
			ccg_buf_free(&blk);
			return CCG_ENOMEM;
		}
		w->cbuf = c;
		w->cbuf_cap = bound;
	}
	int csize = w->level > 0
			    ? LZ4_compress_HC(blk.data, w->cbuf, (int)blk.len,
					      (int)bound, w->level)
			    : LZ4_compress_default(blk.data, w->cbuf,
						   (int)blk.len, (int)bound);
	section *s = &w->secs[w->cur];
	if (csize <= 0) {
		ccg_buf_free(&blk);
		return CCG_EFORMAT;
	}
	if (s->nblocks == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		dirent_blk *nb = realloc(s->blocks, cap * sizeof *nb);
		if (!nb) {
			ccg_buf_free(&blk);
			return CCG_ENOMEM;
		}
		s->blocks = nb;
		s->cap = cap;
	}
	dirent_blk *d = &s->blocks[s->nblocks++];
	d->first = w->raw_first;
	d->offset = w->pos;
	d->csize = (uint32_t)csize;
	d->rsize = (uint32_t)blk.len;
	d->sum = checksum(w->cbuf, (size_t)csize);
	ccg_buf_free(&blk);
	ccg_err err = write_all(w, w->cbuf, (size_t)csize);
	w->raw_first += w->raw_count;
	w->raw_count = 0;
	ccg_buf_reset(&w->raw);
	return err;
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
	if (w->raw.len >= CCG_INDEX_BLOCK)
		return flush_block(w);
	return CCG_OK;
}

ccg_err ccg_index_add_store(ccg_index_writer *w, const ccg_store *s)
{
	const unsigned char *p;
	size_t len;
	ccg_err err = CCG_OK;
	for (uint32_t i = 0; !err && i < ccg_store_node_count(s); i++)
		if (!(err = ccg_store_node_record(s, i, &p, &len)))
			err = ccg_index_add(w, CCG_SEC_NODES, p, len);
	for (uint32_t i = 0; !err && i < ccg_store_event_count(s); i++)
		if (!(err = ccg_store_event_record(s, i, &p, &len)))
			err = ccg_index_add(w, CCG_SEC_EVENTS, p, len);
	return err;
}

ccg_err ccg_index_commit(ccg_index_writer *w, uint64_t *bytes, ccg_buf *msg)
{
	ccg_buf d = CCG_BUF_INIT;
	ccg_err err = flush_block(w);
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
	if (!err && fsync(w->fd) != 0)
		err = CCG_EIO;
	if (!err && close(w->fd) != 0)
		err = CCG_EIO;
	else if (err)
		close(w->fd);
	w->fd = -1;
	if (!err && rename(w->tmp, w->path) != 0)
		err = CCG_EIO;
	if (err && msg)
		ccg_buf_addf(msg, "cannot write index %s: %s", w->path,
			     errno ? strerror(errno) : ccg_err_text(err));
	if (!err && bytes)
		*bytes = w->pos;
	if (err)
		unlink(w->tmp);
	free(w->tmp);
	w->tmp = NULL;
	ccg_index_abort(w);
	return err;
}

void ccg_index_abort(ccg_index_writer *w)
{
	if (!w)
		return;
	if (w->fd >= 0)
		close(w->fd);
	if (w->tmp) {
		unlink(w->tmp);
		free(w->tmp);
	}
	for (int s = 0; s < CCG_SEC__COUNT; s++)
		free(w->secs[s].blocks);
	ccg_buf_free(&w->raw);
	free(w->cbuf);
	free(w->path);
	free(w);
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

typedef struct rsection {
	uint64_t nrecs;
	dirent_blk *blocks;
	size_t nblocks;
} rsection;

struct ccg_index {
	int fd;
	uint64_t size;
	rsection secs[CCG_SEC__COUNT];
	ccg_lru *cache;         /* of cblocks, for ccg_index_store */
};

static ccg_err pread_all(int fd, void *p, size_t len, uint64_t off)
{
	char *c = p;
	while (len) {
		ssize_t k = pread(fd, c, len, (off_t)off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return CCG_EIO;
		c += k;
		len -= (size_t)k;
		off += (uint64_t)k;
	}
	return CCG_OK;
}

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
	if ((err = pread_all(x->fd, c, d->csize, d->offset)))
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
	const rsection *s = &x->secs[sec];
	if (id >= s->nrecs || s->nblocks == 0)
		return -1;
	size_t lo = 0, hi = s->nblocks - 1;
	while (lo < hi) {
		size_t m = lo + (hi - lo + 1) / 2;
		if (s->blocks[m].first <= id)
			lo = m;
		else
			hi = m - 1;
	}
	*blk = lo;
	return 0;
}

static ccg_err parse_directory(ccg_index *x, const unsigned char *p,
			       size_t len, uint64_t lo, uint64_t hi)
{
	const unsigned char *end = p + len;
	for (int s = 0; s < CCG_SEC__COUNT; s++) {
		rsection *sec = &x->secs[s];
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

ccg_err ccg_index_open(const char *path, const ccg_buf *identity,
		       const ccg_index_params *want, ccg_index **out,
		       ccg_buf *why)
{
	ccg_buf dummy = CCG_BUF_INIT;
	if (!why)
		why = &dummy;
	ccg_index *x = calloc(1, sizeof *x);
	unsigned char *h = NULL, *d = NULL;
	ccg_err err = CCG_ENOMEM;
	if (!x)
		return CCG_ENOMEM;
	x->fd = -1;
	if (ccg_lru_create(CCG_INDEX_CACHE_DEFAULT, cblock_destroy, NULL,
			   &x->cache))
		goto fail;
	x->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	if (x->fd < 0 || fstat(x->fd, &st) != 0) {
		ccg_buf_addf(why, "cannot open: %s", strerror(errno));
		err = CCG_EIO;
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		ccg_buf_adds(why, "not a regular file");
		err = CCG_EFORMAT;
		goto fail;
	}
	x->size = (uint64_t)st.st_size;
	err = CCG_EFORMAT;
	unsigned char fixed[16];
	if (x->size < 16 + 8 + CCG_INDEX_FOOTER_LEN ||
	    pread_all(x->fd, fixed, 16, 0) || memcmp(fixed, index_magic, 8)) {
		ccg_buf_adds(why, "not an index file (or truncated)");
		goto fail;
	}
	uint32_t version = 0, hlen = 0;
	for (int i = 3; i >= 0; i--) {
		version = version << 8 | fixed[8 + i];
		hlen = hlen << 8 | fixed[12 + i];
	}
	if (version != CCG_INDEX_VERSION) {
		ccg_buf_addf(why, "index format %u, this ccgfs writes %u",
			     version, CCG_INDEX_VERSION);
		err = CCG_ESTALE;
		goto fail;
	}
	if (hlen < 24 || hlen > CCG_INDEX_HEADER_MAX ||
	    hlen > x->size - CCG_INDEX_FOOTER_LEN || !(h = malloc(hlen)) ||
	    pread_all(x->fd, h, hlen, 0) ||
	    checksum(h, hlen - 8) != get64(h + hlen - 8)) {
		ccg_buf_adds(why, "damaged header");
		goto fail;
	}
	if ((err = check_header(h, hlen, identity, want, why)))
		goto fail;
	err = CCG_EFORMAT;
	unsigned char f[CCG_INDEX_FOOTER_LEN];
	if (pread_all(x->fd, f, sizeof f, x->size - sizeof f) ||
	    memcmp(f, footer_magic, 8) || checksum(f, 32) != get64(f + 32)) {
		ccg_buf_adds(why, "damaged or missing footer (interrupted build?)");
		goto fail;
	}
	uint64_t doff = get64(f + 8), dlen = get64(f + 16);
	uint64_t dend = x->size - sizeof f;
	if (doff < hlen || doff > dend || dlen != dend - doff ||
	    dlen > CCG_INDEX_HEADER_MAX || !(d = malloc(dlen ? dlen : 1)) ||
	    pread_all(x->fd, d, dlen, doff) ||
	    (dlen ? checksum(d, dlen) : 0) != get64(f + 24) ||
	    parse_directory(x, d, dlen, hlen, doff)) {
		ccg_buf_adds(why, "damaged directory");
		goto fail;
	}
	if (x->size <= CCG_INDEX_VERIFY_ALL) {
		for (int s = 0; s < CCG_SEC__COUNT; s++) {
			for (size_t b = 0; b < x->secs[s].nblocks; b++) {
				cblock *cb;
				if ((err = load_block(x, s, b, &cb))) {
					ccg_buf_addf(why, "damaged block %zu of "
							  "section %d", b, s);
					goto fail;
				}
				cblock_free(cb);
			}
		}
	}
	free(h);
	free(d);
	*out = x;
	return CCG_OK;
fail:
	free(h);
	free(d);
	ccg_buf_free(&dummy);
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

static ccg_err src_get(void *ctx, int which, uint32_t id,
		       const unsigned char **p, size_t *len, void **hold)
{
	ccg_index *x = ctx;
	int sec = which ? CCG_SEC_EVENTS : CCG_SEC_NODES;
	uint64_t blk;
	cblock *b;
	if (block_of(x, sec, id, &blk))
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

static void src_release(void *ctx, void *hold)
{
	const ccg_index *x = ctx;
	ccg_lru_put(x->cache, hold);
}

ccg_err ccg_index_store(ccg_index *x, size_t cache_bytes, ccg_store **out)
{
	if (x->secs[CCG_SEC_NODES].nrecs > CCG_STORE_MAX_IDS ||
	    x->secs[CCG_SEC_EVENTS].nrecs > CCG_STORE_MAX_IDS)
		return CCG_EFORMAT;
	ccg_lru_set_budget(x->cache, cache_bytes);
	ccg_store_source src = {
		.ctx = x,
		.nnodes = (uint32_t)x->secs[CCG_SEC_NODES].nrecs,
		.nevents = (uint32_t)x->secs[CCG_SEC_EVENTS].nrecs,
		.bytes = x->size,
		.get = src_get,
		.release = src_release,
	};
	return ccg_store_open_source(&src, out);
}
