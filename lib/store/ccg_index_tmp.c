/* The temporary file an index is written to, and the removal of those a
 * dead writer left behind. */
#define _GNU_SOURCE

#include "ccg_index_tmp.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ccg_index.h"

/* Names tried before giving up on an unused temporary name. */
#define TMP_TRIES 16
/* Entries of a folder looked at when sweeping it. */
#define SWEEP_MAX_ENTRIES 100000
/* A temporary whose lock is free and whose pid is alive (reused) is
 * removed once this old. */
#define SWEEP_AGE_SECONDS 600

/* Temporaries this process writes at once (one per index being built;
 * the traces of a mount are built one after the other). */
#define TMP_LIVE 8

/* The temporaries being written, for ccg_index_tmp_abandon, which a
 * signal handler calls: a slot's path is written before its flag is set,
 * the flag set before the file is created and cleared only after it is
 * renamed or removed (a signal at any moment of a build finds the file
 * listed; a listed name not yet created or already renamed is harmless:
 * it holds this process's pid and a random part). */
static char live_path[TMP_LIVE][PATH_MAX];
static int live_set[TMP_LIVE];          /* atomic */
static pthread_mutex_t live_mu = PTHREAD_MUTEX_INITIALIZER; /* who takes
					 * or frees a slot (not the handler) */

/* Lists `tmp` among the temporaries being written (a path too long for
 * a slot, or no slot free: not listed, left for a later sweep). */
static void live_add(const char *tmp)
{
	if (strlen(tmp) >= PATH_MAX)
		return;
	pthread_mutex_lock(&live_mu);
	for (int i = 0; i < TMP_LIVE; i++) {
		if (__atomic_load_n(&live_set[i], __ATOMIC_ACQUIRE))
			continue;
		strcpy(live_path[i], tmp);
		__atomic_store_n(&live_set[i], 1, __ATOMIC_RELEASE);
		break;
	}
	pthread_mutex_unlock(&live_mu);
}

void ccg_index_tmp_done(const char *tmp)
{
	pthread_mutex_lock(&live_mu);
	for (int i = 0; i < TMP_LIVE; i++)
		if (__atomic_load_n(&live_set[i], __ATOMIC_ACQUIRE) &&
		    !strcmp(live_path[i], tmp))
			__atomic_store_n(&live_set[i], 0, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&live_mu);
}

void ccg_index_tmp_abandon(void)
{
	for (int i = 0; i < TMP_LIVE; i++)
		if (__atomic_load_n(&live_set[i], __ATOMIC_ACQUIRE))
			unlink(live_path[i]);
}

/* The random part of a temporary name: 16 hex digits. */
static unsigned long long random_part(void)
{
	unsigned long long r = 0;
	if (getrandom(&r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		r ^= ((unsigned long long)ts.tv_nsec << 20) ^
		     (unsigned long long)ts.tv_sec ^ (unsigned long long)&ts;
	}
	return r;
}

/* PATH.ccg.tmp.PID.RANDOM, or PATH.tmp.PID.RANDOM when PATH ends in .ccg:
 * the name always holds ".ccg.tmp." (ccg_index_is_name). */
static void tmp_name(const char *path, ccg_buf *out)
{
	size_t n = strlen(path);
	int ccg = n > 4 && !strcmp(path + n - 4, ".ccg");
	ccg_buf_reset(out);
	ccg_buf_addf(out, "%s%s.tmp.%ld.%016llx", path, ccg ? "" : ".ccg",
		     (long)getpid(), random_part());
}

ccg_err ccg_index_tmp_open(const char *path, unsigned mode, int *fd,
			   char **tmp, ccg_buf *msg)
{
	ccg_buf name = CCG_BUF_INIT;
	ccg_err err = CCG_EIO;
	int f = -1;
	for (int i = 0; f < 0 && i < TMP_TRIES; i++) {
		tmp_name(path, &name);
		if (ccg_buf_status(&name)) {
			err = CCG_ENOMEM;
			goto fail;
		}
		/* Listed before it exists: a signal right after the open
		 * still finds it. */
		live_add(name.data);
		f = open(name.data, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
					    O_CLOEXEC,
			 (mode_t)(mode & 0666));
		if (f < 0) {
			int e = errno;
			ccg_index_tmp_done(name.data);
			errno = e;
			if (e != EEXIST)
				break;
		}
	}
	if (f < 0) {
		if (msg)
			ccg_buf_addf(msg, "cannot write %s: %s",
				     name.data ? name.data : path,
				     strerror(errno));
		goto fail;
	}
	/* Held until the file is renamed: a sweep leaves it alone. */
	if (flock(f, LOCK_EX | LOCK_NB) != 0) {
		if (msg)
			ccg_buf_addf(msg, "cannot lock %s: %s", name.data,
				     strerror(errno));
		close(f);
		unlink(name.data);
		ccg_index_tmp_done(name.data);
		goto fail;
	}
	*fd = f;
	*tmp = name.data;
	return CCG_OK;
fail:
	ccg_buf_free(&name);
	return err;
}

/* The writer's pid in a temporary's name (after ".tmp."), or 0. */
static long tmp_pid(const char *name)
{
	const char *p = strstr(name, ".ccg.tmp.");
	if (!p)
		return 0;
	char *end;
	long pid = strtol(p + 9, &end, 10);
	return end != p + 9 && (*end == '.' || !*end) && pid > 0 ? pid : 0;
}

/* 1 when temporary `name` in folder `dfd` has no writer: its lock is
 * free, and its writer's pid is gone or the file is old. */
static int tmp_orphaned(int dfd, const char *name)
{
	int f = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
					  O_CLOEXEC);
	if (f < 0)
		return 0;
	struct stat st;
	int gone = 0;
	if (fstat(f, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_uid == geteuid() && flock(f, LOCK_EX | LOCK_NB) == 0) {
		long pid = tmp_pid(name);
		gone = (pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH) ||
		       time(NULL) - st.st_mtime > SWEEP_AGE_SECONDS;
	}
	close(f);
	return gone;
}

unsigned ccg_index_tmp_sweep(const char *path)
{
	char *dir = strdup(path);
	if (!dir)
		return 0;
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir ? 1 : 0] = '\0';
	DIR *d = opendir(slash ? dir : ".");
	free(dir);
	if (!d)
		return 0;
	unsigned removed = 0;
	struct dirent *e;
	for (long n = 0; n < SWEEP_MAX_ENTRIES && (e = readdir(d)); n++) {
		if (!strstr(e->d_name, ".ccg.tmp.") ||
		    !tmp_orphaned(dirfd(d), e->d_name))
			continue;
		if (unlinkat(dirfd(d), e->d_name, 0) == 0)
			removed++;
	}
	closedir(d);
	return removed;
}
