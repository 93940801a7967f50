/*
 * ccgfs_main.c - the ccgfs command: options, opening the trace, mounting.
 *
 *   ccgfs [options] TRACE MOUNTPOINT
 *   ccgfs --build-only [options] TRACE
 *   ccgfs --info [options] TRACE
 *
 * Parses the command line, prints the library's one-line notes on stderr,
 * opens the trace (building or reusing its index) and runs the FUSE session,
 * multithreaded unless -s.  The operations live in ccgfs_ops.c.
 */
#include "ccgfs_i.h"

#include <malloc.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Most idle worker threads of the multithreaded loop. */
#define FS_MAX_IDLE_THREADS 10
/* Default fan-out (the library's). */
#define CCG_FANOUT_DEFAULT_FS 64
/* malloc arenas of the daemon (see run_mount). */
#define CCGFS_ARENAS 2

typedef struct cli {
	char *trace;
	unsigned fanout;
	char *index;
	char *tolerance;
	unsigned cache_mib;
	unsigned memory_mib;
	unsigned long long summaries;
	unsigned threads;
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
	{"memory=%u", offsetof(cli, memory_mib), 0},
	{"summaries=%llu", offsetof(cli, summaries), 0},
	{"threads=%u", offsetof(cli, threads), 0},
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
	       "    -o tolerance=T        lossy times: T ticks and/or P%% "
	       "(1000, 5%%, 1000,5%%)\n"
	       "    -o cache=MIB          index block cache (default %u MiB)\n"
	       "    -o summaries=N        building: store the statistics of "
	       "every call or group\n"
	       "                          of N events or more (default %u)\n"
	       "    -o threads=N          building: N threads (default: one "
	       "per core)\n"
	       "    -o memory=MIB         building: memory for the graph "
	       "(default %u MiB; past it\n"
	       "                          repeats are shared less, the "
	       "index grows)\n"
	       "    -o OPT[,OPT...]       other FUSE mount options\n"
	       "    -h, --help            this text\n",
	       prog, prog, prog, CCG_FANOUT_DEFAULT_FS,
	       (unsigned)(CCG_CACHE_DEFAULT >> 20), CCG_SUMS_DEFAULT,
	       (unsigned)(CCG_MEMORY_DEFAULT >> 20));
}

/* The library's notes on lines of their own; its progress on one line
 * that each report overwrites (stderr is a terminal then). */
static void log_line(void *ctx, ccg_log_kind kind, const char *line)
{
	(void)ctx;
	if (kind == CCG_LOG_NOTE)
		fprintf(stderr, "ccgfs: %s\n", line);
	else
		fprintf(stderr, "\rccgfs: %s %s", line,
			kind == CCG_LOG_DONE ? "\n" : "");
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
	o.sums_min = c->summaries;
	o.threads = (int)(c->threads > 64 ? 64 : c->threads);
	if (c->cache_mib)
		o.cache_bytes = (size_t)c->cache_mib << 20;
	if (c->memory_mib)
		o.memory = (size_t)c->memory_mib << 20;
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

/* --build-only and --info: open (building or reusing the index), report,
 * close.  Returns the exit status. */
static int run_offline(const cli *c, const char *prog)
{
	ccg_trace *t;
	if (!c->trace) {
		usage(prog);
		return 1;
	}
	if (open_trace(c, &t))
		return 1;
	if (c->info) {
		ccg_buf msg = CCG_BUF_INIT;
		ccg_trace_summary(t, &msg);
		fputs(msg.data ? msg.data : "", stdout);
		ccg_buf_free(&msg);
	}
	ccg_trace_close(t);
	return 0;
}

/* Runs the session until it is unmounted or signalled: one thread with
 * -s, else a pool.  Returns fuse's loop status. */
static int session_loop(struct fuse_session *se,
			const struct fuse_cmdline_opts *opts)
{
	if (opts->singlethread)
		return fuse_session_loop(se);
	struct fuse_loop_config *lc = fuse_loop_cfg_create();
	if (!lc)
		return -1;
	fuse_loop_cfg_set_clone_fd(lc, (unsigned)opts->clone_fd);
	fuse_loop_cfg_set_idle_threads(lc, FS_MAX_IDLE_THREADS);
	int ret = fuse_session_loop_mt(se, lc);
	fuse_loop_cfg_destroy(lc);
	return ret;
}

/* Mounts `f` read-only at opts->mountpoint and serves it until unmounted.
 * Returns the exit status. */
static int serve(fs *f, struct fuse_args *args,
		 const struct fuse_cmdline_opts *opts)
{
	struct fuse_session *se;
	int ret = 1;
	if (fuse_opt_add_arg(args, "-oro") ||
	    fuse_opt_add_arg(args, "-osubtype=ccgfs") ||
	    fuse_opt_add_arg(args, "-odefault_permissions"))
		return 1;
	se = fuse_session_new(args, &fs_ops, sizeof fs_ops, f);
	if (!se)
		return 1;
	if (fuse_set_signal_handlers(se) != 0)
		goto out_session;
	if (fuse_session_mount(se, opts->mountpoint) != 0)
		goto out_signals;
	if (fuse_daemonize(opts->foreground) == 0)
		ret = session_loop(se, opts) != 0;
	fuse_session_unmount(se);
out_signals:
	fuse_remove_signal_handlers(se);
out_session:
	fuse_session_destroy(se);
	return ret;
}

/* TRACE MOUNTPOINT: FUSE's own options, then open the trace and serve it.
 * Returns the exit status. */
static int run_mount(const cli *c, struct fuse_args *args, const char *prog)
{
	struct fuse_cmdline_opts opts = {0};
	fs f = {0};
	struct stat st;
	int ret = 1;
	if (fuse_parse_cmdline(args, &opts) != 0)
		return 1;
#ifdef M_ARENA_MAX
	/* The daemon's threads share CCGFS_ARENAS malloc arenas: results
	 * freed by one thread are memory the next can reuse, instead of
	 * free space held apart in an arena per thread (a walk over a deep
	 * tree, whose results come and go in the cache, reached 354 MiB with
	 * glibc's default of 8 per core, 140 MiB with 2). */
	mallopt(M_ARENA_MAX, CCGFS_ARENAS);
#endif
	if (opts.show_version) {
		printf("ccgfs 0.1, FUSE %s\n", fuse_pkgversion());
		ret = 0;
	} else if (!c->trace || !opts.mountpoint) {
		usage(prog);
	} else if (open_trace(c, &f.trace) == 0) {
		if (stat(c->trace, &st) == 0)
			f.mtime = st.st_mtim;
		f.uid = getuid();
		f.gid = getgid();
		ret = serve(&f, args, &opts);
		ccg_trace_close(f.trace);
	}
	free(opts.mountpoint);
	return ret;
}

int main(int argc, char *argv[])
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	cli c = {0};
	int ret;
	c.fanout = CCG_FANOUT_DEFAULT_FS;
	if (fuse_opt_parse(&args, &c, cli_opts, cli_proc) == -1) {
		ret = 1;
	} else if (c.show_help) {
		usage(argv[0]);
		ret = 0;
	} else if (c.build_only || c.info) {
		ret = run_offline(&c, argv[0]);
	} else {
		ret = run_mount(&c, &args, argv[0]);
	}
	free(c.trace);
	free(c.index);
	free(c.tolerance);
	fuse_opt_free_args(&args);
	return ret;
}
