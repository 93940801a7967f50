/*
 * fuzz_names.c - libFuzzer harness: names a user types.  Window names
 * (time/T0-T1 and the rest) on the fixture trace's clock and on a clock
 * from the input, the default split of time/ and its names, names made
 * safe for a path component, tolerances, and a path looked up component
 * by component from the root of the fixture trace (the lookup the mount
 * does, without FUSE), each entry found stat-ed, listed and read a
 * little.
 *
 * Input: a string.  When it holds a NUL, the 40 bytes after the first NUL
 * (zero-padded) are a window clock: zero, first, last, ticks per second,
 * events.
 */
#define _XOPEN_SOURCE 700
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_safename.h"
#include "fuzz_fixture.h"
#include "trace_i.h"
#include "ccg_windows.h"
#include "ccg_winname.h"

#define MAX_COMPONENTS 16
#define READ_BYTES 512

/* Looks up path `s` ('/'-separated, changed in place) from the root. */
static void walk(const ccg_trace *t, char *s)
{
	ccg_id id = CCG_ID_ROOT;
	char *save = NULL;
	char *c = strtok_r(s, "/", &save);
	for (int k = 0; c && k < MAX_COMPONENTS; k++) {
		ccg_id next;
		if (ccg_trace_lookup(t, id, c, &next) != CCG_OK)
			return;
		ccg_stat st;
		if (ccg_trace_stat(t, next, &st) != CCG_OK)
			__builtin_trap(); /* found but cannot be stat-ed */
		if (ccg_trace_is_dir(next)) {
			ccg_buf name = CCG_BUF_INIT;
			ccg_id child;
			for (uint64_t i = 0; i < 3; i++) {
				ccg_buf_reset(&name);
				if (ccg_trace_readdir(t, next, i, &child,
						      &name) != CCG_OK)
					break;
			}
			ccg_buf_free(&name);
		} else {
			ccg_buf out = CCG_BUF_INIT;
			ccg_trace_read(t, next, 0, READ_BYTES, &out);
			ccg_buf_free(&out);
		}
		id = next;
		c = strtok_r(NULL, "/", &save);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const ccg_trace *t = fuzz_fixture_trace();
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	size_t n = strlen(s);
	uint8_t ck[40] = {0};
	if (n < size)
		memcpy(ck, data + n + 1, size - n - 1 < 40 ? size - n - 1 : 40);
	ccg_wclock mine = {fuzz_get64(ck), fuzz_get64(ck + 8),
			   fuzz_get64(ck + 16), fuzz_get64(ck + 24),
			   fuzz_get64(ck + 32)};
	ccg_wclock theirs = ccg_windows_clock(t);
	ccg_win w;
	ccg_winname_parse(&theirs, s, &w);
	int refused = ccg_winname_parse(&mine, s, &w) != 0;
	if (!refused && w.t1 < w.t0)
		__builtin_trap(); /* a window ends before it starts */
	/* A refused name has a reason, an accepted one none. */
	ccg_buf why = CCG_BUF_INIT;
	if ((ccg_winname_why(&mine, s, &why) != 0) != refused ||
	    (why.len > 0) != refused)
		__builtin_trap();
	ccg_buf_free(&why);

	ccg_wsplit sp;
	ccg_buf b = CCG_BUF_INIT;
	ccg_winname_split(&mine, &sp);
	if (sp.n) {
		/* The split's names read back as windows. */
		uint64_t ks[2] = {0, sp.n - 1};
		for (int i = 0; i < 2; i++) {
			ccg_buf_reset(&b);
			ccg_winname_split_name(&sp, ks[i], &b);
			if (b.data && ccg_winname_parse(&mine, b.data, &w))
				__builtin_trap();
		}
	}

	ccg_buf_reset(&b);
	ccg_safename_make(&b, s, 16 + n % 240);
	uint64_t tabs;
	double trel;
	ccg_parse_tolerance(s, &tabs, &trel);
	walk(t, s);
	ccg_buf_free(&b);
	free(s);
	return 0;
}
