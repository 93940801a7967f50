/*
 * ccgfs_main.c - the ccgfs command: what the command line asks, in order.
 *
 * The command line first (ccgfs_cli.c; FUSE's own options are checked by
 * creating the session early), then the trace's anchor (a directory gives
 * its one trace), then the mount point (ccgfs_mnt.c); only then is the
 * trace opened, building or reusing its index, the mount point checked
 * again under a lock and mounted, and the FUSE session run,
 * multithreaded unless -s.  Every refusal is one line on stderr and no
 * mount.  The operations live in ccgfs_ops.c.
 */
#include "ccgfs_i.h"

#ifdef CCGFS_MPI
#include "ccg_mpi.h"
#endif

#include <malloc.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Most idle worker threads of the multithreaded loop. */
#define FS_MAX_IDLE_THREADS 10
/* Bytes of FUSE's messages kept until the session runs. */
#define FS_FUSE_SAID 1024
/* malloc arenas of the daemon (see run_mount). */
#define CCGFS_ARENAS 2

/* The signals that end a build (the terminal's, kill's default). */
static const int build_sigs[] = {SIGTERM, SIGINT, SIGHUP};

/* A build ended by one of build_sigs removes the temporary index it was
 * writing, then dies of the signal as it would have. */
static void on_build_signal(int sig)
{
	ccg_trace_abandon();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* While traces are opened (on), build_sigs that would end the process
 * end it through on_build_signal; then (off) their actions as before,
 * which FUSE's handlers then take over (they replace only the default).
 * `saved` holds the actions before. */
static void build_signals(int on, struct sigaction *saved)
{
	for (size_t i = 0; i < sizeof build_sigs / sizeof *build_sigs; i++) {
		if (!on) {
			sigaction(build_sigs[i], &saved[i], NULL);
			continue;
		}
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sigaction(build_sigs[i], NULL, &saved[i]);
		if (saved[i].sa_handler != SIG_DFL)
			continue; /* ignored (a background job), or handled */
		sa.sa_handler = on_build_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(build_sigs[i], &sa, NULL);
	}
}

/* What FUSE said while the command line was parsed and the session set
 * up (one thread then); printed as ccgfs's one error line. */
static char fuse_said[FS_FUSE_SAID];

static void keep_fuse_log(enum fuse_log_level level, const char *fmt,
			  va_list ap)
{
	(void)level;
	size_t n = strlen(fuse_said);
	if (n + 1 < sizeof fuse_said)
		vsnprintf(fuse_said + n, sizeof fuse_said - n, fmt, ap);
}

/* FUSE's message as one error line: "`X'" forms name X as the subject. */
static void say_fuse(const char *subject, const char *otherwise)
{
	static const struct {
		const char *start, *problem;
	} forms[] = {
		{"unknown option(s): `", "unknown option"},
		{"missing argument after `", "missing argument"},
		{"invalid parameter in option `", "invalid value"},
		{"invalid argument `", "invalid argument"},
	};
	char *s = fuse_said;
	if (!strncmp(s, "fuse: ", 6))
		s += 6;
	for (char *p = s; *p; p++)
		if (*p == '\n')
			*p = *(p + 1) ? ' ' : '\0';
	size_t n = strlen(s);
	for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
		size_t k = strlen(forms[i].start);
		if (n > k && !strncmp(s, forms[i].start, k) &&
		    s[n - 1] == '\'') {
			s[n - 1] = '\0';
			char near[FS_FUSE_SAID];
			if (i == 0 && ccgfs_cli_nearest(s + k, near,
							sizeof near))
				ccgfs_cli_error(s + k, "%s (did you mean %s?)",
						forms[i].problem, near);
			else
				ccgfs_cli_error(s + k, "%s", forms[i].problem);
			return;
		}
	}
	ccgfs_cli_error(subject, "%s", *s ? s : otherwise);
}

/* The library's notes on lines of their own; its progress on one line
 * that each report overwrites (stderr is a terminal then).  ctx, when
 * not NULL, is the anchor of the trace said about (several are
 * mounted). */
static void log_line(void *ctx, ccg_log_kind kind, const char *line)
{
	const char *anchor = ctx;
	if (kind == CCG_LOG_NOTE)
		fprintf(stderr, "ccgfs: %s%s%s\n", anchor ? anchor : "",
			anchor ? ": " : "", line);
	else
		fprintf(stderr, "\rccgfs: %s%s%s %s", anchor ? anchor : "",
			anchor ? ": " : "", line,
			kind == CCG_LOG_DONE ? "\n" : "");
}

/* The library's options from the command line's; 0, or -1 after the
 * error line and the hint (a value the library refuses). */
static int lib_options(const ccgfs_cli *c, ccg_options *o)
{
	ccg_buf msg = CCG_BUF_INIT;
	ccg_options_init(o);
	if (c->fanout_arg)
		o->fanout = (uint32_t)c->fanout;
	o->progress = isatty(STDERR_FILENO);
	o->index_path = c->index;
	o->no_index = c->noindex;
	o->rebuild = c->rebuild;
	o->sums_min = c->summaries;
	o->threads = (int)(c->threads > 64 ? 64 : c->threads);
	o->tol_abs = c->tol_abs;
	o->tol_rel = c->tol_rel;
	if (c->cache_mib)
		o->cache_bytes = (size_t)c->cache_mib << 20;
	if (c->slice_mib)
		o->slice_bytes = (size_t)c->slice_mib << 20;
	if (c->memory_mib)
		o->memory = (size_t)c->memory_mib << 20;
	o->json_max = c->json_max;
	o->longest = c->longest ? (uint32_t)c->longest : UINT32_MAX;
	o->log = log_line;
	int bad = ccg_options_check(o, &msg) != CCG_OK;
	if (bad) {
		ccgfs_cli_error(c->fanout_arg ? c->fanout_arg : NULL, "%s",
				msg.data ? msg.data : "invalid option");
		ccgfs_cli_hint();
	}
	ccg_buf_free(&msg);
	return bad ? -1 : 0;
}

/* Whether TRACE and MOUNTPOINT look swapped: one trace operand, which
 * holds no trace, and a mount point that does. */
static int swapped(const ccgfs_cli *c)
{
	ccg_buf a = CCG_BUF_INIT, msg = CCG_BUF_INIT;
	int yes = c->mountpoint && c->nops == 2 &&
		  ccg_anchor_find(c->mountpoint, &a, &msg) == CCG_OK;
	ccg_buf_free(&a);
	ccg_buf_free(&msg);
	return yes;
}

/* The anchor file of operand `path` (a directory gives its one trace)
 * into `anchor`; 0, or -1 after the error line. */
static int find_anchor(const ccgfs_cli *c, const char *path,
		       ccg_buf *anchor)
{
	ccg_buf msg = CCG_BUF_INIT;
	ccg_err err = ccg_anchor_find(path, anchor, &msg);
	if (err && swapped(c))
		ccgfs_cli_error(path, "no trace here, but the mount point "
				"given is one: TRACE comes first (ccgfs "
				"[options] TRACE MOUNTPOINT)");
	else if (err)
		ccgfs_cli_error(msg.len ? NULL : path, "%s",
				msg.len ? msg.data : ccg_err_text(err));
	ccg_buf_free(&msg);
	return err ? -1 : 0;
}

/* Opens `anchor` (building or reusing the index); 0, or -1 after the
 * error line.  The library's reasons name their file. */
static int open_trace(const char *anchor, const ccg_options *o,
		      ccg_trace **out)
{
	ccg_buf msg = CCG_BUF_INIT;
	ccg_err err = ccg_trace_open(anchor, o, out, &msg);
	if (err)
		ccgfs_cli_error(msg.len ? NULL : anchor, "%s",
				msg.len ? msg.data : ccg_err_text(err));
	ccg_buf_free(&msg);
	return err ? -1 : 0;
}

/* Whether -o index= was given for n > 1 traces (one index file cannot
 * serve them): 1 after the error line. */
static int one_index(const ccgfs_cli *c, size_t n)
{
	if (n < 2 || !c->index)
		return 0;
	ccgfs_cli_error("-o index", "names one index file, and %zu traces "
			"are given (CCGFS_INDEX_DIR=DIR puts each trace's "
			"index into DIR)", n);
	return 1;
}

/* A usage error about c's operands, if any: 1 after the error line and
 * the hint, else 0. */
static int bad_operands(const ccgfs_cli *c)
{
	const char *mode = c->build_only ? "--build-only" : "--info";
	int offline = c->build_only || c->info;
	char near[FS_FUSE_SAID];
	if (c->fuse_opt && !strncmp(c->fuse_opt, "--", 2) &&
	    ccgfs_cli_nearest(c->fuse_opt, near, sizeof near))
		ccgfs_cli_error(c->fuse_opt, "unknown option (did you mean "
				"%s?)", near);
	else if (!c->trace)
		ccgfs_cli_error(NULL, "no trace given");
	else if (!offline && !c->mountpoint)
		ccgfs_cli_error(c->trace, "no mount point given (ccgfs "
				"[options] TRACE MOUNTPOINT)");
	else if (offline && c->mountpoint)
		ccgfs_cli_error(c->mountpoint, "extra argument (%s takes "
				"TRACE alone)", mode);
	else if (c->extra)
		ccgfs_cli_error(c->extra, "extra argument (ccgfs [options] "
				"TRACE MOUNTPOINT)");
	else if (c->too_many)
		ccgfs_cli_error(c->too_many, "too many traces (at most %d in "
				"one mount)", CCG_FOREST_MAX);
	else if (!offline && one_index(c, ccgfs_cli_traces(c)))
		; /* said */
	else if (offline && c->fuse_opt)
		ccgfs_cli_error(c->fuse_opt, "a mount option, and %s does not "
				"mount", mode);
#ifdef CCGFS_MPI
	else if (!offline && ccg_mpi_world_size() > 1)
		ccgfs_cli_error(c->mountpoint, "an MPI job only builds the "
				"index (--build-only); mount it alone");
#endif
	else
		return 0;
	ccgfs_cli_hint();
	return 1;
}

/* Under an MPI launcher every rank of the job builds a share (rank 0
 * gets t, the others NULL); else the trace is opened alone.  0, or -1
 * after the error line. */
static int open_offline(const ccgfs_cli *c, const char *anchor,
			const ccg_options *o, ccg_trace **t)
{
#ifdef CCGFS_MPI
	if (ccg_mpi_launched()) {
		ccg_buf msg = CCG_BUF_INIT;
		ccg_err err = ccg_mpi_open(anchor, o, (unsigned)c->mpi_timeout,
					   t, &msg);
		if (err)
			ccgfs_cli_error(msg.len ? NULL : anchor, "%s",
					msg.len ? msg.data
						: ccg_err_text(err));
		ccg_buf_free(&msg);
		return err ? -1 : 0;
	}
#else
	(void)c;
#endif
	return open_trace(anchor, o, t);
}

/* --build-only and --info: open (building or reusing the index), report,
 * close.  Returns the exit status: CCGFS_EXIT_NOINDEX when --build-only
 * could write no index. */
static int run_offline(const ccgfs_cli *c)
{
	ccg_options o;
	ccg_buf anchor = CCG_BUF_INIT;
	ccg_trace *t = NULL;
	struct sigaction saved[sizeof build_sigs / sizeof *build_sigs];
	int ret = CCGFS_EXIT_USAGE;
	if (lib_options(c, &o))
		goto out;
	ret = CCGFS_EXIT_FAIL;
	if (find_anchor(c, c->trace, &anchor))
		goto out;
	build_signals(1, saved);
	int failed = open_offline(c, anchor.data, &o, &t);
	build_signals(0, saved);
	if (failed)
		goto out;
	if (t && c->info) {
		ccg_buf msg = CCG_BUF_INIT;
		ccg_trace_summary(t, &msg);
		fputs(msg.data ? msg.data : "", stdout);
		ccg_buf_free(&msg);
	}
	ret = 0;
	/* Building was asked, and its one product is missing (the note
	 * above said why). */
	if (t && c->build_only && !c->noindex && !ccg_trace_indexed(t)) {
		ccgfs_cli_error(anchor.data, "--build-only wrote no index");
		ret = CCGFS_EXIT_NOINDEX;
	}
out:
	ccg_trace_close(t);
#ifdef CCGFS_MPI
	ccg_mpi_finish();
#endif
	ccg_buf_free(&anchor);
	return ret;
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

/* Exit status of a finished session loop: a loop ended by fuse's handler
 * for SIGTERM, SIGINT or SIGHUP hands back that signal's number (libfuse
 * 3.14; its errors are negative): an ordinary way to unmount, so 0 as
 * after fusermount3 -u. */
static int loop_status(int loop_ret)
{
	return loop_ret == 0 || loop_ret == SIGTERM || loop_ret == SIGINT ||
			       loop_ret == SIGHUP
		       ? 0
		       : CCGFS_EXIT_FAIL;
}

/* Mounts session `se` at c->mountpoint, checked again (another mount may
 * have come there while the trace was opened), and serves it until
 * unmounted.  Returns the exit status. */
static int serve(struct fuse_session *se, const ccgfs_cli *c,
		 const struct fuse_cmdline_opts *opts)
{
	int ret = CCGFS_EXIT_FAIL, lock = -1;
	char *mnt = NULL;
	if (fuse_set_signal_handlers(se) != 0)
		return ret;
	if (ccgfs_mnt_claim(c->mountpoint, c->nonempty, &mnt, &lock))
		goto out;
	fuse_said[0] = '\0';
	int mounted = fuse_session_mount(se, mnt) == 0;
	ccgfs_mnt_release(&lock);
	if (!mounted) {
		say_fuse(c->mountpoint, "cannot mount");
		goto out;
	}
	fuse_set_log_func(NULL); /* FUSE's own messages from here on */
	if (fuse_daemonize(opts->foreground) == 0)
		ret = loop_status(session_loop(se, opts));
	fuse_session_unmount(se);
out:
	fuse_remove_signal_handlers(se);
	free(mnt);
	return ret;
}

/* The anchors of c's trace operands into anchors[0 .. *n) (each
 * CCG_BUF_INIT before): a folder of several traces gives each of them.
 * 0, or -1 after the error line. */
static int trace_anchors(const ccgfs_cli *c, ccg_buf *anchors, size_t *n)
{
	size_t traces = ccgfs_cli_traces(c);
	int ret = 0;
	*n = 0;
	for (size_t k = 0; !ret && k < traces; k++) {
		ccg_buf list = CCG_BUF_INIT;
		size_t cnt = 0;
		if (ccg_anchor_list(c->ops[k], &list, &cnt)) {
			ccgfs_cli_error(c->ops[k], "out of memory");
			ret = -1;
		}
		const char *p = list.data;
		for (size_t i = 0; !ret && i < (cnt > 1 ? cnt : 1); i++) {
			if (*n == CCG_FOREST_MAX) {
				ccgfs_cli_error(c->ops[k], "too many traces (at "
						"most %d in one mount)",
						CCG_FOREST_MAX);
				ret = -1;
			} else if (cnt > 1) {
				ccg_buf_adds(&anchors[(*n)++], p);
				p += strlen(p) + 1;
			} else if (find_anchor(c, c->ops[k], &anchors[*n])) {
				ret = -1;
			} else {
				(*n)++;
			}
		}
		ccg_buf_free(&list);
	}
	return ret;
}

/* The traces of c's operands, opened in order, as a forest in f->forest:
 * 0, or -1 after the error line (each anchor is found before the mount
 * point is checked, and the mount point before any trace is read). */
static int open_forest(const ccgfs_cli *c, const ccg_options *o,
		       ccgfs_state *f)
{
	char *mnt = NULL;
	size_t n = 0;
	ccg_buf anchors[CCG_FOREST_MAX];
	const char *names[CCG_FOREST_MAX];
	ccg_trace *ts[CCG_FOREST_MAX] = {0};
	struct stat st;
	int ret = -1;
	for (size_t k = 0; k < CCG_FOREST_MAX; k++)
		anchors[k] = (ccg_buf)CCG_BUF_INIT;
	if (trace_anchors(c, anchors, &n))
		goto out;
	if (one_index(c, n))
		goto out;
	for (size_t k = 0; k < n; k++) {
		if (ccg_buf_status(&anchors[k])) {
			ccgfs_cli_error(NULL, "out of memory");
			goto out;
		}
	}
	if (ccgfs_mnt_check(c->mountpoint, c->nonempty, &mnt))
		goto out;
	for (size_t k = 0; k < n; k++) {
		if (!(f->anchors[k] = strdup(anchors[k].data))) {
			ccgfs_cli_error(NULL, "out of memory");
			goto out;
		}
		ccg_options ok = *o;
		if (n > 1)
			ok.log_ctx = f->anchors[k]; /* lines name their trace */
		names[k] = f->anchors[k];
		if (open_trace(f->anchors[k], &ok, &ts[k]))
			goto out;
	}
	ccg_err err = ccg_forest_create(ts, names, n, &f->forest);
	if (err) {
		ccgfs_cli_error(NULL, "cannot serve the traces: %s",
				ccg_err_text(err));
		goto out;
	}
	ccg_forest_set_weak(f->forest, c->weak);
	if (stat(anchors[0].data, &st) == 0)
		f->mtime = st.st_mtim;
	ret = 0;
out:
	for (size_t k = 0; k < CCG_FOREST_MAX; k++) {
		ccg_trace_close(ts[k]); /* NULL once the forest took it */
		ccg_buf_free(&anchors[k]);
	}
	free(mnt);
	return ret;
}

/* TRACE... MOUNTPOINT: FUSE's options and the session first (so a wrong
 * option costs nothing), then the anchors, the mount point, the traces.
 * Returns the exit status. */
static int run_mount(const ccgfs_cli *c, struct fuse_args *args)
{
	struct fuse_cmdline_opts opts = {0};
	struct fuse_session *se = NULL;
	ccg_options o;
	ccgfs_state f = {0};
	int ret = CCGFS_EXIT_USAGE;
#ifdef M_ARENA_MAX
	/* The daemon's threads share CCGFS_ARENAS malloc arenas: results
	 * freed by one thread are memory the next can reuse, instead of
	 * free space held apart in an arena per thread (a walk over a deep
	 * tree, whose results come and go in the cache, reached 354 MiB with
	 * glibc's default of 8 per core, 140 MiB with 2). */
	mallopt(M_ARENA_MAX, CCGFS_ARENAS);
#endif
	if (lib_options(c, &o))
		goto out;
	if (ccgfs_snaps_create(&f.snaps)) {
		ccgfs_cli_error(NULL, "out of memory");
		goto out;
	}
	if (fuse_parse_cmdline(args, &opts) != 0 ||
	    fuse_opt_add_arg(args, "-oro") ||
	    fuse_opt_add_arg(args, "-osubtype=ccgfs") ||
	    fuse_opt_add_arg(args, "-odefault_permissions") ||
	    !(se = fuse_session_new(args, &fs_ops, sizeof fs_ops, &f))) {
		say_fuse(NULL, "cannot set up FUSE");
		ccgfs_cli_hint();
		goto out;
	}
	ret = CCGFS_EXIT_FAIL;
	struct sigaction saved[sizeof build_sigs / sizeof *build_sigs];
	build_signals(1, saved);
	int failed = open_forest(c, &o, &f);
	build_signals(0, saved);
	if (failed)
		goto out;
	f.uid = getuid();
	f.gid = getgid();
	f.se = opts.singlethread ? NULL : se;
	f.async_read = c->async_read;
	ret = serve(se, c, &opts);
out:
	if (se)
		fuse_session_destroy(se);
	ccgfs_snaps_free(f.snaps);
	ccg_forest_free(f.forest);
	for (size_t k = 0; k < CCG_FOREST_MAX; k++)
		free(f.anchors[k]);
	free(opts.mountpoint);
	return ret;
}

int main(int argc, char *argv[])
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	ccgfs_cli c;
	int ret;
	fuse_set_log_func(keep_fuse_log);
	if (ccgfs_cli_parse(&args, &c) != 0) {
		if (fuse_said[0])
			say_fuse(NULL, "");
		ccgfs_cli_hint();
		ret = CCGFS_EXIT_USAGE;
	} else if (c.show_help) {
		ccgfs_cli_usage();
		ret = 0;
	} else if (c.show_version) {
		printf("ccgfs %s (FUSE %s)\n", CCGFS_VERSION, fuse_pkgversion());
		ret = 0;
	} else if (bad_operands(&c)) {
		ret = CCGFS_EXIT_USAGE;
	} else if (c.build_only || c.info) {
		ret = run_offline(&c);
	} else {
		ret = run_mount(&c, &args);
	}
	ccgfs_cli_free(&c);
	fuse_opt_free_args(&args);
	return ret;
}
