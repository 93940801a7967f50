/*
 * ccg_safename.h - names from the trace made safe for a path component.
 *
 * The rule: bytes below 0x20, 0x7f, '/', '%' and '#' become %XX (upper-case
 * hex); a space becomes '_'; an empty name becomes "_", and "." / ".."
 * become "%2E" / "%2E%2E".  A result longer than the limit is cut (never
 * inside a %XX or a UTF-8 sequence) and ends in '#' and 8 hex digits of a
 * hash of the whole original name, so different long names stay different.
 * '#' never occurs otherwise, so callers may append "#N" to tell equal names
 * apart.
 */
#ifndef CCG_SAFENAME_H
#define CCG_SAFENAME_H

#include <stddef.h>

#include "ccg_buf.h"

/* Length of the "#xxxxxxxx" suffix of a shortened name. */
#define CCG_SAFENAME_HASH_LEN 9

/* Appends the safe form of `name`, at most `max` bytes (max >= 16). */
ccg_err ccg_safename_make(ccg_buf *out, const char *name, size_t max);

/* 32-bit FNV-1a hash of a string. */
unsigned ccg_safename_hash(const char *s);

#endif
