/*
 * test_read.c - the OTF2 reader and the record schema.
 *
 * The real traces come from the directory named by the environment variable
 * CCG_TRACES, else from the compile definition CCG_TRACES_DIR, else from
 * ../shared/traces next to the source tree.  Tests that need them (or need
 * otf2-print) are skipped with a message when they are absent.
 */
#define _XOPEN_SOURCE 700

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <otf2/otf2.h>

#include "ccg_codec.h"
#include "ccg_read.h"
#include "ccg_schema.h"

/* ------------------------------------------------------------------ */
/* helpers */

/* snprintf that fails the test instead of truncating. */
static void fmt(char *buf, size_t size, const char *f, ...)
	__attribute__((format(printf, 3, 4)));
static void fmt(char *buf, size_t size, const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	int n = vsnprintf(buf, size, f, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size)
		fail_msg("path too long: %s", buf);
}

static const char *traces_dir(void)
{
	const char *env = getenv("CCG_TRACES");
	if (env && *env)
		return env;
#ifdef CCG_TRACES_DIR
	return CCG_TRACES_DIR;
#else
	/* <source dir>/../shared/traces, the source dir taken from this
	 * file's path (tests/unit/test_read.c below it). */
	static char buf[4096];
	const char *self = __FILE__;
	const char *tail = strstr(self, "tests/unit/test_read.c");
	size_t n = tail ? (size_t)(tail - self) : 0;
	if (n == 0)
		fmt(buf, sizeof buf, "../shared/traces");
	else
		fmt(buf, sizeof buf, "%.*s../shared/traces", (int)n, self);
	return buf;
#endif
}

static int is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int have_otf2_print(void)
{
	static int known = -1;
	if (known < 0)
		known = system("otf2-print --version >/dev/null 2>&1") == 0;
	return known;
}

/* Anchor path of trace `name`, or NULL (after a skip message). */
static const char *trace_anchor(const char *name, char *buf, size_t size)
{
	fmt(buf, size, "%s/%s/traces.otf2", traces_dir(), name);
	if (!is_file(buf)) {
		print_message("SKIP: trace %s not found (set CCG_TRACES)\n",
			      buf);
		return NULL;
	}
	return buf;
}

/* Walks one field of type t; 0 when well-formed, -1 when not.  This is
 * the test's own reading of the field types, kept apart from
 * ccg_field_skip (and written another way) so that the library's is
 * checked against an independent one: a list field is its count, then
 * per element a varint key (IOPROPS only) and a typed value (METRICS,
 * IOPROPS) or a varint (the arrays); any other field is one element. */
static int walk_field(uint8_t t, const unsigned char **p,
		      const unsigned char *end)
{
	uint64_t v, n = 1;
	uint8_t ty;
	double d;
	int listed = 0, keyed = 0, typed = 0;
	switch (t) {
	case CCG_FT_NONE:
		return -1;
	case CCG_FT_F:
		return ccg_f64_get(p, end, &d) ? -1 : 0;
	case CCG_FT_TYPED:
		typed = 1;
		break;
	case CCG_FT_IOPROPS:
		keyed = 1;
		/* fall through */
	case CCG_FT_METRICS:
		typed = 1;
		/* fall through */
	case CCG_FT_ARR_CARTDIM:
	case CCG_FT_ARR_MEMBER:
	case CCG_FT_ARR_STRING:
	case CCG_FT_ARR_U:
		listed = 1;
		break;
	default:
		if (t >= CCG_FT__COUNT)
			return -1;
	}
	if (listed && ccg_varint_get(p, end, &n))
		return -1;
	for (uint64_t i = 0; i < n; i++) {
		if (keyed && ccg_varint_get(p, end, &v))
			return -1;
		if (typed ? ccg_get_typed(p, end, &ty, &v)
			  : ccg_varint_get(p, end, &v))
			return -1;
	}
	return 0;
}

/* Decodes a whole record with the schema; 0 when it uses exactly len. */
static int walk_record(ccg_kind kind, const unsigned char *p, size_t len)
{
	const unsigned char *end = p + len;
	const ccg_kind_info *ki = &ccg_schema[kind];
	if (kind == CCG_DEF_STRING)
		return len && memchr(p, 0, len) ? -1 : 0;
	for (unsigned i = 0; i < ki->nfields; i++)
		if (walk_field(ki->f[i].type, &p, end))
			return -1;
	if (CCG_KIND_IS_EVENT(kind)) {
		uint64_t n, v;
		uint8_t ty;
		if (ccg_varint_get(&p, end, &n))
			return -1;
		for (uint64_t i = 0; i < n; i++)
			if (ccg_varint_get(&p, end, &v) ||
			    ccg_get_typed(&p, end, &ty, &v))
				return -1;
	}
	return p == end ? 0 : -1;
}

/* ---- collecting sinks ---- */

typedef struct ev_rec {
	ccg_kind kind;
	uint64_t time;
	uint64_t call;
} ev_rec;

typedef struct collect {
	ev_rec *ev;
	size_t nev, cap;
	size_t bad;          /* records the schema does not consume exactly */
	size_t kinds[CCG_KIND__COUNT];
	uint64_t *locs;      /* location ids from the definitions */
	size_t nlocs, loccap;
	int stop_after;      /* sink returns `stop_rc` after this many */
	int stop_rc;
	ccg_buf keep;        /* copy of the last record of `keep_kind` */
	ccg_kind keep_kind;
} collect;

static void collect_free(collect *c)
{
	free(c->ev);
	free(c->locs);
	ccg_buf_free(&c->keep);
	memset(c, 0, sizeof *c);
}

static int def_sink(void *ctx, ccg_kind kind, uint64_t id,
		    const unsigned char *f, size_t len)
{
	collect *c = ctx;
	if (CCG_KIND_IS_EVENT(kind) || kind >= CCG_KIND__COUNT)
		return -1;
	c->kinds[kind]++;
	if (walk_record(kind, f, len)) {
		c->bad++;
		print_message("definition %s (id %" PRIu64
			      ") not consumed exactly (%zu bytes)\n",
			      ccg_schema[kind].name, id, len);
	}
	if (kind == CCG_DEF_LOCATION) {
		if (c->nlocs == c->loccap) {
			c->loccap = c->loccap ? 2 * c->loccap : 64;
			c->locs = realloc(c->locs,
					  c->loccap * sizeof *c->locs);
			if (!c->locs)
				return -1;
		}
		c->locs[c->nlocs++] = id;
	}
	if (kind == c->keep_kind) {
		ccg_buf_reset(&c->keep);
		ccg_buf_add(&c->keep, f, len);
	}
	return 0;
}

static int ev_sink(void *ctx, ccg_kind kind, uint64_t time, uint64_t call,
		   const unsigned char *f, size_t len)
{
	collect *c = ctx;
	if (!CCG_KIND_IS_EVENT(kind))
		return -1;
	if (c->stop_after >= 0 && c->nev >= (size_t)c->stop_after)
		return c->stop_rc;
	if (c->nev == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 1024;
		c->ev = realloc(c->ev, c->cap * sizeof *c->ev);
		if (!c->ev)
			return -1;
	}
	c->ev[c->nev].kind = kind;
	c->ev[c->nev].time = time;
	c->ev[c->nev].call = call;
	c->nev++;
	c->kinds[kind]++;
	if (walk_record(kind, f, len)) {
		c->bad++;
		print_message("event %s at %" PRIu64
			      " not consumed exactly (%zu bytes)\n",
			      ccg_schema[kind].name, time, len);
	}
	if (kind == c->keep_kind) {
		ccg_buf_reset(&c->keep);
		ccg_buf_add(&c->keep, f, len);
	}
	return 0;
}

static void collect_init(collect *c)
{
	memset(c, 0, sizeof *c);
	c->stop_after = -1;
	c->keep_kind = CCG_KIND__COUNT;
}

/* Opens `anchor` and reads its definitions into c. */
static ccg_read *open_with_defs(const char *anchor, collect *c)
{
	ccg_buf msg = CCG_BUF_INIT;
	ccg_read *r = NULL;
	ccg_err err = ccg_read_open(anchor, &r, &msg);
	if (err)
		fail_msg("ccg_read_open(%s): %s: %s", anchor,
			 ccg_err_name(err), msg.data ? msg.data : "");
	err = ccg_read_defs(r, def_sink, c, &msg);
	if (err)
		fail_msg("ccg_read_defs(%s): %s: %s", anchor,
			 ccg_err_name(err), msg.data ? msg.data : "");
	ccg_buf_free(&msg);
	return r;
}

/* Compares our events of one location with `otf2-print -L`. */
static void compare_location(const char *anchor, uint64_t loc,
			     const collect *c)
{
	char cmd[8192];
	fmt(cmd, sizeof cmd, "otf2-print -L %" PRIu64 " '%s' 2>/dev/null",
		 loc, anchor);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	char *line = NULL;
	size_t cap = 0;
	size_t i = 0;
	int in_events = 0;
	char kind[128];
	unsigned long long lid, ts;
	while (getline(&line, &cap, p) >= 0) {
		if (!in_events) {
			/* the header ends with a line of dashes */
			if (line[0] == '-' && line[1] == '-')
				in_events = 1;
			continue;
		}
		if (line[0] == ' ' || line[0] == '\t' || line[0] == '\n')
			continue; /* ADDITIONAL ATTRIBUTES etc. */
		if (sscanf(line, "%127s %llu %llu", kind, &lid, &ts) != 3)
			continue;
		if (i >= c->nev)
			fail_msg("%s location %" PRIu64
				 ": otf2-print has more events than the %zu "
				 "read (next: %s)",
				 anchor, loc, c->nev, line);
		const ev_rec *e = &c->ev[i];
		if (strcmp(kind, ccg_schema[e->kind].name) != 0 ||
		    ts != e->time || lid != loc)
			fail_msg("%s location %" PRIu64 " event %zu: "
				 "otf2-print says '%s' %llu at %llu, read %s "
				 "at %" PRIu64,
				 anchor, loc, i, kind, lid, ts,
				 ccg_schema[e->kind].name, e->time);
		if (e->kind == CCG_EV_ENTER || e->kind == CCG_EV_LEAVE ||
		    e->kind == CCG_EV_CALLING_CONTEXT_ENTER ||
		    e->kind == CCG_EV_CALLING_CONTEXT_LEAVE) {
			/* the id printed as <N> after the name */
			const char *lt = strrchr(line, '<');
			unsigned long long id;
			if (lt && sscanf(lt, "<%llu>", &id) == 1 &&
			    id != e->call)
				fail_msg("%s location %" PRIu64 " event %zu: "
					 "otf2-print says %s <%llu>, read %" PRIu64,
					 anchor, loc, i, kind, id, e->call);
		}
		i++;
	}
	free(line);
	int st = pclose(p);
	assert_int_equal(st, 0);
	if (i != c->nev)
		fail_msg("%s location %" PRIu64 ": otf2-print prints %zu "
			 "events, read %zu",
			 anchor, loc, i, c->nev);
}

/* Reads every location of trace `name` and compares with otf2-print. */
static void compare_trace(const char *name)
{
	char buf[4096];
	const char *anchor = trace_anchor(name, buf, sizeof buf);
	if (!anchor) {
		skip();
		return;
	}
	if (!have_otf2_print()) {
		print_message("SKIP: otf2-print not found\n");
		skip();
		return;
	}
	collect defs;
	collect_init(&defs);
	ccg_read *r = open_with_defs(anchor, &defs);
	assert_int_equal(defs.bad, 0);
	assert_true(defs.nlocs > 0);
	ccg_buf msg = CCG_BUF_INIT;
	size_t total = 0;
	for (size_t i = 0; i < defs.nlocs; i++) {
		collect c;
		collect_init(&c);
		ccg_buf_reset(&msg);
		ccg_err err = ccg_read_location(r, defs.locs[i], ev_sink, &c,
						&msg);
		if (err)
			fail_msg("%s location %" PRIu64 ": %s: %s", anchor,
				 defs.locs[i], ccg_err_name(err), msg.data);
		assert_int_equal(c.bad, 0);
		compare_location(anchor, defs.locs[i], &c);
		total += c.nev;
		collect_free(&c);
	}
	assert_true(total > 0);
	ccg_buf_free(&msg);
	ccg_read_close(r);
	collect_free(&defs);
}

/* ------------------------------------------------------------------ */
/* (a) typed values */

static void roundtrip(uint8_t t, uint64_t in, uint64_t want)
{
	ccg_buf b = CCG_BUF_INIT;
	ccg_buf_add(&b, "x", 1); /* not at offset 0 */
	ccg_put_typed(&b, t, in);
	assert_int_equal(ccg_buf_status(&b), CCG_OK);
	const unsigned char *start = (const unsigned char *)b.data + 1;
	const unsigned char *end = (const unsigned char *)b.data + b.len;
	const unsigned char *p = start;
	uint8_t got_t = 0xee;
	uint64_t got = 0;
	assert_int_equal(ccg_get_typed(&p, end, &got_t, &got), 0);
	assert_ptr_equal(p, end);
	assert_int_equal(got_t, t);
	if (got != want)
		fail_msg("type %u: put %#" PRIx64 ", want %#" PRIx64
			 ", got %#" PRIx64,
			 t, in, want, got);
	/* every truncation fails and leaves the cursor alone */
	for (const unsigned char *cut = start; cut < end; cut++) {
		p = start;
		assert_int_equal(ccg_get_typed(&p, cut, &got_t, &got), -1);
		assert_ptr_equal(p, start);
	}
	ccg_buf_free(&b);
}

static uint64_t dbits(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof u);
	return u;
}

static uint64_t sx(int64_t v)
{
	return (uint64_t)v;
}

static void test_typed_roundtrip(void **state)
{
	(void)state;
	static const uint64_t uvals[] = {0, 1, 127, 128, 255, 16383, 16384,
					 65535, 4294967295u, UINT64_MAX};
	roundtrip(OTF2_TYPE_NONE, 0, 0);
	for (size_t i = 0; i < sizeof uvals / sizeof *uvals; i++) {
		uint64_t v = uvals[i];
		if (v <= UINT8_MAX)
			roundtrip(OTF2_TYPE_UINT8, v, v);
		if (v <= UINT16_MAX)
			roundtrip(OTF2_TYPE_UINT16, v, v);
		if (v <= UINT32_MAX)
			roundtrip(OTF2_TYPE_UINT32, v, v);
		roundtrip(OTF2_TYPE_UINT64, v, v);
		/* every reference type is an unsigned id */
		for (uint8_t t = OTF2_TYPE_STRING;
		     t <= OTF2_TYPE_LOCATION_GROUP; t++)
			roundtrip(t, v, v);
		/* and so is any type newer than OTF2 3.0 */
		roundtrip(26, v, v);
		roundtrip(255, v, v);
	}
	static const int64_t ivals[] = {0, 1, -1, 63, -64, 64, -65, 127, -128};
	for (size_t i = 0; i < sizeof ivals / sizeof *ivals; i++) {
		int64_t v = ivals[i];
		roundtrip(OTF2_TYPE_INT8, sx(v), sx(v));
		roundtrip(OTF2_TYPE_INT16, sx(v), sx(v));
		roundtrip(OTF2_TYPE_INT32, sx(v), sx(v));
		roundtrip(OTF2_TYPE_INT64, sx(v), sx(v));
	}
	roundtrip(OTF2_TYPE_INT16, sx(INT16_MIN), sx(INT16_MIN));
	roundtrip(OTF2_TYPE_INT16, sx(INT16_MAX), sx(INT16_MAX));
	roundtrip(OTF2_TYPE_INT32, sx(INT32_MIN), sx(INT32_MIN));
	roundtrip(OTF2_TYPE_INT32, sx(INT32_MAX), sx(INT32_MAX));
	roundtrip(OTF2_TYPE_INT64, sx(INT64_MIN), sx(INT64_MIN));
	roundtrip(OTF2_TYPE_INT64, sx(INT64_MAX), sx(INT64_MAX));
	roundtrip(OTF2_TYPE_INT64, sx(-1000000007), sx(-1000000007));
	/* narrow signed values given without sign extension come back
	 * sign-extended */
	roundtrip(OTF2_TYPE_INT8, 0xfb, sx(-5));
	roundtrip(OTF2_TYPE_INT16, 0xfed4, sx(-300));
	roundtrip(OTF2_TYPE_INT32, 0xfffeee90u, sx(-70000));

	static const double dvals[] = {0.0, -0.0, 1.5, -2.25, 1e300, -1e-300,
				       3.141592653589793};
	for (size_t i = 0; i < sizeof dvals / sizeof *dvals; i++) {
		roundtrip(OTF2_TYPE_DOUBLE, dbits(dvals[i]), dbits(dvals[i]));
		/* the reader widens floats to double first */
		double f = (float)dvals[i];
		roundtrip(OTF2_TYPE_FLOAT, dbits(f), dbits(f));
	}

	/* malformed input */
	const unsigned char *p;
	uint8_t t;
	uint64_t v;
	static const unsigned char empty[1] = {0};
	p = empty;
	assert_int_equal(ccg_get_typed(&p, empty, &t, &v), -1);
	static const unsigned char longvar[] = {OTF2_TYPE_UINT64, 0x80, 0x80,
						0x80, 0x80, 0x80, 0x80, 0x80,
						0x80, 0x80, 0x80, 0x01};
	p = longvar;
	assert_int_equal(
		ccg_get_typed(&p, longvar + sizeof longvar, &t, &v), -1);
	assert_ptr_equal(p, longvar);
	static const unsigned char shortd[] = {OTF2_TYPE_DOUBLE, 1, 2, 3};
	p = shortd;
	assert_int_equal(ccg_get_typed(&p, shortd + sizeof shortd, &t, &v),
			 -1);
	static const unsigned char openvar[] = {OTF2_TYPE_INT32, 0xff};
	p = openvar;
	assert_int_equal(
		ccg_get_typed(&p, openvar + sizeof openvar, &t, &v), -1);

	/* a run of values decodes back in order */
	ccg_buf b = CCG_BUF_INIT;
	ccg_put_typed(&b, OTF2_TYPE_INT8, sx(-7));
	ccg_put_typed(&b, OTF2_TYPE_NONE, 0);
	ccg_put_typed(&b, OTF2_TYPE_DOUBLE, dbits(-2.5));
	ccg_put_typed(&b, OTF2_TYPE_LOCATION, UINT64_MAX - 1);
	p = (const unsigned char *)b.data;
	const unsigned char *end = p + b.len;
	assert_int_equal(ccg_get_typed(&p, end, &t, &v), 0);
	assert_int_equal(t, OTF2_TYPE_INT8);
	assert_true(v == sx(-7));
	assert_int_equal(ccg_get_typed(&p, end, &t, &v), 0);
	assert_int_equal(t, OTF2_TYPE_NONE);
	assert_int_equal(ccg_get_typed(&p, end, &t, &v), 0);
	assert_int_equal(t, OTF2_TYPE_DOUBLE);
	assert_true(v == dbits(-2.5));
	assert_int_equal(ccg_get_typed(&p, end, &t, &v), 0);
	assert_int_equal(t, OTF2_TYPE_LOCATION);
	assert_true(v == UINT64_MAX - 1);
	assert_ptr_equal(p, end);
	ccg_buf_free(&b);
}

/* ------------------------------------------------------------------ */
/* (b) the table */

static void test_schema_table(void **state)
{
	(void)state;
	for (int k = 0; k < CCG_KIND__COUNT; k++) {
		const ccg_kind_info *ki = &ccg_schema[k];
		if (!ki->name || !ki->name[0])
			fail_msg("kind %d has no name", k);
		if (ki->nfields > CCG_MAX_FIELDS)
			fail_msg("%s: %u fields", ki->name, ki->nfields);
		if (ki->obj < -1 || ki->obj >= (int)ki->nfields)
			fail_msg("%s: obj %d of %u fields", ki->name, ki->obj,
				 ki->nfields);
		for (unsigned i = 0; i < CCG_MAX_FIELDS; i++) {
			const ccg_field *f = &ki->f[i];
			if (i < ki->nfields) {
				if (f->type == CCG_FT_NONE ||
				    f->type >= CCG_FT__COUNT)
					fail_msg("%s field %u: type %u",
						 ki->name, i, f->type);
				if (!f->key || !f->key[0])
					fail_msg("%s field %u: no key",
						 ki->name, i);
				for (const char *s = f->key; *s; s++)
					if (!((*s >= 'a' && *s <= 'z') ||
					      *s == '_' ||
					      (*s >= '0' && *s <= '9')))
						fail_msg("%s field %u: key "
							 "'%s'",
							 ki->name, i, f->key);
				for (unsigned j = 0; j < i; j++)
					if (strcmp(ki->f[j].key, f->key) == 0)
						fail_msg("%s: key '%s' twice",
							 ki->name, f->key);
			} else if (f->type != CCG_FT_NONE || f->key) {
				/* catches an nfields smaller than the list */
				fail_msg("%s: field %u beyond nfields %u",
					 ki->name, i, ki->nfields);
			}
		}
		if (ki->obj >= 0 && !CCG_FT_IS_REF(ki->f[ki->obj].type))
			fail_msg("%s: obj field '%s' is not a reference",
				 ki->name, ki->f[ki->obj].key);
		for (int j = 0; j < k; j++)
			if (CCG_KIND_IS_EVENT(j) == CCG_KIND_IS_EVENT(k) &&
			    strcmp(ccg_schema[j].name, ki->name) == 0)
				fail_msg("name %s twice", ki->name);
		if (CCG_KIND_IS_EVENT(k)) {
			if (ki->defines != CCG_FT_NONE)
				fail_msg("event %s defines something",
					 ki->name);
		} else {
			if (ki->defines != CCG_FT_NONE &&
			    !CCG_FT_IS_REF(ki->defines))
				fail_msg("%s defines %u", ki->name,
					 ki->defines);
			if (ki->defines != CCG_FT_NONE &&
			    k != CCG_DEF_STRING &&
			    ki->f[0].type != ki->defines)
				fail_msg("%s: field 0 is not its own id",
					 ki->name);
			if (ki->obj >= 0 &&
			    ki->f[ki->obj].type != CCG_FT_REF_STRING)
				fail_msg("%s: name field is not a string",
					 ki->name);
		}
	}
	/* every reference space is defined by some kind */
	for (int t = CCG_FT_REF_STRING; t <= CCG_FT_REF_PARADIGM; t++) {
		int found = 0;
		for (int k = CCG_EV__COUNT; k < CCG_KIND__COUNT; k++)
			found |= ccg_schema[k].defines == t;
		if (!found)
			fail_msg("no definition defines reference type %d", t);
	}
	/* a few names and shapes that differ from the enum spelling */
	assert_string_equal(ccg_schema[CCG_EV_PARAMETER_INT].name,
			    "PARAMETER_INT64");
	assert_string_equal(ccg_schema[CCG_EV_PARAMETER_UNSIGNED_INT].name,
			    "PARAMETER_UINT64");
	assert_string_equal(ccg_schema[CCG_EV_IO_CHANGE_STATUS_FLAGS].name,
			    "IO_CHANGE_FLAGS");
	assert_string_equal(ccg_schema[CCG_EV_UNKNOWN].name, "UNKNOWN");
	assert_int_equal(ccg_schema[CCG_DEF_STRING].nfields, 0);
	assert_int_equal(ccg_schema[CCG_DEF_STRING].defines,
			 CCG_FT_REF_STRING);
	assert_int_equal(ccg_schema[CCG_DEF_LOCATION].defines, CCG_FT_NONE);
	assert_int_equal(ccg_schema[CCG_DEF_LOCATION].f[0].type, CCG_FT_LOC);
	assert_int_equal(ccg_schema[CCG_EV_METRIC].f[1].type, CCG_FT_METRICS);
	assert_int_equal(ccg_schema[CCG_DEF_CLOCK_PROPERTIES].nfields, 4);
}

/* ------------------------------------------------------------------ */
/* (c) against otf2-print */

static void test_pingpong(void **state)
{
	(void)state;
	compare_trace("pipit-pingpong");
}

static void test_xeonphi(void **state)
{
	(void)state;
	compare_trace("casita-xeonphi-jacobi");
}

static void test_sstmacro(void **state)
{
	(void)state;
	compare_trace("sstmacro-otf2-test");
}

/* ------------------------------------------------------------------ */
/* (d) errors */

static void rm_tree(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	char path[4096];
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		fmt(path, sizeof path, "%s/%s", dir, e->d_name);
		struct stat st;
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
			rm_tree(path);
		else
			unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

static void test_open_errors(void **state)
{
	(void)state;
	ccg_buf msg = CCG_BUF_INIT;
	ccg_read *r = (ccg_read *)&msg;

	ccg_err err = ccg_read_open("/nonexistent/dir/traces.otf2", &r, &msg);
	assert_int_not_equal(err, CCG_OK);
	assert_null(r);
	assert_non_null(strstr(msg.data, "/nonexistent/dir/traces.otf2"));

	/* a file that is not an anchor */
	char dir[] = "/tmp/ccg_test_read_XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[4096];
	fmt(path, sizeof path, "%s/traces.otf2", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("this is not an OTF2 anchor file\n", f);
	fclose(f);
	ccg_buf_reset(&msg);
	err = ccg_read_open(path, &r, &msg);
	assert_int_not_equal(err, CCG_OK);
	assert_null(r);
	assert_non_null(strstr(msg.data, path));

	/* an empty one */
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	ccg_buf_reset(&msg);
	err = ccg_read_open(path, &r, &msg);
	assert_int_not_equal(err, CCG_OK);
	assert_non_null(strstr(msg.data, path));

	/* a directory */
	ccg_buf_reset(&msg);
	err = ccg_read_open(dir, &r, &msg);
	assert_int_not_equal(err, CCG_OK);
	assert_null(r);

	ccg_read_close(NULL);
	rm_tree(dir);
	ccg_buf_free(&msg);
}

/* Reads location `loc` of r into c (made afresh; the caller frees it):
 * the read fails, with a message that names the location and, unless
 * NULL, `also`. */
static void read_fails(ccg_read *r, uint64_t loc, collect *c, ccg_buf *msg,
		       const char *also)
{
	char want[64];
	collect_init(c);
	ccg_buf_reset(msg);
	assert_int_not_equal(ccg_read_location(r, loc, ev_sink, c, msg),
			     CCG_OK);
	assert_non_null(msg->data);
	fmt(want, sizeof want, "location %llu", (unsigned long long)loc);
	assert_non_null(strstr(msg->data, want));
	if (also)
		assert_non_null(strstr(msg->data, also));
}

/* Location 0 of r reads completely: its n0 events. */
static void read_whole(ccg_read *r, ccg_buf *msg, size_t n0)
{
	collect c;
	collect_init(&c);
	assert_int_equal(ccg_read_location(r, 0, ev_sink, &c, msg), CCG_OK);
	assert_int_equal(c.nev, n0);
	collect_free(&c);
}

/* A copy of pipit-pingpong made of symlinks, with location 1's events
 * missing or broken: the location fails with a message, the other one
 * reads completely before and after. */
static void test_location_errors(void **state)
{
	(void)state;
	char buf[4096];
	const char *src = trace_anchor("pipit-pingpong", buf, sizeof buf);
	if (!src) {
		skip();
		return;
	}
	char sdir[2048];
	fmt(sdir, sizeof sdir, "%s/pipit-pingpong", traces_dir());
	char dir[] = "/tmp/ccg_test_read_XXXXXX";
	assert_non_null(mkdtemp(dir));
	char a[8192], b[8192];
	fmt(a, sizeof a, "%s/traces", dir);
	assert_int_equal(mkdir(a, 0755), 0);
	static const char *files[] = {"traces.otf2", "traces.def",
				      "traces/0.evt", "traces/0.def",
				      "traces/1.def"};
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		char target[8192];
		if (sdir[0] == '/')
			fmt(target, sizeof target, "%s/%s", sdir,
				 files[i]);
		else if (!getcwd(target, sizeof target))
			fail_msg("getcwd failed");
		else
			fmt(target + strlen(target),
				 sizeof target - strlen(target), "/%s/%s",
				 sdir, files[i]);
		fmt(b, sizeof b, "%s/%s", dir, files[i]);
		assert_int_equal(symlink(target, b), 0);
	}
	fmt(a, sizeof a, "%s/traces.otf2", dir);

	collect defs;
	collect_init(&defs);
	ccg_read *r = open_with_defs(a, &defs);
	assert_int_equal(defs.nlocs, 2);
	ccg_buf msg = CCG_BUF_INIT;
	collect c;

	/* reference count for location 0 */
	collect_init(&c);
	assert_int_equal(ccg_read_location(r, 0, ev_sink, &c, &msg), CCG_OK);
	size_t n0 = c.nev;
	assert_true(n0 > 0);
	collect_free(&c);

	/* missing .evt */
	read_fails(r, 1, &c, &msg, "1.evt");
	assert_int_equal(c.nev, 0);
	collect_free(&c);
	read_whole(r, &msg, n0);

	/* a location that does not exist at all */
	read_fails(r, 123456789, &c, &msg, NULL);
	collect_free(&c);

	/* garbage .evt, then a truncated copy of the real one */
	fmt(b, sizeof b, "%s/traces/1.evt", dir);
	FILE *f = fopen(b, "wb");
	assert_non_null(f);
	for (int i = 0; i < 4096; i++)
		fputc((i * 7919 + 13) & 0xff, f);
	fclose(f);
	read_fails(r, 1, &c, &msg, NULL);
	collect_free(&c);

	fmt(a, sizeof a, "%s/traces/1.evt", sdir);
	FILE *in = fopen(a, "rb");
	assert_non_null(in);
	unsigned char data[1 << 16];
	size_t len = fread(data, 1, sizeof data, in);
	fclose(in);
	assert_true(len > 64 && len < sizeof data);
	f = fopen(b, "wb");
	assert_non_null(f);
	fwrite(data, 1, len / 2, f);
	fclose(f);
	read_fails(r, 1, &c, &msg, NULL);
	assert_int_equal(c.bad, 0); /* what was delivered is well-formed */
	collect_free(&c);
	read_whole(r, &msg, n0);

	/* the sink stops the location: with its own reason ... */
	collect_init(&c);
	c.stop_after = 5;
	c.stop_rc = CCG_ERANGE;
	ccg_buf_reset(&msg);
	assert_int_equal(ccg_read_location(r, 0, ev_sink, &c, &msg),
			 CCG_ERANGE);
	assert_int_equal(c.nev, 5);
	collect_free(&c);
	/* ... or with CCG_EIO */
	collect_init(&c);
	c.stop_after = 0;
	c.stop_rc = -1;
	ccg_buf_reset(&msg);
	assert_int_equal(ccg_read_location(r, 0, ev_sink, &c, &msg), CCG_EIO);
	assert_int_equal(c.nev, 0);
	collect_free(&c);
	read_whole(r, &msg, n0);

	ccg_read_close(r);
	collect_free(&defs);
	ccg_buf_free(&msg);
	rm_tree(dir);
}

/* ------------------------------------------------------------------ */
/* (e) every record of every trace decodes exactly */

static void test_consume_all(void **state)
{
	(void)state;
	const char *dir = traces_dir();
	DIR *d = opendir(dir);
	if (!d) {
		print_message("SKIP: traces directory %s not found "
			      "(set CCG_TRACES)\n",
			      dir);
		skip();
		return;
	}
	struct dirent *e;
	size_t ntraces = 0;
	ccg_buf msg = CCG_BUF_INIT;
	while ((e = readdir(d))) {
		char anchor[4096];
		if (e->d_name[0] == '.')
			continue;
		fmt(anchor, sizeof anchor, "%s/%s/traces.otf2", dir,
			 e->d_name);
		if (!is_file(anchor))
			continue;
		ntraces++;
		collect defs;
		collect_init(&defs);
		ccg_read *r = open_with_defs(anchor, &defs);
		assert_int_equal(defs.bad, 0);
		assert_true(defs.kinds[CCG_DEF_STRING] > 0);
		assert_true(defs.nlocs > 0);
		size_t total = 0;
		for (size_t i = 0; i < defs.nlocs; i++) {
			collect c;
			collect_init(&c);
			ccg_buf_reset(&msg);
			ccg_err err = ccg_read_location(r, defs.locs[i],
							ev_sink, &c, &msg);
			if (err)
				fail_msg("%s: %s: %s", anchor,
					 ccg_err_name(err), msg.data);
			if (c.bad)
				fail_msg("%s location %" PRIu64
					 ": %zu records not consumed exactly",
					 anchor, defs.locs[i], c.bad);
			total += c.nev;
			collect_free(&c);
		}
		print_message("%s: %zu definitions, %zu locations, %zu "
			      "events\n",
			      e->d_name, defs.kinds[CCG_DEF_STRING],
			      defs.nlocs, total);
		ccg_read_close(r);
		collect_free(&defs);
	}
	closedir(d);
	ccg_buf_free(&msg);
	if (ntraces == 0) {
		print_message("SKIP: no traces under %s\n", dir);
		skip();
	}
}

/* ------------------------------------------------------------------ */
/* every event and definition kind, written with the OTF2 writer API */

static OTF2_FlushType pre_flush(void *ud, OTF2_FileType ft,
				OTF2_LocationRef loc, void *cd, bool final)
{
	(void)ud;
	(void)ft;
	(void)loc;
	(void)cd;
	(void)final;
	return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *ud, OTF2_FileType ft,
				 OTF2_LocationRef loc)
{
	(void)ud;
	(void)ft;
	(void)loc;
	return 0;
}

#define W(x) assert_int_equal((x), OTF2_SUCCESS)

/* attribute values put on PROGRAM_BEGIN, one per OTF2 type */
static const struct {
	OTF2_Type type;
	uint64_t raw; /* as ccg_get_typed returns it */
} attr_vals[] = {
	{OTF2_TYPE_UINT8, 200},
	{OTF2_TYPE_UINT16, 60000},
	{OTF2_TYPE_UINT32, 4000000000u},
	{OTF2_TYPE_UINT64, UINT64_MAX},
	{OTF2_TYPE_INT8, (uint64_t)-5},
	{OTF2_TYPE_INT16, (uint64_t)-300},
	{OTF2_TYPE_INT32, (uint64_t)-70000},
	{OTF2_TYPE_INT64, (uint64_t)-(INT64_C(1) << 40)},
	{OTF2_TYPE_FLOAT, 0},  /* 1.5f, filled in */
	{OTF2_TYPE_DOUBLE, 0}, /* -2.25, filled in */
	{OTF2_TYPE_STRING, 1},
	{OTF2_TYPE_ATTRIBUTE, 2},
	{OTF2_TYPE_LOCATION, 1},
	{OTF2_TYPE_REGION, 0},
	{OTF2_TYPE_GROUP, 0},
	{OTF2_TYPE_METRIC, 0},
	{OTF2_TYPE_COMM, 0},
	{OTF2_TYPE_PARAMETER, 0},
	{OTF2_TYPE_RMA_WIN, 0},
	{OTF2_TYPE_SOURCE_CODE_LOCATION, 0},
	{OTF2_TYPE_CALLING_CONTEXT, 0},
	{OTF2_TYPE_INTERRUPT_GENERATOR, 0},
	{OTF2_TYPE_IO_FILE, 0},
	{OTF2_TYPE_IO_HANDLE, 0},
	{OTF2_TYPE_LOCATION_GROUP, 0},
};
#define NATTR (sizeof attr_vals / sizeof *attr_vals)

static uint64_t attr_raw(size_t i)
{
	if (attr_vals[i].type == OTF2_TYPE_FLOAT)
		return dbits(1.5);
	if (attr_vals[i].type == OTF2_TYPE_DOUBLE)
		return dbits(-2.25);
	return attr_vals[i].raw;
}

static OTF2_AttributeValue attr_value(size_t i)
{
	OTF2_AttributeValue v;
	memset(&v, 0, sizeof v);
	uint64_t raw = attr_vals[i].raw;
	switch (attr_vals[i].type) {
	case OTF2_TYPE_UINT8: v.uint8 = (uint8_t)raw; break;
	case OTF2_TYPE_UINT16: v.uint16 = (uint16_t)raw; break;
	case OTF2_TYPE_UINT32: v.uint32 = (uint32_t)raw; break;
	case OTF2_TYPE_UINT64: v.uint64 = raw; break;
	case OTF2_TYPE_INT8: v.int8 = (int8_t)(int64_t)raw; break;
	case OTF2_TYPE_INT16: v.int16 = (int16_t)(int64_t)raw; break;
	case OTF2_TYPE_INT32: v.int32 = (int32_t)(int64_t)raw; break;
	case OTF2_TYPE_INT64: v.int64 = (int64_t)raw; break;
	case OTF2_TYPE_FLOAT: v.float32 = 1.5f; break;
	case OTF2_TYPE_DOUBLE: v.float64 = -2.25; break;
	case OTF2_TYPE_LOCATION: v.locationRef = raw; break;
	default: v.uint32 = (uint32_t)raw; break;
	}
	return v;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
/* Writes an archive holding one event of every kind on location 0 (in
 * ccg_kind order) and a few on location 1; returns the events on 0. */
static uint64_t write_all_kinds(const char *dir)
{
	OTF2_Archive *a = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE,
					    1024 * 1024, 4 * 1024 * 1024,
					    OTF2_SUBSTRATE_POSIX,
					    OTF2_COMPRESSION_NONE);
	assert_non_null(a);
	OTF2_FlushCallbacks fcb = {pre_flush, post_flush};
	W(OTF2_Archive_SetFlushCallbacks(a, &fcb, NULL));
	W(OTF2_Archive_SetSerialCollectiveCallbacks(a));
	W(OTF2_Archive_OpenEvtFiles(a));
	OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(a, 0);
	assert_non_null(w);
	OTF2_AttributeList *al = OTF2_AttributeList_New();
	for (size_t i = 0; i < NATTR; i++)
		W(OTF2_AttributeList_AddAttribute(al, (OTF2_AttributeRef)i,
						  attr_vals[i].type,
						  attr_value(i)));
	uint64_t t = 1000;
	OTF2_StringRef args[2] = {2, 3};
	OTF2_Type mt[3] = {OTF2_TYPE_INT64, OTF2_TYPE_UINT64,
			   OTF2_TYPE_DOUBLE};
	OTF2_MetricValue mv[3];
	mv[0].signed_int = -3;
	mv[1].unsigned_int = 4;
	mv[2].floating_point = 0.5;

	W(OTF2_EvtWriter_BufferFlush(w, NULL, t, t + 5));
	t++;
	W(OTF2_EvtWriter_MeasurementOnOff(w, NULL, t++, OTF2_MEASUREMENT_ON));
	W(OTF2_EvtWriter_Enter(w, NULL, t++, 0));
	W(OTF2_EvtWriter_Leave(w, NULL, t++, 0));
	W(OTF2_EvtWriter_MpiSend(w, NULL, t++, 1, 0, 5, 100));
	W(OTF2_EvtWriter_MpiIsend(w, NULL, t++, 1, 0, 5, 100, 9));
	W(OTF2_EvtWriter_MpiIsendComplete(w, NULL, t++, 9));
	W(OTF2_EvtWriter_MpiIrecvRequest(w, NULL, t++, 10));
	W(OTF2_EvtWriter_MpiRecv(w, NULL, t++, 1, 0, 5, 100));
	W(OTF2_EvtWriter_MpiIrecv(w, NULL, t++, 1, 0, 5, 100, 10));
	W(OTF2_EvtWriter_MpiRequestTest(w, NULL, t++, 10));
	W(OTF2_EvtWriter_MpiRequestCancelled(w, NULL, t++, 10));
	W(OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, t++));
	W(OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, t++,
					  OTF2_COLLECTIVE_OP_BCAST, 0, 0, 10,
					  20));
	W(OTF2_EvtWriter_OmpFork(w, NULL, t++, 4));
	W(OTF2_EvtWriter_OmpJoin(w, NULL, t++));
	W(OTF2_EvtWriter_OmpAcquireLock(w, NULL, t++, 1, 2));
	W(OTF2_EvtWriter_OmpReleaseLock(w, NULL, t++, 1, 2));
	W(OTF2_EvtWriter_OmpTaskCreate(w, NULL, t++, 5));
	W(OTF2_EvtWriter_OmpTaskSwitch(w, NULL, t++, 5));
	W(OTF2_EvtWriter_OmpTaskComplete(w, NULL, t++, 5));
	W(OTF2_EvtWriter_Metric(w, NULL, t++, 0, 3, mt, mv));
	W(OTF2_EvtWriter_ParameterString(w, NULL, t++, 0, 1));
	W(OTF2_EvtWriter_ParameterInt(w, NULL, t++, 0, -7));
	W(OTF2_EvtWriter_ParameterUnsignedInt(w, NULL, t++, 0, 7));
	W(OTF2_EvtWriter_RmaWinCreate(w, NULL, t++, 0));
	W(OTF2_EvtWriter_RmaWinDestroy(w, NULL, t++, 0));
	W(OTF2_EvtWriter_RmaCollectiveBegin(w, NULL, t++));
	W(OTF2_EvtWriter_RmaCollectiveEnd(w, NULL, t++,
					  OTF2_COLLECTIVE_OP_BARRIER,
					  OTF2_RMA_SYNC_LEVEL_MEMORY, 0, 0, 1,
					  2));
	W(OTF2_EvtWriter_RmaGroupSync(w, NULL, t++,
				      OTF2_RMA_SYNC_LEVEL_MEMORY, 0, 0));
	W(OTF2_EvtWriter_RmaRequestLock(w, NULL, t++, 0, 1, 2,
					OTF2_LOCK_EXCLUSIVE));
	W(OTF2_EvtWriter_RmaAcquireLock(w, NULL, t++, 0, 1, 2,
					OTF2_LOCK_EXCLUSIVE));
	W(OTF2_EvtWriter_RmaTryLock(w, NULL, t++, 0, 1, 2,
				    OTF2_LOCK_EXCLUSIVE));
	W(OTF2_EvtWriter_RmaReleaseLock(w, NULL, t++, 0, 1, 2));
	W(OTF2_EvtWriter_RmaSync(w, NULL, t++, 0, 1,
				 OTF2_RMA_SYNC_TYPE_MEMORY));
	W(OTF2_EvtWriter_RmaWaitChange(w, NULL, t++, 0));
	W(OTF2_EvtWriter_RmaPut(w, NULL, t++, 0, 1, 10, 3));
	W(OTF2_EvtWriter_RmaGet(w, NULL, t++, 0, 1, 10, 3));
	W(OTF2_EvtWriter_RmaAtomic(w, NULL, t++, 0, 1,
				   OTF2_RMA_ATOMIC_TYPE_ACCUMULATE, 1, 2, 3));
	W(OTF2_EvtWriter_RmaOpCompleteBlocking(w, NULL, t++, 0, 3));
	W(OTF2_EvtWriter_RmaOpCompleteNonBlocking(w, NULL, t++, 0, 3));
	W(OTF2_EvtWriter_RmaOpTest(w, NULL, t++, 0, 3));
	W(OTF2_EvtWriter_RmaOpCompleteRemote(w, NULL, t++, 0, 3));
	W(OTF2_EvtWriter_ThreadFork(w, NULL, t++, OTF2_PARADIGM_OPENMP, 4));
	W(OTF2_EvtWriter_ThreadJoin(w, NULL, t++, OTF2_PARADIGM_OPENMP));
	W(OTF2_EvtWriter_ThreadTeamBegin(w, NULL, t++, 1));
	W(OTF2_EvtWriter_ThreadTeamEnd(w, NULL, t++, 1));
	W(OTF2_EvtWriter_ThreadAcquireLock(w, NULL, t++, OTF2_PARADIGM_OPENMP,
					   1, 2));
	W(OTF2_EvtWriter_ThreadReleaseLock(w, NULL, t++, OTF2_PARADIGM_OPENMP,
					   1, 2));
	W(OTF2_EvtWriter_ThreadTaskCreate(w, NULL, t++, 1, 0, 1));
	W(OTF2_EvtWriter_ThreadTaskSwitch(w, NULL, t++, 1, 0, 1));
	W(OTF2_EvtWriter_ThreadTaskComplete(w, NULL, t++, 1, 0, 1));
	W(OTF2_EvtWriter_ThreadCreate(w, NULL, t++, 1, 1));
	W(OTF2_EvtWriter_ThreadBegin(w, NULL, t++, 1, 1));
	W(OTF2_EvtWriter_ThreadWait(w, NULL, t++, 1, 1));
	W(OTF2_EvtWriter_ThreadEnd(w, NULL, t++, 1, 1));
	W(OTF2_EvtWriter_CallingContextEnter(w, NULL, t++, 0, 1));
	W(OTF2_EvtWriter_CallingContextLeave(w, NULL, t++, 0));
	W(OTF2_EvtWriter_CallingContextSample(w, NULL, t++, 0, 1, 0));
	W(OTF2_EvtWriter_IoCreateHandle(w, NULL, t++, 0,
					OTF2_IO_ACCESS_MODE_READ_ONLY,
					OTF2_IO_CREATION_FLAG_NONE,
					OTF2_IO_STATUS_FLAG_NONE));
	W(OTF2_EvtWriter_IoDestroyHandle(w, NULL, t++, 0));
	W(OTF2_EvtWriter_IoDuplicateHandle(w, NULL, t++, 0, 0,
					   OTF2_IO_STATUS_FLAG_NONE));
	W(OTF2_EvtWriter_IoSeek(w, NULL, t++, 0, -5,
				OTF2_IO_SEEK_FROM_CURRENT, 10));
	W(OTF2_EvtWriter_IoChangeStatusFlags(w, NULL, t++, 0,
					     OTF2_IO_STATUS_FLAG_NONE));
	W(OTF2_EvtWriter_IoDeleteFile(w, NULL, t++, 0, 0));
	W(OTF2_EvtWriter_IoOperationBegin(w, NULL, t++, 0,
					  OTF2_IO_OPERATION_MODE_READ,
					  OTF2_IO_OPERATION_FLAG_NONE, 10, 1));
	W(OTF2_EvtWriter_IoOperationTest(w, NULL, t++, 0, 1));
	W(OTF2_EvtWriter_IoOperationIssued(w, NULL, t++, 0, 1));
	W(OTF2_EvtWriter_IoOperationComplete(w, NULL, t++, 0, 10, 1));
	W(OTF2_EvtWriter_IoOperationCancelled(w, NULL, t++, 0, 1));
	W(OTF2_EvtWriter_IoAcquireLock(w, NULL, t++, 0, OTF2_LOCK_SHARED));
	W(OTF2_EvtWriter_IoReleaseLock(w, NULL, t++, 0, OTF2_LOCK_SHARED));
	W(OTF2_EvtWriter_IoTryLock(w, NULL, t++, 0, OTF2_LOCK_SHARED));
	W(OTF2_EvtWriter_ProgramBegin(w, al, t++, 1, 2, args));
	W(OTF2_EvtWriter_ProgramEnd(w, NULL, t++, -1));
	W(OTF2_EvtWriter_NonBlockingCollectiveRequest(w, NULL, t++, 4));
	W(OTF2_EvtWriter_NonBlockingCollectiveComplete(
		w, NULL, t++, OTF2_COLLECTIVE_OP_BCAST, 0, 0, 1, 2, 4));
	W(OTF2_EvtWriter_CommCreate(w, NULL, t++, 0));
	W(OTF2_EvtWriter_CommDestroy(w, NULL, t++, 0));
	uint64_t nev = 0;
	W(OTF2_EvtWriter_GetNumberOfEvents(w, &nev));
	W(OTF2_Archive_CloseEvtWriter(a, w));
	OTF2_AttributeList_Delete(al);

	OTF2_EvtWriter *w1 = OTF2_Archive_GetEvtWriter(a, 1);
	assert_non_null(w1);
	W(OTF2_EvtWriter_Enter(w1, NULL, 1500, 0));
	W(OTF2_EvtWriter_Leave(w1, NULL, 1600, 0));
	W(OTF2_Archive_CloseEvtWriter(a, w1));
	W(OTF2_Archive_CloseEvtFiles(a));

	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(a);
	assert_non_null(g);
	W(OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000, 1000,
						    t - 1000, 0));
	static const char *strings[] = {"", "main", "arg0", "arg1",
					"MPI_COMM_WORLD", "node", "thread",
					"attr", "team"};
	for (unsigned i = 0; i < sizeof strings / sizeof *strings; i++)
		W(OTF2_GlobalDefWriter_WriteString(g, i, strings[i]));
	OTF2_AttributeValue av;
	memset(&av, 0, sizeof av);
	av.stringRef = 1;
	W(OTF2_GlobalDefWriter_WriteParadigm(g, OTF2_PARADIGM_MPI, 4,
					     OTF2_PARADIGM_CLASS_PROCESS));
	W(OTF2_GlobalDefWriter_WriteParadigmProperty(
		g, OTF2_PARADIGM_MPI, OTF2_PARADIGM_PROPERTY_COMM_NAME_TEMPLATE,
		OTF2_TYPE_STRING, av));
	OTF2_IoParadigmProperty pp[1] = {OTF2_IO_PARADIGM_PROPERTY_VERSION};
	OTF2_Type pt[1] = {OTF2_TYPE_STRING};
	OTF2_AttributeValue pv[1] = {av};
	W(OTF2_GlobalDefWriter_WriteIoParadigm(
		g, 0, 1, 1, OTF2_IO_PARADIGM_CLASS_SERIAL,
		OTF2_IO_PARADIGM_FLAG_NONE, 1, pp, pt, pv));
	for (size_t i = 0; i < NATTR; i++)
		W(OTF2_GlobalDefWriter_WriteAttribute(g, (OTF2_AttributeRef)i,
						      7, 0,
						      attr_vals[i].type));
	W(OTF2_GlobalDefWriter_WriteSystemTreeNode(
		g, 0, 5, 5, OTF2_UNDEFINED_SYSTEM_TREE_NODE));
	W(OTF2_GlobalDefWriter_WriteLocationGroup(
		g, 0, 5, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
		OTF2_UNDEFINED_LOCATION_GROUP));
	W(OTF2_GlobalDefWriter_WriteLocation(
		g, 0, 6, OTF2_LOCATION_TYPE_CPU_THREAD, nev, 0));
	W(OTF2_GlobalDefWriter_WriteLocation(
		g, 1, 6, OTF2_LOCATION_TYPE_CPU_THREAD, 2, 0));
	W(OTF2_GlobalDefWriter_WriteRegion(g, 0, 1, 1, 0,
					   OTF2_REGION_ROLE_FUNCTION,
					   OTF2_PARADIGM_USER,
					   OTF2_REGION_FLAG_NONE, 0, 1, 2));
	W(OTF2_GlobalDefWriter_WriteCallsite(g, 0, 0, 3, 0, 0));
	W(OTF2_GlobalDefWriter_WriteCallpath(g, 0, OTF2_UNDEFINED_CALLPATH,
					     0));
	uint64_t members[2] = {0, 1};
	W(OTF2_GlobalDefWriter_WriteGroup(g, 0, 4,
					  OTF2_GROUP_TYPE_COMM_LOCATIONS,
					  OTF2_PARADIGM_MPI,
					  OTF2_GROUP_FLAG_NONE, 2, members));
	W(OTF2_GlobalDefWriter_WriteMetricMember(
		g, 0, 1, 0, OTF2_METRIC_TYPE_PAPI,
		OTF2_METRIC_ACCUMULATED_START, OTF2_TYPE_INT64,
		OTF2_BASE_DECIMAL, -3, 0));
	OTF2_MetricMemberRef mm[1] = {0};
	W(OTF2_GlobalDefWriter_WriteMetricClass(g, 0, 1, mm,
						OTF2_METRIC_SYNCHRONOUS,
						OTF2_RECORDER_KIND_CPU));
	W(OTF2_GlobalDefWriter_WriteMetricInstance(g, 1, 0, 0,
						   OTF2_SCOPE_LOCATION, 1));
	W(OTF2_GlobalDefWriter_WriteComm(g, 0, 4, 0, OTF2_UNDEFINED_COMM,
					 OTF2_COMM_FLAG_NONE));
	W(OTF2_GlobalDefWriter_WriteComm(g, 1, 8, 0, OTF2_UNDEFINED_COMM,
					 OTF2_COMM_FLAG_NONE));
	W(OTF2_GlobalDefWriter_WriteParameter(g, 0, 1,
					      OTF2_PARAMETER_TYPE_INT64));
	W(OTF2_GlobalDefWriter_WriteRmaWin(g, 0, 1, 0,
					   OTF2_RMA_WIN_FLAG_NONE));
	W(OTF2_GlobalDefWriter_WriteMetricClassRecorder(g, 0, 0));
	av.uint32 = 5;
	W(OTF2_GlobalDefWriter_WriteSystemTreeNodeProperty(
		g, 0, 1, OTF2_TYPE_UINT32, av));
	W(OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(
		g, 0, OTF2_SYSTEM_TREE_DOMAIN_SHARED_MEMORY));
	av.int8 = -3;
	W(OTF2_GlobalDefWriter_WriteLocationGroupProperty(
		g, 0, 1, OTF2_TYPE_INT8, av));
	av.float64 = 3.5;
	W(OTF2_GlobalDefWriter_WriteLocationProperty(g, 0, 1,
						     OTF2_TYPE_DOUBLE, av));
	W(OTF2_GlobalDefWriter_WriteCartDimension(g, 0, 1, 4,
						  OTF2_CART_PERIODIC_TRUE));
	OTF2_CartDimensionRef dims[1] = {0};
	W(OTF2_GlobalDefWriter_WriteCartTopology(g, 0, 1, 0, 1, dims));
	uint32_t coords[1] = {3};
	W(OTF2_GlobalDefWriter_WriteCartCoordinate(g, 0, 0, 1, coords));
	W(OTF2_GlobalDefWriter_WriteSourceCodeLocation(g, 0, 1, 12));
	W(OTF2_GlobalDefWriter_WriteCallingContext(
		g, 0, 0, 0, OTF2_UNDEFINED_CALLING_CONTEXT));
	av.float32 = 0.25f;
	W(OTF2_GlobalDefWriter_WriteCallingContextProperty(
		g, 0, 1, OTF2_TYPE_FLOAT, av));
	W(OTF2_GlobalDefWriter_WriteInterruptGenerator(
		g, 0, 1, OTF2_INTERRUPT_GENERATOR_MODE_TIME,
		OTF2_BASE_DECIMAL, -6, 100));
	W(OTF2_GlobalDefWriter_WriteIoRegularFile(g, 0, 1, 0));
	W(OTF2_GlobalDefWriter_WriteIoDirectory(g, 1, 1, 0));
	av.int64 = -9;
	W(OTF2_GlobalDefWriter_WriteIoFileProperty(g, 0, 1, OTF2_TYPE_INT64,
						   av));
	W(OTF2_GlobalDefWriter_WriteIoHandle(g, 0, 1, 0, 0,
					     OTF2_IO_HANDLE_FLAG_NONE,
					     OTF2_UNDEFINED_COMM,
					     OTF2_UNDEFINED_IO_HANDLE));
	W(OTF2_GlobalDefWriter_WriteIoPreCreatedHandleState(
		g, 0, OTF2_IO_ACCESS_MODE_READ_ONLY,
		OTF2_IO_STATUS_FLAG_NONE));
	av.uint64 = 77;
	W(OTF2_GlobalDefWriter_WriteCallpathParameter(g, 0, 0,
						      OTF2_TYPE_UINT64, av));
	W(OTF2_GlobalDefWriter_WriteInterComm(g, 2, 1, 0, 0, 0,
					      OTF2_COMM_FLAG_NONE));
	W(OTF2_Archive_CloseGlobalDefWriter(a, g));
	W(OTF2_Archive_Close(a));
	return nev;
}
#pragma GCC diagnostic pop

/* Decodes the typed field `idx` of a record. */
static void typed_field(ccg_kind kind, const ccg_buf *rec, unsigned idx,
			uint8_t *t, uint64_t *raw)
{
	const unsigned char *p = (const unsigned char *)rec->data;
	const unsigned char *end = p + rec->len;
	for (unsigned i = 0; i < idx; i++)
		assert_int_equal(walk_field(ccg_schema[kind].f[i].type, &p,
					    end),
				 0);
	assert_int_equal(ccg_schema[kind].f[idx].type, CCG_FT_TYPED);
	assert_int_equal(ccg_get_typed(&p, end, t, raw), 0);
}

/* Every definition kind's name is one `otf2-print -G` prints (the archive
 * holds one definition of each kind). */
static void compare_def_names(const char *anchor)
{
	char cmd[8192];
	fmt(cmd, sizeof cmd, "otf2-print -G '%s' 2>/dev/null", anchor);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	int seen[CCG_KIND__COUNT] = {0};
	char *line = NULL;
	size_t cap = 0;
	char word[128];
	while (getline(&line, &cap, p) >= 0) {
		if (sscanf(line, "%127s", word) != 1)
			continue;
		for (int k = CCG_EV__COUNT; k < CCG_KIND__COUNT; k++)
			if (strcmp(word, ccg_schema[k].name) == 0)
				seen[k] = 1;
	}
	free(line);
	assert_int_equal(pclose(p), 0);
	for (int k = CCG_EV__COUNT; k < CCG_KIND__COUNT; k++)
		if (k != CCG_DEF_UNKNOWN && !seen[k])
			fail_msg("otf2-print -G prints no %s",
				 ccg_schema[k].name);
}

static void test_all_kinds(void **state)
{
	(void)state;
	char dir[] = "/tmp/ccg_test_read_XXXXXX";
	assert_non_null(mkdtemp(dir));
	uint64_t nev = write_all_kinds(dir);
	/* every event kind except UNKNOWN, which OTF2 cannot write */
	assert_int_equal(nev, CCG_EV__COUNT - 1);
	char anchor[4096];
	fmt(anchor, sizeof anchor, "%s/traces.otf2", dir);

	collect defs;
	collect_init(&defs);
	defs.keep_kind = CCG_DEF_LOCATION_PROPERTY;
	ccg_read *r = open_with_defs(anchor, &defs);
	assert_int_equal(defs.bad, 0);
	for (int k = CCG_EV__COUNT; k < CCG_KIND__COUNT; k++)
		if (k != CCG_DEF_UNKNOWN && defs.kinds[k] == 0)
			fail_msg("no %s definition read",
				 ccg_schema[k].name);
	assert_int_equal(defs.nlocs, 2);
	uint8_t t;
	uint64_t raw;
	typed_field(CCG_DEF_LOCATION_PROPERTY, &defs.keep, 2, &t, &raw);
	assert_int_equal(t, OTF2_TYPE_DOUBLE);
	assert_true(raw == dbits(3.5));

	collect c;
	collect_init(&c);
	c.keep_kind = CCG_EV_PROGRAM_BEGIN;
	ccg_buf msg = CCG_BUF_INIT;
	ccg_err err = ccg_read_location(r, 0, ev_sink, &c, &msg);
	if (err)
		fail_msg("%s: %s", ccg_err_name(err), msg.data);
	assert_int_equal(c.bad, 0);
	assert_int_equal(c.nev, nev);
	for (int k = 0; k < CCG_EV__COUNT; k++)
		if (c.kinds[k] != (k != CCG_EV_UNKNOWN))
			fail_msg("%zu %s events", c.kinds[k],
				 ccg_schema[k].name);
	/* written in ccg_kind order, one tick apart */
	for (size_t i = 0; i < c.nev; i++) {
		assert_int_equal(c.ev[i].kind, i);
		assert_true(c.ev[i].time == 1000 + i);
		if (c.ev[i].kind == CCG_EV_ENTER ||
		    c.ev[i].kind == CCG_EV_LEAVE)
			assert_true(c.ev[i].call == 0);
	}
	/* PROGRAM_BEGIN: name 1, args [2, 3], then one attribute per type */
	const unsigned char *p = (const unsigned char *)c.keep.data;
	const unsigned char *end = p + c.keep.len;
	uint64_t v;
	assert_int_equal(ccg_varint_get(&p, end, &v), 0);
	assert_true(v == 1);
	assert_int_equal(ccg_varint_get(&p, end, &v), 0);
	assert_true(v == 2);
	assert_int_equal(ccg_varint_get(&p, end, &v), 0);
	assert_true(v == 2);
	assert_int_equal(ccg_varint_get(&p, end, &v), 0);
	assert_true(v == 3);
	assert_int_equal(ccg_varint_get(&p, end, &v), 0);
	assert_true(v == NATTR);
	for (size_t i = 0; i < NATTR; i++) {
		uint64_t id;
		assert_int_equal(ccg_varint_get(&p, end, &id), 0);
		assert_true(id == i);
		assert_int_equal(ccg_get_typed(&p, end, &t, &raw), 0);
		assert_int_equal(t, attr_vals[i].type);
		if (raw != attr_raw(i))
			fail_msg("attribute %zu (type %u): %#" PRIx64
				 ", want %#" PRIx64,
				 i, t, raw, attr_raw(i));
	}
	assert_ptr_equal(p, end);

	/* names, order and times agree with otf2-print */
	if (have_otf2_print()) {
		compare_def_names(anchor);
		compare_location(anchor, 0, &c);
		collect c1;
		collect_init(&c1);
		assert_int_equal(ccg_read_location(r, 1, ev_sink, &c1, &msg),
				 CCG_OK);
		assert_int_equal(c1.nev, 2);
		assert_int_equal(c1.ev[0].time, 1500);
		compare_location(anchor, 1, &c1);
		collect_free(&c1);
	} else {
		print_message("otf2-print not found: names not compared\n");
	}
	collect_free(&c);
	collect_free(&defs);
	ccg_buf_free(&msg);
	ccg_read_close(r);
	rm_tree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_typed_roundtrip),
		cmocka_unit_test(test_schema_table),
		cmocka_unit_test(test_all_kinds),
		cmocka_unit_test(test_pingpong),
		cmocka_unit_test(test_xeonphi),
		cmocka_unit_test(test_sstmacro),
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_location_errors),
		cmocka_unit_test(test_consume_all),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
