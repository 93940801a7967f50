#include "ccg_tsv.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ccg_codec.h"
#include "ccg_fields.h"

void ccg_tsv_escape(ccg_buf *b, const char *s)
{
	const char *run = s;
	for (; *s; s++) {
		char e;
		switch (*s) {
		case '\t': e = 't'; break;
		case '\n': e = 'n'; break;
		case '\r': e = 'r'; break;
		case '\\': e = '\\'; break;
		case '"': e = '"'; break;
		default: continue;
		}
		ccg_buf_add(b, run, (size_t)(s - run));
		ccg_buf_addc(b, '\\');
		ccg_buf_addc(b, e);
		run = s + 1;
	}
	ccg_buf_add(b, run, (size_t)(s - run));
}

/* The decimal m / 10^k (m < 10^15, 0 < k < 18) of sign `neg` into tmp,
 * as %g prints it: no trailing zeros; its length. */
static size_t put_decimal(char tmp[40], int neg, uint64_t m, unsigned k)
{
	char digits[24];
	size_t n = ccg_fmt_u64(digits, m, k + 1), at = 0;
	while (k > 0 && digits[n - 1] == '0') {
		n--;
		k--;
	}
	if (neg)
		tmp[at++] = '-';
	memcpy(tmp + at, digits, n - k);
	at += n - k;
	if (k) {
		tmp[at++] = '.';
		memcpy(tmp + at, digits + n - k, k);
		at += k;
	}
	tmp[at] = '\0';
	return at;
}

/* v's text into tmp; its length: the shorter of %.15g and %.17g that
 * reads back as v.  Written directly, without printf and scanf, when v
 * (not -0) is a decimal d = m / 10^k of at most 15 significant digits
 * (m < 10^15) with 10^-4 <= |d| < 10^15 - a meter's whole watts, a
 * power of 40.015625 W: double(d) is m / 10^k rounded once (both exact
 * doubles), so when it is v, v rounded to 15 digits is d (DBL_DIG is
 * 15), which %.15g prints in fixed notation (its exponent is between -4
 * and 14) without trailing zeros, and which reads back as v. */
static size_t format_double(char tmp[40], double v)
{
	static const double p10[18] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8,
		1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17};
	double a = fabs(v);
	if (a < 1e15 && a == (double)(uint64_t)a && !(a == 0 && signbit(v)))
		return put_decimal(tmp, v < 0, (uint64_t)a, 0);
	for (unsigned k = 1; a >= 1e-4 && k < 18; k++) {
		double x = a * p10[k];
		if (!(x < 1e15))
			break;
		uint64_t m = (uint64_t)(x + 0.5);
		/* d >= 10^-4: m >= 10^(k-4) */
		if ((double)m / p10[k] == a && (k <= 4 || m >= p10[k - 4]))
			return put_decimal(tmp, v < 0, m, k);
	}
	snprintf(tmp, 40, "%.15g", v);
	double back;
	if (sscanf(tmp, "%lf", &back) != 1 || back != v)
		snprintf(tmp, 40, "%.17g", v);
	return strlen(tmp);
}

void ccg_tsv_double(ccg_buf *b, double v)
{
	char tmp[40];
	ccg_buf_add(b, tmp, format_double(tmp, v));
}

unsigned ccg_tsv_double_width(double v)
{
	char tmp[40];
	return (unsigned)format_double(tmp, v);
}

const char *ccg_tsv_paradigm(const ccg_defs *d, uint64_t p)
{
	static const char *const n[] = {
		"unknown", "user", "compiler", "openmp", "mpi", "cuda",
		"measurement_system", "pthread", "hmpp", "ompss", "hardware",
		"gaspi", "upc", "shmem", "winthread", "qtthread", "acethread",
		"tbbthread", "openacc", "opencl", "mtapi", "sampling", "none",
		"hip", "kokkos"};
	const char *s = ccg_defs_name(d, CCG_FT_REF_PARADIGM, p);
	if (s && *s)
		return s;
	return p < sizeof n / sizeof *n ? n[p] : NULL;
}

static void put_ref(ccg_buf *b, const ccg_defs *d, unsigned reftype,
		    uint64_t id)
{
	const char *name = reftype == CCG_FT_REF_PARADIGM
				   ? ccg_tsv_paradigm(d, id)
				   : ccg_defs_name(d, reftype, id);
	if (name) {
		ccg_tsv_escape(b, name);
	} else if (id == UINT32_MAX || id == UINT64_MAX) {
		ccg_buf_adds(b, "undefined");
	} else {
		ccg_buf_addc(b, '?');
		ccg_buf_addu(b, id, 0);
	}
}

void ccg_tsv_region(ccg_buf *b, const ccg_defs *d, uint64_t region)
{
	put_ref(b, d, CCG_FT_REF_REGION, region);
}

static unsigned typed_ref(uint8_t t)
{
	switch (t) {
	case CCG_T_STRING: return CCG_FT_REF_STRING;
	case CCG_T_ATTRIBUTE: return CCG_FT_REF_ATTR;
	case CCG_T_REGION: return CCG_FT_REF_REGION;
	case CCG_T_GROUP: return CCG_FT_REF_GROUP;
	case CCG_T_METRIC: return CCG_FT_REF_METRIC;
	case CCG_T_COMM: return CCG_FT_REF_COMM;
	case CCG_T_PARAMETER: return CCG_FT_REF_PARAM;
	case CCG_T_RMA_WIN: return CCG_FT_REF_RMAWIN;
	case CCG_T_SCL: return CCG_FT_REF_SCL;
	case CCG_T_CCTX: return CCG_FT_REF_CCTX;
	case CCG_T_INTGEN: return CCG_FT_REF_INTGEN;
	case CCG_T_IO_FILE: return CCG_FT_REF_IOFILE;
	case CCG_T_IO_HANDLE: return CCG_FT_REF_IOHANDLE;
	case CCG_T_LGROUP: return CCG_FT_REF_LGROUP;
	default: return CCG_FT_NONE;
	}
}

void ccg_tsv_typed(ccg_buf *b, const ccg_defs *d, uint8_t t, uint64_t raw)
{
	if (t >= CCG_T_I8 && t <= CCG_T_I64) {
		ccg_buf_addi(b, (int64_t)raw);
	} else if (t == CCG_T_FLOAT || t == CCG_T_DOUBLE) {
		double v;
		memcpy(&v, &raw, sizeof v);
		ccg_tsv_double(b, v);
	} else if (d && typed_ref(t) != CCG_FT_NONE) {
		put_ref(b, d, typed_ref(t), raw);
	} else {
		ccg_buf_addu(b, raw, 0);
	}
}

static int put_typed(ccg_buf *b, const ccg_defs *d, const unsigned char **p,
		     const unsigned char *end)
{
	uint8_t t;
	uint64_t raw;
	if (ccg_get_typed(p, end, &t, &raw))
		return -1;
	ccg_tsv_typed(b, d, t, raw);
	return 0;
}

/* Renders a list of typed values, comma-separated: a varint count, then
 * per entry (when `keyed`) a varint key printed as "key:" and the value. */
static int put_typed_list(ccg_buf *b, const ccg_defs *d, int keyed,
			  const unsigned char **p, const unsigned char *end)
{
	uint64_t n, key;
	if (ccg_varint_get(p, end, &n))
		return -1;
	for (uint64_t i = 0; i < n; i++) {
		if (i)
			ccg_buf_addc(b, ',');
		if (keyed) {
			if (ccg_varint_get(p, end, &key))
				return -1;
			ccg_buf_addu(b, key, 0);
			ccg_buf_addc(b, ':');
		}
		if (put_typed(b, d, p, end))
			return -1;
	}
	return 0;
}

/* Renders the value of one field of type t at *p. */
static int put_value(ccg_buf *b, const ccg_defs *d, unsigned t,
		     const unsigned char **p, const unsigned char *end)
{
	uint64_t v, n;
	double f;
	switch (t) {
	case CCG_FT_F:
		if (ccg_f64_get(p, end, &f))
			return -1;
		ccg_tsv_double(b, f);
		return 0;
	case CCG_FT_I:
		if (ccg_varint_get(p, end, &v))
			return -1;
		ccg_buf_addi(b, ccg_unzigzag(v));
		return 0;
	case CCG_FT_TYPED:
		return put_typed(b, d, p, end);
	case CCG_FT_METRICS:
		return put_typed_list(b, d, 0, p, end);
	case CCG_FT_IOPROPS:
		return put_typed_list(b, d, 1, p, end);
	case CCG_FT_ARR_U:
	case CCG_FT_ARR_STRING:
	case CCG_FT_ARR_MEMBER:
	case CCG_FT_ARR_CARTDIM: {
		unsigned rt = t == CCG_FT_ARR_STRING   ? CCG_FT_REF_STRING
			      : t == CCG_FT_ARR_MEMBER ? CCG_FT_REF_MEMBER
			      : t == CCG_FT_ARR_CARTDIM ? CCG_FT_REF_CARTDIM
							: CCG_FT_NONE;
		if (ccg_varint_get(p, end, &n))
			return -1;
		for (uint64_t i = 0; i < n; i++) {
			if (ccg_varint_get(p, end, &v))
				return -1;
			if (i)
				ccg_buf_addc(b, ',');
			if (rt)
				put_ref(b, d, rt, v);
			else
				ccg_buf_addu(b, v, 0);
		}
		return 0;
	}
	case CCG_FT_NONE:
		return -1;
	default:
		if (ccg_varint_get(p, end, &v))
			return -1;
		if (CCG_FT_IS_REF(t))
			put_ref(b, d, t, v);
		else
			ccg_buf_addu(b, v, 0);
		return 0;
	}
}

/* Starts the next key=value pair of the attributes column: a tab before
 * the first, a space between pairs. */
static void pair_begin(ccg_buf *b, int *npairs)
{
	ccg_buf_addc(b, (*npairs)++ ? ' ' : '\t');
}

/* Writes the spaces appended to b since `mark` as \s, so that a space
 * only ever separates pairs. */
static void escape_spaces(ccg_buf *b, size_t mark)
{
	size_t n = 0;
	for (size_t i = mark; i < b->len; i++)
		n += b->data[i] == ' ';
	if (!n || ccg_buf_reserve(b, n))
		return;
	size_t from = b->len, to = b->len + n;
	ccg_buf_setlen(b, to);
	while (from > mark) {
		char ch = b->data[--from];
		if (ch == ' ') {
			b->data[--to] = 's';
			b->data[--to] = '\\';
		} else {
			b->data[--to] = ch;
		}
	}
}

/* The peer of a point-to-point MPI record: the location that rank `rank`
 * of its communicator is, as " KEY_location=ID" ("self" for COMM_SELF,
 * "-" when the definitions do not say).  It depends on the record and the
 * definitions alone, never on the location it is in. */
static void put_peer(ccg_buf *b, const ccg_defs *d, const char *key,
		     uint64_t comm, uint64_t rank)
{
	const uint64_t self = UINT64_MAX - 1;
	uint64_t l = ccg_defs_rank_location(d, comm, rank, self);
	ccg_buf_addc(b, ' ');
	ccg_buf_adds(b, key);
	ccg_buf_adds(b, "_location=");
	if (l == self)
		ccg_buf_adds(b, "self");
	else if (l == UINT64_MAX)
		ccg_buf_addc(b, '-');
	else
		ccg_buf_addu(b, l, 0);
}

static int is_p2p(ccg_kind kind)
{
	return kind == CCG_EV_MPI_SEND || kind == CCG_EV_MPI_ISEND ||
	       kind == CCG_EV_MPI_RECV || kind == CCG_EV_MPI_IRECV;
}

/* Renders NAME and the key=value fields; `first` is the first field index
 * to consider (definitions skip their id field).  Counts the pairs. */
static int put_fields(ccg_buf *b, const ccg_defs *d, ccg_kind kind,
		      unsigned first, const unsigned char **p,
		      const unsigned char *end, int *npairs)
{
	const ccg_kind_info *ki = &ccg_schema[kind];
	/* The name column first: find the object field without consuming. */
	const unsigned char *q = *p;
	uint64_t comm = UINT64_MAX, rank = 0;
	int ok = 0;
	if (ki->obj >= 0) {
		for (int i = 0; i < ki->obj; i++)
			if (ccg_field_skip(&q, end, ki->f[i].type))
				return -1;
		const unsigned char *o = q;
		ok = put_value(b, d, ki->f[ki->obj].type, &q, end);
		if (!ok && ki->f[ki->obj].type == CCG_FT_REF_COMM &&
		    ccg_varint_get(&o, end, &comm))
			return -1;
	} else {
		ccg_buf_addc(b, '-');
	}
	if (ok)
		return -1;
	for (unsigned i = 0; i < ki->nfields; i++) {
		if ((int)i == ki->obj || i < first) {
			if (ccg_field_skip(p, end, ki->f[i].type))
				return -1;
			continue;
		}
		pair_begin(b, npairs);
		ccg_buf_adds(b, ki->f[i].key);
		ccg_buf_addc(b, '=');
		size_t mark = b->len;
		const unsigned char *v = *p;
		if (put_value(b, d, ki->f[i].type, p, end))
			return -1;
		escape_spaces(b, mark);
		if (i == 0 && is_p2p(kind)) {
			if (ccg_varint_get(&v, end, &rank))
				return -1;
			put_peer(b, d, ki->f[i].key, comm, rank);
		}
	}
	return 0;
}

static int put_attributes(ccg_buf *b, const ccg_defs *d,
			  const unsigned char **p, const unsigned char *end,
			  int *npairs)
{
	uint64_t n, a;
	if (*p == end)
		return 0;
	if (ccg_varint_get(p, end, &n))
		return -1;
	for (uint64_t i = 0; i < n; i++) {
		if (ccg_varint_get(p, end, &a))
			return -1;
		pair_begin(b, npairs);
		size_t mark = b->len;
		ccg_buf_adds(b, "attr.");
		put_ref(b, d, CCG_FT_REF_ATTR, a);
		escape_spaces(b, mark);
		ccg_buf_addc(b, '=');
		mark = b->len;
		if (put_typed(b, d, p, end))
			return -1;
		escape_spaces(b, mark);
	}
	return *p == end ? 0 : -1;
}

/* Ends a line: "-" for an empty attributes column, the mark of a record
 * that could not be decoded whole, the newline. */
static void put_end(ccg_buf *b, int bad, int npairs)
{
	if (bad) {
		pair_begin(b, &npairs);
		ccg_buf_adds(b, "malformed=1");
	} else if (!npairs) {
		ccg_buf_adds(b, "\t-");
	}
	ccg_buf_addc(b, '\n');
}

int ccg_tsv_event_tail(ccg_buf *b, const ccg_defs *d, ccg_kind kind,
		       const unsigned char *fields, size_t len)
{
	const unsigned char *p = fields, *end = fields + len;
	int bad = !CCG_KIND_IS_EVENT(kind), npairs = 0;
	if (!bad)
		bad = put_fields(b, d, kind, 0, &p, end, &npairs) ||
		      put_attributes(b, d, &p, end, &npairs);
	else
		ccg_buf_addc(b, '-');
	put_end(b, bad, npairs);
	return bad ? -1 : 0;
}

void ccg_tsv_event_head(ccg_buf *b, ccg_kind kind, uint64_t time,
			unsigned time_width, const ccg_secfmt *secs,
			const char *loc, uint64_t depth,
			unsigned depth_width)
{
	if (!CCG_KIND_IS_EVENT(kind))
		kind = CCG_EV_UNKNOWN;
	/* Every events.tsv line starts here: one reservation, written in
	 * place. */
	const char *name = ccg_schema[kind].name;
	char sec[CCG_SECFMT_MAX];
	size_t slen = secs ? ccg_secfmt_fmt_wide(sec, secs, time) : 0;
	size_t nlen = strlen(name), llen = strlen(loc);
	unsigned td = ccg_digits_u64(time), dd = ccg_digits_u64(depth);
	size_t tw = td > time_width ? td : time_width;
	size_t dw = dd > depth_width ? dd : depth_width;
	size_t n = tw + (secs ? slen + 1 : 0) + nlen + llen + dw + 4;
	if (ccg_buf_reserve(b, n))
		return;
	char *p = b->data + b->len;
	p += ccg_fmt_u64(p, time, time_width);
	*p++ = '\t';
	if (secs) {
		memcpy(p, sec, slen);
		p += slen;
		*p++ = '\t';
	}
	memcpy(p, name, nlen);
	p += nlen;
	*p++ = '\t';
	memcpy(p, loc, llen);
	p += llen;
	*p++ = '\t';
	p += ccg_fmt_u64(p, depth, depth_width);
	*p = '\t';
	ccg_buf_setlen(b, b->len + n);
}

uint64_t ccg_tsv_event_textlen(ccg_kind kind, size_t tail_len)
{
	if (!CCG_KIND_IS_EVENT(kind))
		kind = CCG_EV_UNKNOWN;
	/* Kind name and the four tabs of the head. */
	return strlen(ccg_schema[kind].name) + 4 + (uint64_t)tail_len;
}

int ccg_tsv_event(ccg_buf *b, const ccg_defs *d, ccg_kind kind,
		  uint64_t time, unsigned time_width, const char *loc,
		  uint64_t depth, unsigned depth_width,
		  const unsigned char *fields, size_t len)
{
	ccg_tsv_event_head(b, kind, time, time_width, NULL, loc, depth,
			   depth_width);
	return ccg_tsv_event_tail(b, d, kind, fields, len);
}

int ccg_tsv_def(ccg_buf *b, const ccg_defs *d, size_t record)
{
	ccg_kind kind;
	uint64_t id;
	const unsigned char *fields;
	size_t len;
	ccg_defs_record(d, record, &kind, &id, &fields, &len);
	const ccg_kind_info *ki = &ccg_schema[kind];
	ccg_buf_adds(b, ki->name);
	ccg_buf_addc(b, '\t');
	if (kind == CCG_DEF_CLOCK_PROPERTIES)
		ccg_buf_addc(b, '-');
	else
		ccg_buf_addu(b, id, 0);
	ccg_buf_addc(b, '\t');
	int bad = 0, npairs = 0;
	if (kind == CCG_DEF_STRING) {
		ccg_tsv_escape(b, (const char *)fields);
	} else {
		const unsigned char *p = fields, *end = fields + len;
		unsigned first = kind == CCG_DEF_CLOCK_PROPERTIES ? 0 : 1;
		/* Defs with a derived name print it in the name column. */
		if (ki->obj < 0 && CCG_FT_IS_REF(ki->defines)) {
			const char *n = ccg_defs_name(d, ki->defines, id);
			ccg_tsv_escape(b, n ? n : "-");
			/* put_fields prints "-" for obj < 0; undo it. */
			size_t mark = b->len;
			bad = put_fields(b, d, kind, first, &p, end, &npairs);
			if (!bad && b->len > mark && b->data[mark] == '-') {
				memmove(b->data + mark, b->data + mark + 1,
					b->len - mark - 1);
				ccg_buf_setlen(b, b->len - 1);
			}
		} else {
			bad = put_fields(b, d, kind, first, &p, end, &npairs);
		}
		if (!bad && p != end)
			bad = 1;
	}
	put_end(b, bad, npairs);
	return bad ? -1 : 0;
}

/* ---- seconds ---- */

static unsigned __int128 pow10_u128(unsigned n)
{
	unsigned __int128 p = 1;
	while (n--)
		p *= 10;
	return p;
}

void ccg_secfmt_init(ccg_secfmt *f, uint64_t zero, uint64_t res,
		     uint64_t last)
{
	f->zero = zero;
	f->res = res;
	f->dec = 0;
	/* 10^19 < 2^64 keeps rel x 10^dec below 2^128. */
	while (f->dec < 19 && pow10_u128(f->dec) < res)
		f->dec++;
	f->iw = ccg_digits_u64(res && last > zero ? (last - zero) / res : 0);
}

/* Writes the seconds of `time` with no zero padding; when `wide`, as
 * many more decimal zeros as the integer part has digits fewer than
 * f->iw (a decimal point and one zero at least when f->dec is 0). */
static size_t secfmt(char *out, const ccg_secfmt *f, uint64_t time, int wide)
{
	size_t n = 0;
	if (!f->res) {
		out[0] = '-';
		return 1;
	}
	uint64_t rel = time - f->zero;
	if (time < f->zero) {
		out[n++] = '-';
		rel = f->zero - time;
	}
	unsigned __int128 p = pow10_u128(f->dec);
	unsigned __int128 v = (rel * p + f->res / 2) / f->res;
	size_t k = ccg_fmt_u64(out + n, (uint64_t)(v / p), 0);
	n += k;
	if (f->dec || wide)
		out[n++] = '.';
	if (f->dec)
		n += ccg_fmt_u64(out + n, (uint64_t)(v % p), f->dec);
	for (size_t z = wide ? (f->dec ? 0 : 1) + (k < f->iw ? f->iw - k : 0)
			     : 0;
	     z; z--)
		out[n++] = '0';
	return n;
}

size_t ccg_secfmt_fmt(char *out, const ccg_secfmt *f, uint64_t time)
{
	return secfmt(out, f, time, 0);
}

size_t ccg_secfmt_fmt_wide(char *out, const ccg_secfmt *f, uint64_t time)
{
	return secfmt(out, f, time, 1);
}

void ccg_secfmt_put(ccg_buf *b, const ccg_secfmt *f, uint64_t time)
{
	char tmp[CCG_SECFMT_MAX];
	ccg_buf_add(b, tmp, ccg_secfmt_fmt(tmp, f, time));
}

void ccg_secfmt_put_wide(ccg_buf *b, const ccg_secfmt *f, uint64_t time)
{
	char tmp[CCG_SECFMT_MAX];
	ccg_buf_add(b, tmp, ccg_secfmt_fmt_wide(tmp, f, time));
}

size_t ccg_secfmt_width(const ccg_secfmt *f)
{
	return f->res ? f->iw + 1 + (f->dec ? f->dec : 1) : 1;
}
