/*
 * ccg_info.c - the small files: every `info`, and the root's README,
 * regions.tsv, locations.tsv and definitions.tsv (rendered once at open).
 */
#include "trace_i.h"
#include "ccg_ids.h"
#include "ccg_names.h"
#include "ccg_sumset.h"
#include "ccg_info.h"

#include <stddef.h>
#include <string.h>

#include "ccg_fields.h"
#include "ccg_grow.h"
#include "ccg_tsv.h"
#include "ccg_search.h"

/* The name a tracer's record of dropped events goes by (contrib/tracer
 * writes it on each location). */
#define DROPPED_KEY "CCGFS_TRACE::DROPPED_EVENTS"

static const char *location_type_name(uint64_t t)
{
	static const char *const n[] = {"unknown", "cpu_thread",
					"accelerator_stream", "metric"};
	return t < NELEM(n) ? n[t] : "unknown";
}

static const char *lgroup_type_name(uint64_t t)
{
	static const char *const n[] = {"unknown", "process", "accelerator"};
	return t < NELEM(n) ? n[t] : "unknown";
}

static const char *region_role_name(uint64_t r)
{
	static const char *const n[] = {
		"unknown", "function", "wrapper", "loop", "code", "parallel",
		"sections", "section", "workshare", "single", "single_sblock",
		"master", "critical", "critical_sblock", "atomic", "barrier",
		"implicit_barrier", "flush", "ordered", "ordered_sblock",
		"task", "task_create", "task_wait", "coll_one2all",
		"coll_all2one", "coll_all2all", "coll_other", "file_io",
		"point2point", "rma", "data_transfer", "artificial",
		"thread_create", "thread_wait", "task_untied", "allocate",
		"deallocate", "reallocate", "file_io_metadata"};
	return r < NELEM(n) ? n[r] : "unknown";
}

static const char *paradigm_name(const ccg_defs *d, uint64_t p)
{
	const char *s = ccg_tsv_paradigm(d, p);
	return s ? s : "unknown";
}


static void add_kv(ccg_buf *b, const char *key, const char *val)
{
	ccg_buf_adds(b, key);
	ccg_buf_adds(b, ": ");
	ccg_tsv_escape(b, val);
	ccg_buf_addc(b, '\n');
}

void ccg_info_ku(ccg_buf *b, const char *key, uint64_t v)
{
	ccg_buf_adds(b, key);
	ccg_buf_adds(b, ": ");
	ccg_buf_addu(b, v, 0);
	ccg_buf_addc(b, '\n');
}

/* A run of "key: number" lines. */
typedef struct ku {
	const char *key;
	uint64_t v;
} ku;

static void add_kus(ccg_buf *b, const ku *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ccg_info_ku(b, rows[i].key, rows[i].v);
}

static void add_repairs(ccg_buf *b, const ccg_repairs *r)
{
	const ku rows[] = {
		{"repairs", ccg_repairs_total(r)},
		{"repair.leave_below_top", r->leave_below_top},
		{"repair.frames_closed_by_leave", r->frames_closed},
		{"repair.leave_with_empty_stack", r->leave_empty_stack},
		{"repair.leave_of_region_not_open", r->leave_not_open},
		{"repair.never_left", r->never_left},
		{"repair.end_before_start", r->end_before_start},
		{"repair.unknown_calling_context", r->unknown_context},
		{"events_out_of_order", r->out_of_order}};
	add_kus(b, rows, NELEM(rows));
}


void ccg_info_seconds(const ccg_trace *t, ccg_buf *b, const char *key,
		      uint64_t time)
{
	ccg_buf_adds(b, key);
	ccg_buf_adds(b, ": ");
	ccg_secfmt_put(b, &t->secs, time);
	ccg_buf_addc(b, '\n');
}

static int cmp_lprop(const void *a, const void *b)
{
	const ccg_lprop *x = a, *y = b;
	return ccg_cmp_keys((const uint64_t[]){x->owner, x->record},
			    (const uint64_t[]){y->owner, y->record}, 2);
}

/* t->lprops: every LOCATION_PROPERTY, by owner. */
static ccg_err index_lprops(ccg_trace *t)
{
	size_t cap = 0;
	for (size_t i = 0; i < ccg_defs_record_count(t->defs); i++) {
		ccg_kind kind;
		uint64_t id;
		const unsigned char *f;
		size_t len;
		ccg_defs_record(t->defs, i, &kind, &id, &f, &len);
		if (kind != CCG_DEF_LOCATION_PROPERTY)
			continue;
		if (CCG_GROW(t->lprops, t->nlprops + 1, cap))
			return CCG_ENOMEM;
		t->lprops[t->nlprops++] = (ccg_lprop){id, i};
	}
	ccg_sort(t->lprops, t->nlprops, sizeof *t->lprops, cmp_lprop);
	return CCG_OK;
}

/* Property record r: its name (NULL when malformed), its value's type
 * and raw bits. */
static const char *lprop_get(const ccg_trace *t, size_t r, uint8_t *type,
			     uint64_t *raw)
{
	ccg_kind kind;
	uint64_t id, name;
	const unsigned char *f;
	size_t len;
	ccg_defs_record(t->defs, r, &kind, &id, &f, &len);
	if (ccg_field_u(kind, f, len, 1, &name) ||
	    ccg_field_typed(kind, f, len, 2, type, raw))
		return NULL;
	return ccg_defs_name(t->defs, CCG_FT_REF_STRING, name);
}

/* "property.NAME: VALUE" for each property of location `id`. */
static void add_lprops(const ccg_trace *t, uint64_t id, ccg_buf *b)
{
	size_t lo = ccg_search(t->lprops, t->nlprops, sizeof *t->lprops,
			       offsetof(ccg_lprop, owner), id);
	for (; lo < t->nlprops && t->lprops[lo].owner == id; lo++) {
		uint8_t type;
		uint64_t raw;
		const char *name = lprop_get(t, t->lprops[lo].record, &type,
					     &raw);
		if (!name)
			continue;
		ccg_buf_adds(b, "property.");
		ccg_tsv_escape(b, name);
		ccg_buf_adds(b, ": ");
		ccg_tsv_typed(b, t->defs, type, raw);
		ccg_buf_addc(b, '\n');
	}
}

/* The root's sum of a tracer's records of dropped events, when the trace
 * has any. */
static void add_dropped(const ccg_trace *t, ccg_buf *b)
{
	uint64_t sum = 0, locs = 0, with = 0;
	for (size_t i = 0; i < t->nlprops; i++) {
		uint8_t type;
		uint64_t raw;
		const char *name = lprop_get(t, t->lprops[i].record, &type,
					     &raw);
		if (!name || strcmp(name, DROPPED_KEY) ||
		    type < CCG_T_U8 || type > CCG_T_U64)
			continue;
		locs++;
		with += raw != 0;
		sum += raw;
	}
	if (!locs)
		return;
	ccg_info_ku(b, "recorder_dropped_events", sum);
	ccg_info_ku(b, "recorder_locations_with_drops", with);
}

void ccg_info_node(const ccg_trace *t, const ccg_inst *in, int is_loc,
			     ccg_buf *b)
{
	const ccg_node *n = &in->hdr;
	const ccg_loc *l = in->l;
	if (is_loc) {
		const ccg_def_location *d = l->def;
		add_kv(b, "kind", "location");
		ccg_info_ku(b, "location", d->id);
		add_kv(b, "name", d->name);
		add_kv(b, "group", t->groups[l->group].name);
		add_kv(b, "type", location_type_name(d->type));
		ccg_info_ku(b, "declared_events", d->declared_events);
		add_kv(b, "status", l->errmsg ? "error" : "ok");
		if (l->errmsg)
			add_kv(b, "error", l->errmsg);
		add_repairs(b, &l->rep);
		ccg_info_ku(b, "preview_bins", l->bins_n);
		ccg_info_ku(b, "max_depth", l->max_depth);
		ccg_buf_adds(b, "path: ");
		ccg_names_location_path(t, l, b);
		ccg_buf_addc(b, '\n');
		add_lprops(t, d->id, b);
	} else if (n->kind == CCG_NODE_CALL) {
		add_kv(b, "kind", "call");
		ccg_buf_adds(b, "region: ");
		ccg_tsv_region(b, t->defs, n->region);
		ccg_buf_addc(b, '\n');
		ccg_info_ku(b, "region_id", n->region);
		ccg_info_ku(b, "depth", in->depth);
	} else {
		add_kv(b, "kind", "group");
	}
	uint64_t start = is_loc && !l->nevents ? 0 : in->start;
	uint64_t end = is_loc ? (l->nevents ? l->last : 0)
			      : start + ccg_shown_dur(in->start, in->end);
	ccg_info_ku(b, "start", start);
	ccg_info_ku(b, "end", end);
	ccg_info_ku(b, "duration", end - start);
	if (l->nevents || !is_loc) {
		ccg_info_ku(b, "start_since_zero", start - t->zero);
		ccg_info_ku(b, "end_since_zero", end - t->zero);
		ccg_info_seconds(t, b, "start_seconds", start);
		ccg_info_seconds(t, b, "end_seconds", end);
	}
	ccg_info_ku(b, "events", n->nevents);
	ccg_info_ku(b, "children", n->nvis);
	ccg_info_ku(b, "directories_below", n->ndirs);
	ccg_info_ku(b, "shared_node", in->node);
}

void ccg_info_group(const ccg_group *g, ccg_buf *b)
{
	add_kv(b, "kind", "location_group");
	if (g->id != UINT64_MAX)
		ccg_info_ku(b, "id", g->id);
	add_kv(b, "name", g->name);
	add_kv(b, "type", lgroup_type_name(g->type));
	ccg_info_ku(b, "locations", g->nlocs);
	ccg_info_ku(b, "events", g->events);
}

/* The sharing figures of the root info. */
static void add_sharing(const ccg_trace *t, ccg_buf *b)
{
	uint64_t offered = t->nodes_offered;
	uint32_t shared = ccg_store_node_count(t->store);
	ccg_info_ku(b, "nodes_before_sharing", offered);
	ccg_info_ku(b, "nodes_after_sharing", shared);
	ccg_buf_addf(b, "Rn: %.2f\n", shared ? (double)offered / shared : 0.0);
	ccg_info_ku(b, "event_records", ccg_store_event_count(t->store));
	ccg_info_ku(b, "time_records", ccg_store_time_count(t->store));
	ccg_info_ku(b, "stored_results", ccg_sumset_count(t->sums));
	ccg_info_ku(b, "stored_results_min_events", t->sums_min);
	ccg_info_ku(b, "plain_tree_bytes", t->bytes_offered);
	ccg_info_ku(b, "graph_bytes", t->graph_bytes);
	ccg_buf_addf(b, "Rm: %.2f\n",
		     t->graph_bytes ? (double)t->bytes_offered / t->graph_bytes
				    : 0.0);
}

/* The index, build, tolerance and open figures of the root info. */
static void add_open(const ccg_trace *t, ccg_buf *b)
{
	add_kv(b, "index", t->index_path ? t->index_path : "none");
	ccg_info_ku(b, "index_bytes", t->index_bytes);
	ccg_info_ku(b, "otf2_event_bytes", t->otf2_bytes);
	ccg_buf_addf(b, "index_to_otf2: %.4f\n",
		     t->otf2_bytes ? (double)t->index_bytes / t->otf2_bytes
				   : 0.0);
	if (t->index)
		ccg_info_ku(b, "index_preview_bytes",
			    ccg_index_section_bytes(t->index, CCG_SEC_BINS) +
				    ccg_index_section_bytes(t->index,
							    CCG_SEC_PATS));
	if (t->built) {
		ccg_buf_addf(b, "build_seconds: %.3f\n", t->build_seconds);
		ccg_buf_addf(b, "build_events_per_second: %.0f\n",
			     t->build_seconds > 0 ? t->events / t->build_seconds
						  : 0);
		static const char *const phase[4] = {"read", "answers",
						     "waits", "write"};
		for (int i = 0; i < 4; i++)
			ccg_buf_addf(b, "build_%s_seconds: %.3f\n", phase[i],
				     t->phase_seconds[i]);
	}
	if (t->opt.tol_abs || t->opt.tol_rel) {
		ccg_info_ku(b, "tolerance_ticks", t->opt.tol_abs);
		ccg_buf_addf(b, "tolerance_percent: %g\n", t->opt.tol_rel * 100);
		ccg_info_ku(b, "lossy_moved_events", t->lossy_shared);
		ccg_info_ku(b, "max_error_ticks", t->max_err);
		ccg_buf_addf(b, "max_error_percent: %.6g\n",
			     t->lossy_max_rel * 100);
	} else {
		add_kv(b, "tolerance", "none (lossless)");
	}
	add_kv(b, "this_open", t->built ? "built from OTF2" : "index reused");
	ccg_buf_addf(b, "open_seconds: %.3f\n", t->open_seconds);
}

ccg_err ccg_trace_summary(const ccg_trace *t, ccg_buf *b)
{
	const ccg_clock *ck = ccg_defs_clock(t->defs);
	uint64_t bad = 0, repaired = 0, dirs = 0;
	for (size_t i = 0; i < t->nlocs; i++) {
		const ccg_loc *l = &t->locs[i];
		bad += l->errmsg != NULL;
		repaired += ccg_repairs_total(&l->rep) != 0;
	}
	dirs = t->ninums - 1 - t->ngroups;
	add_kv(b, "trace", t->anchor);
	const ku clock[] = {{"clock.resolution", ck->resolution},
			    {"clock.offset", ck->offset}, {"clock.length", ck->length},
			    {"zero", t->zero}, {"first", t->first}, {"last", t->last}};
	add_kus(b, clock, NELEM(clock));
	ccg_info_seconds(t, b, "first_seconds", t->first);
	ccg_info_seconds(t, b, "last_seconds", t->last);
	if (ck->resolution)
		ccg_buf_addf(b, "duration_seconds: %.9f\n",
			     (double)(t->last - t->first) / ck->resolution);
	const ku counts[] = {
		{"location_groups", t->ngroups}, {"locations", t->nlocs},
		{"locations_with_errors", bad}, {"locations_repaired", repaired},
		{"regions", ccg_defs_region_count(t->defs)},
		{"definitions", ccg_defs_record_count(t->defs)},
		{"events", t->events}, {"directories", dirs},
		{"max_depth", t->max_depth}, {"fanout", t->opt.fanout}};
	add_kus(b, counts, NELEM(counts));
	add_dropped(t, b);
	add_sharing(t, b);
	add_open(t, b);
	for (size_t i = 0; i < t->nlocs; i++) {
		const ccg_loc *l = &t->locs[i];
		if (!l->errmsg)
			continue;
		ccg_buf_adds(b, "error: location ");
		ccg_buf_addu(b, l->def->id, 0);
		ccg_buf_adds(b, ": ");
		ccg_tsv_escape(b, l->errmsg);
		ccg_buf_addc(b, '\n');
	}
	return ccg_buf_status(b);
}

static void render_regions(const ccg_trace *t, ccg_buf *b)
{
	ccg_buf_adds(b, "id\tname\tcanonical\tparadigm\trole\tfile\tline\n");
	for (size_t i = 0; i < ccg_defs_region_count(t->defs); i++) {
		const ccg_def_region *r = ccg_defs_region(t->defs, i);
		ccg_buf_addu(b, r->id, 0);
		ccg_buf_addc(b, '\t');
		ccg_tsv_escape(b, r->name);
		ccg_buf_addc(b, '\t');
		ccg_tsv_escape(b, r->canonical);
		ccg_buf_addc(b, '\t');
		ccg_tsv_escape(b, paradigm_name(t->defs, r->paradigm));
		ccg_buf_addc(b, '\t');
		ccg_buf_adds(b, region_role_name(r->role));
		ccg_buf_addc(b, '\t');
		ccg_tsv_escape(b, r->file);
		ccg_buf_addc(b, '\t');
		ccg_buf_addu(b, r->begin_line, 0);
		ccg_buf_addc(b, '\n');
	}
}

static void render_locations(const ccg_trace *t, ccg_buf *b)
{
	ccg_buf_adds(b, "id\tname\tgroup\ttype\tevents\tfirst_ticks\t"
			"first_seconds\tlast_ticks\tlast_seconds\tpath\t"
			"declared_events\trepairs\tstatus\n");
	for (size_t i = 0; i < t->nlocs; i++) {
		const ccg_loc *l = &t->locs[i];
		ccg_buf_addu(b, l->def->id, 0);
		ccg_buf_addc(b, '\t');
		ccg_tsv_escape(b, l->def->name);
		ccg_buf_addc(b, '\t');
		ccg_tsv_escape(b, t->groups[l->group].name);
		ccg_buf_addc(b, '\t');
		ccg_buf_adds(b, location_type_name(l->def->type));
		ccg_buf_addc(b, '\t');
		ccg_buf_addu(b, l->nevents, 0);
		ccg_buf_addc(b, '\t');
		if (!l->nevents) { /* "-" ticks, empty seconds */
			ccg_buf_adds(b, "-\t\t-\t");
		} else {
			ccg_buf_addu(b, l->first, 0);
			ccg_buf_addc(b, '\t');
			ccg_secfmt_put(b, &t->secs, l->first);
			ccg_buf_addc(b, '\t');
			ccg_buf_addu(b, l->last, 0);
			ccg_buf_addc(b, '\t');
			ccg_secfmt_put(b, &t->secs, l->last);
		}
		ccg_buf_addc(b, '\t');
		ccg_names_location_path(t, l, b);
		ccg_buf_addc(b, '\t');
		ccg_buf_addu(b, l->def->declared_events, 0);
		ccg_buf_addc(b, '\t');
		ccg_buf_addu(b, ccg_repairs_total(&l->rep), 0);
		ccg_buf_addc(b, '\t');
		if (l->errmsg) {
			ccg_buf_adds(b, "error: ");
			ccg_tsv_escape(b, l->errmsg);
		} else {
			ccg_buf_adds(b, "ok");
		}
		ccg_buf_addc(b, '\n');
	}
}

static void render_readme(const ccg_trace *t, ccg_buf *b)
{
	ccg_buf_addf(b,
		"This directory is the OTF2 trace\n  %s\nmounted by ccgfs "
		"(read-only).\n\n", t->anchor);
	ccg_buf_addf(b,
		"It has %zu location groups, %zu locations and %llu events.\n"
		"Each location's complete call history is a tree of "
		"directories.\n\n"
		"Start with the answers (here, and in every group, location, "
		"call and window):\n\n"
		"  summary.tsv      per location: seconds in computation, MPI "
		"(point-to-point,\n"
		"                   collective, other), OpenMP, accelerator, I/O,"
		" measurement,\n"
		"                   outside any call; who is slow and what it "
		"costs\n"
		"  efficiency.tsv   the POP metrics: parallel efficiency, load "
		"balance,\n"
		"                   communication efficiency (serialisation x "
		"transfer,\n"
		"                   from the critical computation), IPC and "
		"frequency,\n"
		"                   the slowest location\n"
		"  longest.tsv      each region's longest calls, with the path of "
		"each call's\n"
		"                   directory here (cd into it)\n"
		"  counters.tsv     hardware counters (PAPI, ...) per region: "
		"inclusive,\n"
		"                   exclusive, per call\n"
		"  waits.tsv        who waits for whom: late senders and "
		"receivers, waits at\n"
		"                   barriers and collectives, and the location "
		"that caused each\n"
		"  critical-path.tsv  (root, windows) the regions that set the "
		"run time\n"
		"  loops.tsv        (root, groups, locations) every loop of the "
		"calls: its body,\n"
		"                   iterations, their mean, min and max, the "
		"slowest; a call\n"
		"                   holding loops has iterations/, a window "
		"per iteration\n\n"
		"Then the details:\n\n"
		"  info             facts about the trace (clock, counts, "
		"errors,\n"
		"                   sharing, index)\n"
		"  regions.tsv      every region: id, name, paradigm, role, "
		"source\n"
		"  locations.tsv    every location: events, first/last time, "
		"path here\n"
		"  definitions.tsv  every global definition of the trace\n"
		"  patterns.tsv     the call subtrees that repeat most\n"
		"  stats.tsv        per region: calls, inclusive, exclusive, "
		"min, max, mean\n"
		"  profile.folded   exclusive ticks per call path (flame "
		"graphs)\n"
		"  messages.tsv     MPI messages: sender, receiver, count, "
		"bytes\n"
		"  metrics.tsv      every metric value (counters, power, ...): "
		"time,\n"
		"                   location, metric, value, unit; in every "
		"directory\n"
		"  imbalance.tsv    per region: exclusive ticks compared over "
		"locations\n"
		"  profile-locations.folded  profile.folded, each location "
		"its own stack\n"
		"  timeline.svg     a picture: a row per location, calls by "
		"depth, exclusive\n"
		"                   time per pixel; also in groups, locations, "
		"windows\n"
		"  GROUP/LOCATION/  one directory per location (see "
		"locations.tsv)\n"
		"    events.tsv     every event of the location\n"
		"    timeline.tsv   time per region in 100 bins "
		"(timeline-N.tsv: N bins)\n"
		"    START-END.REGION/  one call; its directories are its "
		"callees\n"
		"    START-END/         a group of consecutive calls (at most "
		"%u entries\n"
		"                       per directory)\n"
		"  time/            about ten windows splitting the trace; any "
		"other by name:\n"
		"    T0-T1/         ticks since the zero, ticks as events.tsv "
		"shows them,\n"
		"                   1.2s-1.3s, 5-7ms, 10%%-20%%, ...: the same "
		"files, and\n"
		"                   GROUP/ and GROUP/LOCATION/ below it\n"
		"  refused.tsv      the last names under time/ that name no "
		"window, and why\n"
		"                   (\"No such file or directory\" says no "
		"more)\n\n",
		t->ngroups, t->nlocs, (unsigned long long)t->events,
		t->opt.fanout);
	ccg_buf_addf(b,
		"START and END in directory names are clock ticks since "
		"%llu (the trace's\nclock offset), zero-padded so that `ls` "
		"order is time order; the clock has\n%llu ticks per second.\n"
		"Every .tsv file has one header line and the same number of "
		"tab-separated\nfields on every row (pandas.read_csv(path, "
		"sep=\"\\t\") reads it); each column of ticks (NAME_ticks) is\n"
		"followed by the same time or duration in seconds "
		"(NAME_seconds).  events.tsv\ncolumns: time_ticks (as "
		"in the trace), time_seconds (since the zero,\nexact to the "
		"tick), kind (as otf2-print names it), location, depth, name,\n"
		"attributes (key=value pairs separated by spaces; a space "
		"inside is \\s).\nA call's events.tsv holds exactly the "
		"events from its ENTER\nto its LEAVE.  Names are made path-safe "
		"(/ %% # and control bytes as %%XX,\nspaces as _); the original "
		"names are in the TSV files and info.\n",
		(unsigned long long)t->zero,
		(unsigned long long)ccg_defs_clock(t->defs)->resolution);
}

ccg_err ccg_info_static(ccg_trace *t)
{
	ccg_buf *f = t->fixed;
	if (index_lprops(t))
		return CCG_ENOMEM;
	render_readme(t, &f[V_README]);
	ccg_trace_summary(t, &f[V_INFO]);
	render_regions(t, &f[V_REGIONS]);
	render_locations(t, &f[V_LOCATIONS]);
	ccg_buf_adds(&f[V_DEFINITIONS], CCG_DEFS_HEADER);
	for (size_t i = 0; i < ccg_defs_record_count(t->defs); i++)
		ccg_tsv_def(&f[V_DEFINITIONS], t->defs, i);
	for (size_t v = 0; v < V__COUNT; v++)
		if (ccg_buf_status(&f[v]))
			return CCG_ENOMEM;
	return CCG_OK;
}

