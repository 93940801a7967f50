#include "ccg_table.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_search.h"

#include "ccg_render.h"

void ccg_sink_init(ccg_sink *s, ccg_buf *out, uint64_t from, uint64_t len)
{
	*s = (ccg_sink){out, CCG_BUF_INIT, 0, from,
			len > UINT64_MAX - from ? UINT64_MAX : from + len, 0};
}

void ccg_sink_free(ccg_sink *s)
{
	ccg_buf_free(&s->line);
}

void ccg_sink_end(ccg_sink *s)
{
	uint64_t a = s->size, b = s->size + s->line.len;
	s->size = b;
	if (ccg_buf_status(&s->line))
		s->oom = 1;
	if (!s->out || b <= s->from || a >= s->to)
		return;
	uint64_t lo = a > s->from ? a : s->from, hi = b < s->to ? b : s->to;
	ccg_buf_add(s->out, s->line.data + (lo - a), (size_t)(hi - lo));
}

int ccg_sink_skip(ccg_sink *s, uint64_t n)
{
	if (s->out && s->size + n > s->from && s->size < s->to)
		return 0;
	s->size += n;
	return 1;
}

int ccg_sink_done(const ccg_sink *s)
{
	return s->out && s->size >= s->to;
}

void ccg_sink_add(ccg_sink *s, const char *text, size_t n)
{
	if (ccg_sink_skip(s, n))
		return;
	ccg_buf_add(ccg_sink_begin(s), text, n);
	ccg_sink_end(s);
}

ccg_err ccg_sink_status(const ccg_sink *s)
{
	if (s->oom || (s->out && ccg_buf_status(s->out)))
		return CCG_ENOMEM;
	return ccg_buf_status(&s->line);
}

static int cmp_excl(const void *a, const void *b)
{
	const ccg_rstat *x = a, *y = b; /* exclusive, inclusive down */
	const uint64_t p[] = {y->excl, y->incl, x->region};
	const uint64_t q[] = {x->excl, x->incl, y->region};
	return ccg_cmp_keys(p, q, 3);
}

void ccg_table_stats(ccg_sink *s, const ccg_defs *d, ccg_stats *st)
{
	static const char head[] = "region\tcalls\tinclusive\texclusive\t"
				   "min\tmax\tmean\n";
	qsort(st->r, st->n, sizeof *st->r, cmp_excl);
	ccg_sink_add(s, head, sizeof head - 1);
	for (uint32_t i = 0; i < st->n; i++) {
		const ccg_rstat *r = &st->r[i];
		ccg_buf *b = ccg_sink_begin(s);
		ccg_render_region(b, d, r->region);
		ccg_buf_addf(b, "\t%llu\t%llu\t%llu", (unsigned long long)r->calls,
			     (unsigned long long)r->incl,
			     (unsigned long long)r->excl);
		if (r->calls)
			ccg_buf_addf(b, "\t%llu\t%llu\t%.3f\n",
				     (unsigned long long)r->min,
				     (unsigned long long)r->max,
				     (double)r->sum / (double)r->calls);
		else
			ccg_buf_adds(b, "\t-\t-\t-\n");
		ccg_sink_end(s);
	}
}

/* Appends region's name as a profile.folded line shows it. */
static void folded_name(ccg_buf *b, const ccg_defs *d, uint64_t region)
{
	size_t at = b->len;
	ccg_render_region(b, d, region);
	for (size_t j = at; j < b->len; j++)
		if (b->data[j] == ';')
			b->data[j] = ':';
}

/* Appends the line of path i: its regions, outermost first, and its
 * exclusive time.  chain holds room for f->n entries. */
static void folded_line(ccg_buf *b, const ccg_defs *d, const ccg_folded *f,
			uint32_t i, uint32_t *chain)
{
	uint32_t k = 0;
	for (uint32_t x = i; x != CCG_FPATH_TOP && k < f->n;
	     x = f->p[x].parent)
		chain[k++] = x;
	while (k-- > 0) {
		folded_name(b, d, f->p[chain[k]].region);
		ccg_buf_addc(b, k ? ';' : ' ');
	}
	ccg_buf_addf(b, "%llu\n", (unsigned long long)f->p[i].excl);
}

void ccg_table_folded(ccg_sink *s, const ccg_defs *d, const ccg_folded *f)
{
	/* plen[i]: the length of path i's regions joined by ';'. */
	uint64_t *plen = malloc((f->n ? f->n : 1) * sizeof *plen);
	uint32_t *chain = malloc((f->n ? f->n : 1) * sizeof *chain);
	ccg_buf name = CCG_BUF_INIT;
	if (!plen || !chain) {
		s->oom = 1;
		goto cleanup;
	}
	for (uint32_t i = 0; i < f->n && !ccg_sink_done(s); i++) {
		const ccg_fpath *p = &f->p[i];
		ccg_buf_reset(&name);
		ccg_render_region(&name, d, p->region);
		/* A parent comes first (path order, checked when read). */
		plen[i] = name.len + (p->parent == CCG_FPATH_TOP
					      ? 0
					      : plen[p->parent] + 1);
		if (!p->excl ||
		    ccg_sink_skip(s, plen[i] + 1 + ccg_digits_u64(p->excl) + 1))
			continue;
		folded_line(ccg_sink_begin(s), d, f, i, chain);
		ccg_sink_end(s);
	}
	if (ccg_buf_status(&name))
		s->oom = 1;
cleanup:
	free(plen);
	free(chain);
	ccg_buf_free(&name);
}

static int cmp_msg_row(const void *a, const void *b)
{
	const ccg_msg_row *x = a, *y = b;
	int c = ccg_cmp_u64(x->sender, y->sender);
	if (!c)
		c = x->unresolved - y->unresolved;
	return c ? c : ccg_cmp_u64(x->receiver, y->receiver);
}

void ccg_table_messages(ccg_sink *s, ccg_msg_row *rows, size_t n)
{
	static const char head[] = "sender\treceiver\tmessages\tbytes\n";
	qsort(rows, n, sizeof *rows, cmp_msg_row);
	ccg_sink_add(s, head, sizeof head - 1);
	for (size_t i = 0; i < n;) {
		ccg_buf *b = ccg_sink_begin(s);
		ccg_msg_row r = rows[i++];
		while (i < n && !cmp_msg_row(&rows[i], &r)) {
			r.count += rows[i].count;
			r.bytes += rows[i++].bytes;
		}
		ccg_buf_addu(b, r.sender, 0);
		ccg_buf_addc(b, '\t');
		if (r.unresolved)
			ccg_buf_addc(b, '-');
		else
			ccg_buf_addu(b, r.receiver, 0);
		ccg_buf_addf(b, "\t%llu\t%llu\n", (unsigned long long)r.count,
			     (unsigned long long)r.bytes);
		ccg_sink_end(s);
	}
}

uint64_t ccg_table_bin_edge(uint64_t t0, uint64_t t1, uint32_t bins,
			    uint32_t k)
{
	uint64_t span = t1 > t0 ? t1 - t0 : 0;
	return t0 + (uint64_t)((unsigned __int128)span * k / bins);
}

typedef struct tl_col {
	uint64_t region;
	uint64_t total;
} tl_col;

static int cmp_tl_col(const void *a, const void *b)
{
	const tl_col *x = a, *y = b;
	int c = ccg_cmp_u64(y->total, x->total);
	return c ? c : ccg_cmp_u64(x->region, y->region);
}

/* Exclusive time of `region` in st (rows sorted by region), 0 if none. */
static uint64_t excl_of(const ccg_stats *st, uint64_t region)
{
	size_t i = ccg_search(st->r, st->n, sizeof *st->r,
			      offsetof(ccg_rstat, region), region);
	return i < st->n && st->r[i].region == region ? st->r[i].excl : 0;
}

ccg_err ccg_table_timeline(ccg_sink *s, const ccg_defs *d,
			   const ccg_stats *per, uint32_t bins, uint64_t t0,
			   uint64_t t1)
{
	ccg_stats all = {0};
	ccg_err err = CCG_OK;
	for (uint32_t k = 0; !err && k < bins; k++)
		err = ccg_stats_merge(&all, &per[k]);
	tl_col *cols = err ? NULL : malloc((all.n ? all.n : 1) * sizeof *cols);
	if (!err && !cols)
		err = CCG_ENOMEM;
	for (uint32_t i = 0; !err && i < all.n; i++)
		cols[i] = (tl_col){all.r[i].region, all.r[i].excl};
	if (!err) {
		qsort(cols, all.n, sizeof *cols, cmp_tl_col);
		ccg_buf *b = ccg_sink_begin(s);
		ccg_buf_adds(b, "start\tend");
		for (uint32_t i = 0; i < all.n; i++) {
			ccg_buf_addc(b, '\t');
			ccg_render_region(b, d, cols[i].region);
		}
		ccg_buf_addc(b, '\n');
		ccg_sink_end(s);
	}
	for (uint32_t k = 0; !err && k < bins; k++) {
		ccg_buf *b = ccg_sink_begin(s);
		ccg_buf_addu(b, ccg_table_bin_edge(t0, t1, bins, k), 0);
		ccg_buf_addc(b, '\t');
		ccg_buf_addu(b, ccg_table_bin_edge(t0, t1, bins, k + 1), 0);
		for (uint32_t i = 0; i < all.n; i++) {
			ccg_buf_addc(b, '\t');
			ccg_buf_addu(b, excl_of(&per[k], cols[i].region), 0);
		}
		ccg_buf_addc(b, '\n');
		ccg_sink_end(s);
	}
	free(cols);
	ccg_stats_free(&all);
	return err ? err : ccg_sink_status(s);
}
