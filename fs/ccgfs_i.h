/*
 * ccgfs_i.h - what the parts of the FUSE adapter share.
 *
 * ccgfs_ops.c answers the kernel (the lowlevel operations table);
 * ccgfs_cli.c parses the command line; ccgfs_mnt.c checks the mount
 * point; ccgfs_main.c opens the trace and runs the session loop.  Include
 * this header first: it sets the feature macros the system and FUSE
 * headers read.
 */
#ifndef CCGFS_I_H
#define CCGFS_I_H

#define FUSE_USE_VERSION 312
#define _GNU_SOURCE

#include <fuse_lowlevel.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "ccg_forest.h"
#include "ccg_trace.h"

/* What every request sees, through fuse_req_userdata. */
typedef struct ccgfs_state {
	ccg_forest *forest;     /* the traces mounted */
	/* Their anchors, owned (the library's log lines of each trace name
	 * it through these while mounted). */
	char *anchors[CCG_FOREST_MAX];
	uid_t uid;
	gid_t gid;
	struct timespec mtime;  /* of the anchor file */
	/* The session, to drop from the kernel's page cache what an
	 * interrupted read left there; NULL with -s.  Set before the
	 * session loop starts, only read after (no lock). */
	struct fuse_session *se;
	int async_read;         /* -o async_read; set before the session */
	/* The snapshots of the files open now (ccgfs_ops.c), so that those
	 * the kernel never releases (a daemon ending with files open) are
	 * freed at exit: ccgfs_snaps_free. */
	struct ccgfs_snaps *snaps;
} ccgfs_state;

/* The open files' snapshots of a mount: ccgfs_snaps_create before the
 * session, ccgfs_snaps_free after it (frees those never released). */
int ccgfs_snaps_create(struct ccgfs_snaps **out);
void ccgfs_snaps_free(struct ccgfs_snaps *s);

/* The lowlevel operations: the mounted, read-only tree. */
extern const struct fuse_lowlevel_ops fs_ops;

/* Exit statuses, as mount(8) has them: the command line is wrong (usage),
 * or the trace, the mount point or the mount itself failed; and
 * --build-only built the trace but could write no index (mount(8)'s
 * "problems writing"). */
#define CCGFS_EXIT_USAGE 1
#define CCGFS_EXIT_NOINDEX 16
#define CCGFS_EXIT_FAIL 32
/* Default of -o mpi_timeout, in seconds. */
#define CCGFS_MPI_TIMEOUT 600u

/* Most operands kept: every trace of a forest and the mount point. */
#define CCGFS_OPERANDS_MAX (CCG_FOREST_MAX + 1)

/* The command line (ccgfs_cli.c). */
typedef struct ccgfs_cli {
	char *ops[CCGFS_OPERANDS_MAX]; /* the operands, in order */
	size_t nops;
	char *too_many;         /* the first operand past CCGFS_OPERANDS_MAX */
	/* Borrowed from ops: the first operand, and the mount point (the
	 * last of several; the second for --build-only and --info, where
	 * it is an error), and the third (the first past TRACE MOUNTPOINT). */
	const char *trace, *mountpoint, *extra;
	char *fuse_opt;         /* first option left to FUSE ("-f",
				 * "-o allow_other") */
	char *fanout_arg;       /* "fanout=B" as given, for messages */
	char *index;
	uint64_t fanout, cache_mib, slice_mib, memory_mib, summaries, threads, json_max;
	uint64_t mpi_timeout;   /* seconds (CCGFS_MPI_TIMEOUT unless given) */
	uint64_t longest;       /* calls per region in longest.tsv
				 * (CCG_LONGEST_DEFAULT unless given; 0:
				 * none) */
	uint64_t tol_abs;       /* -o tolerance=, parsed */
	double tol_rel;
	char *tol_arg;          /* the option just before was tolerance=,
				 * as given: "1000" then "5%" is one
				 * tolerance that -o cut at its comma */
	int noindex, rebuild, nonempty, async_read, weak;
	int show_help, show_version, build_only, info;
} ccgfs_cli;

/* Parses the command line into `c`; options ccgfs does not know stay in
 * `args` (after argv[0]) for FUSE.  Returns 0, or -1 after the error line
 * and the hint on stderr.  Ownership: ccgfs_cli_free releases c's fields. */
int ccgfs_cli_parse(struct fuse_args *args, ccgfs_cli *c);
void ccgfs_cli_free(ccgfs_cli *c);
/* How many traces a mount of c serves: every operand but the last. */
size_t ccgfs_cli_traces(const ccgfs_cli *c);
/* The --help text, on stdout. */
void ccgfs_cli_usage(void);
/* The known option nearest to `opt` ("-o fanuot=8", "--biuld-only"), as
 * the user would write it ("-o fanout=8") into out (size n): 1, or 0 when
 * none is close enough to be meant. */
int ccgfs_cli_nearest(const char *opt, char *out, size_t n);
/* The line after a usage error: where to read more. */
void ccgfs_cli_hint(void);
/* One error line on stderr: "ccgfs: SUBJECT: PROBLEM" (no subject when
 * NULL). */
void ccgfs_cli_error(const char *subject, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Checks that `path` can be mounted on: an existing empty directory (any
 * directory with `nonempty`) that is not already a mount point; its real
 * path into *real.  Returns 0, or -1 after the error line on stderr.
 * Ownership: the caller frees *real. */
int ccgfs_mnt_check(const char *path, int nonempty, char **real);
/* The check again, just before mounting: takes an exclusive lock on the
 * directory `path` into *lock (-1 when the file system has no locks) and
 * checks it as ccgfs_mnt_check does (its real path into *real), so that
 * of two ccgfs mounting there at once the second finds the first's
 * mount.  Returns 0 with the lock held until ccgfs_mnt_release (after
 * the mount), or -1 after the error line, nothing held.  Ownership: the
 * caller frees *real. */
int ccgfs_mnt_claim(const char *path, int nonempty, char **real, int *lock);
void ccgfs_mnt_release(int *lock);

#endif
