/* For the tracer's names test: a program built with -g
 * -finstrument-functions and without -rdynamic, so that none of its own
 * functions is exported and dladdr() names none of them: main, a
 * function of its own (fib: 177 calls), a static one (twice: 3 calls)
 * and a function of a shared library it links (names_lib.c: lib_square
 * once, its static lib_helper twice). */
#include <stdio.h>

int lib_square(int x);

static int twice(int x)
{
	return 2 * x;
}

int fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(void)
{
	int s = 0;
	for (int i = 0; i < 3; i++)
		s += twice(i);
	s += fib(10) + lib_square(7);
	printf("%d\n", s);
	return s == 6 + 55 + 49 ? 0 : 1;
}
