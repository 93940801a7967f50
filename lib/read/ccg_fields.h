/*
 * ccg_fields.h - walking the encoded fields of a record (see ccg_schema.h).
 * All functions are bounds-checked and return 0 on success, -1 on malformed
 * input.
 */
#ifndef CCG_FIELDS_H
#define CCG_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_schema.h"

/* Skips one field of type `t` at *p. */
int ccg_field_skip(const unsigned char **p, const unsigned char *end,
		   unsigned t);

/* Reads field `idx` of a record of `kind` as an unsigned scalar (U, ENUM,
 * LOC, REF_*; I gives the zigzag-decoded value cast to uint64_t). */
int ccg_field_u(ccg_kind kind, const unsigned char *fields, size_t len,
		unsigned idx, uint64_t *out);

/* Reads field `idx`, a typed value (CCG_FT_TYPED), as its OTF2 type and
 * raw 64 bits (see ccg_codec.h). */
int ccg_field_typed(ccg_kind kind, const unsigned char *fields, size_t len,
		    unsigned idx, uint8_t *type, uint64_t *raw);
/* The OTF2_Type values such a field carries (OTF2_GeneralDefinitions.h). */
enum {
	CCG_T_NONE = 0, CCG_T_U8 = 1, CCG_T_U16, CCG_T_U32, CCG_T_U64,
	CCG_T_I8, CCG_T_I16, CCG_T_I32, CCG_T_I64, CCG_T_FLOAT = 9,
	CCG_T_DOUBLE = 10, CCG_T_STRING = 11, CCG_T_ATTRIBUTE, CCG_T_LOCATION,
	CCG_T_REGION, CCG_T_GROUP, CCG_T_METRIC, CCG_T_COMM, CCG_T_PARAMETER,
	CCG_T_RMA_WIN, CCG_T_SCL, CCG_T_CCTX, CCG_T_INTGEN, CCG_T_IO_FILE,
	CCG_T_IO_HANDLE, CCG_T_LGROUP
};

/* Skips all fields of `kind`, leaving *p at the attribute list (events) or
 * the end (definitions). */
int ccg_fields_skip_all(ccg_kind kind, const unsigned char **p,
			const unsigned char *end);

#endif
