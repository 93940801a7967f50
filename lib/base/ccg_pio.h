/*
 * ccg_pio.h - whole positioned reads and writes of a file descriptor.
 */
#ifndef CCG_PIO_H
#define CCG_PIO_H

#include <stddef.h>
#include <stdint.h>

#include "ccg_error.h"

/* Reads len bytes at offset off into `in`, or writes them from `from` (the
 * other one NULL), through short transfers and interruptions.  CCG_EIO on
 * an error or an early end of file. */
ccg_err ccg_pio_all(int fd, void *in, const void *from, size_t len,
		    uint64_t off);

#endif
