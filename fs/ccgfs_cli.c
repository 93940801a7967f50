/*
 * ccgfs_cli.c - the command line: operands, ccgfs's own options with their
 * values checked as they are read, the --help text and the error lines.
 *
 *   ccgfs [options] TRACE MOUNTPOINT
 *   ccgfs --build-only [options] TRACE
 *   ccgfs --info [options] TRACE
 *
 * Every error is one line "ccgfs: SUBJECT: PROBLEM" on stderr; a usage
 * error adds a line saying where to read more.  Options ccgfs does not
 * know are left to FUSE, which says whether it knows them (ccgfs_main.c).
 */
#include "ccgfs_i.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	KEY_HELP,
	KEY_VERSION,
	KEY_BUILD_ONLY,
	KEY_INFO,
	KEY_NUMBER,
	KEY_TOLERANCE,
	KEY_INDEX
};

#define CLI_FLAG(t, field) {t, offsetof(ccgfs_cli, field), 1}

static const struct fuse_opt cli_opts[] = {
	FUSE_OPT_KEY("fanout=", KEY_NUMBER),
	FUSE_OPT_KEY("cache=", KEY_NUMBER),
	FUSE_OPT_KEY("slicecache=", KEY_NUMBER),
	FUSE_OPT_KEY("memory=", KEY_NUMBER),
	FUSE_OPT_KEY("summaries=", KEY_NUMBER),
	FUSE_OPT_KEY("threads=", KEY_NUMBER),
	FUSE_OPT_KEY("json_max=", KEY_NUMBER),
	FUSE_OPT_KEY("mpi_timeout=", KEY_NUMBER),
	FUSE_OPT_KEY("longest=", KEY_NUMBER),
	FUSE_OPT_KEY("tolerance=", KEY_TOLERANCE),
	FUSE_OPT_KEY("index=", KEY_INDEX),
	CLI_FLAG("noindex", noindex),
	CLI_FLAG("rebuild", rebuild),
	CLI_FLAG("nonempty", nonempty),
	CLI_FLAG("async_read", async_read),
	CLI_FLAG("weak", weak),
	FUSE_OPT_KEY("-h", KEY_HELP),
	FUSE_OPT_KEY("--help", KEY_HELP),
	FUSE_OPT_KEY("-V", KEY_VERSION),
	FUSE_OPT_KEY("--version", KEY_VERSION),
	FUSE_OPT_KEY("--build-only", KEY_BUILD_ONLY),
	FUSE_OPT_KEY("--info", KEY_INFO),
	FUSE_OPT_END,
};

/* The numeric -o options: where each goes and its largest value. */
static const struct number_opt {
	const char *name;
	size_t off;
	uint64_t max;
} number_opts[] = {
	{"fanout", offsetof(ccgfs_cli, fanout), UINT32_MAX},
	{"cache", offsetof(ccgfs_cli, cache_mib), SIZE_MAX >> 20},
	{"slicecache", offsetof(ccgfs_cli, slice_mib), SIZE_MAX >> 20},
	{"memory", offsetof(ccgfs_cli, memory_mib), SIZE_MAX >> 20},
	{"summaries", offsetof(ccgfs_cli, summaries), UINT64_MAX},
	{"threads", offsetof(ccgfs_cli, threads), UINT32_MAX},
	{"json_max", offsetof(ccgfs_cli, json_max), UINT64_MAX},
	{"mpi_timeout", offsetof(ccgfs_cli, mpi_timeout), UINT32_MAX},
	{"longest", offsetof(ccgfs_cli, longest), CCG_LONGEST_MAX},
};

/* Names a mistyped option is compared with: ccgfs's own, and the FUSE
 * mount options users give most. */
static const char *const known_opts[] = {
	"fanout", "cache", "slicecache", "memory", "summaries", "threads", "json_max",
	"mpi_timeout", "longest", "tolerance", "index", "noindex", "rebuild",
	"nonempty", "async_read", "weak", "allow_other", "allow_root", "auto_unmount",
	"default_permissions", "fsname", "max_read", "max_threads",
	"clone_fd", "--build-only", "--info", "--help", "--version"};

/* Edit distance of a[0..na) and b[0..nb) with adjacent transpositions
 * (optimal string alignment), both at most 32 bytes. */
static unsigned edit_distance(const char *a, size_t na, const char *b,
			      size_t nb)
{
	unsigned d[33][33];
	for (size_t i = 0; i <= na; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= nb; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= na; i++) {
		for (size_t j = 1; j <= nb; j++) {
			unsigned cost = a[i - 1] != b[j - 1];
			unsigned v = d[i - 1][j - 1] + cost;
			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[na][nb];
}

int ccgfs_cli_nearest(const char *opt, char *out, size_t n)
{
	int dash = !strncmp(opt, "--", 2);
	const char *name = dash ? opt : !strncmp(opt, "-o ", 3) ? opt + 3 : opt;
	size_t len = strcspn(name, "=");
	if (!len || len > 32)
		return 0;
	const char *best = NULL;
	unsigned best_d = 3; /* at most 2 edits, and fewer than half */
	for (size_t i = 0; i < sizeof known_opts / sizeof *known_opts; i++) {
		const char *k = known_opts[i];
		size_t kl = strlen(k);
		if ((k[0] == '-') != dash || kl > 32)
			continue;
		unsigned d = edit_distance(name, len, k, kl);
		if (d < best_d && 2 * d < len) {
			best = k;
			best_d = d;
		}
	}
	if (!best)
		return 0;
	int w = snprintf(out, n, "%s%s%s", dash ? "" : "-o ", best,
			 name + len);
	return w > 0 && (size_t)w < n;
}

void ccgfs_cli_error(const char *subject, const char *fmt, ...)
{
	va_list ap;
	fputs("ccgfs: ", stderr);
	if (subject)
		fprintf(stderr, "%s: ", subject);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void ccgfs_cli_hint(void)
{
	fputs("Try 'ccgfs --help' for more information.\n", stderr);
}

/* A decimal of digits only, at most max: 0, else -1 (not a number) or -2
 * (too large). */
static int parse_number(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		unsigned d = (unsigned)(*s - '0');
		if (v > (max - d) / 10)
			return -2;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* Keeps a copy of `arg` in *slot unless one is there.  -1: no memory. */
static int keep_first(char **slot, const char *prefix, const char *arg)
{
	if (*slot)
		return 0;
	size_t n = strlen(prefix) + strlen(arg) + 1;
	if (!(*slot = malloc(n)))
		return -1;
	snprintf(*slot, n, "%s%s", prefix, arg);
	return 0;
}

/* -o NAME=VALUE of number_opts.  Returns 0, or -1 after the error line. */
static int take_number(ccgfs_cli *c, const char *arg)
{
	const char *eq = strchr(arg, '=');
	for (size_t i = 0; i < sizeof number_opts / sizeof *number_opts;
	     i++) {
		const struct number_opt *o = &number_opts[i];
		if (strlen(o->name) != (size_t)(eq - arg) ||
		    strncmp(arg, o->name, (size_t)(eq - arg)))
			continue;
		uint64_t *dst = (uint64_t *)((char *)c + o->off);
		int r = parse_number(eq + 1, o->max, dst);
		if (r == -1) {
			ccgfs_cli_error(NULL, "-o %s: not a whole number",
					arg);
			return -1;
		}
		if (r == -2) {
			ccgfs_cli_error(NULL, "-o %s: too large (at most %llu)",
					arg, (unsigned long long)o->max);
			return -1;
		}
		if (dst == &c->fanout) {
			free(c->fanout_arg);
			c->fanout_arg = NULL;
			return keep_first(&c->fanout_arg, "-o ", arg);
		}
		return 0;
	}
	return -1; /* cli_opts and number_opts disagree */
}

/* Whether arg looks like the second part of a tolerance ("5%", "1000")
 * that -o cut off at the comma. */
static int cut_tolerance(const char *arg)
{
	size_t n = strspn(arg, "0123456789.");
	return n > 0 && (!arg[n] || (arg[n] == '%' && !arg[n + 1]));
}

static int cli_proc(void *data, const char *arg, int key,
		    struct fuse_args *outargs)
{
	(void)outargs;
	ccgfs_cli *c = data;
	char *tol = c->tol_arg;
	c->tol_arg = NULL;
	if (key != KEY_TOLERANCE && key != FUSE_OPT_KEY_NONOPT && tol &&
	    cut_tolerance(arg)) {
		ccgfs_cli_error(NULL, "-o %s,%s: -o splits at commas; give "
				"both parts as -o '%s\\,%s' or -o %s+%s",
				tol, arg, tol, arg, tol, arg);
		free(tol);
		return -1;
	}
	free(tol);
	switch (key) {
	case KEY_HELP:
		c->show_help = 1;
		return 0;
	case KEY_VERSION:
		c->show_version = 1;
		return 0;
	case KEY_BUILD_ONLY:
		c->build_only = 1;
		return 0;
	case KEY_INFO:
		c->info = 1;
		return 0;
	case KEY_NUMBER:
		return take_number(c, arg);
	case KEY_TOLERANCE:
		if (ccg_parse_tolerance(arg + strlen("tolerance="),
					&c->tol_abs, &c->tol_rel)) {
			ccgfs_cli_error(NULL, "-o %s: want ticks, P%%, or both "
					"(1000, 5%%, 1000+5%%)", arg);
			return -1;
		}
		return (c->tol_arg = strdup(arg)) ? 0 : -1;
	case KEY_INDEX:
		if (!arg[strlen("index=")]) {
			ccgfs_cli_error(NULL, "-o %s: no path given", arg);
			return -1;
		}
		free(c->index);
		return (c->index = strdup(arg + strlen("index="))) ? 0 : -1;
	case FUSE_OPT_KEY_NONOPT:
		if (c->nops < CCGFS_OPERANDS_MAX)
			return (c->ops[c->nops++] = strdup(arg)) ? 0 : -1;
		return keep_first(&c->too_many, "", arg);
	default:
		/* FUSE's, or unknown: FUSE decides.  Options given with -o
		 * arrive without it. */
		if (keep_first(&c->fuse_opt, arg[0] == '-' ? "" : "-o ", arg))
			return -1;
		return 1;
	}
}

int ccgfs_cli_parse(struct fuse_args *args, ccgfs_cli *c)
{
	memset(c, 0, sizeof *c);
	c->mpi_timeout = CCGFS_MPI_TIMEOUT;
	c->longest = CCG_LONGEST_DEFAULT;
	if (fuse_opt_parse(args, c, cli_opts, cli_proc) == -1)
		return -1;
	c->trace = c->nops ? c->ops[0] : NULL;
	if (c->build_only || c->info) {
		c->mountpoint = c->nops > 1 ? c->ops[1] : NULL;
		c->extra = c->nops > 2 ? c->ops[2] : NULL;
	} else {
		c->mountpoint = c->nops > 1 ? c->ops[c->nops - 1] : NULL;
	}
	return 0;
}

size_t ccgfs_cli_traces(const ccgfs_cli *c)
{
	return c->nops > 1 ? c->nops - 1 : c->nops;
}

void ccgfs_cli_free(ccgfs_cli *c)
{
	for (size_t i = 0; i < c->nops; i++)
		free(c->ops[i]);
	free(c->too_many);
	free(c->fuse_opt);
	free(c->fanout_arg);
	free(c->index);
	free(c->tol_arg);
}

void ccgfs_cli_usage(void)
{
	ccg_options o;
	ccg_options_init(&o);
	printf("usage: ccgfs [options] TRACE [TRACE...] MOUNTPOINT\n"
	       "       ccgfs --build-only [options] TRACE\n"
	       "       ccgfs --info [options] TRACE\n\n"
	       "Mounts the OTF2 trace TRACE read-only at MOUNTPOINT, an "
	       "empty directory;\n"
	       "unmount with `fusermount3 -u MOUNTPOINT`; several traces "
	       "go side by\n"
	       "side, with compare/ beside them.  TRACE is the "
	       "trace's anchor file\n"
	       "(NAME.otf2, beside NAME.def and the folder NAME/) or a "
	       "directory holding\n"
	       "exactly one.  The first mount builds an index file (the "
	       "anchor's name plus\n"
	       ".ccg, or under $XDG_CACHE_HOME/ccgfs/ when the trace's "
	       "directory is not\n"
	       "writable); later mounts reuse it.  Exit status: 0 done, 1 "
	       "wrong command line,\n"
	       "16 --build-only wrote no index, 32 the trace, the mount point "
	       "or the mount\nfailed.\n\n"
	       "options:\n"
	       "    --build-only          build or refresh the index, then "
	       "exit\n"
	       "    --info                print what the root `info` file "
	       "shows\n"
	       "    -f                    stay in the foreground\n"
	       "    -s                    single-threaded\n"
	       "    -d                    debug output (implies -f)\n"
	       "    -o fanout=B           at most B subdirectories per call "
	       "directory (default %d)\n"
	       "    -o index=PATH         where the index file lives\n"
	       "    -o noindex            build in memory; no index file\n"
	       "    -o rebuild            rebuild the index even if it is "
	       "valid\n"
	       "    -o tolerance=T        lossy times: T ticks and/or P%% "
	       "(1000, 5%%, 1000,5%%)\n"
	       "    -o cache=MIB          index block cache (default %u MiB)\n"
	       "    -o slicecache=MIB     otf2/ slices kept on disk (default "
	       "1024 MiB)\n"
	       "    -o summaries=N        building: store the statistics of "
	       "every call or group\n"
	       "                          of N events or more (default %u)\n"
	       "    -o threads=N          building: N threads (default: one "
	       "per core)\n"
	       "    -o memory=MIB         building: memory for the graph "
	       "(default %u MiB; past it\n"
	       "                          repeats are shared less, the "
	       "index grows)\n"
	       "    -o json_max=N         a trace.json of more than N events "
	       "keeps its N/10 longest\n"
	       "                          calls instead (default %u)\n"
	       "    -o longest=N          longest.tsv lists N calls per region "
	       "(default %u; 0: no\n"
	       "                          longest.tsv)\n"
	       "    -o mpi_timeout=S      building under mpirun: end the job "
	       "when a rank sends\n"
	       "                          nothing for S seconds (default %u; "
	       "0: never)\n"
	       "    -o nonempty           mount on a directory that is not "
	       "empty (hiding it)\n"
	       "    -o async_read         faster sequential reads; a killed "
	       "reader's read runs on\n"
	       "    -o weak               several runs: compare/scaling.tsv for "
	       "weak scaling (the\n"
	       "                          work grows with the threads; "
	       "default: strong)\n"
	       "    -o OPT[,OPT...]       other FUSE mount options "
	       "(allow_other, ...)\n"
	       "    -V, --version         the version of ccgfs and FUSE\n"
	       "    -h, --help            this text\n",
	       (unsigned)o.fanout, (unsigned)(CCG_CACHE_DEFAULT >> 20),
	       CCG_SUMS_DEFAULT, (unsigned)(CCG_MEMORY_DEFAULT >> 20),
	       CCG_JSON_MAX_DEFAULT, CCG_LONGEST_DEFAULT, CCGFS_MPI_TIMEOUT);
}
