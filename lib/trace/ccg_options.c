/*
 * ccg_options.c - the options of an open: defaults, checks, the
 * tolerance's text, and what the build takes of them.
 */
#include "trace_i.h"
#include "ccg_options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

ccg_err ccg_parse_tolerance(const char *s, uint64_t *abs, double *rel)
{
	*abs = 0;
	*rel = 0;
	int have_abs = 0, have_rel = 0;
	while (*s) {
		char *end;
		errno = 0;
		if (*s < '0' || *s > '9')
			return CCG_EINVAL;
		double v = strtod(s, &end);
		if (errno || end == s || v < 0)
			return CCG_EINVAL;
		if (*end == '%') {
			if (have_rel || v > 100)
				return CCG_EINVAL;
			*rel = v / 100;
			have_rel = 1;
			end++;
		} else {
			unsigned long long u = strtoull(s, &end, 10);
			if (errno || have_abs ||
			    (*end && *end != ',' && *end != '+'))
				return CCG_EINVAL;
			*abs = u;
			have_abs = 1;
		}
		if ((*end == ',' || *end == '+') && end[1])
			end++;
		else if (*end)
			return CCG_EINVAL;
		s = end;
	}
	return have_abs || have_rel ? CCG_OK : CCG_EINVAL;
}

void ccg_options_init(ccg_options *opt)
{
	memset(opt, 0, sizeof *opt);
	opt->fanout = CCG_FANOUT_DEFAULT;
	opt->cache_bytes = CCG_CACHE_DEFAULT;
}

uint32_t ccg_options_longest(const ccg_options *opt)
{
	if (opt->longest == UINT32_MAX)
		return 0;
	if (!opt->longest)
		return CCG_LONGEST_DEFAULT;
	return opt->longest < CCG_LONGEST_MAX ? opt->longest : CCG_LONGEST_MAX;
}

ccg_err ccg_options_check(const ccg_options *opt, ccg_buf *msg)
{
	if (opt->fanout >= CCG_FANOUT_MIN && opt->fanout <= CCG_FANOUT_MAX)
		return CCG_OK;
	if (msg)
		ccg_buf_addf(msg, "the fan-out must be from %d to %d",
			     CCG_FANOUT_MIN, CCG_FANOUT_MAX);
	return CCG_EINVAL;
}

void ccg_options_ingest(const ccg_options *opt, const char *spill_dir,
			ccg_ingest_opts *o)
{
	memset(o, 0, sizeof *o);
	o->fanout = opt->fanout;
	o->tol_abs = opt->tol_abs;
	o->tol_rel = opt->tol_rel;
	o->progress = opt->progress;
	o->log = opt->log;
	o->log_ctx = opt->log_ctx;
	o->threads = opt->threads;
	o->spill_dir = spill_dir;
	o->memory = opt->memory ? opt->memory : CCG_MEMORY_DEFAULT;
}
