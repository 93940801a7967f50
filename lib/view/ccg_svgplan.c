/*
 * ccg_svgplan.c - the rows of a timeline.svg (see ccg_svgplan.h).
 *
 * A location with calls (its tree is deeper than its root) is a row of
 * calls; one holding METRIC events alone a counter row; any other a row
 * that shows its (empty) band.  When the directory's locations fit -
 * those with calls and the others at most CCG_SVGPLAN_CALL_ROWS, those
 * with metric values alone at most CCG_SVGPLAN_COUNTER_ROWS - each is a
 * row, in the order of `ls` (group by group).  Else the rows are chosen:
 * first the locations with calls, F consecutive ones to a row when there
 * are more than CCG_SVGPLAN_CALL_ROWS (F the fewest that fit: 1,000
 * ranks make 250 rows of 4), then up to CCG_SVGPLAN_COUNTER_ROWS
 * counter rows; the rest (the locations with neither too: they have
 * nothing to draw) is left out and counted.
 *
 * A header line (the group's name) stands above two or more consecutive
 * rows of one group, whose labels are then their locations' own names;
 * a row alone in its group is labelled by its path.  So a 128-CPU lo2s
 * node is 128 rows cpu_0 ... cpu_127, not 128 headers over one row each.
 */
#include "ccg_svgplan.h"

#include <stdlib.h>
#include <string.h>

#include "ccg_names.h"

/* What the row of location l shows (CCG_SVGROW_*). */
static ccg_err kind_of(const ccg_trace *t, const ccg_loc *l, uint8_t *kind)
{
	*kind = l->max_depth > 0 ? CCG_SVGROW_CALLS : CCG_SVGROW_OTHER;
	if (*kind == CCG_SVGROW_CALLS || !l->nevents)
		return CCG_OK;
	ccg_inst root;
	ccg_err err = ccg_ids_root(t, l, &root);
	if (!err && root.hdr.mrows)
		*kind = CCG_SVGROW_COUNTER;
	return err;
}

/* The locations of directory w, grouped, into p->locs. */
static ccg_err locs_of(const ccg_trace *t, const ccg_where *w, ccg_svgplan *p)
{
	size_t first;
	const uint32_t *members;
	size_t m = ccg_ids_scope(t, w, &first, &members);
	p->nlocs = 0;
	p->locs = calloc(m ? m : 1, sizeof *p->locs);
	if (!p->locs)
		return CCG_ENOMEM;
	if (members || m == 1) {
		for (size_t i = 0; i < m; i++)
			p->locs[p->nlocs++] = members ? members[i]
						      : (uint32_t)(first + i);
		return CCG_OK;
	}
	for (size_t gi = 0; gi < t->ngroups; gi++)
		for (uint32_t k = 0; k < t->groups[gi].nlocs && p->nlocs < m;
		     k++)
			p->locs[p->nlocs++] = t->groups[gi].locs[k];
	return CCG_OK;
}

/* Appends `n` rows of kind `kind` over the next locations of p, `per`
 * locations each (the rows' room was reserved). */
static void add_rows(ccg_svgplan *p, size_t n, uint8_t kind, uint32_t per)
{
	for (size_t i = 0; i < n; i++) {
		p->rows[p->nrows++] = (ccg_svgrow){(uint32_t)p->shown, per,
						   kind, 0, 0};
		p->shown += per;
	}
}

/* The rows when the locations do not fit: those with calls (fold to a
 * row), then the counters up to their bound; locs reordered so that
 * locs[0 .. shown) are the drawn ones.  tmp: room for nlocs. */
static void chosen(ccg_svgplan *p, const uint8_t *kind, const size_t *count,
		   uint32_t *tmp)
{
	size_t m = 0;
	for (uint8_t want = 0; want < 3; want++)
		for (size_t i = 0; i < p->nlocs; i++)
			if (kind[i] == want)
				tmp[m++] = p->locs[i];
	memcpy(p->locs, tmp, sizeof *tmp * p->nlocs);
	size_t calls = count[CCG_SVGROW_CALLS];
	p->fold = (uint32_t)((calls + CCG_SVGPLAN_CALL_ROWS - 1) /
			     CCG_SVGPLAN_CALL_ROWS);
	p->fold = p->fold ? p->fold : 1;
	add_rows(p, calls / p->fold, CCG_SVGROW_CALLS, p->fold);
	if (calls % p->fold)
		add_rows(p, 1, CCG_SVGROW_CALLS, (uint32_t)(calls % p->fold));
	size_t ctr = count[CCG_SVGROW_COUNTER];
	size_t nctr = ctr < CCG_SVGPLAN_COUNTER_ROWS ? ctr
						      : CCG_SVGPLAN_COUNTER_ROWS;
	add_rows(p, nctr, CCG_SVGROW_COUNTER, 1);
	p->hidden_metric = ctr - nctr;
}

/* The rows: all in `ls` order when they fit, else chosen (see above). */
static ccg_err choose(ccg_svgplan *p, const uint8_t *kind)
{
	size_t count[3] = {0, 0, 0};
	for (size_t i = 0; i < p->nlocs; i++)
		count[kind[i]]++;
	p->calls = count[CCG_SVGROW_CALLS];
	p->fold = 1;
	p->rows = calloc(p->nlocs ? p->nlocs : 1, sizeof *p->rows);
	uint32_t *tmp = malloc(sizeof *tmp * (p->nlocs ? p->nlocs : 1));
	ccg_err err = p->rows && tmp ? CCG_OK : CCG_ENOMEM;
	if (!err && count[CCG_SVGROW_CALLS] + count[CCG_SVGROW_OTHER] <=
			    CCG_SVGPLAN_CALL_ROWS &&
	    count[CCG_SVGROW_COUNTER] <= CCG_SVGPLAN_COUNTER_ROWS) {
		for (size_t i = 0; i < p->nlocs; i++)
			add_rows(p, 1, kind[i], 1);
	} else if (!err) {
		chosen(p, kind, count, tmp);
	}
	free(tmp);
	return err;
}

/* Whether every location of row r lies in the group of its first. */
static int in_one_group(const ccg_trace *t, const ccg_svgplan *p,
			const ccg_svgrow *r)
{
	uint32_t g = t->locs[p->locs[r->first]].group;
	for (uint32_t i = 1; i < r->n; i++)
		if (t->locs[p->locs[r->first + i]].group != g)
			return 0;
	return 1;
}

/* Header lines over runs of two or more rows of one group. */
static void headers(const ccg_trace *t, ccg_svgplan *p)
{
	for (size_t i = 0; i < p->nrows;) {
		uint32_t g = t->locs[p->locs[p->rows[i].first]].group;
		size_t j = i;
		while (j < p->nrows && in_one_group(t, p, &p->rows[j]) &&
		       t->locs[p->locs[p->rows[j].first]].group == g)
			j++;
		if (j - i >= 2) {
			p->rows[i].head = 1;
			for (size_t k = i; k < j; k++)
				p->rows[k].grouped = 1;
		}
		i = j > i ? j : i + 1;
	}
}

ccg_err ccg_svgplan_make(const ccg_trace *t, const ccg_where *w,
			 ccg_svgplan *p)
{
	memset(p, 0, sizeof *p);
	ccg_err err = locs_of(t, w, p);
	uint8_t *kind = err ? NULL : malloc(p->nlocs ? p->nlocs : 1);
	if (!err && !kind)
		err = CCG_ENOMEM;
	for (size_t i = 0; i < p->nlocs && !err; i++)
		err = kind_of(t, &t->locs[p->locs[i]], &kind[i]);
	if (!err)
		err = choose(p, kind);
	if (!err)
		headers(t, p);
	free(kind);
	if (err)
		ccg_svgplan_free(p);
	return err;
}

void ccg_svgplan_free(ccg_svgplan *p)
{
	free(p->locs);
	free(p->rows);
	memset(p, 0, sizeof *p);
}

/* Appends the label of the row of location l alone. */
static void loc_label(const ccg_trace *t, const ccg_loc *l, int grouped,
		      ccg_buf *b)
{
	const char *own = l->def && l->def->name[0] ? l->dirname : NULL;
	if (grouped && own) {
		ccg_buf_adds(b, own);
	} else if (own && !strcmp(own, t->groups[l->group].dirname)) {
		ccg_buf_adds(b, own);
	} else {
		ccg_names_location_path(t, l, b);
	}
}

void ccg_svgplan_label(const ccg_trace *t, const ccg_svgplan *p,
		       const ccg_svgrow *r, ccg_buf *b)
{
	const ccg_loc *a = &t->locs[p->locs[r->first]];
	if (r->n == 1) {
		loc_label(t, a, r->grouped, b);
		return;
	}
	const ccg_loc *z = &t->locs[p->locs[r->first + r->n - 1]];
	if (in_one_group(t, p, r)) {
		ccg_buf_adds(b, a->dirname);
		ccg_buf_adds(b, " .. ");
		ccg_buf_adds(b, z->dirname);
	} else {
		ccg_buf_adds(b, t->groups[a->group].dirname);
		ccg_buf_adds(b, " .. ");
		ccg_buf_adds(b, t->groups[z->group].dirname);
	}
}
