/*
 * ccg_anchor.c - which file opens a trace.
 *
 * An OTF2 archive is an anchor file NAME.otf2, its global definitions
 * NAME.def beside it, and a folder NAME/ of per-location files.  Given a
 * file, this checks that it can be an anchor; given a folder, it looks for
 * the one anchor inside.  Every refusal is one line naming the path and
 * saying in plain words what is wrong (no OTF2 error text).
 */
#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ccg_grow.h"
#include "ccg_trace.h"
#include "ccg_search.h"

/* Most folder entries looked at (a folder holding more is not a trace's). */
#define ANCHOR_MAX_ENTRIES (1u << 20)
/* Most candidates a message names. */
#define ANCHOR_MAX_LISTED 8

static const char SUFFIX[] = ".otf2";
#define SUFFIX_LEN (sizeof SUFFIX - 1)

/* Whether `name` is NAME.otf2 with a non-empty NAME. */
static int has_anchor_name(const char *name)
{
	size_t n = strlen(name);
	return n > SUFFIX_LEN && !strcmp(name + n - SUFFIX_LEN, SUFFIX);
}

/* Whether path[0..len) + `tail` exists with the file type `type`. */
static int is_type(const char *path, size_t len, const char *tail,
		   mode_t type)
{
	ccg_buf p = CCG_BUF_INIT;
	struct stat st;
	ccg_buf_add(&p, path, len);
	ccg_buf_adds(&p, tail);
	int yes = !ccg_buf_status(&p) && stat(p.data, &st) == 0 &&
		  (st.st_mode & S_IFMT) == type;
	ccg_buf_free(&p);
	return yes;
}

/* Length of `path` without trailing slashes ("/" keeps its one). */
static size_t trimmed_len(const char *path)
{
	size_t n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--;
	return n;
}

/* `path` (a regular file) is an anchor: NAME.otf2 with NAME.def beside. */
static ccg_err check_file(const char *path, ccg_buf *anchor, ccg_buf *msg)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (!has_anchor_name(base)) {
		ccg_buf_addf(msg, "%s: not an OTF2 trace (give its anchor file "
				  "NAME.otf2, or the directory holding it)",
			     path);
		return CCG_EFORMAT;
	}
	size_t stem = strlen(path) - SUFFIX_LEN;
	if (!is_type(path, stem, ".def", S_IFREG)) {
		ccg_buf_addf(msg, "%s: incomplete trace: no %.*s.def beside it",
			     path, (int)(strlen(base) - SUFFIX_LEN), base);
		return CCG_ENOENT;
	}
	return ccg_buf_adds(anchor, path);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the anchors in folder `path` (its first len bytes without
 * trailing slashes), sorted, into *names (each malloc'ed), their count in
 * *n; a folder that cannot be read says why in msg.
 * Ownership: the caller frees every name and *names, also on failure. */
static ccg_err list_anchors(const char *path, size_t len, char ***names,
			    size_t *n, ccg_buf *msg)
{
	DIR *d = opendir(path);
	ccg_buf p = CCG_BUF_INIT;
	size_t cap = 0;
	ccg_err err = CCG_OK;
	*names = NULL;
	*n = 0;
	if (!d) {
		ccg_buf_addf(msg, "%s: %s", path, strerror(errno));
		return CCG_EIO;
	}
	struct dirent *e;
	for (unsigned seen = 0; seen < ANCHOR_MAX_ENTRIES && (e = readdir(d));
	     seen++) {
		if (!has_anchor_name(e->d_name))
			continue;
		size_t stem = strlen(e->d_name) - SUFFIX_LEN;
		ccg_buf_reset(&p);
		ccg_buf_add(&p, path, len);
		if (len && path[len - 1] != '/')
			ccg_buf_addc(&p, '/');
		ccg_buf_add(&p, e->d_name, stem);
		if ((err = ccg_buf_status(&p)))
			break;
		if (!is_type(p.data, p.len, SUFFIX, S_IFREG) ||
		    !is_type(p.data, p.len, ".def", S_IFREG) ||
		    !is_type(p.data, p.len, "", S_IFDIR))
			continue;
		if (CCG_GROW(*names, *n + 1, cap)) {
			err = CCG_ENOMEM;
			break;
		}
		if (!((*names)[*n] = strdup(e->d_name))) {
			err = CCG_ENOMEM;
			break;
		}
		(*n)++;
	}
	closedir(d);
	ccg_buf_free(&p);
	if (*n)
		ccg_sort(*names, *n, sizeof **names, by_name);
	return err;
}

/* Says why folder `path` (len bytes of it) holds no anchor. */
static void say_none(const char *path, size_t len, ccg_buf *msg)
{
	/* RUN/traces given for RUN/traces.otf2: the archive's own folder. */
	if (len > 1 && is_type(path, len, SUFFIX, S_IFREG)) {
		const char *base = path + len;
		while (base > path && base[-1] != '/')
			base--;
		ccg_buf_addf(msg, "%s: the directory of a trace's event files, "
				  "not a trace; its anchor file is %.*s%s "
				  "beside it",
			     path, (int)(path + len - base), base, SUFFIX);
	} else
		ccg_buf_addf(msg, "%s: no OTF2 trace in this directory (no "
				  "NAME.otf2 with NAME.def and NAME/ beside it)",
			     path);
}

/* The one anchor in folder `path`. */
static ccg_err find_in_folder(const char *path, ccg_buf *anchor,
			      ccg_buf *msg)
{
	size_t len = trimmed_len(path), n = 0;
	char **names = NULL;
	ccg_err err = list_anchors(path, len, &names, &n, msg);
	if (err == CCG_ENOMEM)
		ccg_buf_addf(msg, "%s: out of memory", path);
	if (err)
		goto out;
	if (n == 0) {
		say_none(path, len, msg);
		err = CCG_ENOENT;
	} else if (n > 1) {
		ccg_buf_addf(msg, "%s: %zu traces in this directory, give one: ",
			     path, n);
		for (size_t i = 0; i < n && i < ANCHOR_MAX_LISTED; i++)
			ccg_buf_addf(msg, "%s%s", i ? ", " : "", names[i]);
		if (n > ANCHOR_MAX_LISTED)
			ccg_buf_addf(msg, " and %zu more",
				     n - ANCHOR_MAX_LISTED);
		err = CCG_EINVAL;
	} else {
		ccg_buf_add(anchor, path, len);
		if (path[len - 1] != '/')
			ccg_buf_addc(anchor, '/');
		ccg_buf_adds(anchor, names[0]);
		err = ccg_buf_status(anchor);
	}
out:
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return err;
}

ccg_err ccg_anchor_find(const char *path, ccg_buf *anchor, ccg_buf *msg)
{
	ccg_buf sink = CCG_BUF_INIT;
	struct stat st;
	ccg_err err;
	if (!msg)
		msg = &sink;
	if (!path || !*path) {
		ccg_buf_adds(msg, "no trace given");
		err = CCG_EINVAL;
	} else if (stat(path, &st) != 0) {
		int en = errno;
		ccg_buf_addf(msg, "%s: %s", path, strerror(en));
		err = en == ENOENT || en == ENOTDIR ? CCG_ENOENT : CCG_EIO;
	} else if (S_ISDIR(st.st_mode)) {
		err = find_in_folder(path, anchor, msg);
	} else if (S_ISREG(st.st_mode)) {
		err = check_file(path, anchor, msg);
	} else {
		ccg_buf_addf(msg, "%s: not a regular file or directory", path);
		err = CCG_EFORMAT;
	}
	ccg_buf_free(&sink);
	return err;
}

ccg_err ccg_anchor_list(const char *path, ccg_buf *anchors, size_t *count)
{
	struct stat st;
	*count = 0;
	if (!path || !*path || stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return CCG_OK;
	size_t len = trimmed_len(path), n = 0;
	char **names = NULL;
	ccg_buf msg = CCG_BUF_INIT;
	ccg_err err = list_anchors(path, len, &names, &n, &msg);
	for (size_t i = 0; !err && i < n; i++) {
		ccg_buf_add(anchors, path, len);
		if (path[len - 1] != '/')
			ccg_buf_addc(anchors, '/');
		ccg_buf_adds(anchors, names[i]);
		ccg_buf_addc(anchors, '\0');
		err = ccg_buf_status(anchors);
	}
	if (!err)
		*count = n;
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	ccg_buf_free(&msg);
	return err;
}
