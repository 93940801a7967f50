/*
 * ccg_kinds.h - every OTF2 record kind once, as X-macro lists: the
 * record table (ccg_schema.c) and the reader's callbacks (ccg_read_evt.c,
 * ccg_read_def.c) are made from them, so a kind's fields, their names,
 * types and order are written in one place.
 *
 * Events.
 *
 * CCG_EVENTS(X) calls X(KIND, OTF2NAME, "NAME", OBJ, CALL, ARGS) per kind:
 *   KIND      the kind is CCG_EV_KIND
 *   OTF2NAME  its callback's setter is OTF2_EvtReaderCallbacks_Set
 *             OTF2NAME Callback
 *   "NAME"    as otf2-print names it in its first column
 *   OBJ       the field shown in events.tsv's name column, -1: none
 *   CALL      the argument naming what the record enters or leaves (a
 *             region, a calling context), else 0
 *   ARGS      the callback's arguments after its attribute list, in
 *             OTF2's order, each (C TYPE, NAME, FIELD TYPE): the record's
 *             field NAME, of type CCG_FT_FIELD_TYPE, holds it.
 * CCG_EVENTS_BY_HAND(X) calls X(KIND, OTF2NAME, "NAME", OBJ, FIELDS) for
 * the kinds whose arguments are arrays, whose callbacks are written out in
 * ccg_read_evt.c; FIELDS are F("name", TYPE) in order.
 *
 * Global definitions.
 * CCG_DEFS(X) calls X(KIND, OTF2NAME, "NAME", OBJ, DEFINES, ID, ARGS) per
 * kind: as above (OTF2_GlobalDefReaderCallbacks_Set OTF2NAME Callback;
 * "NAME" as OTF2 names the definition), DEFINES the reference space whose
 * ids the kind defines (NONE, or a REF_* type: its first field is then
 * the id), ID the argument that is the record's id (0: none).
 * CCG_DEF_PROPERTIES(X) calls X(KIND, OTF2NAME, "NAME", OBJ, DEFINES,
 * OWNER, KEY) for the properties and parameters, whose callbacks take an
 * owner, a key and a typed value (fields OWNER, KEY, "value"); OWNER and
 * KEY are (C TYPE, NAME, FIELD TYPE), and the record's id is the owner.
 * CCG_DEFS_BY_HAND(X) calls X(KIND, OTF2NAME, "NAME", OBJ, DEFINES,
 * NFIELDS, FIELDS) for the kinds with arrays and for strings (raw bytes,
 * no fields), whose callbacks are written out in ccg_read_def.c.
 *
 * The kinds' numbers are the enum in ccg_schema.h (the index stores
 * them); the lists' order is OTF2's.
 */
#ifndef CCG_KINDS_H
#define CCG_KINDS_H

#include "ccg_kinds_ev.h"
#include "ccg_kinds_def.h"

/* Iterating a list of (C TYPE, NAME, FIELD TYPE) arguments: X_A and X_B
 * call each other for each element, and the last one left is pasted
 * with _END, which is empty. */
#define CCG_SEQ_END(...) CCG_SEQ_END_(__VA_ARGS__)
#define CCG_SEQ_END_(...) __VA_ARGS__##_END

/* ", C_TYPE NAME" per argument: the callback's parameters. */
#define CCG_ARGS_PARAMS(args) CCG_SEQ_END(CCG_PARAM_A args)
#define CCG_PARAM_A(t, n, f) , t n CCG_PARAM_B
#define CCG_PARAM_B(t, n, f) , t n CCG_PARAM_A
#define CCG_PARAM_A_END
#define CCG_PARAM_B_END

/* F("NAME", FIELD_TYPE), per argument: the record's fields. */
#define CCG_ARGS_FIELDS(args) CCG_SEQ_END(CCG_FIELD_A args)
#define CCG_FIELD_A(t, n, f) F(#n, f), CCG_FIELD_B
#define CCG_FIELD_B(t, n, f) F(#n, f), CCG_FIELD_A
#define CCG_FIELD_A_END
#define CCG_FIELD_B_END

/* +1 per argument: the number of fields. */
#define CCG_ARGS_COUNT(args) (0 CCG_SEQ_END(CCG_COUNT_A args))
#define CCG_COUNT_A(t, n, f) +1 CCG_COUNT_B
#define CCG_COUNT_B(t, n, f) +1 CCG_COUNT_A
#define CCG_COUNT_A_END
#define CCG_COUNT_B_END

/* One statement per argument, putting it into the buffer `b` of the
 * callback: signed fields zigzag-encoded, the others as they are. */
#define CCG_ARGS_PUT(args) CCG_SEQ_END(CCG_PUT_A args)
#define CCG_PUT_A(t, n, f) CCG_ARG_PUT(n, f); CCG_PUT_B
#define CCG_PUT_B(t, n, f) CCG_ARG_PUT(n, f); CCG_PUT_A
#define CCG_ARG_PUT(n, f)                                                \
	((CCG_FT_##f) == CCG_FT_I ? ccg_put_i(b, (int64_t)(n))          \
				  : ccg_put_u(b, (uint64_t)(n)))
#define CCG_PUT_A_END
#define CCG_PUT_B_END

/* One declaration per argument, its value the next field at p_ (before
 * end_) as `get_` (a function of the caller's: the pointer, the end, the
 * field type, a flag it sets on malformed input) decodes it: the writer's
 * side of CCG_ARGS_PUT. */
#define CCG_ARGS_GET(args) CCG_SEQ_END(CCG_GET_A args)
#define CCG_GET_A(t, n, f) t n = (t)get_(&p_, end_, CCG_FT_##f, &bad_); CCG_GET_B
#define CCG_GET_B(t, n, f) t n = (t)get_(&p_, end_, CCG_FT_##f, &bad_); CCG_GET_A
#define CCG_GET_A_END
#define CCG_GET_B_END

/* ", NAME" per argument: the arguments of a call. */
#define CCG_ARGS_NAMES(args) CCG_SEQ_END(CCG_NAME_A args)
#define CCG_NAME_A(t, n, f) , n CCG_NAME_B
#define CCG_NAME_B(t, n, f) , n CCG_NAME_A
#define CCG_NAME_A_END
#define CCG_NAME_B_END

/* One (C TYPE, NAME, FIELD TYPE) argument: its parameter, its name, its
 * field. */
#define CCG_TUPLE_PARAM(t, n, f) t n
#define CCG_TUPLE_NAME(t, n, f) n
#define CCG_TUPLE_FIELD(t, n, f) F(#n, f)

#endif
