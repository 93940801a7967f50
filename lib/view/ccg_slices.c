/*
 * ccg_slices.c - the otf2/ folders' files from a private cache on disk
 * (ccg_slices.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "trace_i.h"
#include "ccg_slices.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ccg_lru.h"
#include "ccg_pio.h"

struct ccg_slices {
	pthread_mutex_t lock;   /* one slice written at a time; guards
				 * root and next */
	char *root;             /* the cache's directory; NULL until the
				 * first slice */
	uint64_t next;          /* number of the next slice's folder */
	size_t budget;          /* read-only */
	ccg_lru *lru;           /* slices by key (its own lock) */
};

/* A slice on disk. */
typedef struct slice_entry {
	char *dir;
	uint64_t bytes;
} slice_entry;

/* Removes folder `dir` and what a slice puts in it: files, and folders
 * of files (two levels, no deeper: nothing else is written there).
 * Returns the bytes the files had (sizes only, when `remove` is 0). */
static uint64_t walk_tree(const char *dir, int remove, int level)
{
	uint64_t bytes = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	ccg_buf p = CCG_BUF_INIT;
	while (d && (e = readdir(d))) {
		struct stat st;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		ccg_buf_reset(&p);
		ccg_buf_addf(&p, "%s/%s", dir, e->d_name);
		if (ccg_buf_status(&p) || lstat(p.data, &st))
			continue;
		if (S_ISDIR(st.st_mode) && level < 1)
			bytes += walk_tree(p.data, remove, level + 1);
		else if (S_ISREG(st.st_mode)) {
			bytes += (uint64_t)st.st_size;
			if (remove)
				unlink(p.data);
		}
	}
	if (d)
		closedir(d);
	if (remove)
		rmdir(dir);
	ccg_buf_free(&p);
	return bytes;
}

static void entry_free(void *ctx, void *v)
{
	(void)ctx;
	slice_entry *e = v;
	if (!e)
		return;
	walk_tree(e->dir, 1, 0);
	free(e->dir);
	free(e);
}

ccg_err ccg_slices_create(size_t budget, ccg_slices **out)
{
	ccg_slices *c = calloc(1, sizeof *c);
	if (!c)
		return CCG_ENOMEM;
	c->budget = budget ? budget : CCG_SLICE_CACHE_DEFAULT;
	ccg_err err = ccg_lru_create(c->budget, entry_free, NULL, &c->lru);
	if (err || pthread_mutex_init(&c->lock, NULL)) {
		ccg_lru_free(c->lru);
		free(c);
		return err ? err : CCG_ENOMEM;
	}
	*out = c;
	return CCG_OK;
}

void ccg_slices_free(ccg_slices *c)
{
	if (!c)
		return;
	ccg_lru_free(c->lru);
	if (c->root)
		rmdir(c->root);
	free(c->root);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

static void say(const ccg_trace *t, const char *line)
{
	if (t->opt.log)
		t->opt.log(t->opt.log_ctx, CCG_LOG_NOTE, line);
}

/* What a slice being written asks: whether its folder holds more than
 * the whole cache may. */
typedef struct grow_check {
	const char *dir;
	uint64_t budget;
} grow_check;

static int too_large(void *ctx)
{
	const grow_check *g = ctx;
	return walk_tree(g->dir, 0, 0) > g->budget;
}

/* Writes slice sl into a new folder of the cache (under c->lock). */
static ccg_err write_slice(const ccg_trace *t, ccg_slices *c,
			   const ccg_slice *sl0, slice_entry **out)
{
	ccg_buf msg = CCG_BUF_INIT, dir = CCG_BUF_INIT;
	ccg_err err = CCG_OK;
	if (!c->root) {
		const char *tmp = getenv("TMPDIR");
		ccg_buf_addf(&dir, "%s/ccgfs-slices-XXXXXX",
			     tmp && *tmp ? tmp : "/tmp");
		if (ccg_buf_status(&dir))
			err = CCG_ENOMEM;
		else if (!mkdtemp(dir.data))
			err = CCG_EIO;
		else if (!(c->root = strdup(dir.data)))
			err = CCG_ENOMEM;
		if (err == CCG_EIO)
			ccg_buf_addf(&msg, "cannot make a folder for the otf2/ "
					   "slices in %s: %s",
				     tmp && *tmp ? tmp : "/tmp",
				     strerror(errno));
	}
	slice_entry *e = NULL;
	uint64_t events;
	if (!err) {
		ccg_buf_reset(&dir);
		ccg_buf_addf(&dir, "%s/%llu", c->root,
			     (unsigned long long)c->next++);
		e = calloc(1, sizeof *e);
		if (ccg_buf_status(&dir) || !e || !(e->dir = strdup(dir.data)))
			err = CCG_ENOMEM;
		else if (mkdir(e->dir, 0700))
			err = CCG_EIO;
	}
	if (!err) {
		/* Stopped as soon as it outgrows the cache: a slice is never
		 * more than the cache and a chunk on disk. */
		grow_check g = {e->dir, c->budget};
		ccg_slice sl = *sl0;
		sl.over = too_large;
		sl.over_ctx = &g;
		err = ccg_slice_write(t, &sl, e->dir, &events, &msg);
		e->bytes = walk_tree(e->dir, 0, 0);
		if (!err && e->bytes > c->budget)
			err = CCG_ERANGE;
		if (err == CCG_ERANGE)
			ccg_buf_addf(&msg,
				     "an otf2/ slice outgrew the slices' cache "
				     "(%llu bytes, -o slicecache=MIB) after "
				     "%llu events and %llu bytes: refused",
				     (unsigned long long)c->budget,
				     (unsigned long long)events,
				     (unsigned long long)e->bytes);
	}
	if (err) {
		if (msg.data)
			say(t, msg.data);
		if (e && e->dir)
			walk_tree(e->dir, 1, 0);
		if (e)
			free(e->dir);
		free(e);
		e = NULL;
	}
	ccg_buf_free(&msg);
	ccg_buf_free(&dir);
	*out = e;
	return err;
}

/* The slice (k1, k2), pinned: cached, or written now. */
static ccg_err get_slice(const ccg_trace *t, uint64_t k1, uint64_t k2,
			 const ccg_slice *sl, slice_entry **out)
{
	ccg_slices *c = t->slices;
	if ((*out = ccg_lru_get(c->lru, k1, k2)))
		return CCG_OK;
	ccg_err err = CCG_OK;
	pthread_mutex_lock(&c->lock);
	/* Another reader may have written it while this one waited. */
	if (!(*out = ccg_lru_get(c->lru, k1, k2))) {
		slice_entry *e;
		void *got;
		if (!(err = write_slice(t, c, sl, &e)) &&
		    !(err = ccg_lru_add(c->lru, k1, k2, e, e->bytes, &got)))
			*out = got;
	}
	pthread_mutex_unlock(&c->lock);
	return err;
}

ccg_err ccg_slices_file(const ccg_trace *t, uint64_t k1, uint64_t k2,
			const ccg_slice *sl, const char *name, uint64_t off,
			size_t len, ccg_buf *out, uint64_t *size)
{
	slice_entry *e;
	ccg_err err = get_slice(t, k1, k2, sl, &e);
	if (err)
		return err;
	ccg_buf path = CCG_BUF_INIT;
	ccg_buf_addf(&path, "%s/%s", e->dir, name);
	int fd = ccg_buf_status(&path) ? -1
				       : open(path.data, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (ccg_buf_status(&path))
		err = CCG_ENOMEM;
	else if (fd < 0)
		err = errno == ENOENT ? CCG_ENOENT : CCG_EIO;
	else if (fstat(fd, &st))
		err = CCG_EIO;
	else if (!out)
		*size = (uint64_t)st.st_size;
	else if (off < (uint64_t)st.st_size) {
		uint64_t left = (uint64_t)st.st_size - off;
		size_t k = left < len ? (size_t)left : len;
		size_t at = out->len;
		if (ccg_buf_reserve(out, k))
			err = CCG_ENOMEM;
		else if (!(err = ccg_pio_all(fd, out->data + at, NULL, k, off)))
			ccg_buf_setlen(out, at + k);
	}
	if (fd >= 0)
		close(fd);
	ccg_buf_free(&path);
	ccg_lru_put(t->slices->lru, e);
	return err;
}
