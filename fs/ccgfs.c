/*
 * ccgfs.c - the FUSE low-level adapter: mounts a trace read-only.
 *
 *   ccgfs [options] TRACE MOUNTPOINT
 *
 * All trace logic lives in lib/ (ccg_trace.h); this file maps inode numbers
 * to library ids (ino = id + 1, so the root id 0 is FUSE_ROOT_ID), replies to
 * the kernel exactly once per request, and turns library errors into errno
 * values in one place (fs_errno).  The trace never changes while mounted, so
 * entries and attributes get long timeouts and file data keep_cache.
 */
#define FUSE_USE_VERSION 312
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ccg_trace.h"

/* Seconds the kernel may cache entries and attributes. */
#define FS_TIMEOUT 86400.0
/* Most idle worker threads of the multithreaded loop. */
#define FS_MAX_IDLE_THREADS 10
/* Default fan-out (the library's). */
#define CCG_FANOUT_DEFAULT_FS 64
/* Entries "." and ".." come before the library's entries in readdir. */
#define FS_DOT_ENTRIES 2

_Static_assert(sizeof(fuse_ino_t) == 8, "fuse_ino_t must be 64-bit");

typedef struct fs {
	ccg_trace *trace;
	uid_t uid;
	gid_t gid;
	struct timespec mtime;  /* of the anchor file */
} fs;

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
	case CCG_EIO:
	case CCG_EFORMAT:
	default: return EIO;
	}
}

static fs *fs_of(fuse_req_t req)
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

static ccg_err fill_stat(const fs *f, ccg_id id, struct stat *st)
{
	ccg_stat cs;
	ccg_err err = ccg_trace_stat(f->trace, id, &cs);
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
	fs *f = fs_of(req);
	struct fuse_entry_param e;
	ccg_id id;
	memset(&e, 0, sizeof e);
	ccg_err err = ccg_trace_lookup(f->trace, ino_to_id(parent), name, &id);
	if (!err)
		err = fill_stat(f, id, &e.attr);
	if (err) {
		fuse_reply_err(req, fs_errno(err));
		return;
	}
	e.ino = id_to_ino(id);
	e.attr_timeout = FS_TIMEOUT;
	e.entry_timeout = FS_TIMEOUT;
	fuse_reply_entry(req, &e);
}

static void fs_getattr(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	(void)fi;
	struct stat st;
	ccg_err err = fill_stat(fs_of(req), ino_to_id(ino), &st);
	if (err)
		fuse_reply_err(req, fs_errno(err));
	else
		fuse_reply_attr(req, &st, FS_TIMEOUT);
}

static void fs_opendir(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	ccg_stat cs;
	ccg_err err = ccg_trace_stat(fs_of(req)->trace, ino_to_id(ino), &cs);
	if (err) {
		fuse_reply_err(req, fs_errno(err));
		return;
	}
	if (!cs.is_dir) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	fi->cache_readdir = 1;
	fi->keep_cache = 1;
	fuse_reply_open(req, fi);
}

/* Offsets: entry p (0 ".", 1 "..", 2.. the library's) has next offset p+1,
 * so a directory's offsets never change. */
static void fs_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	(void)fi;
	fs *f = fs_of(req);
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
		memset(&st, 0, sizeof st);
		const char *n;
		ccg_buf_reset(&name);
		if (p < FS_DOT_ENTRIES) {
			n = p == 0 ? "." : "..";
			st.st_ino = p == 0 ? ino : FUSE_ROOT_ID;
			st.st_mode = S_IFDIR;
		} else {
			ccg_id id;
			ccg_err err = ccg_trace_readdir(
				f->trace, ino_to_id(ino), p - FS_DOT_ENTRIES,
				&id, &name);
			if (err == CCG_ENOENT)
				break;
			if (err) {
				error = fs_errno(err);
				break;
			}
			ccg_stat cs;
			err = ccg_trace_stat(f->trace, id, &cs);
			if (err) {
				error = fs_errno(err);
				break;
			}
			n = name.data;
			st.st_ino = id_to_ino(id);
			st.st_mode = cs.is_dir ? S_IFDIR : S_IFREG;
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

static void fs_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	ccg_stat cs;
	ccg_err err = ccg_trace_stat(fs_of(req)->trace, ino_to_id(ino), &cs);
	if (err) {
		fuse_reply_err(req, fs_errno(err));
		return;
	}
	if (cs.is_dir) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	if ((fi->flags & O_ACCMODE) != O_RDONLY) {
		fuse_reply_err(req, EROFS);
		return;
	}
	fi->keep_cache = 1;
	fuse_reply_open(req, fi);
}

static void fs_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	(void)fi;
	ccg_buf out = CCG_BUF_INIT;
	ccg_err err = ccg_buf_reserve(&out, size);
	if (!err)
		err = ccg_trace_read(fs_of(req)->trace, ino_to_id(ino),
				     (uint64_t)off, size, &out);
	if (err)
		fuse_reply_err(req, fs_errno(err));
	else
		fuse_reply_buf(req, out.data, out.len);
	ccg_buf_free(&out);
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

/* Every operation that would change the tree. */
static void fs_erofs_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *a,
			     int to_set, struct fuse_file_info *fi)
{
	(void)ino, (void)a, (void)to_set, (void)fi;
	fuse_reply_err(req, EROFS);
}

static void fs_erofs_mknod(fuse_req_t req, fuse_ino_t p, const char *n,
			   mode_t m, dev_t d)
{
	(void)p, (void)n, (void)m, (void)d;
	fuse_reply_err(req, EROFS);
}

static void fs_erofs_mkdir(fuse_req_t req, fuse_ino_t p, const char *n,
			   mode_t m)
{
	(void)p, (void)n, (void)m;
	fuse_reply_err(req, EROFS);
}

static void fs_erofs_unlink(fuse_req_t req, fuse_ino_t p, const char *n)
{
	(void)p, (void)n;
	fuse_reply_err(req, EROFS);
}

static void fs_erofs_symlink(fuse_req_t req, const char *l, fuse_ino_t p,
			     const char *n)
{
	(void)l, (void)p, (void)n;
	fuse_reply_err(req, EROFS);
}

static void fs_erofs_rename(fuse_req_t req, fuse_ino_t p, const char *n,
			    fuse_ino_t np, const char *nn, unsigned int fl)
{
	(void)p, (void)n, (void)np, (void)nn, (void)fl;
	fuse_reply_err(req, EROFS);
}

static void fs_erofs_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t np,
			  const char *nn)
{
	(void)ino, (void)np, (void)nn;
	fuse_reply_err(req, EROFS);
}

static void fs_erofs_create(fuse_req_t req, fuse_ino_t p, const char *n,
			    mode_t m, struct fuse_file_info *fi)
{
	(void)p, (void)n, (void)m, (void)fi;
	fuse_reply_err(req, EROFS);
}

static void fs_erofs_write(fuse_req_t req, fuse_ino_t ino, const char *b,
			   size_t s, off_t o, struct fuse_file_info *fi)
{
	(void)ino, (void)b, (void)s, (void)o, (void)fi;
	fuse_reply_err(req, EROFS);
}

static const struct fuse_lowlevel_ops fs_ops = {
	.lookup = fs_lookup,
	.getattr = fs_getattr,
	.opendir = fs_opendir,
	.readdir = fs_readdir,
	.open = fs_open,
	.read = fs_read,
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

/* ------------------------------------------------------------------ */
/* Command line                                                         */

typedef struct cli {
	char *trace;
	unsigned fanout;
	char *index;
	char *tolerance;
	unsigned cache_mib;
	int noindex, rebuild;
	int show_help, build_only, info;
} cli;

enum { KEY_HELP, KEY_BUILD_ONLY, KEY_INFO };

#define CLI_OPT(t, p) {t, offsetof(cli, p), 1}

static const struct fuse_opt cli_opts[] = {
	{"fanout=%u", offsetof(cli, fanout), 0},
	{"index=%s", offsetof(cli, index), 0},
	{"tolerance=%s", offsetof(cli, tolerance), 0},
	{"cache=%u", offsetof(cli, cache_mib), 0},
	CLI_OPT("noindex", noindex),
	CLI_OPT("rebuild", rebuild),
	FUSE_OPT_KEY("-h", KEY_HELP),
	FUSE_OPT_KEY("--help", KEY_HELP),
	FUSE_OPT_KEY("--build-only", KEY_BUILD_ONLY),
	FUSE_OPT_KEY("--info", KEY_INFO),
	FUSE_OPT_END,
};

static int cli_proc(void *data, const char *arg, int key,
		    struct fuse_args *outargs)
{
	(void)outargs;
	cli *c = data;
	switch (key) {
	case KEY_HELP:
		c->show_help = 1;
		return 0;
	case KEY_BUILD_ONLY:
		c->build_only = 1;
		return 0;
	case KEY_INFO:
		c->info = 1;
		return 0;
	case FUSE_OPT_KEY_NONOPT:
		if (!c->trace) {
			c->trace = strdup(arg);
			return 0;
		}
		return 1;
	default:
		return 1;
	}
}

static void usage(const char *prog)
{
	printf("usage: %s [options] TRACE MOUNTPOINT\n"
	       "       %s --build-only [options] TRACE\n"
	       "       %s --info [options] TRACE\n\n"
	       "Mounts the OTF2 trace whose anchor file is TRACE (e.g.\n"
	       "traces.otf2) read-only at MOUNTPOINT; unmount with\n"
	       "`fusermount3 -u MOUNTPOINT`.  The first mount builds an index\n"
	       "file (the anchor's name plus .ccg, e.g. traces.otf2.ccg, or\n"
	       "under $XDG_CACHE_HOME/ccgfs/ when the trace's folder is not\n"
	       "writable); later mounts reuse it.\n\n"
	       "options:\n"
	       "    --build-only          build or refresh the index, then exit\n"
	       "    --info                print what the root `info` file shows\n"
	       "    -f                    stay in the foreground\n"
	       "    -s                    single-threaded\n"
	       "    -d                    debug output (implies -f)\n"
	       "    -o fanout=B           at most B subdirectories per call "
	       "directory (default %d)\n"
	       "    -o index=PATH         where the index file lives\n"
	       "    -o noindex            build in memory; no index file\n"
	       "    -o rebuild            rebuild the index even if it is valid\n"
	       "    -o tolerance=T        lossy sharing: T ticks and/or P%% "
	       "(1000, 5%%, 1000,5%%)\n"
	       "    -o cache=MIB          index block cache (default %u MiB)\n"
	       "    -o OPT[,OPT...]       other FUSE mount options\n"
	       "    -h, --help            this text\n",
	       prog, prog, prog, CCG_FANOUT_DEFAULT_FS,
	       (unsigned)(CCG_CACHE_DEFAULT >> 20));
}

static void log_line(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "ccgfs: %s\n", line);
}

/* Opens (building or reusing the index) as the options say. */
static int open_trace(const cli *c, ccg_trace **out)
{
	ccg_options o;
	ccg_buf msg = CCG_BUF_INIT;
	ccg_options_init(&o);
	o.fanout = c->fanout;
	o.progress = isatty(STDERR_FILENO);
	o.index_path = c->index;
	o.no_index = c->noindex;
	o.rebuild = c->rebuild;
	if (c->cache_mib)
		o.cache_bytes = (size_t)c->cache_mib << 20;
	o.log = log_line;
	if (c->tolerance &&
	    ccg_parse_tolerance(c->tolerance, &o.tol_abs, &o.tol_rel)) {
		fprintf(stderr, "ccgfs: bad tolerance '%s' (want ticks, P%%, "
				"or both: 1000,5%%)\n",
			c->tolerance);
		return -1;
	}
	ccg_err err = ccg_trace_open(c->trace, &o, out, &msg);
	if (err)
		fprintf(stderr, "ccgfs: %s: %s\n", c->trace,
			msg.len ? msg.data : ccg_err_text(err));
	ccg_buf_free(&msg);
	return err ? -1 : 0;
}

int main(int argc, char *argv[])
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	struct fuse_cmdline_opts opts = {0};
	struct fuse_session *se = NULL;
	struct fuse_loop_config *lc = NULL;
	cli c = {0};
	c.fanout = CCG_FANOUT_DEFAULT_FS;
	fs f = {0};
	ccg_buf msg = CCG_BUF_INIT;
	int ret = 1;

	if (fuse_opt_parse(&args, &c, cli_opts, cli_proc) == -1)
		goto out_args;
	if (c.show_help) {
		usage(argv[0]);
		ret = 0;
		goto out_args;
	}
	if (c.build_only || c.info) {
		if (!c.trace) {
			usage(argv[0]);
			goto out_args;
		}
		if (open_trace(&c, &f.trace))
			goto out_args;
		if (c.info) {
			ccg_buf_reset(&msg);
			ccg_trace_summary(f.trace, &msg);
			fputs(msg.data ? msg.data : "", stdout);
		}
		ccg_trace_close(f.trace);
		ret = 0;
		goto out_args;
	}
	if (fuse_parse_cmdline(&args, &opts) != 0)
		goto out_args;
	if (opts.show_version) {
		printf("ccgfs 0.1, FUSE %s\n", fuse_pkgversion());
		ret = 0;
		goto out_opts;
	}
	if (!c.trace || !opts.mountpoint) {
		usage(argv[0]);
		goto out_opts;
	}

	if (open_trace(&c, &f.trace))
		goto out_opts;
	struct stat st;
	if (stat(c.trace, &st) == 0)
		f.mtime = st.st_mtim;
	f.uid = getuid();
	f.gid = getgid();

	if (fuse_opt_add_arg(&args, "-oro") ||
	    fuse_opt_add_arg(&args, "-osubtype=ccgfs") ||
	    fuse_opt_add_arg(&args, "-odefault_permissions"))
		goto out_trace;
	se = fuse_session_new(&args, &fs_ops, sizeof fs_ops, &f);
	if (!se)
		goto out_trace;
	if (fuse_set_signal_handlers(se) != 0)
		goto out_session;
	if (fuse_session_mount(se, opts.mountpoint) != 0)
		goto out_signals;
	if (fuse_daemonize(opts.foreground) != 0)
		goto out_unmount;
	if (opts.singlethread) {
		ret = fuse_session_loop(se);
	} else {
		lc = fuse_loop_cfg_create();
		if (!lc)
			goto out_unmount;
		fuse_loop_cfg_set_clone_fd(lc, (unsigned)opts.clone_fd);
		fuse_loop_cfg_set_idle_threads(lc, FS_MAX_IDLE_THREADS);
		ret = fuse_session_loop_mt(se, lc);
		fuse_loop_cfg_destroy(lc);
	}
	ret = ret != 0;
out_unmount:
	fuse_session_unmount(se);
out_signals:
	fuse_remove_signal_handlers(se);
out_session:
	fuse_session_destroy(se);
out_trace:
	ccg_trace_close(f.trace);
out_opts:
	free(opts.mountpoint);
out_args:
	ccg_buf_free(&msg);
	free(c.trace);
	free(c.index);
	free(c.tolerance);
	fuse_opt_free_args(&args);
	return ret;
}
