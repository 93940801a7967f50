/* The tracer's ELF symbol reader (contrib/tracer/ccgfs_trace_elf.c): it
 * names this test's own static function from the test's .symtab, picks
 * the function an address falls in by the rules it states, and reads
 * copies of this test's file that are cut short or damaged (section
 * headers, symbol and string tables) without reading outside the file or
 * its buffers (the sanitizer build checks every access) and without
 * returning a name outside its strings. */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "ccgfs_trace_i.h"
#include "test_rng.h"

/* A function only this file's .symtab names (static: never exported). */
__attribute__((noinline)) static int elf_probe(int x)
{
	volatile int y = x;
	return y * 3 + 1;
}

/* The test's own file, read whole. */
static unsigned char *self_bytes(size_t *len)
{
	FILE *f = fopen("/proc/self/exe", "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0;
	assert_non_null(f);
	for (;;) {
		if (n == cap) {
			cap = cap ? 2 * cap : 1 << 20;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	*len = n;
	return buf;
}

static void write_file(const char *path, const unsigned char *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* Reads path; every symbol's name must lie inside the strings and end
 * there.  Returns how many symbols were read. */
static size_t read_checked(const char *path)
{
	ccgt_elf_syms t;
	size_t n;
	(void)ccgt_elf_read(path, &t);
	for (size_t i = 0; i < t.nsyms; i++) {
		assert_true(t.syms[i].name < t.nstrs);
		assert_non_null(memchr(t.strs + t.syms[i].name, '\0',
				       t.nstrs - t.syms[i].name));
		if (i > 0)
			assert_true(t.syms[i - 1].value <= t.syms[i].value);
	}
	if (t.nsyms)
		(void)ccgt_elf_find(&t, t.syms[t.nsyms / 2].value + 1);
	n = t.nsyms;
	ccgt_elf_free(&t);
	return n;
}

static void names_own_functions(void **state)
{
	(void)state;
	ccgt_elf *e = ccgt_elf_open();
	const char *s;
	uint64_t a = (uint64_t)(uintptr_t)elf_probe;
	assert_int_equal(elf_probe(1), 4);
	assert_non_null(e);
	s = ccgt_elf_lookup(e, a);
	assert_non_null(s);
	assert_string_equal(s, "elf_probe");
	/* an address inside the function names it too */
	s = ccgt_elf_lookup(e, a + 1);
	assert_non_null(s);
	assert_string_equal(s, "elf_probe");
	/* an exported function of the reader itself */
	s = ccgt_elf_lookup(e, (uint64_t)(uintptr_t)ccgt_elf_find);
	assert_non_null(s);
	assert_string_equal(s, "ccgt_elf_find");
	/* no object there */
	assert_null(ccgt_elf_lookup(e, 16));
	ccgt_elf_close(e);
	assert_null(ccgt_elf_lookup(NULL, a));
	ccgt_elf_close(NULL);
}

static void find_rules(void **state)
{
	(void)state;
	char strs[] = "a\0b\0c\0d\0e";
	/* sorted as ccgt_elf_read sorts: address, global first */
	ccgt_elf_sym syms[] = {
		{100, 50, 0, STB_GLOBAL},  /* a: [100, 150) */
		{100, 10, 2, STB_LOCAL},   /* b: an alias, local */
		{120, 0, 4, STB_LOCAL},    /* c: no size */
		{200, 10, 6, STB_WEAK},    /* d */
		{300, 5, 8, STB_GLOBAL},   /* e */
	};
	ccgt_elf_syms t = {syms, 5, strs, sizeof strs};
	assert_null(ccgt_elf_find(&t, 99));
	assert_string_equal(ccgt_elf_find(&t, 100), "a");
	assert_string_equal(ccgt_elf_find(&t, 120), "c");
	assert_string_equal(ccgt_elf_find(&t, 121), "a");
	assert_string_equal(ccgt_elf_find(&t, 149), "a");
	assert_null(ccgt_elf_find(&t, 150));
	assert_string_equal(ccgt_elf_find(&t, 209), "d");
	assert_null(ccgt_elf_find(&t, 210));
	assert_string_equal(ccgt_elf_find(&t, 304), "e");
	assert_null(ccgt_elf_find(&t, 305));
	assert_null(ccgt_elf_find(&t, UINT64_MAX));
	t.nsyms = 0;
	assert_null(ccgt_elf_find(&t, 100));
}

static void refuses(void **state)
{
	(void)state;
	char path[512];
	ccgt_elf_syms t;
	snprintf(path, sizeof path, "%s/traceelf-empty", CCG_TMP_DIR);
	write_file(path, (const unsigned char *)"", 0);
	assert_int_equal(ccgt_elf_read(path, &t), -1);
	ccgt_elf_free(&t);
	write_file(path, (const unsigned char *)"\177ELF", 4);
	assert_int_equal(ccgt_elf_read(path, &t), -1);
	ccgt_elf_free(&t);
	assert_int_equal(ccgt_elf_read(CCG_TMP_DIR, &t), -1);
	ccgt_elf_free(&t);
	assert_int_equal(ccgt_elf_read("/nonexistent/x", &t), -1);
	ccgt_elf_free(&t);
}

/* Offsets of the fields the damage aims at. */
#define FIELD(type, f) offsetof(type, f), sizeof(((type *)0)->f)

/* The damage is written into one copy of the test's file and undone
 * after each read, so that each case writes a few bytes, not the file. */
typedef struct {
	int fd;
	const unsigned char *orig;
	size_t n;
} copy;

static void pwrite_all(int fd, const void *src, size_t len, size_t off)
{
	assert_int_equal(pwrite(fd, src, len, (off_t)off), (ssize_t)len);
}

/* Field [off, off + len) of the copy set to v (in the file's byte order,
 * which is this machine's). */
static void poke(copy *c, size_t off, size_t len, uint64_t v)
{
	unsigned char b[8];
	assert_true(len <= 8 && off + len <= c->n);
	for (size_t k = 0; k < len; k++) {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		b[len - 1 - k] = (unsigned char)(v >> (8 * k));
#else
		b[k] = (unsigned char)(v >> (8 * k));
#endif
	}
	pwrite_all(c->fd, b, len, off);
}

static void undo(copy *c, size_t off, size_t len)
{
	pwrite_all(c->fd, c->orig + off, len, off);
}

static int is_table(const ElfW(Shdr) *s)
{
	return s->sh_type == SHT_SYMTAB || s->sh_type == SHT_DYNSYM ||
	       s->sh_type == SHT_STRTAB;
}

static void damaged(void **state)
{
	(void)state;
	size_t n, whole;
	unsigned char *orig = self_bytes(&n);
	char path[512];
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)orig;
	const ElfW(Shdr) *sh;
	size_t shoff, shnum, shbytes;
	const uint64_t vals[] = {0, 1, 7, UINT32_MAX, UINT64_MAX,
				 UINT64_MAX / 24, (uint64_t)n - 1, (uint64_t)n,
				 (uint64_t)n + 1};
	const size_t nvals = sizeof vals / sizeof *vals;
	const size_t shfields[][2] = {
		{FIELD(ElfW(Shdr), sh_type)}, {FIELD(ElfW(Shdr), sh_offset)},
		{FIELD(ElfW(Shdr), sh_size)}, {FIELD(ElfW(Shdr), sh_link)},
		{FIELD(ElfW(Shdr), sh_entsize)}};
	const size_t ehfields[][2] = {
		{FIELD(ElfW(Ehdr), e_shoff)}, {FIELD(ElfW(Ehdr), e_shnum)},
		{FIELD(ElfW(Ehdr), e_shentsize)}};
	copy c = {-1, orig, n};
	assert_true(n > sizeof *eh);
	shoff = eh->e_shoff;
	shnum = eh->e_shnum;
	shbytes = shnum * sizeof(ElfW(Shdr));
	assert_true(shnum > 0 && shoff + shbytes <= n);
	sh = (const ElfW(Shdr) *)(orig + shoff);
	snprintf(path, sizeof path, "%s/traceelf-%d", CCG_TMP_DIR, (int)getpid());
	write_file(path, orig, n);
	whole = read_checked(path);
	assert_true(whole > 0);
	c.fd = open(path, O_RDWR);
	assert_true(c.fd >= 0);

	/* cut short: in the header, the section headers, each table */
	size_t cuts[64], ncut = 0;
	cuts[ncut++] = 0;
	cuts[ncut++] = sizeof *eh - 1;
	cuts[ncut++] = shoff;
	cuts[ncut++] = shoff + sizeof(ElfW(Shdr)) / 2;
	cuts[ncut++] = n - 1;
	for (size_t i = 0; i < shnum && ncut + 2 <= 64; i++)
		if (is_table(&sh[i]) && sh[i].sh_offset + sh[i].sh_size <= n) {
			cuts[ncut++] = sh[i].sh_offset + sh[i].sh_size / 2;
			cuts[ncut++] = sh[i].sh_offset + sh[i].sh_size - 1;
		}
	for (size_t i = 0; i < ncut; i++) {
		assert_int_equal(ftruncate(c.fd, (off_t)cuts[i]), 0);
		(void)read_checked(path);
		pwrite_all(c.fd, orig + cuts[i], n - cuts[i], cuts[i]);
	}
	assert_int_equal(read_checked(path), whole);

	/* the file header's section fields */
	for (size_t f = 0; f < sizeof ehfields / sizeof *ehfields; f++) {
		for (size_t v = 0; v < nvals; v++) {
			poke(&c, ehfields[f][0], ehfields[f][1], vals[v]);
			(void)read_checked(path);
		}
		undo(&c, ehfields[f][0], ehfields[f][1]);
	}
	/* e_shnum 0: the count is section 0's size */
	poke(&c, FIELD(ElfW(Ehdr), e_shnum), 0);
	poke(&c, shoff + FIELD(ElfW(Shdr), sh_size), shnum);
	assert_int_equal(read_checked(path), whole);
	for (size_t v = 0; v < nvals; v++) {
		poke(&c, shoff + FIELD(ElfW(Shdr), sh_size), vals[v]);
		(void)read_checked(path);
	}
	undo(&c, 0, sizeof *eh);
	undo(&c, shoff, sizeof(ElfW(Shdr)));

	/* each field of each symbol and string table's section header */
	for (size_t i = 0; i < shnum; i++) {
		size_t at = shoff + i * sizeof(ElfW(Shdr));
		if (!is_table(&sh[i]))
			continue;
		for (size_t f = 0; f < sizeof shfields / sizeof *shfields; f++) {
			for (size_t v = 0; v < nvals; v++) {
				poke(&c, at + shfields[f][0], shfields[f][1],
				     vals[v]);
				(void)read_checked(path);
			}
			undo(&c, at + shfields[f][0], shfields[f][1]);
		}
	}
	assert_int_equal(read_checked(path), whole);

	/* random bytes over the section headers and the tables (names
	 * past their table, strings without their NUL) */
	rng_state = 0x7261636565666c65ull;
	for (int round = 0; round < 40; round++) {
		size_t offs[512], no = 0;
		for (size_t i = 0; i < shnum; i++) {
			if (!is_table(&sh[i]) || sh[i].sh_size == 0 ||
			    sh[i].sh_offset + sh[i].sh_size > n)
				continue;
			for (int k = 0; k < 32 && no < 508; k++)
				offs[no++] = sh[i].sh_offset + rnd(sh[i].sh_size);
		}
		for (int k = 0; k < 4; k++)
			offs[no++] = shoff + rnd(shbytes);
		for (size_t k = 0; k < no; k++)
			poke(&c, offs[k], 1, rnd64());
		(void)read_checked(path);
		for (size_t k = 0; k < no; k++)
			undo(&c, offs[k], 1);
	}
	assert_int_equal(read_checked(path), whole);
	close(c.fd);
	unlink(path);
	free(orig);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_own_functions),
		cmocka_unit_test(find_rules),
		cmocka_unit_test(refuses),
		cmocka_unit_test(damaged),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
