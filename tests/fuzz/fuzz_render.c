/*
 * fuzz_render.c - libFuzzer harness: the events.tsv, metrics.tsv and
 * seconds renderers on arbitrary records, against the definitions of the
 * fixture trace.
 *
 * Input: byte 0 the event kind (modulo the event kinds), bytes 1-8 a
 * time, bytes 9-16 a region id and a double, the rest the record's
 * fields (the bytes an event record holds after its header).
 */
#include <stdint.h>
#include <string.h>

#include "ccg_tsv.h"
#include "fuzz_fixture.h"
#include "trace_i.h"

#define HEAD 17

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < HEAD)
		return 0;
	const ccg_defs *d = fuzz_fixture_trace()->defs;
	ccg_kind kind = (ccg_kind)(data[0] % CCG_EV__COUNT);
	uint64_t time = fuzz_get64(data + 1), other = fuzz_get64(data + 9);
	const unsigned char *fields = data + HEAD;
	size_t len = size - HEAD;
	ccg_buf b = CCG_BUF_INIT;

	ccg_tsv_event(&b, d, kind, time, 20, "loc\t", other % 64, 3,
		      fields, len);
	ccg_buf_reset(&b);
	ccg_tsv_event_tail(&b, d, kind, fields, len);

	/* Seconds: zero and resolution from the record's first bytes. */
	ccg_secfmt f;
	uint64_t zero = len >= 8 ? fuzz_get64(fields) : 0;
	ccg_secfmt_init(&f, zero, other, time);
	ccg_buf_reset(&b);
	ccg_secfmt_put(&b, &f, time);
	ccg_secfmt_put(&b, &f, other);
	ccg_secfmt_put_wide(&b, &f, time);
	char sec[CCG_SECFMT_MAX];
	size_t n = ccg_secfmt_fmt(sec, &f, time);
	size_t nw = ccg_secfmt_fmt_wide(sec, &f, time);
	/* The plain form is never longer than the wide one, which has the
	 * format's width for every time from the zero to its last. */
	if (nw > CCG_SECFMT_MAX || n > nw ||
	    (time >= zero && nw != ccg_secfmt_width(&f)))
		__builtin_trap();

	double v;
	memcpy(&v, data + 9, sizeof v);
	ccg_tsv_double(&b, v);
	ccg_tsv_region(&b, d, other);
	ccg_tsv_paradigm(d, other);

	/* The same fields as a METRIC record's. */
	ccg_mcache mc;
	ccg_mcache_init(&mc, d);
	uint32_t rows = 0;
	ccg_buf_reset(&b);
	ccg_tsv_metric_tails(&b, &mc, fields, len, &rows);
	ccg_mcache_free(&mc);
	ccg_buf_free(&b);
	return 0;
}
