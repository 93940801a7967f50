/*
 * fuzz_index.c - libFuzzer harness: the index reader on damaged files.
 *
 * Two kinds of input, told apart by the first byte:
 *
 *   'C' (an index file's magic begins so): the bytes of an index file.
 *   Before it is opened, the harness makes its checksums right again -
 *   header, footer, directory and every block the directory names - so
 *   that the fuzzer gets past them into the header, the directory, LZ4
 *   decompression and the records.  Opened without identity or parameter
 *   checks.
 *
 *   anything else: records.  After the first byte, a sequence of
 *   [section byte][length, 2 bytes little-endian][record]; the harness
 *   writes them with the index writer (sections forced into order), so
 *   every check of the file passes and only the records are damaged.  The
 *   file gets the fixture trace's identity and the default parameters;
 *   when the first byte is 'T' the fixture trace is opened from it with
 *   ccg_trace_open (locations, trace figures, stored results) and its
 *   tree walked.
 *
 * Either way, an index that opens is read: every small section's records,
 * nodes with their items, event records rendered as events.tsv tails
 * against the fixture's definitions, time records, a time cursor and
 * every time record's values (predicted from its times).
 */
#define _XOPEN_SOURCE 700
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_codec.h"
#include "ccg_store_times.h"
#include "ccg_store_vals.h"
#include "ccg_hash.h"
#include "ccg_index.h"
#include "ccg_tsv.h"
#include "fuzz_fixture.h"
#include "trace_i.h"

#define FOOTER 40
#define MAX_NODES 2048
#define MAX_ITEMS 64
#define MAX_TIMES 64

static uint64_t get_le(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void put_le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint64_t sum(const void *p, size_t len)
{
	return ccg_hash(p, len, CCG_INDEX_SEED).a;
}

/* Rewrites directory d (dlen bytes) into out with every block's checksum
 * taken from file f (fsize bytes); 0, or -1 when it does not parse. */
static int fix_directory(const uint8_t *f, size_t fsize, const uint8_t *d,
			 size_t dlen, ccg_buf *out)
{
	const uint8_t *p = d, *end = d + dlen;
	for (int s = 0; s < CCG_SEC__COUNT; s++) {
		uint64_t nrecs, nblocks;
		if (ccg_varint_get(&p, end, &nrecs) ||
		    ccg_varint_get(&p, end, &nblocks) ||
		    nblocks > (uint64_t)(end - p))
			return -1;
		ccg_put_u(out, nrecs);
		ccg_put_u(out, nblocks);
		for (uint64_t b = 0; b < nblocks; b++) {
			uint64_t v[5];
			for (int i = 0; i < 5; i++)
				if (ccg_varint_get(&p, end, &v[i]))
					return -1;
			if (v[1] <= fsize && v[2] <= fsize - v[1])
				v[4] = sum(f + v[1], (size_t)v[2]);
			for (int i = 0; i < 5; i++)
				ccg_put_u(out, v[i]);
		}
	}
	ccg_buf_add(out, p, (size_t)(end - p));
	return ccg_buf_status(out) ? -1 : 0;
}

/* The file of a raw input, its checksums made right where its layout
 * lets them be found. */
static void fix_file(const uint8_t *in, size_t size, ccg_buf *file)
{
	ccg_buf_add(file, in, size);
	if (size < 16 + 8 + FOOTER || ccg_buf_status(file))
		return;
	uint8_t *f = (uint8_t *)file->data;
	uint64_t hlen = get_le(f + 12, 4);
	if (hlen >= 24 && hlen <= size - FOOTER)
		put_le(f + hlen - 8, sum(f, (size_t)hlen - 8), 8);
	uint8_t *foot = f + size - FOOTER;
	uint64_t doff = get_le(foot + 8, 8), dlen = get_le(foot + 16, 8);
	ccg_buf dir = CCG_BUF_INIT;
	if (doff <= size - FOOTER && dlen == size - FOOTER - doff &&
	    fix_directory(f, (size_t)doff, f + doff, (size_t)dlen, &dir) == 0) {
		uint8_t tail[FOOTER];
		memcpy(tail, foot, FOOTER);
		put_le(tail + 16, dir.len, 8);
		put_le(tail + 24, dir.len ? sum(dir.data, dir.len) : 0, 8);
		put_le(tail + 32, sum(tail, 32), 8);
		ccg_buf_setlen(file, (size_t)doff);
		ccg_buf_add(file, dir.data, dir.len);
		ccg_buf_add(file, tail, FOOTER);
	} else {
		put_le(foot + 32, sum(foot, 32), 8);
	}
	ccg_buf_free(&dir);
}

static ccg_err each_rec(void *ctx, const unsigned char *rec, size_t len)
{
	uint64_t *bytes = ctx;
	for (size_t i = 0; i < len; i++)
		*bytes += rec[i];
	return CCG_OK;
}

/* Reads an index that opened. */
static void walk_index(ccg_index *x)
{
	uint64_t bytes = 0;
	ccg_index_each(x, CCG_SEC_LOCS, each_rec, &bytes);
	ccg_index_each(x, CCG_SEC_META, each_rec, &bytes);
	uint64_t nsums = ccg_index_count(x, CCG_SEC_SUMS);
	for (uint64_t k = 0; k < nsums && k < 4; k++) {
		const unsigned char *p;
		size_t len;
		void *hold;
		if (ccg_index_record(x, CCG_SEC_SUMS, nsums - 1 - k, &p, &len,
				     &hold) == CCG_OK) {
			each_rec(&bytes, p, len);
			ccg_index_release(x, hold);
		}
	}
	ccg_store *s = NULL;
	if (ccg_index_store(x, 1u << 20, &s) != CCG_OK)
		return;
	const ccg_defs *d = fuzz_fixture_trace()->defs;
	ccg_buf fields = CCG_BUF_INIT, line = CCG_BUF_INIT;
	uint32_t nn = ccg_store_node_count(s);
	for (uint32_t id = 0; id < nn && id < MAX_NODES; id++) {
		ccg_node h;
		ccg_ref refs[MAX_ITEMS];
		if (ccg_store_get_node(s, id, &h, refs, MAX_ITEMS) != CCG_OK)
			continue;
		uint32_t n = h.nitems < MAX_ITEMS ? h.nitems : MAX_ITEMS;
		for (uint32_t i = 0; i < n; i++) {
			ccg_evrec ev;
			ccg_buf_reset(&fields);
			if (!CCG_REF_IS_EVENT(refs[i]) ||
			    ccg_store_get_event(s, CCG_REF_ID(refs[i]), &ev,
						&fields) != CCG_OK)
				continue;
			ccg_buf_reset(&line);
			ccg_tsv_event_tail(&line, d, ev.kind,
					   (const unsigned char *)fields.data,
					   fields.len);
		}
	}
	uint32_t ne = ccg_store_event_count(s);
	for (uint32_t id = 0; id < ne && id < MAX_NODES; id++) {
		ccg_evrec ev;
		ccg_store_get_event(s, id, &ev, NULL);
	}
	uint32_t nt = ccg_store_time_count(s);
	static uint64_t t[CCG_TIME_BLOCK];
	for (uint32_t id = 0; id < nt && id < MAX_TIMES; id++) {
		uint32_t n;
		ccg_store_get_times(s, id, t, &n);
	}
	static ccg_tcur c;
	uint64_t n = (uint64_t)nt * CCG_TIME_BLOCK, tm, i;
	ccg_tcur_init(&c, s, 0, n, 0,
		      UINT64_MAX);
	uint64_t at[4] = {0, CCG_TIME_BLOCK - 1, n / 2, n ? n - 1 : 0};
	for (int k = 0; k < 4; k++)
		ccg_tcur_get(&c, at[k], &tm);
	ccg_tcur_lower(&c, 1000, &i);
	/* Every time record's value section, decoded with its times. */
	ccg_vcur vc;
	ccg_vcur_init(&vc, s, 0, n);
	for (uint32_t id = 0; id < nt && id < MAX_TIMES; id++) {
		uint64_t m;
		const uint64_t *vals;
		uint32_t nv;
		ccg_vcur_get(&vc, (uint64_t)id * CCG_TIME_BLOCK, &m, &vals,
			     &nv);
	}
	ccg_vcur_free(&vc);
	ccg_buf_free(&fields);
	ccg_buf_free(&line);
	ccg_store_free(s);
}

/* Writes the records of a records input to `path`; 0 or -1. */
static int write_records(const uint8_t *data, size_t size, const char *path,
			 const ccg_buf *identity, const ccg_index_params *p)
{
	ccg_index_writer *w = NULL;
	if (ccg_index_begin(path, p, identity, &w, NULL) != CCG_OK)
		return -1;
	size_t at = 1;
	int sec = 0;
	while (size - at >= 3) {
		int s = data[at] % CCG_SEC__COUNT;
		size_t len = (size_t)get_le(data + at + 1, 2);
		at += 3;
		if (len > size - at)
			len = size - at;
		if (s > sec)
			sec = s;
		if (ccg_index_add(w, (enum ccg_section)sec, data + at, len)) {
			ccg_index_abort(w);
			return -1;
		}
		at += len;
	}
	uint64_t bytes;
	return ccg_index_commit(w, &bytes, NULL) == CCG_OK ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static ccg_buf identity;
	static const char *path;
	if (!path) {
		if (ccg_index_identity(fuzz_fixture_anchor(), &identity, NULL))
			abort();
		path = strdup(fuzz_fixture_path("fuzz.ccg"));
		fuzz_fixture_trace();
	}
	if (size < 1)
		return 0;
	ccg_options opt;
	ccg_options_init(&opt);
	ccg_index_params want = {opt.tol_abs, opt.tol_rel, opt.fanout, 0, 0, 0};
	ccg_index *x = NULL;
	if (data[0] == 'C') {
		ccg_buf file = CCG_BUF_INIT;
		fix_file(data, size, &file);
		FILE *f = fopen(path, "wb");
		if (!f)
			abort();
		fwrite(file.data ? file.data : "", 1, file.len, f);
		fclose(f);
		ccg_buf_free(&file);
		if (ccg_index_open(path, NULL, NULL, &x, NULL) == CCG_OK)
			walk_index(x);
		ccg_index_close(x);
		return 0;
	}
	if (write_records(data, size, path, &identity, &want))
		return 0;
	if (ccg_index_open(path, &identity, &want, &x, NULL) == CCG_OK)
		walk_index(x);
	ccg_index_close(x);
	if (data[0] == 'T') {
		ccg_trace *t = NULL;
		opt.index_path = path;
		opt.threads = 1;
		if (ccg_trace_open(fuzz_fixture_anchor(), &opt, &t, NULL) ==
		    CCG_OK)
			fuzz_fixture_walk(t);
		ccg_trace_close(t);
	}
	return 0;
}
