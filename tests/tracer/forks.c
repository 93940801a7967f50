/* For the tracer's test: the parent calls f 3 times, forks a child that
 * calls g 5 times and exits normally (its destructors run), then calls h
 * once.  The trace must hold the parent's calls only.
 * Build with cc -O0 -finstrument-functions -rdynamic. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int sink;

void f(void) { sink++; }
void g(void) { sink += 2; }
void h(void) { sink += 3; }

int main(void)
{
	int status = 0;
	for (int i = 0; i < 3; i++)
		f();
	pid_t pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		for (int i = 0; i < 5; i++)
			g();
		exit(0);
	}
	waitpid(pid, &status, 0);
	h();
	printf("child status %d\n", status);
	return 0;
}
