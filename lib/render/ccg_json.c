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

size_t ccg_json_ts(char *out, const ccg_secfmt *f, uint64_t time)
{
	size_t n = 0;
	uint64_t rel = time - f->zero;
	if (time < f->zero) {
		out[n++] = '-';
		rel = f->zero - time;
	}
	if (!f->res)
		return n + ccg_fmt_u64(out + n, rel, 0);
	/* Rounded as the seconds column rounds, to 10^-dec s. */
	unsigned __int128 v =
		((unsigned __int128)rel * pow10_128(f->dec) + f->res / 2) /
		f->res;
	if (f->dec <= 6) {
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

uint64_t ccg_json_fixed(size_t pid_len, size_t tid_len, size_t ts_width)
{
	/* The instant line less what textlen already counts: the four tabs
	 * of the head, the tab and newline of the tail. */
	return I_FIXED + pid_len + tid_len + ts_width - 6;
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

static void put_call(ccg_buf *b, const ccg_json_ev *e, const tail *t,
		     int begin, int with_attrs)
{
	ccg_buf_adds(b, begin ? "{\"ph\":\"B\"," : "{\"ph\":\"E\",");
	put_where(b, e);
	ccg_buf_adds(b, ",\"name\":\"");
	put_field(b, t->name, t->name_len);
	if (begin && with_attrs && t->attrs_len) {
		ccg_buf_adds(b, "\",\"args\":{\"attributes\":\"");
		put_field(b, t->attrs, t->attrs_len);
		ccg_buf_adds(b, "\"}}");
	} else {
		ccg_buf_adds(b, "\"}");
	}
}

/* A metric as a counter; -1 when its members and values do not pair up
 * or a value is not a JSON number. */
static int put_counter(ccg_buf *b, const ccg_json_ev *e, const tail *t)
{
	const char *v = t->attrs, *end = t->attrs + t->attrs_len;
	if (t->attrs_len < 7 || memcmp(v, "values=", 7))
		return -1;
	v += 7;
	const char *sp = memchr(v, ' ', (size_t)(end - v));
	if (sp)
		end = sp;
	const char *nm = t->name, *nend = t->name + t->name_len;
	ccg_buf_adds(b, "{\"ph\":\"C\",");
	put_where(b, e);
	ccg_buf_adds(b, ",\"name\":\"t");
	ccg_buf_adds(b, e->tid);
	ccg_buf_adds(b, "\",\"args\":{");
	for (int first = 1; v <= end && nm <= nend; first = 0) {
		const char *vc = memchr(v, ',', (size_t)(end - v));
		const char *nc = memchr(nm, ',', (size_t)(nend - nm));
		const char *ve = vc ? vc : end, *ne = nc ? nc : nend;
		if (!is_number(v, (size_t)(ve - v)) || ne == nm)
			return -1;
		if (!first)
			ccg_buf_addc(b, ',');
		ccg_buf_addc(b, '"');
		put_field(b, nm, (size_t)(ne - nm));
		ccg_buf_adds(b, "\":");
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

/* A message end as a flow event, with or without its attributes; -1 when
 * it names no peer location. */
static int put_flow(ccg_buf *b, const ccg_json_ev *e, const tail *t,
		    int with_attrs)
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
	ccg_buf_adds(b, ",\"name\":\"message");
	if (with_attrs && t->attrs_len) {
		ccg_buf_adds(b, "\",\"args\":{\"attributes\":\"");
		put_field(b, t->attrs, t->attrs_len);
		ccg_buf_adds(b, "\"}}");
	} else {
		ccg_buf_adds(b, "\"}");
	}
	return 0;
}

static void put_instant(ccg_buf *b, const ccg_json_ev *e, const tail *t)
{
	ccg_buf_adds(b, "{\"ph\":\"i\",");
	put_where(b, e); /* I_OPEN and the rest of I_FIXED's head */
	ccg_buf_adds(b, ",\"name\":\"");
	ccg_buf_adds(b, ccg_schema[CCG_KIND_IS_EVENT(e->kind) ? e->kind
							     : CCG_EV_UNKNOWN]
				.name);
	ccg_buf_adds(b, "\",\"args\":{\"");
	put_field(b, t->name, t->name_len);
	ccg_buf_adds(b, "\":\"");
	put_field(b, t->attrs, t->attrs_len);
	ccg_buf_adds(b, "\"}}");
}

/* Form `form` (0 the richest) of e's kind; -1 when it has none. */
static int put_form(ccg_buf *b, const ccg_json_ev *e, const tail *t,
		    int form)
{
	switch (e->kind) {
	case CCG_EV_ENTER:
	case CCG_EV_CALLING_CONTEXT_ENTER:
	case CCG_EV_LEAVE:
	case CCG_EV_CALLING_CONTEXT_LEAVE:
		put_call(b, e, t,
			 e->kind == CCG_EV_ENTER ||
				 e->kind == CCG_EV_CALLING_CONTEXT_ENTER,
			 form == 0);
		return 0;
	case CCG_EV_METRIC:
		return form ? -1 : put_counter(b, e, t);
	case CCG_EV_MPI_SEND:
	case CCG_EV_MPI_ISEND:
	case CCG_EV_MPI_RECV:
	case CCG_EV_MPI_IRECV:
		return form > 1 ? -1 : put_flow(b, e, t, form == 0);
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
	for (; form < 2; form++) {
		ccg_buf_setlen(b, at0);
		if (!put_form(b, e, &t, form) && b->len - at0 <= room)
			break;
	}
	if (form == 2) {
		ccg_buf_setlen(b, at0);
		put_instant(b, e, &t);
		if (b->len - at0 > room) {
			ccg_buf_setlen(b, at0);
			return -1;
		}
	}
	size_t pad = (size_t)(room - (b->len - at0));
	if (!ccg_buf_reserve(b, pad + 2)) {
		memset(b->data + b->len, ' ', pad);
		memcpy(b->data + b->len + pad, ",\n", 2);
		ccg_buf_setlen(b, b->len + pad + 2);
	}
	return 0;
}
