/*
 * ccg_read_probe.c - reading an anchor file where its damage cannot hurt.
 *
 * OTF2 trusts the counts and lengths of an anchor file: one flipped byte
 * can make OTF2_AnchorFile_Load allocate gigabytes for minutes or abort
 * the process.  So the anchor is first read by OTF2 in a child process
 * with a memory limit and a deadline; only an anchor that child read
 * cleanly is handed to OTF2 in the process itself.
 */
#define _POSIX_C_SOURCE 200809L
#include "ccg_read.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <otf2/otf2.h>

/* The child's deadline, ms, and memory beyond what the process had. */
#define CCG_PROBE_MS 5000
#define CCG_PROBE_HEADROOM (64ull << 20)

#if defined(__SANITIZE_ADDRESS__)
#define CCG_PROBE_LIMIT_AS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CCG_PROBE_LIMIT_AS 0
#endif
#endif
#ifndef CCG_PROBE_LIMIT_AS
#define CCG_PROBE_LIMIT_AS 1 /* ASan reserves terabytes of address space */
#endif

/* Limits the child's address space to its size now plus the headroom. */
static void limit_memory(void)
{
	if (!CCG_PROBE_LIMIT_AS)
		return;
	unsigned long long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (!f)
		return;
	int ok = fscanf(f, "%llu", &pages) == 1;
	fclose(f);
	long psz = sysconf(_SC_PAGESIZE);
	if (!ok || psz <= 0)
		return;
	rlim_t lim = (rlim_t)(pages * (unsigned long long)psz +
			      CCG_PROBE_HEADROOM);
	struct rlimit rl = {lim, lim};
	setrlimit(RLIMIT_AS, &rl);
}

/* In the child: 0 when OTF2 opens the anchor and tells its locations. */
static int child_read(const char *anchor)
{
	/* OTF2 prints its errors; the process itself reports them. */
	int null = open("/dev/null", O_WRONLY);
	if (null >= 0)
		dup2(null, STDERR_FILENO);
	limit_memory();
	OTF2_Reader *rd = OTF2_Reader_Open(anchor);
	uint64_t n = 0;
	int ok = rd && OTF2_Reader_GetNumberOfLocations(rd, &n) == OTF2_SUCCESS;
	if (rd)
		OTF2_Reader_Close(rd);
	return ok ? 0 : 1;
}

ccg_err ccg_read_probe(const char *anchor, ccg_buf *msg)
{
	if (access(anchor, R_OK) != 0)
		return CCG_OK; /* the reader says why it cannot open it */
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return CCG_OK; /* no child: the reader runs unguarded */
	if (pid == 0)
		_exit(child_read(anchor));
	int status = 0;
	pid_t got = 0;
	/* Polls with a growing pause (1 ms to 32 ms): most anchors are read
	 * in a millisecond. */
	long waited = 0, pause = 1;
	while ((got = waitpid(pid, &status, WNOHANG)) == 0 &&
	       waited < CCG_PROBE_MS) {
		struct timespec ts = {0, pause * 1000000L};
		nanosleep(&ts, NULL);
		waited += pause;
		if (pause < 32)
			pause *= 2;
	}
	if (got == 0) {
		kill(pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (msg)
			ccg_buf_addf(msg, "%s: damaged anchor file (OTF2 "
					  "was still reading it after %d s)",
				     anchor, CCG_PROBE_MS / 1000);
		return CCG_EFORMAT;
	}
	if (got < 0)
		return CCG_OK; /* lost track of the child: read unguarded */
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return CCG_OK;
	if (msg && WIFSIGNALED(status))
		ccg_buf_addf(msg, "%s: damaged anchor file (OTF2 stopped "
				  "with %s reading it)",
			     anchor, strsignal(WTERMSIG(status)));
	else if (msg)
		ccg_buf_addf(msg, "%s: damaged, or not an OTF2 anchor file",
			     anchor);
	return CCG_EFORMAT;
}
