/*
 * ccg_read.c - reading an OTF2 archive into records (see ccg_read.h): the
 * ccg_read, its OTF2 readers and the delivery of records to the sinks.
 *
 * Every OTF2 callback (ccg_read_def.c, ccg_read_evt.c) packs its arguments
 * into one scratch buffer in the order of ccg_schema[kind] (with the
 * appenders of ccg_codec.h, which write in place while there is room) and
 * hands the bytes to the caller's sink through ccg_rd_emit_def or
 * ccg_rd_emit_event.  The scratch buffer lives in the ccg_read and is
 * reused, so the per-event path allocates nothing once the buffer has grown
 * to the largest record.
 *
 * Global definitions and every location are read through an OTF2_Reader of
 * their own, opened for that call and closed before it returns: whatever a
 * missing or corrupt file does to OTF2's state stays with that reader.
 *
 * OTF2 reports errors through a process-wide callback.  Ours prints nothing;
 * it keeps the first message since the last reset in a thread-local buffer,
 * from where the failing call copies it into the caller's `msg`.
 */
#define _POSIX_C_SOURCE 200809L

#include "ccg_read.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <otf2/otf2.h>

#include "ccg_codec.h"
#include "ccg_read_i.h"

struct ccg_read {
	char *anchor;
	uint64_t nlocations;
	OTF2_GlobalDefReaderCallbacks *defcb;
	OTF2_EvtReaderCallbacks *evcb;
	ccg_buf scratch;
	/* the sink of the running ccg_read_defs / ccg_read_location */
	ccg_read_def_fn def;
	ccg_read_event_fn ev;
	void *ctx;
	ccg_err err; /* why a callback interrupted reading */
};

/* ------------------------------------------------------------------ */
/* OTF2 error messages */

static _Thread_local char otf2_msg[384];
static _Thread_local int otf2_msg_set;

static void otf2_msg_clear(void)
{
	otf2_msg_set = 0;
	otf2_msg[0] = '\0';
}

static OTF2_ErrorCode on_otf2_error(void *ud, const char *file,
				    uint64_t line, const char *func,
				    OTF2_ErrorCode code, const char *fmt,
				    va_list va)
{
	(void)ud;
	(void)file;
	(void)line;
	(void)func;
	/* OTF2 reports a failure once per stack frame on the way up; the
	 * first report is the cause, the later ones are generic. */
	if (otf2_msg_set)
		return code;
	otf2_msg_set = 1;
	const char *desc = OTF2_Error_GetDescription(code);
	int n = snprintf(otf2_msg, sizeof otf2_msg, "%s",
			 desc ? desc : "OTF2 error");
	if (n < 0)
		n = 0;
	if (fmt && *fmt && (size_t)n + 2 < sizeof otf2_msg) {
		otf2_msg[n++] = ':';
		otf2_msg[n++] = ' ';
		vsnprintf(otf2_msg + n, sizeof otf2_msg - (size_t)n, fmt, va);
	}
	return code;
}

static void register_error_callback(void)
{
	static atomic_int done;
	if (!atomic_exchange(&done, 1))
		OTF2_Error_RegisterCallback(on_otf2_error, NULL);
}

/* Appends ": <OTF2 message>" (or the error code's description) to msg. */
static void add_otf2_reason(ccg_buf *msg, OTF2_ErrorCode code)
{
	if (!msg)
		return;
	if (otf2_msg_set && otf2_msg[0]) {
		ccg_buf_adds(msg, ": ");
		ccg_buf_adds(msg, otf2_msg);
	} else if (code != OTF2_SUCCESS) {
		const char *d = OTF2_Error_GetDescription(code);
		ccg_buf_adds(msg, ": ");
		ccg_buf_adds(msg, d ? d : "OTF2 error");
	}
}

/* ------------------------------------------------------------------ */
/* value conversion */

/* The 64 raw bits ccg_put_typed expects for an OTF2 attribute value. */
static uint64_t av_raw(OTF2_Type t, OTF2_AttributeValue v)
{
	uint64_t u;
	double d;
	switch (t) {
	case OTF2_TYPE_NONE:
		return 0;
	case OTF2_TYPE_UINT8:
		return v.uint8;
	case OTF2_TYPE_UINT16:
		return v.uint16;
	case OTF2_TYPE_UINT32:
		return v.uint32;
	case OTF2_TYPE_UINT64:
		return v.uint64;
	case OTF2_TYPE_INT8:
		return (uint64_t)(int64_t)v.int8;
	case OTF2_TYPE_INT16:
		return (uint64_t)(int64_t)v.int16;
	case OTF2_TYPE_INT32:
		return (uint64_t)(int64_t)v.int32;
	case OTF2_TYPE_INT64:
		return (uint64_t)v.int64;
	case OTF2_TYPE_FLOAT:
		d = v.float32;
		memcpy(&u, &d, sizeof u);
		return u;
	case OTF2_TYPE_DOUBLE:
		memcpy(&u, &v.float64, sizeof u);
		return u;
	case OTF2_TYPE_STRING:
		return v.stringRef;
	case OTF2_TYPE_ATTRIBUTE:
		return v.attributeRef;
	case OTF2_TYPE_LOCATION:
		return v.locationRef;
	case OTF2_TYPE_REGION:
		return v.regionRef;
	case OTF2_TYPE_GROUP:
		return v.groupRef;
	case OTF2_TYPE_METRIC:
		return v.metricRef;
	case OTF2_TYPE_COMM:
		return v.commRef;
	case OTF2_TYPE_PARAMETER:
		return v.parameterRef;
	case OTF2_TYPE_RMA_WIN:
		return v.rmaWinRef;
	case OTF2_TYPE_SOURCE_CODE_LOCATION:
		return v.sourceCodeLocationRef;
	case OTF2_TYPE_CALLING_CONTEXT:
		return v.callingContextRef;
	case OTF2_TYPE_INTERRUPT_GENERATOR:
		return v.interruptGeneratorRef;
	case OTF2_TYPE_IO_FILE:
		return v.ioFileRef;
	case OTF2_TYPE_IO_HANDLE:
		return v.ioHandleRef;
	case OTF2_TYPE_LOCATION_GROUP:
		return v.locationGroupRef;
	default:
		/* a type newer than this OTF2: keep the 32-bit id most
		 * references are */
		return v.uint32;
	}
}

void ccg_rd_put_av(ccg_buf *b, OTF2_Type type, OTF2_AttributeValue value)
{
	ccg_put_typed(b, type, av_raw(type, value));
}

void ccg_rd_put_ids(ccg_buf *b, uint32_t n, const uint32_t *ids)
{
	if (!ids)
		n = 0;
	ccg_put_u(b, n);
	for (uint32_t i = 0; i < n; i++)
		ccg_put_u(b, ids[i]);
}

/* A metric value is 64 bits whatever its type. */
void ccg_rd_put_metric(ccg_buf *b, OTF2_Type type, OTF2_MetricValue value)
{
	uint64_t u;
	if (type == OTF2_TYPE_FLOAT || type == OTF2_TYPE_DOUBLE)
		memcpy(&u, &value.floating_point, sizeof u);
	else
		u = value.unsigned_int;
	ccg_put_typed(b, type, u);
}

/* ------------------------------------------------------------------ */
/* delivering records (ccg_read_i.h) */

ccg_buf *ccg_rd_begin(void *ud)
{
	ccg_read *r = ud;
	ccg_buf_reset(&r->scratch);
	return &r->scratch;
}

/* OTF2's answer after a record: go on when rc is 0, else stop and keep the
 * error rc names (CCG_EIO when it names none) in r->err. */
static OTF2_CallbackCode after_record(ccg_read *r, int rc)
{
	if (!rc)
		return OTF2_CALLBACK_SUCCESS;
	r->err = rc > 0 && rc < CCG__COUNT ? (ccg_err)rc : CCG_EIO;
	return OTF2_CALLBACK_INTERRUPT;
}

OTF2_CallbackCode ccg_rd_emit_def(void *ud, ccg_kind kind, uint64_t id)
{
	ccg_read *r = ud;
	const ccg_buf *b = &r->scratch;
	if (ccg_buf_status(b))
		return after_record(r, CCG_ENOMEM);
	return after_record(r, r->def(r->ctx, kind, id,
				      (const unsigned char *)b->data, b->len));
}

/* Appends an OTF2 attribute list: count, then (attribute id, typed value)
 * pairs; an entry OTF2 cannot return becomes an undefined attribute of
 * type NONE. */
static void put_attributes(ccg_buf *b, OTF2_AttributeList *al)
{
	uint32_t n = al ? OTF2_AttributeList_GetNumberOfElements(al) : 0;
	ccg_put_u(b, n);
	for (uint32_t i = 0; i < n; i++) {
		OTF2_AttributeRef id = 0;
		OTF2_Type type = OTF2_TYPE_NONE;
		OTF2_AttributeValue v;
		memset(&v, 0, sizeof v);
		if (OTF2_AttributeList_GetAttributeByIndex(al, i, &id, &type,
							   &v) != OTF2_SUCCESS) {
			id = OTF2_UNDEFINED_ATTRIBUTE;
			type = OTF2_TYPE_NONE;
		}
		ccg_put_u(b, id);
		ccg_rd_put_av(b, type, v);
	}
}

OTF2_CallbackCode ccg_rd_emit_event(void *ud, ccg_kind kind, uint64_t time,
				    uint64_t call, OTF2_AttributeList *al)
{
	ccg_read *r = ud;
	ccg_buf *b = &r->scratch;
	put_attributes(b, al);
	if (ccg_buf_status(b))
		return after_record(r, CCG_ENOMEM);
	return after_record(r, r->ev(r->ctx, kind, time, call,
				     (const unsigned char *)b->data, b->len));
}

/* ------------------------------------------------------------------ */
/* the reader */

/* Opens a fresh OTF2_Reader on r's anchor. */
static ccg_err open_reader(const char *anchor, OTF2_Reader **out,
			   ccg_buf *msg)
{
	otf2_msg_clear();
	OTF2_Reader *rd = OTF2_Reader_Open(anchor);
	if (!rd) {
		if (msg)
			ccg_buf_addf(msg, "%s: damaged, or not an OTF2 "
					  "anchor file", anchor);
		return CCG_EFORMAT;
	}
	OTF2_ErrorCode e = OTF2_Reader_SetSerialCollectiveCallbacks(rd);
	if (e != OTF2_SUCCESS) {
		if (msg) {
			ccg_buf_addf(msg, "%s: cannot set up the OTF2 reader",
				     anchor);
			add_otf2_reason(msg, e);
		}
		OTF2_Reader_Close(rd);
		return CCG_EIO;
	}
	*out = rd;
	return CCG_OK;
}

ccg_err ccg_read_open(const char *anchor, ccg_read **out, ccg_buf *msg)
{
	if (!out)
		return CCG_EINVAL;
	*out = NULL;
	if (!anchor || !*anchor) {
		if (msg)
			ccg_buf_adds(msg, "no OTF2 anchor file given");
		return CCG_EINVAL;
	}
	register_error_callback();

	/* OTF2 says little about a file that is not there; ask first. */
	FILE *f = fopen(anchor, "rb");
	if (!f) {
		int en = errno;
		if (msg)
			ccg_buf_addf(msg, "%s: cannot open: %s", anchor,
				     strerror(en));
		return CCG_EIO;
	}
	fclose(f);

	OTF2_Reader *rd;
	ccg_err err = open_reader(anchor, &rd, msg);
	if (err)
		return err;
	uint64_t nloc = 0;
	otf2_msg_clear();
	OTF2_ErrorCode e = OTF2_Reader_GetNumberOfLocations(rd, &nloc);
	OTF2_Reader_Close(rd);
	if (e != OTF2_SUCCESS) {
		if (msg)
			ccg_buf_addf(msg, "%s: damaged anchor file (it does "
					  "not say how many locations the "
					  "trace has)", anchor);
		return CCG_EFORMAT;
	}

	ccg_read *r = calloc(1, sizeof *r);
	if (!r)
		goto nomem;
	r->nlocations = nloc;
	r->anchor = malloc(strlen(anchor) + 1);
	r->defcb = ccg_rd_def_callbacks();
	r->evcb = ccg_rd_event_callbacks();
	if (!r->anchor || !r->defcb || !r->evcb ||
	    ccg_buf_reserve(&r->scratch, 256)) {
		ccg_read_close(r);
		goto nomem;
	}
	strcpy(r->anchor, anchor);
	*out = r;
	return CCG_OK;
nomem:
	if (msg)
		ccg_buf_addf(msg, "%s: out of memory", anchor);
	return CCG_ENOMEM;
}

void ccg_read_close(ccg_read *r)
{
	if (!r)
		return;
	if (r->defcb)
		OTF2_GlobalDefReaderCallbacks_Delete(r->defcb);
	if (r->evcb)
		OTF2_EvtReaderCallbacks_Delete(r->evcb);
	ccg_buf_free(&r->scratch);
	free(r->anchor);
	free(r);
}

/* Starts one ccg_read_defs or ccg_read_location: opens a fresh OTF2_Reader
 * in *rd and installs the sink (def or ev, and ctx) the callbacks deliver
 * to.  CCG_EINVAL without r or a sink. */
static ccg_err start_call(ccg_read *r, ccg_read_def_fn def,
			  ccg_read_event_fn ev, void *ctx, OTF2_Reader **rd,
			  ccg_buf *msg)
{
	if (!r || (!def && !ev))
		return CCG_EINVAL;
	ccg_err err = open_reader(r->anchor, rd, msg);
	if (err)
		return err;
	r->def = def;
	r->ev = ev;
	r->ctx = ctx;
	r->err = CCG_OK;
	return CCG_OK;
}

/* Ends what start_call started; r->err stays for the caller's report. */
static void end_call(ccg_read *r, OTF2_Reader *rd)
{
	OTF2_Reader_Close(rd);
	r->def = NULL;
	r->ev = NULL;
	r->ctx = NULL;
}

/* "ANCHOR: NAME.def (the trace's definitions) " to msg, the start of a
 * line the caller ends with what is wrong. */
static void add_defs_name(ccg_buf *msg, const char *anchor)
{
	const char *base = strrchr(anchor, '/');
	base = base ? base + 1 : anchor;
	size_t n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".otf2"))
		n -= 5;
	ccg_buf_addf(msg, "%s: %.*s.def (the trace's definitions) ", anchor,
		     (int)n, base);
}

ccg_err ccg_read_defs(ccg_read *r, ccg_read_def_fn def, void *ctx,
		      ccg_buf *msg)
{
	OTF2_Reader *rd;
	ccg_err err = start_call(r, def, NULL, ctx, &rd, msg);
	if (err)
		return err;
	OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(rd);
	if (!gdr) {
		if (msg) {
			add_defs_name(msg, r->anchor);
			ccg_buf_adds(msg, "cannot be read");
		}
		end_call(r, rd);
		return CCG_EIO;
	}
	otf2_msg_clear();
	OTF2_ErrorCode e =
		OTF2_Reader_RegisterGlobalDefCallbacks(rd, gdr, r->defcb, r);
	uint64_t n = 0;
	if (e == OTF2_SUCCESS)
		e = OTF2_Reader_ReadAllGlobalDefinitions(rd, gdr, &n);
	OTF2_Reader_CloseGlobalDefReader(rd, gdr);
	end_call(r, rd);
	if (r->err) {
		if (msg) {
			add_defs_name(msg, r->anchor);
			ccg_buf_addf(msg, "stopped after %" PRIu64
				     " records: %s", n, ccg_err_text(r->err));
		}
		return r->err;
	}
	if (e != OTF2_SUCCESS) {
		if (msg) {
			add_defs_name(msg, r->anchor);
			ccg_buf_adds(msg, "is damaged");
		}
		return CCG_EFORMAT;
	}
	return CCG_OK;
}

/* Selects `location` and reads its local definitions: the mappings to
 * global ids and the clock offsets the event reader applies.  No .def file
 * is fine. */
static ccg_err select_location(OTF2_Reader *rd, uint64_t location,
			       ccg_buf *msg)
{
	OTF2_ErrorCode e = OTF2_Reader_SelectLocation(rd, location);
	if (e != OTF2_SUCCESS) {
		if (msg) {
			ccg_buf_addf(msg,
				     "location %" PRIu64 ": cannot select it",
				     location);
			add_otf2_reason(msg, e);
		}
		return CCG_EIO;
	}
	if (OTF2_Reader_OpenDefFiles(rd) != OTF2_SUCCESS)
		return CCG_OK;
	OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rd, location);
	if (dr) {
		uint64_t n = 0;
		otf2_msg_clear();
		e = OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &n);
		OTF2_Reader_CloseDefReader(rd, dr);
		if (e != OTF2_SUCCESS && msg) {
			ccg_buf_addf(msg,
				     "location %" PRIu64
				     ": cannot read local definitions",
				     location);
			add_otf2_reason(msg, e);
		}
	}
	OTF2_Reader_CloseDefFiles(rd);
	return e == OTF2_SUCCESS ? CCG_OK : CCG_EFORMAT;
}

/* Reads the events of the selected `location` into r's running sink;
 * returns OTF2's verdict and the number of events read in *n. */
static OTF2_ErrorCode read_events(ccg_read *r, OTF2_Reader *rd,
				  uint64_t location, uint64_t *n)
{
	otf2_msg_clear();
	OTF2_ErrorCode e = OTF2_Reader_OpenEvtFiles(rd);
	OTF2_EvtReader *er = NULL;
	if (e == OTF2_SUCCESS) {
		er = OTF2_Reader_GetEvtReader(rd, location);
		if (!er)
			e = OTF2_ERROR_FILE_CAN_NOT_OPEN;
	}
	if (er)
		e = OTF2_Reader_RegisterEvtCallbacks(rd, er, r->evcb, r);
	if (e == OTF2_SUCCESS)
		e = OTF2_Reader_ReadAllLocalEvents(rd, er, n);
	if (er)
		OTF2_Reader_CloseEvtReader(rd, er);
	OTF2_Reader_CloseEvtFiles(rd);
	return e;
}

/* What reading the events of `location` comes to: the error that stopped
 * a callback (r->err), else OTF2's verdict e; with a reason in msg. */
static ccg_err events_outcome(const ccg_read *r, uint64_t location,
			      OTF2_ErrorCode e, uint64_t n, ccg_buf *msg)
{
	if (r->err) {
		if (msg)
			ccg_buf_addf(msg,
				     "location %" PRIu64 ": reading stopped "
				     "after %" PRIu64 " events: %s",
				     location, n, ccg_err_text(r->err));
		return r->err;
	}
	if (e != OTF2_SUCCESS) {
		if (msg) {
			ccg_buf_addf(msg, "location %" PRIu64
				     ": cannot read events", location);
			add_otf2_reason(msg, e);
			if (n)
				ccg_buf_addf(msg, " (after %" PRIu64 " events)",
					     n);
		}
		return CCG_EIO;
	}
	return CCG_OK;
}

/* What a file of type `mode` that is no regular file is. */
static const char *kind_of(mode_t mode)
{
	return S_ISFIFO(mode)	? "a FIFO"
	       : S_ISDIR(mode)	? "a directory"
	       : S_ISCHR(mode)	? "a character device"
	       : S_ISBLK(mode)	? "a block device"
	       : S_ISSOCK(mode) ? "a socket"
				: "not a regular file";
}

/* The files OTF2 opens for `location` (ARCHIVE/ID.def, ARCHIVE/ID.evt)
 * must be regular files where they exist: a FIFO there would block its
 * open until a writer came, a device feed it endlessly.  CCG_OK, or
 * CCG_EIO with the file named in msg; checked before OTF2 opens them. */
static ccg_err check_files(const ccg_read *r, uint64_t location,
			   ccg_buf *msg)
{
	static const char *const exts[] = {"def", "evt"};
	const char *slash = strrchr(r->anchor, '/');
	const char *dot = strrchr(r->anchor, '.');
	size_t base = dot && (!slash || dot > slash + 1)
			      ? (size_t)(dot - r->anchor)
			      : strlen(r->anchor);
	const char *dir = slash ? slash + 1 : r->anchor;
	ccg_buf path = CCG_BUF_INIT;
	ccg_err err = CCG_OK;
	for (size_t i = 0; !err && i < sizeof exts / sizeof *exts; i++) {
		struct stat st;
		ccg_buf_reset(&path);
		ccg_buf_addf(&path, "%.*s/%" PRIu64 ".%s", (int)base,
			     r->anchor, location, exts[i]);
		if ((err = ccg_buf_status(&path)))
			break;
		if (stat(path.data, &st) != 0 || S_ISREG(st.st_mode))
			continue; /* missing: OTF2 says so */
		if (msg)
			ccg_buf_addf(msg, "location %" PRIu64 ": %.*s/%" PRIu64
				     ".%s is %s, not a regular file (not "
				     "opened)", location,
				     (int)(r->anchor + base - dir), dir,
				     location, exts[i], kind_of(st.st_mode));
		err = CCG_EIO;
	}
	ccg_buf_free(&path);
	return err;
}

ccg_err ccg_read_location(ccg_read *r, uint64_t location,
			  ccg_read_event_fn ev, void *ctx, ccg_buf *msg)
{
	OTF2_Reader *rd;
	ccg_err err = r ? check_files(r, location, msg) : CCG_OK;
	if (!err)
		err = start_call(r, NULL, ev, ctx, &rd, msg);
	if (err)
		return err;
	err = select_location(rd, location, msg);
	if (err) {
		end_call(r, rd);
		return err;
	}
	uint64_t n = 0;
	OTF2_ErrorCode e = read_events(r, rd, location, &n);
	end_call(r, rd);
	return events_outcome(r, location, e, n, msg);
}
