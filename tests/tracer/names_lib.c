/* The shared library of the tracer's names test (names.c): lib_square is
 * exported, lib_helper is static (only the library's .symtab names it). */
static int lib_helper(int x)
{
	return x * x;
}

int lib_square(int x)
{
	return lib_helper(x) + lib_helper(0);
}
