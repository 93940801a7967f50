/*
 * ccg_read_evt.c - the OTF2 event callbacks of the reader (see
 * ccg_read_i.h): one per event kind, made from the list of kinds
 * (ccg_kinds.h) that also makes ccg_schema's entries, each packing
 * OTF2's arguments in the order of its fields; ccg_rd_emit_event adds the
 * attribute list.  The two kinds with arrays are written out.
 */
#include "ccg_read_i.h"
#include "ccg_kinds.h"

#include "ccg_codec.h"

/* Every event callback starts with these OTF2 arguments ... */
#define EV_ARGS                                                          \
	OTF2_LocationRef loc_, OTF2_TimeStamp time_, uint64_t pos_,      \
		void *ud_, OTF2_AttributeList *al_
/* ... declares the scratch buffer `b` ... */
#define EV_BEGIN                                                         \
	ccg_buf *b = ccg_rd_begin(ud_);                                  \
	(void)b;                                                         \
	(void)loc_;                                                      \
	(void)pos_
/* ... and ends by handing the record to the sink. */
#define EV_END(kind, call)                                               \
	return ccg_rd_emit_event(ud_, kind, time_, call, al_)

/* ev_KIND for every kind of the list. */
#define CALLBACK(kind, otf2, nm, obj, call, args)                        \
	static OTF2_CallbackCode ev_##kind(EV_ARGS CCG_ARGS_PARAMS(args))\
	{                                                                \
		EV_BEGIN;                                                \
		CCG_ARGS_PUT(args)                                       \
		EV_END(CCG_EV_##kind, call);                             \
	}
CCG_EVENTS(CALLBACK)
#undef CALLBACK

static OTF2_CallbackCode ev_METRIC(EV_ARGS, OTF2_MetricRef metric,
				   uint8_t n, const OTF2_Type *types,
				   const OTF2_MetricValue *values)
{
	EV_BEGIN;
	ccg_put_u(b, metric);
	if (!types || !values)
		n = 0;
	ccg_put_u(b, n);
	for (unsigned i = 0; i < n; i++)
		ccg_rd_put_metric(b, types[i], values[i]);
	EV_END(CCG_EV_METRIC, 0);
}

static OTF2_CallbackCode ev_PROGRAM_BEGIN(EV_ARGS, OTF2_StringRef name,
					  uint32_t n,
					  const OTF2_StringRef *args)
{
	EV_BEGIN;
	ccg_put_u(b, name);
	ccg_rd_put_ids(b, n, args);
	EV_END(CCG_EV_PROGRAM_BEGIN, 0);
}

/* The callback table: every kind of OTF2 3.0. */
OTF2_EvtReaderCallbacks *ccg_rd_event_callbacks(void)
{
	OTF2_EvtReaderCallbacks *c = OTF2_EvtReaderCallbacks_New();
	if (!c)
		return NULL;
#define SET(kind, otf2, ...)                                             \
	OTF2_EvtReaderCallbacks_Set##otf2##Callback(c, ev_##kind);
	CCG_EVENTS(SET)
	CCG_EVENTS_BY_HAND(SET)
#undef SET
	return c;
}
