/*
 * ccg_json.c - events as Chrome trace event JSON lines of a length known
 * in advance (see ccg_json.h).
 */
#include "ccg_json.h"

#include <string.h>

/* The instant form's characters besides pid, tid, ts, kind, name and
 * attributes: every other form must fit in what it leaves. */
#define I_OPEN "{\"ph\":\"i\",\"pid\":"
#define I_FIXED                                                          \
	(sizeof I_OPEN - 1 + sizeof ",\"tid\":" - 1 + sizeof ",\"ts\":" - 1 + \
	 sizeof ",\"name\":\"" - 1 + sizeof "\",\"args\":{\"" - 1 +          \
	 sizeof "\":\"" - 1 + sizeof "\"}}" - 1 + sizeof ",\n" - 1)

static unsigned __int128 pow10_128(unsigned n)
{
	unsigned __int128 p = 1;
	while (n--)
		p *= 10;
	return p;
}

size_t ccg_json_ts_width(const ccg_secfmt *f, unsigned time_width)
{
	if (!f->res)
		return 1 + (size_t)time_width; /* a sign, the ticks */
	/* A sign, the integer seconds and six more digits, the point and
	 * the decimals past the microsecond. */
	return 1 + f->iw + 6 + (f->dec > 6 ? 1 + f->dec - 6 : 0);
}

/* Writes v units of 10^-dec s (ticks when the clock has no resolution)
 * as microseconds; returns their length. */
static size_t put_us(char *out, const ccg_secfmt *f, unsigned __int128 v)
{
	size_t n = 0;
	if (!f->res || f->dec <= 6) {
		if (f->res)
			v *= pow10_128(6 - f->dec);
		char tmp[48];
		size_t k = 0;
		do {
			tmp[k++] = (char)('0' + (unsigned)(v % 10));
			v /= 10;
		} while (v && k < sizeof tmp);
		while (k)
			out[n++] = tmp[--k];
		return n;
	}
	unsigned __int128 p = pow10_128(f->dec - 6);
	n += ccg_fmt_u64(out + n, (uint64_t)(v / p), 0);
	out[n++] = '.';
	return n + ccg_fmt_u64(out + n, (uint64_t)(v % p), f->dec - 6);
}

/* Ticks d as units of 10^-dec s, rounded as the seconds column rounds. */
static unsigned __int128 units(const ccg_secfmt *f, uint64_t d)
{
	if (!f->res)
		return d;
	return ((unsigned __int128)d * pow10_128(f->dec) + f->res / 2) /
	       f->res;
}

size_t ccg_json_ts(char *out, const ccg_secfmt *f, uint64_t time)
{
	if (time < f->zero) {
		out[0] = '-';
		return 1 + put_us(out + 1, f, units(f, f->zero - time));
	}
	return put_us(out, f, units(f, time - f->zero));
}

size_t ccg_json_dur(char *out, const ccg_secfmt *f, uint64_t from,
		    uint64_t to)
{
	if (to <= from)
		return put_us(out, f, 0);
	/* Both ends rounded as their "ts" are: from + dur is to's "ts". */
	if (from >= f->zero)
		return put_us(out, f, units(f, to - f->zero) -
					      units(f, from - f->zero));
	if (to <= f->zero)
		return put_us(out, f, units(f, f->zero - from) -
					      units(f, f->zero - to));
	return put_us(out, f, units(f, f->zero - from) +
				      units(f, to - f->zero));
}

uint64_t ccg_json_fixed(size_t pid_len, size_t tid_len, size_t ts_width)
{
	/* The instant line less what textlen already counts (the four tabs
	 * of the head, the tab and newline of the tail), and the slack. */
	return I_FIXED + pid_len + tid_len + ts_width - 6 + CCG_JSON_SLACK;
}

/* Length of the UTF-8 sequence at s (n bytes left), 0 when invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t k;
	unsigned c = s[0];
	uint32_t cp;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		k = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		k = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		k = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (k > n)
		return 0;
	for (size_t i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((k == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (k == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return k;
}

/* Appends the UTF-8 sequence at s (n bytes left), or '?' for a byte
 * that does not start a valid one; returns the bytes it took. */
static size_t put_utf8(ccg_buf *b, const char *s, size_t n)
{
	size_t k = utf8_len((const unsigned char *)s, n);
	if (!k) {
		ccg_buf_addc(b, '?');
		return 1;
	}
	ccg_buf_add(b, s, k);
	return k;
}

/* Appends TSV field text s (n bytes) as the inside of a JSON string, never
 * longer than n. */
static void put_field(ccg_buf *b, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, run = 0;
	while (i < n) {
		if (u[i] == '\\' || u[i] < 0x20 || u[i] >= 0x80) {
			ccg_buf_add(b, s + run, i - run);
			if (u[i] == '\\') {
				char c = i + 1 < n ? s[i + 1] : 0;
				if (c == 's')
					ccg_buf_addc(b, ' ');
				else if (c && strchr("tnr\\\"", c))
					ccg_buf_add(b, s + i, 2);
				else
					ccg_buf_addc(b, '?');
				i += i + 1 < n ? 2 : 1;
			} else if (u[i] < 0x20) {
				ccg_buf_addc(b, '?');
				i++;
			} else {
				i += put_utf8(b, s + i, n - i);
			}
			run = i;
			continue;
		}
		i++;
	}
	ccg_buf_add(b, s + run, n - run);
}

void ccg_json_str(ccg_buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		if (u[i] == '"' || u[i] == '\\') {
			char e[2] = {'\\', s[i]};
			ccg_buf_add(b, e, 2);
			i++;
		} else if (u[i] < 0x20) {
			char e[6] = {'\\', 'u', '0', '0', hex[u[i] >> 4],
				     hex[u[i] & 15]};
			ccg_buf_add(b, e, 6);
			i++;
		} else {
			i += put_utf8(b, s + i, n - i);
		}
	}
}

/* The tail split: NAME, ATTRS ("-" read as none). */
typedef struct tail {
	const char *name, *attrs;
	size_t name_len, attrs_len;
} tail;

static int split_tail(const char *s, size_t n, tail *t)
{
	const char *tab = memchr(s, '\t', n);
	if (!tab || n < 2 || s[n - 1] != '\n')
		return -1;
	t->name = s;
	t->name_len = (size_t)(tab - s);
	t->attrs = tab + 1;
	t->attrs_len = (size_t)(s + n - 1 - t->attrs);
	if (t->attrs_len == 1 && t->attrs[0] == '-')
		t->attrs_len = 0;
	return 0;
}

/* The value of key `key` in ATTRS (pairs separated by one space). */
static int attr(const tail *t, const char *key, const char **v, size_t *n)
{
	size_t kl = strlen(key);
	const char *p = t->attrs, *end = t->attrs + t->attrs_len;
	while (p < end) {
		const char *sp = memchr(p, ' ', (size_t)(end - p));
		const char *e = sp ? sp : end;
		if ((size_t)(e - p) > kl && !memcmp(p, key, kl) && p[kl] == '=') {
			*v = p + kl + 1;
			*n = (size_t)(e - *v);
			return 0;
		}
		p = e + 1;
	}
	return -1;
}

static int is_digits(const char *s, size_t n)
{
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/* Whether s (n bytes) is a JSON number. */
static int is_number(const char *s, size_t n)
{
	size_t i = 0, k;
	if (i < n && s[i] == '-')
		i++;
	for (k = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		;
	if (i == k || (s[k] == '0' && i - k > 1))
		return 0;
	if (i < n && s[i] == '.') {
		for (k = ++i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == k)
			return 0;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		if (++i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		for (k = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == k)
			return 0;
	}
	return i == n;
}

int ccg_json_channel(ccg_kind kind, const char *loc_id, const char *tl,
		     size_t tail_len, ccg_json_chan *c)
{
	tail t;
	int send = kind == CCG_EV_MPI_SEND || kind == CCG_EV_MPI_ISEND;
	if ((!send && kind != CCG_EV_MPI_RECV && kind != CCG_EV_MPI_IRECV) ||
	    split_tail(tl, tail_len, &t))
		return -1;
	const char *peer;
	size_t peer_len;
	if (attr(&t, send ? "receiver_location" : "sender_location", &peer,
		 &peer_len) ||
	    !is_digits(peer, peer_len) ||
	    attr(&t, "tag", &c->tag, &c->tag_len) ||
	    !is_digits(c->tag, c->tag_len))
		return -1;
	const char **self = send ? &c->sender : &c->receiver;
	size_t *self_len = send ? &c->sender_len : &c->receiver_len;
	*self = loc_id;
	*self_len = strlen(loc_id);
	*(send ? &c->receiver : &c->sender) = peer;
	*(send ? &c->receiver_len : &c->sender_len) = peer_len;
	c->comm = t.name;
	c->comm_len = t.name_len;
	return 0;
}

/* The opening every form shares after its phase: pid, tid, ts. */
static void put_where(ccg_buf *b, const ccg_json_ev *e)
{
	ccg_buf_adds(b, "\"pid\":");
	ccg_buf_adds(b, e->pid);
	ccg_buf_adds(b, ",\"tid\":");
	ccg_buf_adds(b, e->tid);
	ccg_buf_adds(b, ",\"ts\":");
	for (size_t i = e->ts_len; i < e->ts_width; i++)
		ccg_buf_addc(b, ' ');
	ccg_buf_add(b, e->ts, e->ts_len);
}

/* Whether s (n bytes), a JSON number, reads back exactly in a double, as
 * JavaScript reads it: an integer of at most 2^53 in size, or a number
 * with a fraction or exponent (a double, which events.tsv prints with
 * the digits that read back to it). */
static int is_exact(const char *s, size_t n)
{
	if (!is_number(s, n))
		return 0;
	if (memchr(s, '.', n) || memchr(s, 'e', n) || memchr(s, 'E', n))
		return 1;
	size_t i = s[0] == '-';
	if (n - i != 16)
		return n - i < 16;
	return memcmp(s + i, "9007199254740992", 16) <= 0;
}

/* The record as members of args, one key each: "name":NAME (with_name,
 * unless NAME is "-"), then each attribute KEY=VALUE as "KEY":VALUE, the
 * value a number when it is one that reads back exactly (is_exact), else
 * a string.  -1 when an attribute is not KEY=VALUE, or is named "name"
 * beside NAME. */
static int put_kv(ccg_buf *b, const tail *t, int with_name)
{
	int first = 1, named = 0;
	if (with_name && !(t->name_len == 1 && t->name[0] == '-')) {
		ccg_buf_adds(b, "\"name\":\"");
		put_field(b, t->name, t->name_len);
		ccg_buf_addc(b, '"');
		first = 0;
		named = 1;
	}
	const char *p = t->attrs, *end = t->attrs + t->attrs_len;
	while (p < end) {
		const char *sp = memchr(p, ' ', (size_t)(end - p));
		const char *e = sp ? sp : end;
		const char *eq = memchr(p, '=', (size_t)(e - p));
		if (!eq || eq == p ||
		    (named && eq - p == 4 && !memcmp(p, "name", 4)))
			return -1;
		if (!first)
			ccg_buf_addc(b, ',');
		first = 0;
		ccg_buf_addc(b, '"');
		put_field(b, p, (size_t)(eq - p));
		ccg_buf_adds(b, "\":");
		const char *v = eq + 1;
		size_t vn = (size_t)(e - v);
		if (is_exact(v, vn)) {
			ccg_buf_add(b, v, vn);
		} else {
			ccg_buf_addc(b, '"');
			put_field(b, v, vn);
			ccg_buf_addc(b, '"');
		}
		if (!sp)
			break;
		p = sp + 1;
	}
	return 0;
}

/* ,"args":{...}: the record one key each (put_kv, with its name or
 * not), or (key) one key, `key`, whose value is its attributes. */
static int put_args(ccg_buf *b, const tail *t, int with_name,
		    const char *key, size_t key_len)
{
	ccg_buf_adds(b, ",\"args\":{");
	if (!key) {
		if (put_kv(b, t, with_name))
			return -1;
	} else {
		ccg_buf_addc(b, '"');
		put_field(b, key, key_len);
		ccg_buf_adds(b, "\":\"");
		put_field(b, t->attrs, t->attrs_len);
		ccg_buf_addc(b, '"');
	}
	ccg_buf_addc(b, '}');
	return 0;
}

/* The attributes of a call or message as args: one key each (form 0),
 * one string (form 1), left out (form 2). */
static int put_attrs(ccg_buf *b, const tail *t, int form)
{
	static const char attributes[] = "attributes";
	if (!t->attrs_len || form >= 2)
		return 0;
	return put_args(b, t, 0, form ? attributes : NULL,
			sizeof attributes - 1);
}

/* A call line up to its name's opening quote: phase ph, where, and for
 * "X" its duration. */
static void put_head(ccg_buf *b, char ph, const ccg_json_ev *e)
{
	char open[] = "{\"ph\":\"?\",";
	open[7] = ph;
	ccg_buf_adds(b, open);
	put_where(b, e);
	if (ph == 'X') {
		ccg_buf_adds(b, ",\"dur\":");
		ccg_buf_add(b, e->dur, e->dur_len);
	}
	ccg_buf_adds(b, ",\"name\":\"");
}

/* A call's begin "B", end "E" or whole "X" (e->dur long). */
static int put_call(ccg_buf *b, const ccg_json_ev *e, const tail *t,
		    char ph, int form)
{
	put_head(b, ph, e);
	if (ph == 'E' && e->call_name &&
	    (e->call_name_len != t->name_len ||
	     memcmp(e->call_name, t->name, t->name_len))) {
		/* A Leave of another region ends the call: named as its
		 * "B", the Leave's own region in args (form 0). */
		put_field(b, e->call_name, e->call_name_len);
		if (!form) {
			ccg_buf_adds(b, "\",\"args\":{\"leave\":\"");
			put_field(b, t->name, t->name_len);
			ccg_buf_adds(b, "\"}");
		} else {
			ccg_buf_addc(b, '"');
		}
		ccg_buf_addc(b, '}');
		return 0;
	}
	put_field(b, t->name, t->name_len);
	ccg_buf_addc(b, '"');
	if (ph != 'E' && put_attrs(b, t, form))
		return -1;
	ccg_buf_addc(b, '}');
	return 0;
}

/* A metric as a counter named by its members (form 0) or "metrics"
 * (form 1), and e->ctr_tag; one member's value in args.value, several
 * members' under their names.  -1 when its members and values do not
 * pair up or a value is not a JSON number. */
static int put_counter(ccg_buf *b, const ccg_json_ev *e, const tail *t,
		       int form)
{
	const char *v = t->attrs, *end = t->attrs + t->attrs_len;
	if (t->attrs_len < 7 || memcmp(v, "values=", 7))
		return -1;
	v += 7;
	const char *sp = memchr(v, ' ', (size_t)(end - v));
	if (sp)
		end = sp;
	const char *nm = t->name, *nend = t->name + t->name_len;
	int one = !memchr(nm, ',', t->name_len);
	ccg_buf_adds(b, "{\"ph\":\"C\",");
	put_where(b, e);
	ccg_buf_adds(b, ",\"name\":\"");
	if (form == 0)
		put_field(b, t->name, t->name_len);
	else
		ccg_buf_adds(b, "metrics");
	if (e->ctr_tag)
		ccg_buf_adds(b, e->ctr_tag);
	ccg_buf_adds(b, "\",\"args\":{");
	for (int first = 1; v <= end && nm <= nend; first = 0) {
		const char *vc = memchr(v, ',', (size_t)(end - v));
		const char *nc = memchr(nm, ',', (size_t)(nend - nm));
		const char *ve = vc ? vc : end, *ne = nc ? nc : nend;
		if (!is_number(v, (size_t)(ve - v)) || ne == nm)
			return -1;
		if (!first)
			ccg_buf_addc(b, ',');
		if (one) {
			ccg_buf_adds(b, "\"value\":");
		} else {
			ccg_buf_addc(b, '"');
			put_field(b, nm, (size_t)(ne - nm));
			ccg_buf_adds(b, "\":");
		}
		ccg_buf_add(b, v, (size_t)(ve - v));
		if (!vc != !nc)
			return -1; /* more values than members, or fewer */
		if (!vc)
			break;
		v = vc + 1;
		nm = nc + 1;
	}
	ccg_buf_adds(b, "}}");
	return 0;
}

/* A message end as a flow event, its attributes as put_attrs's `form`;
 * -1 when it names no peer location. */
static int put_flow(ccg_buf *b, const ccg_json_ev *e, const tail *t,
		    int form)
{
	ccg_json_chan c;
	if (e->seq == UINT64_MAX ||
	    ccg_json_channel(e->kind, e->loc_id, e->tail, e->tail_len, &c))
		return -1;
	int send = e->kind == CCG_EV_MPI_SEND || e->kind == CCG_EV_MPI_ISEND;
	ccg_buf_adds(b, send ? "{\"ph\":\"s\"," : "{\"ph\":\"f\",\"bp\":\"e\",");
	ccg_buf_adds(b, "\"id\":\"");
	ccg_buf_add(b, c.sender, c.sender_len);
	ccg_buf_addc(b, '-');
	ccg_buf_add(b, c.receiver, c.receiver_len);
	ccg_buf_addc(b, '-');
	ccg_buf_add(b, c.tag, c.tag_len);
	ccg_buf_addc(b, '-');
	put_field(b, c.comm, c.comm_len);
	ccg_buf_addc(b, '-');
	char d[24];
	ccg_buf_add(b, d, ccg_fmt_u64(d, e->seq, 0));
	ccg_buf_adds(b, "\",");
	put_where(b, e);
	ccg_buf_adds(b, ",\"name\":\"message\"");
	if (put_attrs(b, t, form))
		return -1;
	ccg_buf_addc(b, '}');
	return 0;
}

/* An instant named by its kind: the record in args one key each
 * (put_kv), or (whole) as {NAME: ATTRS}, which always fits. */
static int put_instant(ccg_buf *b, const ccg_json_ev *e, const tail *t,
		       int whole)
{
	ccg_buf_adds(b, "{\"ph\":\"i\",");
	put_where(b, e); /* I_OPEN and the rest of I_FIXED's head */
	ccg_buf_adds(b, ",\"name\":\"");
	ccg_buf_adds(b, ccg_schema[CCG_KIND_IS_EVENT(e->kind) ? e->kind
							     : CCG_EV_UNKNOWN]
				.name);
	ccg_buf_addc(b, '"');
	if (put_args(b, t, 1, whole ? t->name : NULL, t->name_len))
		return -1;
	ccg_buf_addc(b, '}');
	return 0;
}

/* Forms, richest first: 0 to 2 of e's kind (-1 when it has no such
 * form), then the instant's two. */
#define FORMS 5

static int put_form(ccg_buf *b, const ccg_json_ev *e, const tail *t,
		    int form)
{
	if (form >= 3)
		return put_instant(b, e, t, form == 4);
	switch (e->kind) {
	case CCG_EV_ENTER:
	case CCG_EV_CALLING_CONTEXT_ENTER:
		if (e->role == CCG_JSON_PLAIN || e->role == CCG_JSON_END)
			return -1;
		return put_call(b, e, t,
				e->role == CCG_JSON_COMPLETE ? 'X' : 'B', form);
	case CCG_EV_LEAVE:
	case CCG_EV_CALLING_CONTEXT_LEAVE:
		if (e->role != CCG_JSON_BY_KIND && e->role != CCG_JSON_END)
			return -1;
		return form > 1 ? -1 : put_call(b, e, t, 'E', form);
	case CCG_EV_METRIC:
		return form > 1 ? -1 : put_counter(b, e, t, form);
	case CCG_EV_MPI_SEND:
	case CCG_EV_MPI_ISEND:
	case CCG_EV_MPI_RECV:
	case CCG_EV_MPI_IRECV:
		return put_flow(b, e, t, form);
	default:
		return -1;
	}
}

int ccg_json_event(ccg_buf *b, const ccg_json_ev *e, uint64_t size)
{
	const size_t at0 = b->len;
	tail t;
	if (size < 2 || split_tail(e->tail, e->tail_len, &t))
		return -1;
	const uint64_t room = size - 2;
	int form = 0;
	for (; form < FORMS; form++) {
		ccg_buf_setlen(b, at0);
		if (!put_form(b, e, &t, form) && b->len - at0 <= room)
			break;
	}
	if (form == FORMS) {
		ccg_buf_setlen(b, at0);
		return -1;
	}
	size_t pad = (size_t)(room - (b->len - at0));
	if (!ccg_buf_reserve(b, pad + 2)) {
		memset(b->data + b->len, ' ', pad);
		memcpy(b->data + b->len + pad, ",\n", 2);
		ccg_buf_setlen(b, b->len + pad + 2);
	}
	return 0;
}

void ccg_json_clip(ccg_buf *b, char ph, const ccg_json_ev *e,
		   const char *name, size_t name_len)
{
	put_head(b, ph, e);
	put_field(b, name, name_len);
	ccg_buf_adds(b, "\",\"args\":{\"clipped\":true}},\n");
}
