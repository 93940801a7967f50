/*
 * test_gen.h - the unit tests' one way to write a generated trace:
 * ccgfs-gen (CCG_GEN_PATH) into CCG_TMP_DIR/PREFIX-NAME, made anew, with
 * the generator's options OPTS; the anchor's path into anchor[size].  A
 * failed generator fails the test.  And to open a trace in memory (no
 * index) with a fan-out.  Include after cmocka.h.
 */
#ifndef TEST_GEN_H
#define TEST_GEN_H

#include <stdio.h>
#include <stdlib.h>

#include "ccg_trace.h"

static inline void test_generate(const char *prefix, const char *name,
				 const char *opts, char *anchor, size_t size)
{
	char dir[1024], cmd[4096];
	snprintf(dir, sizeof dir, "%s/%s-%s", CCG_TMP_DIR, prefix, name);
	snprintf(cmd, sizeof cmd, "rm -rf '%s' && '%s' -q %s '%s'", dir,
		 CCG_GEN_PATH, opts, dir);
	if (system(cmd) != 0)
		fail_msg("generator failed: %s", cmd);
	snprintf(anchor, size, "%s/traces.otf2", dir);
}

/* The trace at `anchor` opened in memory with fan-out `fanout`; a failed
 * open fails the test.  Ownership: the caller closes it. */
static inline ccg_trace *test_open(const char *anchor, uint32_t fanout)
{
	ccg_options o;
	ccg_options_init(&o);
	o.fanout = fanout;
	o.no_index = 1;
	ccg_trace *t = NULL;
	ccg_buf msg = CCG_BUF_INIT;
	if (ccg_trace_open(anchor, &o, &t, &msg))
		fail_msg("%s: %s", anchor, msg.data ? msg.data : "?");
	ccg_buf_free(&msg);
	return t;
}

#endif
