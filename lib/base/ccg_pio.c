#define _POSIX_C_SOURCE 200809L

#include "ccg_pio.h"

#include <errno.h>
#include <unistd.h>

ccg_err ccg_pio_all(int fd, void *in, const void *from, size_t len,
		    uint64_t off)
{
	for (size_t done = 0; done < len;) {
		off_t at = (off_t)(off + done);
		ssize_t k = in ? pread(fd, (char *)in + done, len - done, at)
			       : pwrite(fd, (const char *)from + done,
					len - done, at);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return CCG_EIO;
		done += (size_t)k;
	}
	return CCG_OK;
}
