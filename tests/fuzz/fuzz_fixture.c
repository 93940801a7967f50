/*
 * fuzz_fixture.c - the tiny trace the fuzz harnesses read (fuzz_fixture.h).
 */
#define _XOPEN_SOURCE 700
#include "fuzz_fixture.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CCG_FUZZ_TMP
#define CCG_FUZZ_TMP "/tmp"
#endif

static char g_dir[4096];        /* this process's folder, "" until made */
static char g_anchor[4096];
static char g_scratch[4096];
static ccg_trace *g_trace;

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void fixture_cleanup(void)
{
	ccg_trace_close(g_trace);
	g_trace = NULL;
	if (g_dir[0])
		nftw(g_dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void die(const char *what)
{
	fprintf(stderr, "fuzz fixture: %s\n", what);
	abort();
}

/* Runs ccgfs-gen into g_dir/trace. */
static void generate(void)
{
	const char *tmp = getenv("CCG_FUZZ_TMP");
	if (!tmp || !*tmp)
		tmp = CCG_FUZZ_TMP;
	snprintf(g_dir, sizeof g_dir, "%s/fuzz-fixture-%ld", tmp,
		 (long)getpid());
	mkdir(tmp, 0755);
	nftw(g_dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	if (mkdir(g_dir, 0755) != 0)
		die("cannot make the fixture folder");
	atexit(fixture_cleanup);
	char out[4200];
	snprintf(out, sizeof out, "%s/trace", g_dir);
	pid_t pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		/* The generator is instrumented too; its leaks are not ours
		 * to find here. */
		setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
		execl(CCG_GEN_PATH, CCG_GEN_PATH, "-q", "-l", "2", "-e", "300",
		      "--mpi", "--metrics", "--quirks", "all", "--seed", "7",
		      out, (char *)NULL);
		_exit(127);
	}
	int status = 0;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		die("ccgfs-gen failed");
	snprintf(g_anchor, sizeof g_anchor, "%s/traces.otf2", out);
}

const char *fuzz_fixture_anchor(void)
{
	if (!g_anchor[0])
		generate();
	return g_anchor;
}

ccg_trace *fuzz_fixture_trace(void)
{
	if (g_trace)
		return g_trace;
	ccg_options opt;
	ccg_options_init(&opt);
	opt.no_index = 1;
	opt.threads = 1;
	ccg_buf msg = CCG_BUF_INIT;
	if (ccg_trace_open(fuzz_fixture_anchor(), &opt, &g_trace, &msg)) {
		fprintf(stderr, "%s\n", msg.data ? msg.data : "");
		die("cannot open the fixture trace");
	}
	ccg_buf_free(&msg);
	return g_trace;
}

const char *fuzz_fixture_path(const char *name)
{
	fuzz_fixture_anchor();
	snprintf(g_scratch, sizeof g_scratch, "%s/%s", g_dir, name);
	return g_scratch;
}

/* Lists the fixture trace's tree breadth first, a bounded number of
 * entries, reading the start of every file. */
void fuzz_fixture_walk(const ccg_trace *t)
{
	ccg_id queue[64];
	size_t head = 0, tail = 0;
	queue[tail++] = CCG_ID_ROOT;
	ccg_buf name = CCG_BUF_INIT, out = CCG_BUF_INIT;
	while (head < tail) {
		ccg_id dir = queue[head++];
		for (uint64_t i = 0; i < 8; i++) {
			ccg_id child;
			ccg_stat st;
			ccg_buf_reset(&name);
			if (ccg_trace_readdir(t, dir, i, &child, &name) ||
			    ccg_trace_stat(t, child, &st))
				break;
			if (ccg_trace_is_dir(child)) {
				if (tail < 64)
					queue[tail++] = child;
				continue;
			}
			ccg_buf_reset(&out);
			ccg_trace_read(t, child, 0, 256, &out);
		}
	}
	ccg_buf_free(&name);
	ccg_buf_free(&out);
}
