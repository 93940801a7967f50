/*
 * ccg_json.h - events as lines of the Chrome trace event format, the JSON
 * that Perfetto, chrome://tracing and speedscope open.
 *
 * One events.tsv line becomes one JSON line (an element of "traceEvents"
 * and its ",\n") whose length is the TSV record's textlen plus a constant
 * of the location (ccg_json_fixed): the JSON is padded with spaces before
 * the comma where it is shorter.  So a file's JSON size follows from the
 * graph as its TSV size does, and a read at any offset skips subtrees.
 *
 * The constant leaves CCG_JSON_SLACK bytes a line beyond the shortest
 * form (the last instant form below), so that the richer forms fit.
 *
 * What each record becomes (its role, ccg_json_role, says which calls
 * begin or end here; by its kind unless told):
 *   ENTER, CALLING_CONTEXT_ENTER  "B", named by the region, attributes in
 *                                 args; "X" (with "dur") for a call whose
 *                                 end has no Leave of its own
 *   LEAVE, CALLING_CONTEXT_LEAVE  "E", named by the region of the call
 *                                 it ends
 *   METRIC                        "C" named by the metric's members (or
 *                                 "metrics" when they do not fit) and
 *                                 ctr_tag; one member's value in
 *                                 args.value, several members' under their
 *                                 names; when every value is a JSON number
 *   MPI_SEND, MPI_ISEND           flow start "s", MPI_RECV and MPI_IRECV
 *                                 flow end "f" (bound to the enclosing
 *                                 slice), named "message", id
 *                                 "SENDER-RECEIVER-TAG-COMM-SEQ" (location
 *                                 ids, the communicator's name; SEQ counts
 *                                 the earlier messages of that sender,
 *                                 receiver, tag and communicator), with
 *                                 attributes in args when they fit
 *   anything else, an Enter or    an instant "i" (thread scope) named by
 *   Leave that begins or ends no  its kind, args {"name": NAME, KEY:
 *   call, and any of the above    VALUE, ...}, or {NAME: ATTRIBUTES} when
 *   that would not fit            that does not fit
 * Attributes in args: one member per KEY=VALUE of the TSV record, the
 * value a JSON number when it reads back exactly in a double (integers
 * up to 2^53 in size, doubles), else a string (larger integers keep
 * their digits); when the record has an attribute that is not KEY=VALUE
 * or the pairs do not fit, one string under "attributes" (instants: the
 * whole form {NAME: ATTRIBUTES}); when that does not fit either, none.
 * Strings come from the TSV text: its escapes \t \n \r \\ \" are JSON's,
 * \s is a space, and a control character or a byte that is not part of
 * valid UTF-8 becomes '?'; so a field's JSON is never longer than its TSV
 * text, and the instant form always fits.
 *
 * Times ("ts") are microseconds since the trace's zero, exact to the tick:
 * the digits of the seconds column with the point moved six places (ticks
 * since the zero when the clock has no resolution).
 */
#ifndef CCG_JSON_H
#define CCG_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_buf.h"
#include "ccg_tsv.h"
#include "ccg_schema.h"

/* The first line of every trace.json, and its last element and end. */
#define CCG_JSON_HEAD "{\"traceEvents\":[\n"
#define CCG_JSON_TAIL                                                     \
	"{\"ph\":\"M\",\"pid\":0,\"tid\":0,\"name\":\"process_sort_index\"," \
	"\"args\":{\"sort_index\":0}}\n],\"displayTimeUnit\":\"ns\"}\n"

/* Bytes each line holds beyond the shortest form: room for attributes
 * one key each and counters named by their metric. */
#define CCG_JSON_SLACK 24

/* Most characters ccg_json_ts writes. */
#define CCG_JSON_TS_MAX (CCG_SECFMT_MAX + 8)

/* Width every "ts" of a trace is padded to: times from f->zero on, ticks
 * up to `time_width` digits. */
size_t ccg_json_ts_width(const ccg_secfmt *f, unsigned time_width);
/* Writes the microseconds from f->zero to `time` (no padding, no
 * terminator) and returns their length. */
size_t ccg_json_ts(char *out, const ccg_secfmt *f, uint64_t time);

/* Writes the microseconds from `from` to `to` (0 when to <= from) as
 * the difference of their ccg_json_ts, so that from's "ts" plus it is
 * to's; returns their length (at most CCG_JSON_TS_MAX). */
size_t ccg_json_dur(char *out, const ccg_secfmt *f, uint64_t from,
		    uint64_t to);

/* Bytes of one event's JSON line beyond the record's textlen, for a
 * location whose pid and tid are `pid_len` and `tid_len` digits long and
 * whose times are padded to `ts_width`. */
uint64_t ccg_json_fixed(size_t pid_len, size_t tid_len, size_t ts_width);

/* What an Enter or Leave is to the calls of the file. */
enum ccg_json_role {
	CCG_JSON_BY_KIND = 0,   /* an Enter begins a call, a Leave ends one */
	CCG_JSON_BEGIN,         /* the Enter begins a call: "B" */
	CCG_JSON_END,           /* the Leave ends a call: "E" */
	CCG_JSON_COMPLETE,      /* the Enter begins a call that no Leave of
				 * its own ends: "X" lasting `dur` */
	CCG_JSON_PLAIN          /* neither: an instant */
};

/* One event to write. */
typedef struct ccg_json_ev {
	ccg_kind kind;
	const char *pid, *tid;  /* decimal */
	const char *loc_id;     /* the location's OTF2 id, decimal */
	const char *ts;         /* ccg_json_ts's text, ts_len bytes */
	size_t ts_len, ts_width;
	const char *tail;       /* the TSV record: NAME \t ATTRS \n */
	size_t tail_len;
	uint64_t seq;           /* a message: its SEQ (see above); UINT64_MAX
				 * when not known (an instant then) */
	int role;               /* enum ccg_json_role */
	const char *dur;        /* CCG_JSON_COMPLETE: ccg_json_dur's text */
	size_t dur_len;
	const char *ctr_tag;    /* appended to a counter's name, or NULL */
	const char *call_name;  /* CCG_JSON_END: the region of the call the
				 * Leave ends (TSV text), or NULL; when not
				 * the Leave's, the "E" is named by it, with
				 * args.leave the Leave's */
	size_t call_name_len;
} ccg_json_ev;

/* Appends exactly `size` bytes (the record's textlen plus ccg_json_fixed):
 * the event's JSON, spaces, ",\n".  Returns -1 (nothing appended) when
 * even the instant form does not fit, which a textlen that matches the
 * tail never allows. */
int ccg_json_event(ccg_buf *b, const ccg_json_ev *e, uint64_t size);

/* Appends a line of a call clipped to the file's span: phase ph ('B',
 * 'E', or 'X' lasting e->dur) at e's pid, tid and ts, named `name` (n
 * bytes of TSV text, as the region column writes it), args
 * {"clipped":true}, and ",\n".  Its length is its own (not padded). */
void ccg_json_clip(ccg_buf *b, char ph, const ccg_json_ev *e,
		   const char *name, size_t name_len);

/* Appends s (n bytes, raw text from the definitions) as the inside of a
 * JSON string: " and \ escaped, control characters as \u00XX, bytes not
 * part of valid UTF-8 as '?'. */
void ccg_json_str(ccg_buf *b, const char *s, size_t n);

/* ---- messages: the key that pairs a send with its receive ---- */

/* A message's channel read from a send's or receive's TSV record (kind
 * `kind`, of the location whose OTF2 id is `loc_id`): the sender's and
 * receiver's location ids, the tag and the communicator's name (a slice
 * of the tail).  Returns -1 when the record is not a message or does not
 * name its peer's location. */
typedef struct ccg_json_chan {
	const char *sender, *receiver, *tag, *comm;
	size_t sender_len, receiver_len, tag_len, comm_len;
} ccg_json_chan;

int ccg_json_channel(ccg_kind kind, const char *loc_id, const char *tail,
		     size_t tail_len, ccg_json_chan *c);

#endif
