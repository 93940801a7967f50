/* Which file opens a trace (ccg_anchor_find) and what a refusal says: on
 * folders built here from empty files, the anchor is the one NAME.otf2
 * with NAME.def and NAME/ beside it, whatever else the folder holds; none
 * or several are refused (several listed, sorted, at most 8); a file must
 * be NAME.otf2 with NAME.def beside it.  Every refusal, and every refusal
 * of ccg_trace_open on a file that only looks like a trace, is one line
 * that names the path once and holds no OTF2 error text. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ccg_trace.h"

/* Bytes of every path buffer. */
#define PATH_CAP 4096

static char root[PATH_CAP];

/* snprintf into out, failing the test if it does not fit. */
static void fmt(char *out, const char *f, ...)
	__attribute__((format(printf, 2, 3)));

static void fmt(char *out, const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	int n = vsnprintf(out, PATH_CAP, f, ap);
	va_end(ap);
	assert_true(n >= 0 && n < PATH_CAP);
}

static void make_file(const char *dir, const char *name, const char *text)
{
	char p[PATH_CAP];
	fmt(p, "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Makes dir/name; its path into out (PATH_CAP bytes) unless NULL. */
static void make_dir(const char *dir, const char *name, char *out)
{
	char p[PATH_CAP];
	fmt(p, "%s/%s", dir, name);
	if (mkdir(p, 0755) != 0)
		fail_msg("mkdir %s", p);
	if (out)
		memcpy(out, p, PATH_CAP);
}

/* An anchor, its definitions and its folder: NAME.otf2, NAME.def, NAME/. */
static void make_trace(const char *dir, const char *name)
{
	char n[PATH_CAP];
	fmt(n, "%s.otf2", name);
	make_file(dir, n, "");
	fmt(n, "%s.def", name);
	make_file(dir, n, "");
	make_dir(dir, name, NULL);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* The one-line, path-once, no-OTF2-text property of a refusal. */
static void assert_plain(const char *msg, const char *path)
{
	assert_non_null(msg);
	assert_null(strchr(msg, '\n'));
	assert_int_equal(count(msg, path), 1);
	assert_true(!strncmp(msg, path, strlen(path)));
	for (int c = OTF2_ERROR_E2BIG; c <= OTF2_ERROR_HINT_INVALID_VALUE;
	     c++) {
		const char *d = OTF2_Error_GetDescription((OTF2_ErrorCode)c);
		if (d && strlen(d) > 8 && strstr(msg, d))
			fail_msg("OTF2 text \"%s\" in \"%s\"", d, msg);
	}
}

/* ccg_anchor_find(path) refused with `err`; its message is plain and
 * holds `phrase`. */
static void assert_refused(const char *path, ccg_err err, const char *phrase)
{
	ccg_buf a = CCG_BUF_INIT, msg = CCG_BUF_INIT;
	assert_int_equal(ccg_anchor_find(path, &a, &msg), err);
	assert_int_equal(a.len, 0);
	assert_plain(msg.data, path);
	if (!strstr(msg.data, phrase))
		fail_msg("\"%s\" not in \"%s\"", phrase, msg.data);
	ccg_buf_free(&msg);
	/* No message buffer is fine too. */
	assert_int_equal(ccg_anchor_find(path, &a, NULL), err);
}

static void assert_found(const char *path, const char *want)
{
	ccg_buf a = CCG_BUF_INIT, msg = CCG_BUF_INIT;
	assert_int_equal(ccg_anchor_find(path, &a, &msg), CCG_OK);
	assert_int_equal(msg.len, 0);
	assert_string_equal(a.data, want);
	ccg_buf_free(&a);
}

static int setup(void **state)
{
	(void)state;
	fmt(root, "%s/anchor-XXXXXX", CCG_TMP_DIR);
	assert_non_null(mkdtemp(root));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[PATH_CAP];
	fmt(cmd, "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

/* One trace among look-alikes: each of them lacks one of the three. */
static void test_one_among_lookalikes(void **state)
{
	(void)state;
	char dir[PATH_CAP], want[PATH_CAP], p[PATH_CAP];
	make_dir(root, "one", dir);
	make_trace(dir, "run");
	make_file(dir, "nodef.otf2", "");          /* no .def, no folder */
	make_dir(dir, "nodef", NULL);           /* ... folder only */
	make_file(dir, "nodir.otf2", "");
	make_file(dir, "nodir.def", "");           /* no folder */
	make_dir(dir, "isdir.otf2", NULL);      /* anchor is a folder */
	make_file(dir, "isdir.def", "");
	make_dir(dir, "isdir", NULL);
	make_file(dir, ".otf2", "");               /* no NAME */
	make_file(dir, "run.otf2.ccg", "");        /* an index */
	make_file(dir, "scorep.cfg", "");
	fmt(want, "%s/run.otf2", dir);
	assert_found(dir, want);
	/* A trailing slash or two does not double in the anchor. */
	fmt(p, "%s//", dir);
	assert_found(p, want);
	/* The anchor itself is its own anchor. */
	assert_found(want, want);
}

static void test_none(void **state)
{
	(void)state;
	char dir[PATH_CAP], p[PATH_CAP];
	make_dir(root, "none", dir);
	make_file(dir, "notes.txt", "");
	make_file(dir, "half.otf2", "");
	assert_refused(dir, CCG_ENOENT, "no OTF2 trace in this directory");
	/* The archive's own folder (RUN/traces for RUN/traces.otf2) says
	 * where the anchor is. */
	make_trace(dir, "traces");
	fmt(p, "%s/traces", dir);
	assert_refused(p, CCG_ENOENT, "its anchor file is");
	ccg_buf msg = CCG_BUF_INIT, a = CCG_BUF_INIT;
	ccg_anchor_find(p, &a, &msg);
	fmt(p, "its anchor file is traces.otf2 beside it");
	assert_non_null(strstr(msg.data, p));
	ccg_buf_free(&msg);
}

static void test_several(void **state)
{
	(void)state;
	char dir[PATH_CAP];
	make_dir(root, "two", dir);
	make_trace(dir, "b");
	make_trace(dir, "a");
	assert_refused(dir, CCG_EINVAL, "2 traces in this directory");
	assert_refused(dir, CCG_EINVAL, ": a.otf2, b.otf2");

	/* Ten: the first eight by name, then how many more. */
	make_dir(root, "ten", dir);
	for (int i = 9; i >= 0; i--) {
		char n[PATH_CAP];
		fmt(n, "t%d", i);
		make_trace(dir, n);
	}
	assert_refused(dir, CCG_EINVAL,
		       "10 traces in this directory, give one: t0.otf2, "
		       "t1.otf2, t2.otf2, t3.otf2, t4.otf2, t5.otf2, "
		       "t6.otf2, t7.otf2 and 2 more");
}

static void test_files(void **state)
{
	(void)state;
	char dir[PATH_CAP], p[PATH_CAP];
	make_dir(root, "files", dir);
	make_file(dir, "notes.txt", "hello\n");
	fmt(p, "%s/notes.txt", dir);
	assert_refused(p, CCG_EFORMAT, "not an OTF2 trace");
	make_file(dir, "lone.otf2", "");
	fmt(p, "%s/lone.otf2", dir);
	assert_refused(p, CCG_ENOENT, "no lone.def beside it");
	fmt(p, "%s/missing.otf2", dir);
	assert_refused(p, CCG_ENOENT, "No such file");
	fmt(p, "%s/notes.txt/x.otf2", dir);
	assert_refused(p, CCG_ENOENT, "Not a directory");
	fmt(p, "%s/fifo.otf2", dir);
	assert_int_equal(mkfifo(p, 0644), 0);
	assert_refused(p, CCG_EFORMAT, "not a regular file or directory");
	ccg_buf a = CCG_BUF_INIT, msg = CCG_BUF_INIT;
	assert_int_equal(ccg_anchor_find("", &a, &msg), CCG_EINVAL);
	assert_string_equal(msg.data, "no trace given");
	ccg_buf_free(&msg);
}

/* ccg_trace_open on files that pass ccg_anchor_find but are no trace. */
static void assert_open_refused(const char *anchor, const char *phrase)
{
	ccg_options o;
	ccg_options_init(&o);
	o.no_index = 1;
	ccg_trace *t = NULL;
	ccg_buf msg = CCG_BUF_INIT, a = CCG_BUF_INIT;
	assert_int_equal(ccg_anchor_find(anchor, &a, NULL), CCG_OK);
	if (ccg_trace_open(anchor, &o, &t, &msg) == CCG_OK)
		fail_msg("%s opened", anchor);
	assert_null(t);
	assert_plain(msg.data, anchor);
	if (!strstr(msg.data, phrase))
		fail_msg("\"%s\" not in \"%s\"", phrase, msg.data);
	ccg_buf_free(&msg);
	ccg_buf_free(&a);
}

static void test_open_messages(void **state)
{
	(void)state;
	char dir[PATH_CAP], p[PATH_CAP], cmd[PATH_CAP];
	make_dir(root, "fake", dir);
	make_trace(dir, "text");
	make_file(dir, "text.otf2", "this is not a trace\n");
	fmt(p, "%s/text.otf2", dir);
	assert_open_refused(p, "damaged, or not an OTF2 anchor file");
	make_trace(dir, "empty");
	fmt(p, "%s/empty.otf2", dir);
	assert_open_refused(p, "damaged, or not an OTF2 anchor file");

	/* A real trace with its anchor cut short, or its definitions. */
	fmt(cmd, "'%s' -q -l 2 -e 200 '%s/gen' && "
		 "cp -r '%s/gen' '%s/cut' && truncate -s 40 '%s/cut/traces.otf2'"
		 " && truncate -s 200 '%s/gen/traces.def'",
		 CCG_GEN_PATH, root, root, root, root, root);
	assert_int_equal(system(cmd), 0);
	fmt(p, "%s/cut/traces.otf2", root);
	assert_open_refused(p, "damaged");
	fmt(p, "%s/gen/traces.otf2", root);
	assert_open_refused(p, "traces.def (the trace's definitions)");
}

/* ccg_options_check says what ccg_trace_open would refuse. */
static void test_options_check(void **state)
{
	(void)state;
	ccg_options o;
	ccg_buf msg = CCG_BUF_INIT;
	ccg_options_init(&o);
	assert_int_equal(ccg_options_check(&o, &msg), CCG_OK);
	assert_int_equal(msg.len, 0);
	o.fanout = 1;
	assert_int_equal(ccg_options_check(&o, &msg), CCG_EINVAL);
	assert_string_equal(msg.data, "the fan-out must be from 2 to 4096");
	o.fanout = 4097;
	assert_int_equal(ccg_options_check(&o, NULL), CCG_EINVAL);
	o.fanout = 4096;
	assert_int_equal(ccg_options_check(&o, NULL), CCG_OK);
	ccg_buf_free(&msg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_among_lookalikes),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_several),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_open_messages),
		cmocka_unit_test(test_options_check),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
