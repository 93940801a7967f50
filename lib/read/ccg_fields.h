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
/* Whether such a type is an unsigned integer (OTF2_TYPE_UINT8..UINT64). */
#define CCG_TYPED_UNSIGNED(t) ((t) >= 1 && (t) <= 4)

/* Skips all fields of `kind`, leaving *p at the attribute list (events) or
 * the end (definitions). */
int ccg_fields_skip_all(ccg_kind kind, const unsigned char **p,
			const unsigned char *end);

#endif
