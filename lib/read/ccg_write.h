/*
 * ccg_write.h - records back to OTF2: an event or a global definition
 * record (its kind and encoded fields, ccg_schema.h) handed to libotf2's
 * writer, the inverse of the reader's callbacks.  The calls are made from
 * the same lists of kinds (ccg_kinds.h), so a kind's OTF2 writer call is
 * written nowhere by hand but for the kinds with arrays.
 *
 * Records of kind UNKNOWN (OTF2 had no name for them) cannot be written:
 * CCG_ENOTSUP.  A record whose fields do not decode: CCG_EFORMAT; OTF2
 * refusing a call: CCG_EIO.
 */
#ifndef CCG_WRITE_H
#define CCG_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include <otf2/otf2.h>

#include "ccg_error.h"
#include "ccg_schema.h"

/* Writes event record (kind, fields[0 .. len)) - its fields, then its
 * attribute list - at `time` through w.  `al` is an empty list the call
 * fills and leaves empty again.  `extra` != OTF2_UNDEFINED_ATTRIBUTE adds
 * that attribute, of type UINT8 and value `extra_value`, after the
 * record's own. */
ccg_err ccg_write_event(OTF2_EvtWriter *w, OTF2_AttributeList *al,
			ccg_kind kind, uint64_t time,
			const unsigned char *fields, size_t len,
			OTF2_AttributeRef extra, uint8_t extra_value);

/* Writes global definition record (kind, id, fields[0 .. len)) through
 * g.  A LOCATION record's event count is replaced by `events` when that
 * is not UINT64_MAX. */
ccg_err ccg_write_def(OTF2_GlobalDefWriter *g, ccg_kind kind, uint64_t id,
		      const unsigned char *fields, size_t len,
		      uint64_t events);

#endif
