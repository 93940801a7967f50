/*
 * ccg_error.h - the one error type of the ccgfs library.
 *
 * Every fallible function in lib/ returns a ccg_err.  CCG_OK is zero, so
 * `if (err)` reads naturally.  ccg_err_name() gives a stable short name for
 * logs and `info` files; the translation to an errno lives in fs/ alone.
 */
#ifndef CCG_ERROR_H
#define CCG_ERROR_H

typedef enum ccg_err {
	CCG_OK = 0,
	CCG_ENOMEM,      /* an allocation failed */
	CCG_EINVAL,      /* a caller passed an argument outside the contract */
	CCG_ENOENT,      /* no such entry (directory lookup, id out of range) */
	CCG_ENOTDIR,     /* a directory operation on a file */
	CCG_EISDIR,      /* a file operation on a directory */
	CCG_EIO,         /* reading the trace (or an index) failed */
	CCG_EFORMAT,     /* the trace or index is malformed */
	CCG_ERANGE,      /* a number or offset out of range */
	CCG_ENOTSUP,     /* something the library does not support */
	CCG_ESTALE,      /* an index that does not belong to this trace */
	CCG_EINTR,       /* the caller asked a read to stop (ccg_cancel_fn) */
	CCG__COUNT
} ccg_err;

/* Stable name of an error ("CCG_ENOMEM", ...); never NULL. */
const char *ccg_err_name(ccg_err err);

/* One-line human description of an error; never NULL. */
const char *ccg_err_text(ccg_err err);

/* The one channel through which the library reports, never writing to
 * stderr itself: a note is a line of its own (an index rebuilt, and why);
 * progress lines each replace the one before, and CCG_LOG_DONE gives the
 * last of them.  `line` has no newline. */
typedef enum ccg_log_kind {
	CCG_LOG_NOTE = 0,
	CCG_LOG_PROGRESS,
	CCG_LOG_DONE
} ccg_log_kind;
typedef void (*ccg_log_fn)(void *ctx, ccg_log_kind kind, const char *line);

#endif
