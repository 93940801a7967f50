/*
 * ccg_index_tmp.h - the temporary file an index is written to.
 *
 * An index is written under an unpredictable name beside its final path
 * (PATH.ccg.tmp.PID.RANDOM, PATH.tmp.PID.RANDOM when PATH ends in .ccg),
 * created exclusively and never through a symlink, and locked (flock)
 * by its writer until it is renamed into place.  A later build removes
 * the temporaries of writers that are gone.
 */
#ifndef CCG_INDEX_TMP_H
#define CCG_INDEX_TMP_H

#include "ccg_buf.h"
#include "ccg_error.h"

/* Creates and locks a new temporary for index `path` with permission
 * bits `mode` (less the umask).  *fd receives it open for writing, *tmp
 * its name; it is listed for ccg_index_tmp_abandon until
 * ccg_index_tmp_done.  Ownership: the caller closes *fd and frees *tmp. */
ccg_err ccg_index_tmp_open(const char *path, unsigned mode, int *fd,
			   char **tmp, ccg_buf *msg);
/* After temporary `tmp` is renamed into place or removed: no longer
 * listed. */
void ccg_index_tmp_done(const char *tmp);
/* Removes every temporary this process is writing (ccg_index_abandon). */
void ccg_index_tmp_abandon(void);

/* Removes, in the folder of index `path`, the temporaries (names holding
 * ".ccg.tmp.") owned by this user whose lock is free and whose writer's
 * pid is gone (or that are over 10 minutes old).  Returns how many. */
unsigned ccg_index_tmp_sweep(const char *path);

#endif
