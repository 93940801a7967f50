/*
 * ccgfs_mnt.c - whether a path can be mounted on: an existing directory,
 * empty, and not already a mount point (a second mount there would hide
 * the first).  Checked before the trace is opened, so a refusal costs no
 * build, and again just before mounting, under a lock on the directory,
 * since another mount may have come while the trace was built.
 */
#include "ccgfs_i.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* Most lines of /proc/self/mountinfo looked at. */
#define MNT_MAX_LINES (1u << 20)

/* Undoes mountinfo's octal escapes (\040 for a space, ...) in place. */
static void unescape(char *s)
{
	char *out = s;
	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
					(s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/* Whether the mountinfo line `line` has `real` as its mount point (the
 * fifth field). */
static int line_mounts(char *line, const char *real)
{
	char *save = NULL, *f = strtok_r(line, " ", &save);
	for (int i = 1; f && i < 5; i++)
		f = strtok_r(NULL, " ", &save);
	if (!f)
		return 0;
	unescape(f);
	return !strcmp(f, real);
}

/* Whether the directory `real` (a real path) is a mount point: listed in
 * /proc/self/mountinfo, or on another device than its parent. */
static int is_mount_point(const char *real)
{
	int found = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (f) {
		char *line = NULL;
		size_t cap = 0;
		for (unsigned n = 0; !found && n < MNT_MAX_LINES &&
				     getline(&line, &cap, f) > 0;
		     n++)
			found = line_mounts(line, real);
		free(line);
		fclose(f);
	}
	if (found)
		return 1;
	struct stat st, up;
	size_t n = strlen(real);
	char *parent = malloc(n + 4);
	if (!parent)
		return 0;
	snprintf(parent, n + 4, "%s/..", real);
	found = stat(real, &st) == 0 && stat(parent, &up) == 0 &&
		st.st_dev != up.st_dev;
	free(parent);
	return found;
}

/* 1 when the directory `real` holds nothing but "." and "..", 0 when it
 * holds more, -1 (errno set) when it cannot be read. */
static int is_empty(const char *real)
{
	DIR *d = opendir(real);
	if (!d)
		return -1;
	struct dirent *e;
	int empty = 1;
	/* "." and ".." at most, then the first other name decides. */
	for (int i = 0; empty && i < 3 && (e = readdir(d)); i++)
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	return empty;
}

/* The error line for a mount point that cannot be looked at (errno en). */
static void say_unusable(const char *path, int en)
{
	if (en == ENOENT)
		ccgfs_cli_error(path, "mount point does not exist");
	else if (en == ENOTCONN)
		ccgfs_cli_error(path, "a mount point whose filesystem is gone "
				"(unmount it first with fusermount3 -u)");
	else
		ccgfs_cli_error(path, "mount point: %s", strerror(en));
}

int ccgfs_mnt_check(const char *path, int nonempty, char **real)
{
	struct stat st;
	if (!(*real = realpath(path, NULL))) {
		say_unusable(path, errno);
		return -1;
	}
	int empty = 0;
	struct statvfs sv;
	/* statvfs asks the filesystem itself: stat may answer from the
	 * kernel's cache of a mount whose daemon is gone. */
	if (statvfs(*real, &sv) != 0 || stat(*real, &st) != 0)
		say_unusable(path, errno);
	else if (!S_ISDIR(st.st_mode))
		ccgfs_cli_error(path, "mount point is not a directory");
	else if (is_mount_point(*real))
		ccgfs_cli_error(path, "already a mount point (unmount it first "
				"with fusermount3 -u)");
	else if (!nonempty && (empty = is_empty(*real)) < 0)
		say_unusable(path, errno);
	else if (!nonempty && !empty)
		ccgfs_cli_error(path, "mount point is not empty (give an empty "
				"directory, or -o nonempty)");
	else
		return 0;
	free(*real);
	*real = NULL;
	return -1;
}

int ccgfs_mnt_claim(const char *path, int nonempty, char **real, int *lock)
{
	/* The directory as it is now: while this process holds its lock,
	 * another ccgfs waits here before its own check, and finds this
	 * mount once it gets the lock.  A file system without locks still
	 * gets the check. */
	*lock = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*lock >= 0 && flock(*lock, LOCK_EX) != 0 && errno != ENOLCK &&
	    errno != EOPNOTSUPP && errno != EINVAL) {
		say_unusable(path, errno);
		ccgfs_mnt_release(lock);
		return -1;
	}
	if (ccgfs_mnt_check(path, nonempty, real)) {
		ccgfs_mnt_release(lock);
		return -1;
	}
	return 0;
}

void ccgfs_mnt_release(int *lock)
{
	if (*lock >= 0)
		close(*lock); /* and with it the lock */
	*lock = -1;
}
