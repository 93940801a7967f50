/*
 * ccg_schema.h - what every OTF2 record looks like inside ccgfs.
 *
 * Every event and every global definition OTF2 3.0 delivers is stored as a
 * record: a kind (ccg_kind) and a sequence of encoded fields whose types the
 * schema table lists (ccg_schema[kind]).  One table serves the reader (which
 * packs the fields in table order), the stores (which skip records by
 * decoding them) and the renderer (which prints `key=value`).
 *
 * Field encodings (see ccg_codec.h):
 *   CCG_FT_U, CCG_FT_ENUM, CCG_FT_LOC and every CCG_FT_REF_*: unsigned varint
 *   CCG_FT_I:     zigzag varint
 *   CCG_FT_F:     8-byte double
 *   CCG_FT_ARR_*: varint count, then that many elements (U: varint,
 *                 REF_*: varint ids)
 *   CCG_FT_TYPED: one byte OTF2_Type, then the value (see ccg_put_typed)
 *   CCG_FT_METRICS: varint count, then count typed values
 *   CCG_FT_IOPROPS: varint count, then count x (varint property, typed value)
 *
 * An event record is followed by its OTF2 attribute list: varint count, then
 * count x (varint attribute id, typed value).
 */
#ifndef CCG_SCHEMA_H
#define CCG_SCHEMA_H

#include <stdint.h>

#include "ccg_buf.h"

/* Largest number of fields of one record kind. */
#define CCG_MAX_FIELDS 12

typedef enum ccg_ftype {
	CCG_FT_NONE = 0,
	CCG_FT_U,
	CCG_FT_I,
	CCG_FT_F,
	CCG_FT_ENUM,
	CCG_FT_LOC,          /* a location id, printed as a number */
	CCG_FT_TYPED,
	CCG_FT_METRICS,
	CCG_FT_IOPROPS,
	/* references, printed as the name of what they refer to */
	CCG_FT_REF_STRING,
	CCG_FT_REF_REGION,
	CCG_FT_REF_LGROUP,
	CCG_FT_REF_SYSNODE,
	CCG_FT_REF_GROUP,
	CCG_FT_REF_COMM,
	CCG_FT_REF_METRIC,
	CCG_FT_REF_MEMBER,
	CCG_FT_REF_PARAM,
	CCG_FT_REF_RMAWIN,
	CCG_FT_REF_ATTR,
	CCG_FT_REF_IOHANDLE,
	CCG_FT_REF_IOFILE,
	CCG_FT_REF_IOPARADIGM,
	CCG_FT_REF_CCTX,
	CCG_FT_REF_INTGEN,
	CCG_FT_REF_SCL,
	CCG_FT_REF_CALLSITE,
	CCG_FT_REF_CALLPATH,
	CCG_FT_REF_CARTDIM,
	CCG_FT_REF_CARTTOPO,
	CCG_FT_REF_PARADIGM,
	/* arrays */
	CCG_FT_ARR_U,
	CCG_FT_ARR_STRING,
	CCG_FT_ARR_MEMBER,
	CCG_FT_ARR_CARTDIM,
	CCG_FT__COUNT
} ccg_ftype;

#define CCG_FT_IS_REF(t) ((t) >= CCG_FT_REF_STRING && (t) <= CCG_FT_REF_PARADIGM)

/* Number of reference spaces (index = type - CCG_FT_REF_STRING). */
#define CCG_REF__COUNT (CCG_FT_REF_PARADIGM - CCG_FT_REF_STRING + 1)

typedef enum ccg_kind {
	/* events */
	CCG_EV_BUFFER_FLUSH = 0,
	CCG_EV_MEASUREMENT_ON_OFF,
	CCG_EV_ENTER,
	CCG_EV_LEAVE,
	CCG_EV_MPI_SEND,
	CCG_EV_MPI_ISEND,
	CCG_EV_MPI_ISEND_COMPLETE,
	CCG_EV_MPI_IRECV_REQUEST,
	CCG_EV_MPI_RECV,
	CCG_EV_MPI_IRECV,
	CCG_EV_MPI_REQUEST_TEST,
	CCG_EV_MPI_REQUEST_CANCELLED,
	CCG_EV_MPI_COLLECTIVE_BEGIN,
	CCG_EV_MPI_COLLECTIVE_END,
	CCG_EV_OMP_FORK,
	CCG_EV_OMP_JOIN,
	CCG_EV_OMP_ACQUIRE_LOCK,
	CCG_EV_OMP_RELEASE_LOCK,
	CCG_EV_OMP_TASK_CREATE,
	CCG_EV_OMP_TASK_SWITCH,
	CCG_EV_OMP_TASK_COMPLETE,
	CCG_EV_METRIC,
	CCG_EV_PARAMETER_STRING,
	CCG_EV_PARAMETER_INT,
	CCG_EV_PARAMETER_UNSIGNED_INT,
	CCG_EV_RMA_WIN_CREATE,
	CCG_EV_RMA_WIN_DESTROY,
	CCG_EV_RMA_COLLECTIVE_BEGIN,
	CCG_EV_RMA_COLLECTIVE_END,
	CCG_EV_RMA_GROUP_SYNC,
	CCG_EV_RMA_REQUEST_LOCK,
	CCG_EV_RMA_ACQUIRE_LOCK,
	CCG_EV_RMA_TRY_LOCK,
	CCG_EV_RMA_RELEASE_LOCK,
	CCG_EV_RMA_SYNC,
	CCG_EV_RMA_WAIT_CHANGE,
	CCG_EV_RMA_PUT,
	CCG_EV_RMA_GET,
	CCG_EV_RMA_ATOMIC,
	CCG_EV_RMA_OP_COMPLETE_BLOCKING,
	CCG_EV_RMA_OP_COMPLETE_NON_BLOCKING,
	CCG_EV_RMA_OP_TEST,
	CCG_EV_RMA_OP_COMPLETE_REMOTE,
	CCG_EV_THREAD_FORK,
	CCG_EV_THREAD_JOIN,
	CCG_EV_THREAD_TEAM_BEGIN,
	CCG_EV_THREAD_TEAM_END,
	CCG_EV_THREAD_ACQUIRE_LOCK,
	CCG_EV_THREAD_RELEASE_LOCK,
	CCG_EV_THREAD_TASK_CREATE,
	CCG_EV_THREAD_TASK_SWITCH,
	CCG_EV_THREAD_TASK_COMPLETE,
	CCG_EV_THREAD_CREATE,
	CCG_EV_THREAD_BEGIN,
	CCG_EV_THREAD_WAIT,
	CCG_EV_THREAD_END,
	CCG_EV_CALLING_CONTEXT_ENTER,
	CCG_EV_CALLING_CONTEXT_LEAVE,
	CCG_EV_CALLING_CONTEXT_SAMPLE,
	CCG_EV_IO_CREATE_HANDLE,
	CCG_EV_IO_DESTROY_HANDLE,
	CCG_EV_IO_DUPLICATE_HANDLE,
	CCG_EV_IO_SEEK,
	CCG_EV_IO_CHANGE_STATUS_FLAGS,
	CCG_EV_IO_DELETE_FILE,
	CCG_EV_IO_OPERATION_BEGIN,
	CCG_EV_IO_OPERATION_TEST,
	CCG_EV_IO_OPERATION_ISSUED,
	CCG_EV_IO_OPERATION_COMPLETE,
	CCG_EV_IO_OPERATION_CANCELLED,
	CCG_EV_IO_ACQUIRE_LOCK,
	CCG_EV_IO_RELEASE_LOCK,
	CCG_EV_IO_TRY_LOCK,
	CCG_EV_PROGRAM_BEGIN,
	CCG_EV_PROGRAM_END,
	CCG_EV_NON_BLOCKING_COLLECTIVE_REQUEST,
	CCG_EV_NON_BLOCKING_COLLECTIVE_COMPLETE,
	CCG_EV_COMM_CREATE,
	CCG_EV_COMM_DESTROY,
	CCG_EV_UNKNOWN,
	CCG_EV__COUNT,

	/* global definitions */
	CCG_DEF_CLOCK_PROPERTIES = CCG_EV__COUNT,
	CCG_DEF_PARADIGM,
	CCG_DEF_PARADIGM_PROPERTY,
	CCG_DEF_IO_PARADIGM,
	CCG_DEF_STRING,
	CCG_DEF_ATTRIBUTE,
	CCG_DEF_SYSTEM_TREE_NODE,
	CCG_DEF_LOCATION_GROUP,
	CCG_DEF_LOCATION,
	CCG_DEF_REGION,
	CCG_DEF_CALLSITE,
	CCG_DEF_CALLPATH,
	CCG_DEF_GROUP,
	CCG_DEF_METRIC_MEMBER,
	CCG_DEF_METRIC_CLASS,
	CCG_DEF_METRIC_INSTANCE,
	CCG_DEF_COMM,
	CCG_DEF_PARAMETER,
	CCG_DEF_RMA_WIN,
	CCG_DEF_METRIC_CLASS_RECORDER,
	CCG_DEF_SYSTEM_TREE_NODE_PROPERTY,
	CCG_DEF_SYSTEM_TREE_NODE_DOMAIN,
	CCG_DEF_LOCATION_GROUP_PROPERTY,
	CCG_DEF_LOCATION_PROPERTY,
	CCG_DEF_CART_DIMENSION,
	CCG_DEF_CART_TOPOLOGY,
	CCG_DEF_CART_COORDINATE,
	CCG_DEF_SOURCE_CODE_LOCATION,
	CCG_DEF_CALLING_CONTEXT,
	CCG_DEF_CALLING_CONTEXT_PROPERTY,
	CCG_DEF_INTERRUPT_GENERATOR,
	CCG_DEF_IO_FILE_PROPERTY,
	CCG_DEF_IO_REGULAR_FILE,
	CCG_DEF_IO_DIRECTORY,
	CCG_DEF_IO_HANDLE,
	CCG_DEF_IO_PRE_CREATED_HANDLE_STATE,
	CCG_DEF_CALLPATH_PARAMETER,
	CCG_DEF_INTER_COMM,
	CCG_DEF_UNKNOWN,
	CCG_KIND__COUNT
} ccg_kind;

#define CCG_KIND_IS_EVENT(k) ((unsigned)(k) < CCG_EV__COUNT)

typedef struct ccg_field {
	const char *key;   /* printed as key=value */
	uint8_t type;      /* ccg_ftype */
} ccg_field;

typedef struct ccg_kind_info {
	const char *name;  /* events: as otf2-print names them; defs: OTF2's */
	uint8_t nfields;
	/* Events: the field printed in the `name` column, or -1 for "-".
	 * Definitions: the field holding the definition's own name, or -1. */
	int8_t obj;
	/* Definitions: the reference space this kind defines names in
	 * (a CCG_FT_REF_* type), or CCG_FT_NONE; field 0 is then its id. */
	uint8_t defines;
	ccg_field f[CCG_MAX_FIELDS];
} ccg_kind_info;

/* The table, indexed by ccg_kind. */
extern const ccg_kind_info ccg_schema[CCG_KIND__COUNT];

/* Encodes an OTF2 typed value (OTF2_Type t, OTF2_AttributeValue v passed as
 * its raw 64 bits) as CCG_FT_TYPED does. */
void ccg_put_typed(ccg_buf *b, uint8_t otf2_type, uint64_t raw);

/* Decodes one CCG_FT_TYPED value at *p (bounds end): its OTF2 type and its
 * value as 64 raw bits (signed values sign-extended, float/double as the
 * bits of a double).  Returns 0, or -1 when the input is malformed. */
int ccg_get_typed(const unsigned char **p, const unsigned char *end,
		  uint8_t *otf2_type, uint64_t *raw);

#endif
