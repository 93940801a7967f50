/*
 * ccgfs_i.h - what the two halves of the FUSE adapter share.
 *
 * ccgfs_ops.c answers the kernel (the lowlevel operations table);
 * ccgfs_main.c parses the command line, opens the trace and runs the
 * session loop.  Include this header first: it sets the feature macros
 * the system and FUSE headers read.
 */
#ifndef CCGFS_I_H
#define CCGFS_I_H

#define FUSE_USE_VERSION 312
#define _GNU_SOURCE

#include <fuse_lowlevel.h>
#include <sys/types.h>
#include <time.h>

#include "ccg_trace.h"

/* What every request sees, through fuse_req_userdata. */
typedef struct fs {
	ccg_trace *trace;
	uid_t uid;
	gid_t gid;
	struct timespec mtime;  /* of the anchor file */
} fs;

/* The lowlevel operations: the mounted, read-only tree. */
extern const struct fuse_lowlevel_ops fs_ops;

#endif
