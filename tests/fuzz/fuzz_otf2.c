/*
 * fuzz_otf2.c - libFuzzer harness: reading damaged OTF2 files.  A copy of
 * the fixture trace gets one file replaced by the input - byte 0 even:
 * the global definitions traces.def, odd: the event file traces/0.evt -
 * and is opened in memory (no index) and its tree walked; then the file
 * is put back.  Slow (OTF2 sets up its buffers for every location on
 * every open).  Where OTF2 itself aborts or crashes, the crash is OTF2's,
 * not ccgfs's: see the README.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_fixture.h"

static char g_anchor[4200];

/* Copies file `from` to `to`; 0 or -1. */
static int copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
	char buf[65536];
	size_t n;
	int rc = in && out ? 0 : -1;
	while (!rc && (n = fread(buf, 1, sizeof buf, in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			rc = -1;
	if (in)
		fclose(in);
	if (out && fclose(out))
		rc = -1;
	return rc;
}

/* Copies the fixture trace (anchor, traces.def, traces/) beside it. */
static void copy_trace(void)
{
	const char *a = fuzz_fixture_anchor();
	char src[4200], dst[4200];
	size_t cut = strlen(a) - strlen("traces.otf2");
	snprintf(dst, sizeof dst, "%s", fuzz_fixture_path("otf2"));
	mkdir(dst, 0755);
	snprintf(g_anchor, sizeof g_anchor, "%s/traces.otf2", dst);
	snprintf(src, sizeof src, "%.*straces/", (int)cut, a);
	strcat(dst, "/traces");
	mkdir(dst, 0755);
	DIR *d = opendir(src);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		char f[8400], t[8400];
		if (e->d_name[0] == '.')
			continue;
		snprintf(f, sizeof f, "%s%s", src, e->d_name);
		snprintf(t, sizeof t, "%s/%s", dst, e->d_name);
		if (copy_file(f, t))
			abort();
	}
	if (d)
		closedir(d);
	char f[8400], t[8400];
	static const char *top[] = {"traces.otf2", "traces.def"};
	for (int i = 0; i < 2; i++) {
		snprintf(f, sizeof f, "%.*s%s", (int)cut, a, top[i]);
		snprintf(t, sizeof t, "%.*s%s", (int)(strlen(g_anchor) - 11),
			 g_anchor, top[i]);
		if (copy_file(f, t))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!g_anchor[0])
		copy_trace();
	if (size < 1)
		return 0;
	char victim[8400], orig[8400];
	const char *name = data[0] % 2 ? "traces/0.evt" : "traces.def";
	size_t cut = strlen(g_anchor) - strlen("traces.otf2");
	snprintf(victim, sizeof victim, "%.*s%s", (int)cut, g_anchor, name);
	const char *a = fuzz_fixture_anchor();
	snprintf(orig, sizeof orig, "%.*s%s",
		 (int)(strlen(a) - strlen("traces.otf2")), a, name);
	FILE *f = fopen(victim, "wb");
	if (!f)
		abort();
	fwrite(data + 1, 1, size - 1, f);
	fclose(f);
	ccg_options opt;
	ccg_options_init(&opt);
	opt.no_index = 1;
	opt.threads = 1;
	ccg_trace *t = NULL;
	if (ccg_trace_open(g_anchor, &opt, &t, NULL) == CCG_OK)
		fuzz_fixture_walk(t);
	ccg_trace_close(t);
	if (copy_file(orig, victim))
		abort();
	return 0;
}
