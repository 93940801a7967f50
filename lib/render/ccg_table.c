#include "ccg_table.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ccg_bins.h"
#include "ccg_cancel.h"
#include "ccg_search.h"

#include "ccg_tsv.h"

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
	(void)ccg_cancel_poll(); /* seen by ccg_sink_done and _status */
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
	(void)ccg_cancel_poll();
	return 1;
}

int ccg_sink_done(const ccg_sink *s)
{
	return ccg_cancel_stopped() || (s->out && s->size >= s->to);
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
	if (ccg_cancel_stopped())
		return CCG_EINTR;
	return ccg_buf_status(&s->line);
}

static int cmp_excl(const void *a, const void *b)
{
	const ccg_rstat *x = a, *y = b; /* exclusive, inclusive down */
	const uint64_t p[] = {y->excl, y->incl, x->region};
	const uint64_t q[] = {x->excl, x->incl, y->region};
	return ccg_cmp_keys(p, q, 3);
}

/* The head lines of stats.tsv and imbalance.tsv. */
static const char stats_head[] =
	"region\tcalls\tinclusive_ticks\tinclusive_seconds\t"
	"exclusive_ticks\texclusive_seconds\texclusive_percent\t"
	"min_ticks\tmin_seconds\tmax_ticks\tmax_seconds\t"
	"mean_ticks\tmean_seconds\n";
static const char imbalance_head[] =
	"region\tlocations\tmin_ticks\tmin_seconds\tmean_ticks\t"
	"mean_seconds\tmax_ticks\tmax_seconds\tmax_location\t"
	"imbalance\n";

/* Sorts a table's n rows of `size` bytes by cmp and writes its head line
 * to s. */
static void table_begin(ccg_sink *s, const char *head, void *rows, size_t n,
			size_t size, int (*cmp)(const void *, const void *))
{
	ccg_sort(rows, n, size, cmp);
	ccg_sink_add(s, head, strlen(head));
}

/* Begins a row of a per-region table: the region's name and a count. */
static ccg_buf *region_row(ccg_sink *s, const ccg_defs *d, uint64_t region,
			   uint64_t count)
{
	ccg_buf *b = ccg_sink_begin(s);
	ccg_tsv_region(b, d, region);
	ccg_buf_addf(b, "\t%llu", (unsigned long long)count);
	return b;
}

/* Adds two cells: a duration in ticks, and in seconds. */
static void put_dur(ccg_buf *b, const ccg_secfmt *secs, uint64_t ticks)
{
	ccg_buf_addf(b, "\t%llu\t", (unsigned long long)ticks);
	ccg_secfmt_put_dur(b, secs, ticks);
}

/* Adds two cells: the mean sum / n in ticks, and in seconds. */
static void put_mean(ccg_buf *b, const ccg_secfmt *secs,
		     unsigned __int128 sum, uint64_t n)
{
	ccg_buf_addc(b, '\t');
	ccg_share_mean(b, sum, n);
	ccg_buf_addc(b, '\t');
	ccg_secfmt_put_mean(b, secs, sum, n);
}

void ccg_table_stats(ccg_sink *s, const ccg_defs *d, const ccg_secfmt *secs,
		     unsigned __int128 loc_time, ccg_stats *st)
{
	table_begin(s, stats_head, st->r, st->n, sizeof *st->r, cmp_excl);
	for (uint32_t i = 0; i < st->n; i++) {
		const ccg_rstat *r = &st->r[i];
		ccg_buf *b = region_row(s, d, r->region, r->calls);
		put_dur(b, secs, r->incl);
		put_dur(b, secs, r->excl);
		ccg_buf_addc(b, '\t');
		ccg_share_percent(b, r->excl, loc_time);
		if (r->calls) {
			put_dur(b, secs, r->min);
			put_dur(b, secs, r->max);
			put_mean(b, secs, r->sum, r->calls);
			ccg_buf_addc(b, '\n');
		} else { /* no value: "-" ticks, empty seconds (numbers to pandas) */
			ccg_buf_adds(b, "\t-\t\t-\t\t-\t\n");
		}
		ccg_sink_end(s);
	}
}

/* Shows every ';' of b from `at` on as ':' (a frame of a folded line). */
static void unsemi(ccg_buf *b, size_t at)
{
	for (size_t j = at; j < b->len; j++)
		if (b->data[j] == ';')
			b->data[j] = ':';
}

/* Appends region's name as a profile.folded line shows it. */
static void folded_name(ccg_buf *b, const ccg_defs *d, uint64_t region)
{
	size_t at = b->len;
	ccg_tsv_region(b, d, region);
	unsemi(b, at);
}

/* Appends the line of path i: `first` (NULL: none), its regions,
 * outermost first, and its exclusive time.  chain holds room for f->n
 * entries. */
static void folded_line(ccg_buf *b, const ccg_defs *d, const ccg_folded *f,
			uint32_t i, const char *first, uint32_t *chain)
{
	uint32_t k = 0;
	for (uint32_t x = i; x != CCG_FPATH_TOP && k < f->n;
	     x = f->p[x].parent)
		chain[k++] = x;
	if (first) {
		size_t at = b->len;
		ccg_buf_adds(b, first);
		unsemi(b, at);
		ccg_buf_addc(b, ';');
	}
	while (k-- > 0) {
		folded_name(b, d, f->p[chain[k]].region);
		ccg_buf_addc(b, k ? ';' : ' ');
	}
	ccg_buf_addf(b, "%llu\n", (unsigned long long)f->p[i].excl);
}

void ccg_table_folded(ccg_sink *s, const ccg_defs *d, const ccg_folded *f)
{
	ccg_table_folded_under(s, d, f, NULL);
}

void ccg_table_folded_under(ccg_sink *s, const ccg_defs *d,
			    const ccg_folded *f, const char *first)
{
	/* plen[i]: the length of path i's regions joined by ';'. */
	uint64_t *plen = malloc((f->n ? f->n : 1) * sizeof *plen);
	uint32_t *chain = malloc((f->n ? f->n : 1) * sizeof *chain);
	uint64_t flen = first ? strlen(first) + 1 : 0;
	ccg_buf name = CCG_BUF_INIT;
	if (!plen || !chain) {
		s->oom = 1;
		goto cleanup;
	}
	for (uint32_t i = 0; i < f->n && !ccg_sink_done(s); i++) {
		const ccg_fpath *p = &f->p[i];
		ccg_buf_reset(&name);
		ccg_tsv_region(&name, d, p->region);
		/* A parent comes first (path order, checked when read). */
		plen[i] = name.len + (p->parent == CCG_FPATH_TOP
					      ? 0
					      : plen[p->parent] + 1);
		if (!p->excl ||
		    ccg_sink_skip(s, flen + plen[i] + 1 +
					     ccg_digits_u64(p->excl) + 1))
			continue;
		folded_line(ccg_sink_begin(s), d, f, i, first, chain);
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

void ccg_table_messages(ccg_sink *s, ccg_msg_row *rows, size_t n,
			ccg_table_path_fn path, const void *ctx)
{
	static const char head[] = "sender\tsender_path\treceiver\t"
				   "receiver_path\tmessages\treceived\tbytes\n";
	ccg_sort(rows, n, sizeof *rows, cmp_msg_row);
	ccg_sink_add(s, head, sizeof head - 1);
	for (size_t i = 0; i < n;) {
		ccg_buf *b = ccg_sink_begin(s);
		ccg_msg_row r = rows[i++];
		while (i < n && !cmp_msg_row(&rows[i], &r)) {
			r.count += rows[i].count;
			r.lost += rows[i].lost;
			r.bytes += rows[i++].bytes;
		}
		ccg_buf_addu(b, r.sender, 0);
		ccg_buf_addc(b, '\t');
		path(ctx, r.sender, b);
		ccg_buf_addc(b, '\t');
		if (r.unresolved) {
			ccg_buf_adds(b, "-\t-");
		} else {
			ccg_buf_addu(b, r.receiver, 0);
			ccg_buf_addc(b, '\t');
			path(ctx, r.receiver, b);
		}
		ccg_buf_addf(b, "\t%llu\t%llu\t%llu\n",
			     (unsigned long long)r.count,
			     (unsigned long long)(r.count > r.lost
						  ? r.count - r.lost
						  : 0),
			     (unsigned long long)r.bytes);
		ccg_sink_end(s);
	}
}

uint64_t ccg_table_bin_edge(uint64_t t0, uint64_t t1, uint32_t bins,
			    uint32_t k)
{
	/* The preview bins' edges: a timeline of as many bins reads them. */
	return ccg_bins_edge(t0, t1, bins, k);
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
			   const ccg_secfmt *secs, const ccg_stats *per,
			   uint32_t bins, uint64_t t0, uint64_t t1,
			   const ccg_stats *also)
{
	ccg_stats all = {0};
	ccg_err err = CCG_OK;
	for (uint32_t k = 0; !err && k < bins; k++)
		err = ccg_stats_merge(&all, &per[k]);
	if (!err && also && also->n) {
		ccg_stats none = {0, also->n, malloc(also->n * sizeof *also->r)};
		err = none.r ? CCG_OK : CCG_ENOMEM;
		for (uint32_t i = 0; !err && i < also->n; i++)
			none.r[i] = (ccg_rstat){also->r[i].region, 0, 0, 0, 0,
						UINT64_MAX, 0};
		if (!err)
			err = ccg_stats_merge(&all, &none);
		free(none.r);
	}
	tl_col *cols = err ? NULL : malloc((all.n ? all.n : 1) * sizeof *cols);
	if (!err && !cols)
		err = CCG_ENOMEM;
	for (uint32_t i = 0; !err && i < all.n; i++)
		cols[i] = (tl_col){all.r[i].region, all.r[i].excl};
	if (!err) {
		ccg_sort(cols, all.n, sizeof *cols, cmp_tl_col);
		ccg_buf *b = ccg_sink_begin(s);
		ccg_buf_adds(b, "start_ticks\tstart_seconds\tend_ticks\t"
			     "end_seconds");
		for (uint32_t i = 0; i < all.n; i++) {
			ccg_buf_addc(b, '\t');
			ccg_tsv_region(b, d, cols[i].region);
		}
		ccg_buf_addc(b, '\n');
		ccg_sink_end(s);
	}
	for (uint32_t k = 0; !err && k < bins; k++) {
		ccg_buf *b = ccg_sink_begin(s);
		uint64_t lo = ccg_table_bin_edge(t0, t1, bins, k);
		uint64_t hi = ccg_table_bin_edge(t0, t1, bins, k + 1);
		ccg_buf_addu(b, lo, 0);
		ccg_buf_addc(b, '\t');
		ccg_secfmt_put(b, secs, lo);
		ccg_buf_addc(b, '\t');
		ccg_buf_addu(b, hi, 0);
		ccg_buf_addc(b, '\t');
		ccg_secfmt_put(b, secs, hi);
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

/* ---- imbalance.tsv ---- */

void ccg_imbalance_free(ccg_imbalance *im)
{
	free(im->r);
	*im = (ccg_imbalance){0};
}

ccg_err ccg_imbalance_add(ccg_imbalance *im, const ccg_stats *st,
			  uint64_t id)
{
	size_t n = im->n + st->n;
	ccg_imb_row *r = malloc((n ? n : 1) * sizeof *r);
	if (!r)
		return CCG_ENOMEM;
	size_t i = 0, j = 0, o = 0;
	while (i < im->n || j < st->n) {
		const ccg_rstat *x = j < st->n ? &st->r[j] : NULL;
		if (!x || (i < im->n && im->r[i].region < x->region)) {
			r[o++] = im->r[i++];
			continue;
		}
		if (i == im->n || im->r[i].region > x->region) {
			r[o++] = (ccg_imb_row){x->region, 1, x->excl, x->excl,
					       id, x->excl};
			j++;
			continue;
		}
		ccg_imb_row y = im->r[i++];
		j++;
		y.locations++;
		y.sum += x->excl;
		y.min = x->excl < y.min ? x->excl : y.min;
		if (x->excl > y.max) {
			y.max = x->excl;
			y.max_at = id;
		}
		r[o++] = y;
	}
	free(im->r);
	im->r = r;
	im->n = o;
	return CCG_OK;
}

static int cmp_imb(const void *a, const void *b)
{
	const ccg_imb_row *x = a, *y = b; /* most max first, then region */
	const uint64_t p[] = {y->max, x->region};
	const uint64_t q[] = {x->max, y->region};
	return ccg_cmp_keys(p, q, 2);
}

/* The cells of an imbalance.tsv row after its region and count. */
static void imb_cells(ccg_buf *b, const ccg_secfmt *secs, const ccg_imb_row *r,
		      ccg_table_path_fn path, const void *ctx)
{
	put_dur(b, secs, r->min);
	put_mean(b, secs, r->sum, r->locations);
	put_dur(b, secs, r->max);
	ccg_buf_addc(b, '\t');
	path(ctx, r->max_at, b);
	ccg_buf_addc(b, '\t');
	/* max / mean = max x locations / sum, 3 decimals. */
	ccg_share_put(b, (unsigned __int128)r->max * r->locations, r->sum, 3,
		      3);
	ccg_buf_addc(b, '\n');
}

void ccg_table_imbalance(ccg_sink *s, const ccg_defs *d,
			 const ccg_secfmt *secs, ccg_imbalance *im,
			 ccg_table_path_fn path, const void *ctx)
{
	table_begin(s, imbalance_head, im->r, im->n, sizeof *im->r, cmp_imb);
	for (size_t i = 0; i < im->n; i++) {
		const ccg_imb_row *r = &im->r[i];
		imb_cells(region_row(s, d, r->region, r->locations), secs, r,
			  path, ctx);
		ccg_sink_end(s);
	}
}

void ccg_table_imbalance_row(ccg_sink *s, const ccg_secfmt *secs,
			     const char *name, const ccg_imb_row *r,
			     ccg_table_path_fn path, const void *ctx)
{
	ccg_buf *b = ccg_sink_begin(s);
	ccg_tsv_escape(b, name);
	ccg_buf_addf(b, "\t%llu", (unsigned long long)r->locations);
	imb_cells(b, secs, r, path, ctx);
	ccg_sink_end(s);
}
