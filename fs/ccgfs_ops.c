/*
 * ccgfs_ops.c - the FUSE lowlevel operations: a trace as a read-only tree.
 *
 * All trace logic lives in lib/ (ccg_trace.h); this file maps inode numbers
 * to library ids (ino = id + 1, so the root id 0 is FUSE_ROOT_ID), replies to
 * the kernel exactly once per request, and turns library errors into errno
 * values in one place (fs_errno).  The trace never changes while mounted, and
 * the bytes of an inode never do, so attributes get long timeouts and file
 * data keep_cache; entries too, but for a name that comes to name another
 * inode (ccg_forest_changes: refused.tsv, a new one at each name refused),
 * whose entry the kernel asks again at every lookup, and whose open takes
 * the inode's bytes whole (a snapshot per open, kept in fi->fh).
 */
#include "ccgfs_i.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

/* Seconds the kernel may cache entries and attributes. */
#define FS_TIMEOUT 86400.0
/* Entries "." and ".." come before the library's entries in readdir. */
#define FS_DOT_ENTRIES 2

_Static_assert(sizeof(fuse_ino_t) == 8, "fuse_ino_t must be 64-bit");

/* The one place where library errors become errno values. */
static int fs_errno(ccg_err err)
{
	switch (err) {
	case CCG_OK: return 0;
	case CCG_ENOMEM: return ENOMEM;
	case CCG_EINVAL: return EINVAL;
	case CCG_ENOENT: return ENOENT;
	case CCG_ENOTDIR: return ENOTDIR;
	case CCG_EISDIR: return EISDIR;
	case CCG_ERANGE: return ERANGE;
	case CCG_ENOTSUP: return ENOTSUP;
	case CCG_ESTALE: return ESTALE;
	case CCG_EINTR: return EINTR;
	case CCG_EIO:
	case CCG_EFORMAT:
	default: return EIO;
	}
}

static ccgfs_state *fs_of(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

static ccg_id ino_to_id(fuse_ino_t ino)
{
	return (ccg_id)(ino - 1);
}

static fuse_ino_t id_to_ino(ccg_id id)
{
	return (fuse_ino_t)(id + 1);
}

static ccg_err fill_stat(const ccgfs_state *f, ccg_id id, struct stat *st)
{
	ccg_stat cs;
	ccg_err err = ccg_forest_stat(f->forest, id, &cs);
	if (err)
		return err;
	memset(st, 0, sizeof *st);
	st->st_ino = id_to_ino(id);
	st->st_mode = cs.is_dir ? S_IFDIR | 0555 : S_IFREG | 0444;
	st->st_nlink = cs.nlink;
	st->st_size = (off_t)cs.size;
	st->st_blksize = 4096;
	st->st_blocks = (blkcnt_t)((cs.size + 511) / 512);
	st->st_uid = f->uid;
	st->st_gid = f->gid;
	st->st_mtim = st->st_ctim = st->st_atim = f->mtime;
	return CCG_OK;
}

static void fs_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	ccgfs_state *f = fs_of(req);
	struct fuse_entry_param e;
	ccg_id id;
	memset(&e, 0, sizeof e);
	ccg_err err = ccg_forest_lookup(f->forest, ino_to_id(parent), name, &id);
	if (!err)
		err = fill_stat(f, id, &e.attr);
	if (err) {
		fuse_reply_err(req, fs_errno(err));
		return;
	}
	e.ino = id_to_ino(id);
	e.attr_timeout = FS_TIMEOUT;
	e.entry_timeout = ccg_forest_changes(f->forest, id) ? 0 : FS_TIMEOUT;
	fuse_reply_entry(req, &e);
}

static void fs_getattr(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	(void)fi;
	struct stat st;
	const ccgfs_state *f = fs_of(req);
	ccg_id id = ino_to_id(ino);
	ccg_err err = fill_stat(f, id, &st);
	if (err)
		fuse_reply_err(req, fs_errno(err));
	else
		fuse_reply_attr(req, &st, FS_TIMEOUT);
}

/* opendir, readdir and open take an entry's kind from its id
 * (ccg_forest_is_dir) and never render a file to learn it.  Their inodes
 * come from lookup, which hands out only ids that name something. */

static void fs_opendir(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	if (!ccg_forest_is_dir(fs_of(req)->forest, ino_to_id(ino))) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	fi->cache_readdir = 1;
	fi->keep_cache = 1;
	fuse_reply_open(req, fi);
}

/* Entry p of directory `ino` (0 ".", 1 "..", 2.. the library's): its name
 * in *n (in `name` for the library's), its inode and kind in *st.
 * CCG_ENOENT past the last entry. */
static ccg_err dir_entry(const ccgfs_state *f, fuse_ino_t ino, uint64_t p,
			 ccg_buf *name, const char **n, struct stat *st)
{
	ccg_id id;
	memset(st, 0, sizeof *st);
	if (p < FS_DOT_ENTRIES) {
		*n = p == 0 ? "." : "..";
		st->st_ino = p == 0 ? ino : FUSE_ROOT_ID;
		st->st_mode = S_IFDIR;
		return CCG_OK;
	}
	ccg_buf_reset(name);
	ccg_err err = ccg_forest_readdir(f->forest, ino_to_id(ino),
					p - FS_DOT_ENTRIES, &id, name);
	if (err)
		return err;
	*n = name->data;
	st->st_ino = id_to_ino(id);
	st->st_mode = ccg_forest_is_dir(f->forest, id) ? S_IFDIR : S_IFREG;
	return CCG_OK;
}

/* Offsets: entry p has next offset p+1, so a directory's offsets never
 * change. */
static void fs_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	(void)fi;
	ccgfs_state *f = fs_of(req);
	char *buf = malloc(size);
	ccg_buf name = CCG_BUF_INIT;
	size_t used = 0;
	int error = 0;
	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	for (uint64_t p = (uint64_t)off;; p++) {
		struct stat st;
		const char *n;
		ccg_err err = dir_entry(f, ino, p, &name, &n, &st);
		if (err) {
			error = err == CCG_ENOENT ? 0 : fs_errno(err);
			break;
		}
		size_t need = fuse_add_direntry(req, buf + used, size - used, n,
						&st, (off_t)(p + 1));
		if (need > size - used)
			break;
		used += need;
	}
	ccg_buf_free(&name);
	if (error && used == 0)
		fuse_reply_err(req, error);
	else
		fuse_reply_buf(req, buf, used);
	free(buf);
}

/* A snapshot: an open file's bytes, in its mount's list while open. */
typedef struct snap {
	struct snap *prev, *next;
	ccg_buf b;
} snap;

struct ccgfs_snaps {
	pthread_mutex_t mu;
	snap head;              /* mu: the open snapshots, a ring */
};

int ccgfs_snaps_create(struct ccgfs_snaps **out)
{
	struct ccgfs_snaps *s = calloc(1, sizeof *s);
	if (!s)
		return -1;
	pthread_mutex_init(&s->mu, NULL);
	s->head.prev = s->head.next = &s->head;
	*out = s;
	return 0;
}

static void snap_free(snap *p)
{
	ccg_buf_free(&p->b);
	free(p);
}

void ccgfs_snaps_free(struct ccgfs_snaps *s)
{
	if (!s)
		return;
	while (s->head.next != &s->head) {
		snap *p = s->head.next;
		s->head.next = p->next;
		snap_free(p);
	}
	pthread_mutex_destroy(&s->mu);
	free(s);
}

/* The whole of file `id`, a new snapshot in the mount's list, into
 * *out: CCG_OK, or an error and nothing. */
static ccg_err snapshot(const ccgfs_state *f, ccg_id id, snap **out)
{
	ccg_stat st;
	snap *p = calloc(1, sizeof *p);
	ccg_err err = p ? ccg_forest_stat(f->forest, id, &st) : CCG_ENOMEM;
	if (!err && st.size > SIZE_MAX)
		err = CCG_ERANGE;
	if (!err)
		err = ccg_forest_read_cancel(f->forest, id, 0, (size_t)st.size,
					    &p->b, NULL, NULL);
	if (err) {
		if (p)
			snap_free(p);
		*out = NULL;
		return err;
	}
	struct ccgfs_snaps *s = f->snaps;
	pthread_mutex_lock(&s->mu);
	p->prev = &s->head;
	p->next = s->head.next;
	s->head.next->prev = p;
	s->head.next = p;
	pthread_mutex_unlock(&s->mu);
	*out = p;
	return CCG_OK;
}

/* Takes snapshot p out of the mount's list and frees it; NULL is
 * allowed. */
static void free_snapshot(const ccgfs_state *f, snap *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&f->snaps->mu);
	p->prev->next = p->next;
	p->next->prev = p->prev;
	pthread_mutex_unlock(&f->snaps->mu);
	snap_free(p);
}

static void fs_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	const ccgfs_state *f = fs_of(req);
	if (ccg_forest_is_dir(f->forest, ino_to_id(ino))) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	if ((fi->flags & O_ACCMODE) != O_RDONLY) {
		fuse_reply_err(req, EROFS);
		return;
	}
	fi->keep_cache = 1; /* an inode's bytes never change */
	/* A file whose name comes to name other inodes (refused.tsv) keeps
	 * its versions a while only: its bytes are taken whole now, and the
	 * reads of this open come from them (fs_release frees them). */
	ccg_id id = ino_to_id(ino);
	snap *sn = NULL;
	ccg_err err = CCG_OK;
	if (ccg_forest_changes(f->forest, id))
		err = snapshot(f, id, &sn);
	if (err) {
		fuse_reply_err(req, fs_errno(err));
		return;
	}
	fi->fh = (uint64_t)(uintptr_t)sn;
	if (fuse_reply_open(req, fi) != 0)
		free_snapshot(f, sn); /* the open was interrupted */
}

static void fs_release(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	(void)ino;
	free_snapshot(fs_of(req), (snap *)(uintptr_t)fi->fh);
	fuse_reply_err(req, 0);
}

/* The read's hook: whether the kernel sent FUSE_INTERRUPT for it (its
 * reader got a signal, or was killed).  Another worker thread reads the
 * interrupt, so with -s (one thread) a read always runs to its end. */
static int fs_interrupted(void *req)
{
	return fuse_req_interrupted(req);
}

/* A read answered EINTR leaves its pages in the kernel's cache, not up to
 * date, and the kernel reads such pages back one at a time: the next read
 * of the range would cost a request per 4 KiB, each as slow as the whole
 * one.  Dropping them, once the answer is sent (the pages are locked
 * until then), lets it ask for the range at once again.  Not with -s:
 * the one thread would wait for pages of requests only it can answer. */
static void drop_pages(struct fuse_session *se, fuse_ino_t ino, off_t off,
		       size_t size)
{
	fuse_lowlevel_notify_inval_inode(se, ino, off, (off_t)size);
}

static void fs_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	const ccgfs_state *f = fs_of(req);
	const snap *sn = (const snap *)(uintptr_t)fi->fh;
	const ccg_buf *snap = sn ? &sn->b : NULL;
	ccg_buf out = CCG_BUF_INIT;
	ccg_err err = ccg_buf_reserve(&out, size);
	if (!err && snap) {
		/* The bytes this open took (fs_open), copied: the reply ends
		 * the request, and with it maybe the open, whose release
		 * another thread may run while this one returns. */
		size_t at = (uint64_t)off < snap->len ? (size_t)off : snap->len;
		size_t n = snap->len - at < size ? snap->len - at : size;
		if (n)
			err = ccg_buf_add(&out, snap->data + at, n);
	} else if (!err) {
		err = ccg_forest_read_cancel(f->forest, ino_to_id(ino),
					    (uint64_t)off, size, &out,
					    fs_interrupted, req);
	}
	if (err)
		fuse_reply_err(req, fs_errno(err));
	else
		fuse_reply_buf(req, out.data, out.len);
	ccg_buf_free(&out);
	if (err == CCG_EINTR && f->se)
		drop_pages(f->se, ino, off, size);
}

/* With asynchronous reads the kernel sends the page cache's readahead as
 * background requests, which it never interrupts: a killed reader's read
 * ran to its end.  Synchronous reads (the default) make each request its
 * reader's own, so the reader's signal reaches it as FUSE_INTERRUPT
 * (fs_interrupted); -o async_read keeps them asynchronous, which lets the
 * daemon render the next pages while the reader takes the last. */
static void fs_init(void *userdata, struct fuse_conn_info *conn)
{
	const ccgfs_state *f = userdata;
	if (!f->async_read)
		conn->want &= ~(unsigned)FUSE_CAP_ASYNC_READ;
}

static void fs_statfs(fuse_req_t req, fuse_ino_t ino)
{
	(void)ino;
	struct statvfs sv;
	memset(&sv, 0, sizeof sv);
	sv.f_bsize = 4096;
	sv.f_frsize = 4096;
	sv.f_namemax = 255;
	sv.f_flag = ST_RDONLY;
	fuse_reply_statfs(req, &sv);
}

/* Every operation that would change the tree answers EROFS.  The stubs
 * differ only in the arguments they ignore, so one macro writes them. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define FS_EROFS(op, ...)                                               \
	static void fs_erofs_##op(fuse_req_t req, __VA_ARGS__)          \
	{                                                               \
		fuse_reply_err(req, EROFS);                             \
	}
FS_EROFS(setattr, fuse_ino_t ino, struct stat *a, int to_set,
	 struct fuse_file_info *fi)
FS_EROFS(mknod, fuse_ino_t p, const char *n, mode_t m, dev_t d)
FS_EROFS(mkdir, fuse_ino_t p, const char *n, mode_t m)
FS_EROFS(unlink, fuse_ino_t p, const char *n)
FS_EROFS(symlink, const char *l, fuse_ino_t p, const char *n)
FS_EROFS(rename, fuse_ino_t p, const char *n, fuse_ino_t np, const char *nn,
	 unsigned int fl)
FS_EROFS(link, fuse_ino_t ino, fuse_ino_t np, const char *nn)
FS_EROFS(create, fuse_ino_t p, const char *n, mode_t m,
	 struct fuse_file_info *fi)
FS_EROFS(write, fuse_ino_t ino, const char *b, size_t s, off_t o,
	 struct fuse_file_info *fi)
#undef FS_EROFS
#pragma GCC diagnostic pop

const struct fuse_lowlevel_ops fs_ops = {
	.init = fs_init,
	.lookup = fs_lookup,
	.getattr = fs_getattr,
	.opendir = fs_opendir,
	.readdir = fs_readdir,
	.open = fs_open,
	.read = fs_read,
	.release = fs_release,
	.statfs = fs_statfs,
	.setattr = fs_erofs_setattr,
	.mknod = fs_erofs_mknod,
	.mkdir = fs_erofs_mkdir,
	.unlink = fs_erofs_unlink,
	.rmdir = fs_erofs_unlink,
	.symlink = fs_erofs_symlink,
	.rename = fs_erofs_rename,
	.link = fs_erofs_link,
	.create = fs_erofs_create,
	.write = fs_erofs_write,
};
