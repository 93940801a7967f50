/* Function names from the ELF symbol tables (.symtab and .dynsym) of the
 * objects loaded in the process: the program, built without -rdynamic,
 * exports none of its functions, so dladdr() cannot name them, but its
 * .symtab (kept unless the file is stripped) lists every function, static
 * ones included, with its address and size.
 *
 * The file is read with pread() (never mapped: a file cut short under us
 * gives short reads, not SIGBUS) and trusted in nothing: every offset and
 * size is checked against the file's size before it is read, every loop
 * is bounded by what was read, every name ends inside its string table. */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ccgfs_trace_i.h"

#define CCGT_NOINST __attribute__((no_instrument_function))

/* Most sections read from one file, and most bytes of symbol and string
 * tables (together): beyond them the file is not believed. */
#define CCGT_ELF_MAX_SECTIONS (1u << 20)
#define CCGT_ELF_MAX_TABLES ((uint64_t)1 << 30)
/* Most symbols looked at before an address when none starts there. */
#define CCGT_ELF_BACK 64
/* Most objects the process has loaded that are looked at. */
#define CCGT_ELF_MAX_OBJS 65536
/* (ELF32_ST_TYPE and _BIND are the same as ELF64_'s) */

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CCGT_ELF_DATA ELFDATA2LSB
#else
#define CCGT_ELF_DATA ELFDATA2MSB
#endif
#if __SIZEOF_POINTER__ == 8
#define CCGT_ELF_CLASS ELFCLASS64
#else
#define CCGT_ELF_CLASS ELFCLASS32
#endif

/* Reads len bytes at off of a file of fsize bytes; 0, or -1 when they are
 * not all inside the file or cannot be read. */
CCGT_NOINST static int ccgt_elf_pread(int fd, uint64_t fsize, uint64_t off,
				      uint64_t len, void *dst)
{
	unsigned char *p = dst;
	unsigned tries = 0;
	if (off > fsize || len > fsize - off)
		return -1;
	while (len > 0) {
		ssize_t got = pread(fd, p, len, (off_t)off);
		if (got < 0 && errno == EINTR && ++tries < 100)
			continue;
		if (got <= 0)
			return -1;
		p += got;
		off += (uint64_t)got;
		len -= (uint64_t)got;
	}
	return 0;
}

/* The order of symbols: by address, then global before weak before local
 * (an exported name before a file's own alias), then by name's offset. */
CCGT_NOINST static int ccgt_elf_bind_rank(unsigned bind)
{
	return bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;
}

CCGT_NOINST static int ccgt_elf_cmp(const void *pa, const void *pb)
{
	const ccgt_elf_sym *a = pa, *b = pb;
	int ra = ccgt_elf_bind_rank(a->bind), rb = ccgt_elf_bind_rank(b->bind);
	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	if (ra != rb)
		return ra < rb ? -1 : 1;
	return a->name < b->name ? -1 : a->name > b->name;
}

/* Adds the functions of symbol table `sym` (section header; its strings
 * in section `str`) to t. */
CCGT_NOINST static int ccgt_elf_table(ccgt_elf_syms *t, int fd,
				      uint64_t fsize, const ElfW(Shdr) *sym,
				      const ElfW(Shdr) *str, uint64_t *budget)
{
	uint64_t nsym = sym->sh_size / sizeof(ElfW(Sym));
	uint64_t tab = nsym * sizeof(ElfW(Sym)), nstr = str->sh_size;
	ElfW(Sym) *raw = NULL;
	size_t base = t->nstrs, keep = 0;
	ccgt_elf_sym *grown;
	char *strs;
	int rc = -1;
	if (nsym == 0 || nstr == 0)
		return 0;
	if (tab > *budget || nstr > *budget - tab ||
	    nstr > SIZE_MAX - 1 - t->nstrs)
		return -1;
	*budget -= tab + nstr;
	raw = malloc((size_t)tab);
	if (!raw || ccgt_elf_pread(fd, fsize, sym->sh_offset, tab, raw))
		goto out;
	for (uint64_t i = 0; i < nsym; i++) {
		const ElfW(Sym) *s = &raw[i];
		if ((ELF64_ST_TYPE(s->st_info) == STT_FUNC ||
		     ELF64_ST_TYPE(s->st_info) == STT_GNU_IFUNC) &&
		    s->st_shndx != SHN_UNDEF && s->st_name != 0 &&
		    s->st_name < nstr)
			raw[keep++] = *s;
	}
	if (keep == 0) {
		rc = 0;
		goto out;
	}
	/* the strings, ended by a NUL of our own: every name ends inside */
	strs = realloc(t->strs, t->nstrs + (size_t)nstr + 1);
	if (!strs)
		goto out;
	t->strs = strs;
	if (ccgt_elf_pread(fd, fsize, str->sh_offset, nstr, strs + base))
		goto out;
	strs[base + nstr] = '\0';
	t->nstrs += (size_t)nstr + 1;
	if (keep > SIZE_MAX / sizeof *grown - t->nsyms)
		goto out;
	grown = realloc(t->syms, (t->nsyms + keep) * sizeof *grown);
	if (!grown)
		goto out;
	t->syms = grown;
	for (size_t i = 0; i < keep; i++)
		t->syms[t->nsyms++] = (ccgt_elf_sym){
			raw[i].st_value, raw[i].st_size,
			base + raw[i].st_name,
			(unsigned char)ELF64_ST_BIND(raw[i].st_info)};
	rc = 0;
out:
	free(raw);
	return rc;
}

int ccgt_elf_read(const char *path, ccgt_elf_syms *t)
{
	ElfW(Ehdr) eh;
	ElfW(Shdr) *sh = NULL;
	uint64_t fsize, shnum, budget = CCGT_ELF_MAX_TABLES;
	struct stat st;
	int fd, rc = -1;
	*t = (ccgt_elf_syms){0};
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < 0)
		goto out;
	fsize = (uint64_t)st.st_size;
	if (ccgt_elf_pread(fd, fsize, 0, sizeof eh, &eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != CCGT_ELF_CLASS ||
	    eh.e_ident[EI_DATA] != CCGT_ELF_DATA ||
	    eh.e_shoff == 0 || eh.e_shentsize != sizeof *sh)
		goto out;
	/* the section count; 0 with sections: it is section 0's size */
	shnum = eh.e_shnum;
	if (shnum == 0) {
		ElfW(Shdr) s0;
		if (ccgt_elf_pread(fd, fsize, eh.e_shoff, sizeof s0, &s0))
			goto out;
		shnum = s0.sh_size;
	}
	if (shnum == 0 || shnum > CCGT_ELF_MAX_SECTIONS ||
	    shnum > fsize / sizeof *sh)
		goto out;
	sh = malloc((size_t)shnum * sizeof *sh);
	if (!sh || ccgt_elf_pread(fd, fsize, eh.e_shoff, shnum * sizeof *sh, sh))
		goto out;
	for (uint64_t i = 0; i < shnum; i++) {
		const ElfW(Shdr) *s = &sh[i];
		if (s->sh_type != SHT_SYMTAB && s->sh_type != SHT_DYNSYM)
			continue;
		if (s->sh_entsize != sizeof(ElfW(Sym)) ||
		    s->sh_link == 0 || s->sh_link >= shnum ||
		    sh[s->sh_link].sh_type != SHT_STRTAB)
			continue;
		/* a table that does not fit in the file is skipped; a
		 * table we have no memory for ends the reading */
		if (s->sh_offset > fsize || s->sh_size > fsize - s->sh_offset ||
		    sh[s->sh_link].sh_offset > fsize ||
		    sh[s->sh_link].sh_size > fsize - sh[s->sh_link].sh_offset)
			continue;
		if (ccgt_elf_table(t, fd, fsize, s, &sh[s->sh_link], &budget))
			break;
	}
	if (t->nsyms)
		qsort(t->syms, t->nsyms, sizeof *t->syms, ccgt_elf_cmp);
	rc = 0;
out:
	free(sh);
	close(fd);
	return rc;
}

const char *ccgt_elf_find(const ccgt_elf_syms *t, uint64_t a)
{
	size_t lo = 0, hi = t->nsyms, i, first;
	/* lo: the first symbol past a */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->syms[mid].value <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	/* symbols starting at a: the first in order is preferred */
	first = lo;
	while (first > 0 && t->syms[first - 1].value == a)
		first--;
	if (first < lo)
		return t->strs + t->syms[first].name;
	/* else the nearest symbol before a that holds it */
	for (i = lo; i > 0 && lo - i < CCGT_ELF_BACK; i--) {
		const ccgt_elf_sym *s = &t->syms[i - 1];
		if (a - s->value < s->size)
			return t->strs + s->name;
	}
	return NULL;
}

void ccgt_elf_free(ccgt_elf_syms *t)
{
	free(t->syms);
	free(t->strs);
	*t = (ccgt_elf_syms){0};
}

/* ---- the loaded objects ---- */

typedef struct {
	char *path;          /* the file; the program's is /proc/self/exe */
	uint64_t bias;       /* run-time address - address in the file */
	uint64_t lo, hi;     /* its PT_LOAD segments span [lo, hi) */
	int read;            /* its symbols were read (or tried) */
	ccgt_elf_syms syms;
} ccgt_elf_obj;

struct ccgt_elf {
	ccgt_elf_obj *objs;
	size_t n, cap;
	int failed;
};

CCGT_NOINST static int ccgt_elf_each(struct dl_phdr_info *info, size_t size,
				     void *arg)
{
	ccgt_elf *e = arg;
	ccgt_elf_obj o = {0};
	const char *name = info->dlpi_name;
	(void)size;
	if (e->n >= CCGT_ELF_MAX_OBJS)
		return 1;
	o.lo = UINT64_MAX;
	for (unsigned i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];
		uint64_t lo = info->dlpi_addr + p->p_vaddr;
		if (p->p_type != PT_LOAD || p->p_memsz == 0)
			continue;
		if (lo < o.lo)
			o.lo = lo;
		if (lo + p->p_memsz > o.hi)
			o.hi = lo + p->p_memsz;
	}
	if (o.lo >= o.hi)
		return 0;
	/* the first object without a name is the program */
	if (!name || !name[0])
		name = e->n == 0 ? "/proc/self/exe" : NULL;
	if (!name)
		return 0;
	o.bias = info->dlpi_addr;
	o.path = strdup(name);
	if (e->n == e->cap) {
		size_t cap = e->cap ? 2 * e->cap : 16;
		ccgt_elf_obj *g = realloc(e->objs, cap * sizeof *g);
		if (!g) {
			free(o.path);
			e->failed = 1;
			return 1;
		}
		e->objs = g;
		e->cap = cap;
	}
	if (!o.path) {
		e->failed = 1;
		return 1;
	}
	e->objs[e->n++] = o;
	return 0;
}

ccgt_elf *ccgt_elf_open(void)
{
	ccgt_elf *e = calloc(1, sizeof *e);
	if (!e)
		return NULL;
	dl_iterate_phdr(ccgt_elf_each, e);
	if (e->failed) {
		ccgt_elf_close(e);
		return NULL;
	}
	return e;
}

const char *ccgt_elf_lookup(ccgt_elf *e, uint64_t a)
{
	for (size_t i = 0; e && i < e->n; i++) {
		ccgt_elf_obj *o = &e->objs[i];
		if (a < o->lo || a >= o->hi)
			continue;
		if (!o->read) {
			o->read = 1;
			if (ccgt_elf_read(o->path, &o->syms))
				ccgt_elf_free(&o->syms);
		}
		return ccgt_elf_find(&o->syms, a - o->bias);
	}
	return NULL;
}

void ccgt_elf_close(ccgt_elf *e)
{
	for (size_t i = 0; e && i < e->n; i++) {
		free(e->objs[i].path);
		ccgt_elf_free(&e->objs[i].syms);
	}
	if (e)
		free(e->objs);
	free(e);
}
