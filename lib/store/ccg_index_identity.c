/* The identity of a trace's archive and where its index lives. */
#define _GNU_SOURCE

#include "ccg_index.h"
#include "ccg_search.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ccg_codec.h"
#include "ccg_grow.h"
#include "ccg_hash.h"

int ccg_index_is_name(const char *name)
{
	size_t n = strlen(name);
	return (n > 4 && !strcmp(name + n - 4, ".ccg")) ||
	       strstr(name, ".ccg.tmp.") != NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void identity_entry(ccg_buf *out, const char *name, const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return;
	ccg_put_u(out, strlen(name));
	ccg_buf_adds(out, name);
	ccg_put_u(out, (uint64_t)st.st_size);
	ccg_put_u(out, (uint64_t)st.st_mtim.tv_sec);
	ccg_put_u(out, (uint64_t)st.st_mtim.tv_nsec);
}

/* The archive's base path: the anchor without its extension. */
static char *archive_base(const char *anchor)
{
	char *base = strdup(anchor);
	if (!base)
		return NULL;
	char *slash = strrchr(base, '/');
	char *dot = strrchr(base, '.');
	if (dot && (!slash || dot > slash + 1))
		*dot = '\0';
	return base;
}

ccg_err ccg_index_identity(const char *anchor, ccg_buf *out, ccg_buf *msg)
{
	struct stat st;
	if (stat(anchor, &st) != 0) {
		if (msg)
			ccg_buf_addf(msg, "%s: %s", anchor, strerror(errno));
		return CCG_EIO;
	}
	char *base = archive_base(anchor);
	ccg_buf path = CCG_BUF_INIT;
	char **names = NULL;
	size_t n = 0, cap = 0;
	ccg_err err = CCG_ENOMEM;
	if (!base)
		goto out;
	const char *bname = strrchr(base, '/') ? strrchr(base, '/') + 1 : base;
	identity_entry(out, "anchor", anchor);
	ccg_buf_addf(&path, "%s.def", base);
	identity_entry(out, "def", path.data);
	DIR *dir = opendir(base);
	if (dir) {
		struct dirent *e;
		while ((e = readdir(dir))) {
			/* Dot files and index files are not part of a trace. */
			if (e->d_name[0] == '.' || ccg_index_is_name(e->d_name))
				continue;
			if (CCG_GROW(names, n + 1, cap) ||
			    !(names[n] = strdup(e->d_name))) {
				closedir(dir);
				goto out;
			}
			n++;
		}
		closedir(dir);
	}
	ccg_sort(names, n, sizeof *names, cmp_str);
	for (size_t i = 0; i < n; i++) {
		ccg_buf name = CCG_BUF_INIT;
		ccg_buf_reset(&path);
		ccg_buf_addf(&path, "%s/%s", base, names[i]);
		ccg_buf_addf(&name, "%s/%s", bname, names[i]);
		if (!ccg_buf_status(&path) && !ccg_buf_status(&name))
			identity_entry(out, name.data, path.data);
		ccg_buf_free(&name);
	}
	err = ccg_buf_status(out) ? CCG_ENOMEM : ccg_buf_status(&path);
out:
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	ccg_buf_free(&path);
	free(base);
	return err;
}

/* Creates `path` and its missing parents, private to this user (0700, as
 * a cache folder should be). */
static int mkdirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		int rc = mkdir(path, 0700);
		*p = '/';
		if (rc != 0 && errno != EEXIST)
			return -1;
	}
	return mkdir(path, 0700) != 0 && errno != EEXIST ? -1 : 0;
}

/* The index folder `dir` must be a real folder of this user: another
 * user's folder (or a symlink) could have the index replaced or read. */
static ccg_err own_dir(const char *dir, ccg_buf *msg)
{
	struct stat st;
	if (lstat(dir, &st) != 0) {
		if (msg)
			ccg_buf_addf(msg, "index folder %s: %s", dir,
				     strerror(errno));
		return CCG_EIO;
	}
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid()) {
		if (msg)
			ccg_buf_addf(msg, "index folder %s is %s; not using it",
				     dir, S_ISDIR(st.st_mode)
					      ? "owned by another user"
					      : "not a folder (a symlink?)");
		return CCG_EINVAL;
	}
	return CCG_OK;
}

/* A folder we may write into: access() says so, and its mode has a write
 * bit (root passes access() even on a folder its owner made read-only). */
static int writable_dir(const char *dir)
{
	struct stat st;
	return access(dir, W_OK) == 0 && stat(dir, &st) == 0 &&
	       (st.st_mode & 0222) != 0;
}

ccg_err ccg_index_default_path(const char *anchor, ccg_buf *out,
			       ccg_buf *msg)
{
	char *dir = strdup(anchor);
	if (!dir)
		return CCG_ENOMEM;
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir ? 1 : 0] = '\0';
	const char *forced = getenv("CCGFS_INDEX_DIR");
	int writable = !(forced && *forced) && writable_dir(slash ? dir : ".");
	free(dir);
	if (writable) {
		ccg_buf_addf(out, "%s.ccg", anchor);
		return ccg_buf_status(out);
	}
	char real[PATH_MAX];
	if (!realpath(anchor, real))
		snprintf(real, sizeof real, "%s", anchor);
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	ccg_buf d = CCG_BUF_INIT;
	if (forced && *forced)
		ccg_buf_adds(&d, forced);
	else if (xdg && *xdg)
		ccg_buf_addf(&d, "%s/ccgfs", xdg);
	else
		ccg_buf_addf(&d, "%s/.cache/ccgfs", home && *home ? home : "/tmp");
	if (ccg_buf_status(&d)) {
		ccg_buf_free(&d);
		return CCG_ENOMEM;
	}
	ccg_err err = CCG_OK;
	if (mkdirs(d.data) != 0) {
		/* Why it could not be made (a read-only file system), not
		 * that it is missing. */
		if (msg)
			ccg_buf_addf(msg, "cannot create index folder %s: %s",
				     d.data, strerror(errno));
		err = CCG_EIO;
	}
	if (!err)
		err = own_dir(d.data, msg);
	if (err) {
		ccg_buf_free(&d);
		return err;
	}
	char *base = archive_base(real);
	const char *bname = base && strrchr(base, '/') ? strrchr(base, '/') + 1
						       : "trace";
	ccg_buf_addf(out, "%s/%s-%016llx.ccg", d.data, bname,
		     (unsigned long long)ccg_hash(real, strlen(real),
						   CCG_INDEX_SEED).a);
	free(base);
	ccg_buf_free(&d);
	return ccg_buf_status(out);
}
