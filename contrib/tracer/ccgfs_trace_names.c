/* Naming the traced functions at exit: the symbol through dladdr(), else
 * (a function the object does not export: the program's own, without
 * -rdynamic, or a static one) from the symbol tables of the object's
 * file (ccgfs_trace_elf.c), else the address in hex; C++ names demangled
 * through __cxa_demangle, found by dlsym.  The source file and line
 * through addr2line (binutils), one run per object, when the object has
 * debug information (-g). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ccgfs_trace_i.h"

#define CCGT_NOINST __attribute__((no_instrument_function))
/* Most addresses given to one addr2line run (its command line). */
#define CCGT_A2L_BATCH 4096

typedef char *(*ccgt_demangle_fn)(const char *, char *, size_t *, int *);

/* The name of address a (owned by the caller): its symbol sym,
 * demangled, else a in hex. */
CCGT_NOINST static char *ccgt_symbol(uint64_t a, const char *sym,
				     ccgt_demangle_fn dem)
{
	char hex[32];
	if (sym && sym[0]) {
		int status = -1;
		char *d = NULL;
		if (dem && strncmp(sym, "_Z", 2) == 0)
			d = dem(sym, NULL, NULL, &status);
		if (d && status == 0)
			return d;
		free(d);
		return strdup(sym);
	}
	snprintf(hex, sizeof hex, "0x%" PRIx64, a);
	return strdup(hex);
}

/* The address addr2line wants for a in an object loaded at base: the
 * offset for a shared object or a PIE (ELF type ET_DYN), else a. */
CCGT_NOINST static uint64_t ccgt_file_addr(uint64_t a, const void *base)
{
	const unsigned char *h = base;
	if (h && !memcmp(h, ELFMAG, SELFMAG) &&
	    ((const ElfW(Ehdr) *)base)->e_type == ET_DYN)
		return a - (uint64_t)(uintptr_t)base;
	return a;
}

/* Runs addr2line on object `obj` for the n names of idx, filling their
 * file and line where it knows them. */
CCGT_NOINST static void ccgt_lines(const char *obj, ccgt_name *names,
				   const size_t *idx, size_t n)
{
	size_t len = strlen(obj) + 64 + n * 20, at;
	char *cmd = malloc(len), line[4096];
	FILE *p;
	if (!cmd || strchr(obj, '\'')) {
		free(cmd);
		return;
	}
	at = (size_t)snprintf(cmd, len, "addr2line -e '%s'", obj);
	for (size_t i = 0; i < n; i++)
		at += (size_t)snprintf(cmd + at, len - at, " 0x%" PRIx64,
				       names[idx[i]].file_addr);
	snprintf(cmd + at, len - at, " 2>/dev/null");
	p = popen(cmd, "r");
	free(cmd);
	if (!p)
		return;
	for (size_t i = 0; i < n && fgets(line, sizeof line, p); i++) {
		char *colon = strrchr(line, ':');
		unsigned long ln;
		if (!colon || line[0] == '?')
			continue;
		*colon = '\0';
		ln = strtoul(colon + 1, NULL, 10);
		if (ln == 0)
			continue;
		names[idx[i]].file = strdup(line);
		names[idx[i]].line = (uint32_t)ln;
	}
	pclose(p);
}

int ccgt_names_resolve(const uint64_t *addrs, size_t n, ccgt_name *out)
{
	ccgt_demangle_fn dem;
	Dl_info *info = calloc(n ? n : 1, sizeof *info);
	size_t *idx = calloc(n ? n : 1, sizeof *idx);
	char *done = calloc(n ? n : 1, 1);
	ccgt_elf *elf = NULL;
	int rc = -1, elf_tried = 0;
	*(void **)&dem = dlsym(RTLD_DEFAULT, "__cxa_demangle");
	if (!info || !idx || !done)
		goto out;
	for (size_t i = 0; i < n; i++) {
		int found = dladdr((void *)(uintptr_t)addrs[i], &info[i]) != 0;
		const char *sym = NULL;
		if (found && info[i].dli_sname &&
		    info[i].dli_saddr == (void *)(uintptr_t)addrs[i])
			sym = info[i].dli_sname;
		else {
			/* the symbol tables, read once per object; without
			 * memory for them the address stays in hex */
			if (!elf_tried) {
				elf = ccgt_elf_open();
				elf_tried = 1;
			}
			sym = ccgt_elf_lookup(elf, addrs[i]);
		}
		out[i] = (ccgt_name){ccgt_symbol(addrs[i], sym, dem), NULL, 0, 0};
		if (!out[i].name)
			goto out;
		if (!found || !info[i].dli_fname)
			done[i] = 1;
		else
			out[i].file_addr = ccgt_file_addr(addrs[i],
							  info[i].dli_fbase);
	}
	if (getenv("CCGFS_TRACE_LINES") &&
	    !strcmp(getenv("CCGFS_TRACE_LINES"), "0"))
		goto ok;
	/* one addr2line run per object (and per batch of addresses) */
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		if (done[i])
			continue;
		for (size_t j = i; j < n && k < CCGT_A2L_BATCH; j++)
			if (!done[j] && info[j].dli_fbase == info[i].dli_fbase) {
				idx[k++] = j;
				done[j] = 1;
			}
		/* the main program's name is as it was run: use its link
		 * (of this process: addr2line's own self is addr2line) */
		char exe[64];
		snprintf(exe, sizeof exe, "/proc/%ld/exe", (long)getpid());
		ccgt_lines(info[i].dli_fname[0] == '/' ? info[i].dli_fname : exe,
			   out, idx, k);
	}
ok:
	rc = 0;
out:
	ccgt_elf_close(elf);
	free(info);
	free(idx);
	free(done);
	return rc;
}

void ccgt_names_free(ccgt_name *names, size_t n)
{
	for (size_t i = 0; names && i < n; i++) {
		free(names[i].name);
		free(names[i].file);
	}
	free(names);
}
