/*
 * fuzz_seed.c - writes the seed corpus of the fuzz harnesses from the
 * fixture trace: fuzz_seed OUTDIR makes OUTDIR/fuzz_index (the trace's
 * index file, and its records in the harness's records form),
 * OUTDIR/fuzz_render (event records) and OUTDIR/fuzz_names (window names
 * and paths of the trace's tree).
 */
#define _XOPEN_SOURCE 700
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ccg_index.h"
#include "fuzz_fixture.h"

static char g_out[4096];

static void put(const char *harness, const char *name, const void *p,
		size_t len)
{
	char path[8300];
	snprintf(path, sizeof path, "%s/%s", g_out, harness);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/%s/%s", g_out, harness, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(p, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "fuzz_seed: cannot write %s\n", path);
		exit(1);
	}
}

static void put_le(ccg_buf *b, uint64_t v, int n)
{
	for (int i = 0; i < n; i++, v >>= 8)
		ccg_buf_addc(b, (char)(v & 0xff));
}

/* The index as a file and as records; its events for fuzz_render. */
static void seed_index(const char *path)
{
	FILE *f = fopen(path, "rb");
	ccg_buf file = CCG_BUF_INIT;
	char chunk[65536];
	size_t n;
	while (f && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
		ccg_buf_add(&file, chunk, n);
	if (f)
		fclose(f);
	put("fuzz_index", "index.ccg", file.data, file.len);
	ccg_buf_free(&file);

	ccg_index *x = NULL;
	if (ccg_index_open(path, NULL, NULL, &x, NULL)) {
		fprintf(stderr, "fuzz_seed: cannot open %s\n", path);
		exit(1);
	}
	ccg_buf recs = CCG_BUF_INIT;
	ccg_buf_addc(&recs, 'T');
	for (int s = 0; s < CCG_SEC__COUNT; s++) {
		uint64_t nr = ccg_index_count(x, (enum ccg_section)s);
		for (uint64_t id = 0; id < nr; id++) {
			const unsigned char *p;
			size_t len;
			void *hold;
			if (ccg_index_record(x, (enum ccg_section)s, id, &p,
					     &len, &hold))
				continue;
			if (len <= 0xffff) {
				ccg_buf_addc(&recs, (char)s);
				put_le(&recs, len, 2);
				ccg_buf_add(&recs, p, len);
			}
			ccg_index_release(x, hold);
		}
	}
	put("fuzz_index", "records-trace", recs.data, recs.len);
	recs.data[0] = 'R';
	put("fuzz_index", "records", recs.data, recs.len);
	ccg_buf_free(&recs);

	ccg_store *s = NULL;
	if (ccg_index_store(x, 1u << 20, &s) == CCG_OK) {
		uint32_t ne = ccg_store_event_count(s);
		ccg_buf ev = CCG_BUF_INIT;
		for (uint32_t id = 0; id < ne && id < 48; id++) {
			ccg_evrec h;
			ccg_buf_reset(&ev);
			ccg_buf_addc(&ev, (char)0);
			put_le(&ev, 1000000 + id, 8);
			put_le(&ev, id % 4, 8);
			if (ccg_store_get_event(s, id, &h, &ev))
				continue;
			ev.data[0] = (char)h.kind;
			char name[32];
			snprintf(name, sizeof name, "event-%02u", id);
			put("fuzz_render", name, ev.data, ev.len);
		}
		ccg_buf_free(&ev);
		ccg_store_free(s);
	}
	ccg_index_close(x);
}

/* Window names, and paths of the tree two levels down. */
static void seed_names(const ccg_trace *t)
{
	static const char *names[] = {
		"0-100", "1-2ms", "10%-20%", "0.5s-1.5s", "1000-",
		"time/0-50%", "time/1us-1ms/events.tsv", "50%-60%/profile.folded",
	};
	char file[32];
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		snprintf(file, sizeof file, "name-%02zu", i);
		put("fuzz_names", file, names[i], strlen(names[i]));
	}
	/* A name with a clock: zero 100, first 100, last 10^12, 10^9 ticks
	 * per second, 5000 events. */
	ccg_buf b = CCG_BUF_INIT;
	ccg_buf_adds(&b, "1.25s-2500ms");
	ccg_buf_addc(&b, '\0');
	uint64_t ck[5] = {100, 100, 1000000000000ull, 1000000000ull, 5000};
	for (int i = 0; i < 5; i++)
		put_le(&b, ck[i], 8);
	put("fuzz_names", "clock", b.data, b.len);
	ccg_buf name = CCG_BUF_INIT, sub = CCG_BUF_INIT;
	unsigned k = 0;
	for (uint64_t i = 0; i < 16; i++) {
		ccg_id child, grand;
		ccg_buf_reset(&name);
		if (ccg_trace_readdir(t, CCG_ID_ROOT, i, &child, &name))
			break;
		snprintf(file, sizeof file, "path-%02u", k++);
		put("fuzz_names", file, name.data, name.len);
		for (uint64_t j = 0; ccg_trace_is_dir(child) && j < 4; j++) {
			ccg_buf_reset(&sub);
			if (ccg_trace_readdir(t, child, j, &grand, &sub))
				break;
			ccg_buf_reset(&b);
			ccg_buf_addf(&b, "%s/%s", name.data, sub.data);
			snprintf(file, sizeof file, "path-%02u", k++);
			put("fuzz_names", file, b.data, b.len);
		}
	}
	ccg_buf_free(&name);
	ccg_buf_free(&sub);
	ccg_buf_free(&b);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: fuzz_seed OUTDIR\n");
		return 2;
	}
	snprintf(g_out, sizeof g_out, "%s", argv[1]);
	mkdir(g_out, 0755);
	const char *path = strdup(fuzz_fixture_path("seed.ccg"));
	ccg_options opt;
	ccg_options_init(&opt);
	opt.index_path = path;
	opt.threads = 1;
	ccg_trace *t = NULL;
	if (ccg_trace_open(fuzz_fixture_anchor(), &opt, &t, NULL)) {
		fprintf(stderr, "fuzz_seed: cannot open the fixture trace\n");
		return 1;
	}
	seed_index(path);
	seed_names(t);
	ccg_trace_close(t);
	free((void *)path);
	return 0;
}
