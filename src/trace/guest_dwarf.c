/* guest_dwarf.c - inline chains and source lines of guest addresses (libdw). */
#include "trace/guest_dwarf.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/xalloc.h"

struct guest_dwarf {
	int fd;
	Dwarf *dbg; /* NULL: no DWARF */
};

struct guest_dwarf *guest_dwarf_open(const char *path, struct tephra_error *err)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		tephra_error_at(err, path, -1, "cannot open: %m");
		return NULL;
	}
	struct guest_dwarf *d = xcalloc(1, sizeof(*d));
	d->fd = fd;
	d->dbg = dwarf_begin(fd, DWARF_C_READ);
	return d;
}

void guest_dwarf_close(struct guest_dwarf *d)
{
	if (!d)
		return;
	if (d->dbg)
		dwarf_end(d->dbg);
	close(d->fd);
	free(d);
}

static const char *base_name(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;
	return s ? s + 1 : p;
}

/* The file name of index IDX in the CU's line table. */
static const char *cu_file(Dwarf_Die *cu, Dwarf_Word idx)
{
	Dwarf_Files *files;
	size_t n;
	if (dwarf_getsrcfiles(cu, &files, &n) != 0 || idx >= n)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

static void add_frame(struct strbuf *out, const char *name, int inlined, const char *file,
		      int line)
{
	if (out->len)
		strbuf_addch(out, ';');
	strbuf_addstr(out, name);
	if (inlined)
		strbuf_addstr(out, "_[i]");
	if (file)
		strbuf_addf(out, " (%s:%d)", file, line);
}

/* Collects, outermost first, the subprogram and inlined-subroutine DIEs whose ranges
 * contain ADDR, descending from DIE (lexical blocks and namespaces are passed through). */
static void find_chain(Dwarf_Die *die, uint64_t addr, Dwarf_Die *chain, int *n, int max, int depth)
{
	Dwarf_Die child;
	if (depth > 64 || dwarf_child(die, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		if (tag == DW_TAG_namespace) {
			find_chain(&child, addr, chain, n, max, depth + 1);
			continue;
		}
		if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine &&
		    tag != DW_TAG_lexical_block)
			continue;
		if (dwarf_haspc(&child, addr) != 1)
			continue;
		if (tag != DW_TAG_lexical_block && *n < max)
			chain[(*n)++] = child;
		find_chain(&child, addr, chain, n, max, depth + 1);
		return;
	} while (dwarf_siblingof(&child, &child) == 0);
}

size_t guest_dwarf_chain(struct guest_dwarf *d, const struct guest_syms *syms, uint64_t addr,
			 struct guest_dwarf_fn *out, size_t max)
{
	const struct guest_func *fn = syms ? guest_syms_find(syms, addr) : NULL;
	Dwarf_Die cu, chain[GUEST_DWARF_MAX_CHAIN];
	int n = 0;
	if (max == 0)
		return 0;
	if (d && d->dbg && dwarf_addrdie(d->dbg, addr, &cu) != NULL)
		find_chain(&cu, addr, chain, &n, max < GUEST_DWARF_MAX_CHAIN ? (int)max : GUEST_DWARF_MAX_CHAIN, 0);
	if (n == 0) {
		out[0] = (struct guest_dwarf_fn){ fn ? fn->name : "[unknown]", 0, NULL, 0 };
		return 1;
	}
	/* ADDR's own line: the innermost frame's. */
	const char *leaf_file = NULL;
	int leaf_line = 0;
	Dwarf_Line *dl = dwarf_getsrc_die(&cu, addr);
	if (dl) {
		leaf_file = dwarf_linesrc(dl, NULL, NULL);
		dwarf_lineno(dl, &leaf_line);
	}
	/* chain[0] is outermost; frame k's line is where chain[k+1] was inlined. */
	for (int k = 0; k < n; k++) {
		Dwarf_Die *s = &chain[k];
		Dwarf_Attribute attr;
		const char *name = NULL;
		if (dwarf_attr_integrate(s, DW_AT_name, &attr))
			name = dwarf_formstring(&attr);
		if (k == 0 && fn)
			name = fn->name; /* the symbol table's name, as unsymbolized output */
		const char *file = leaf_file;
		int line = leaf_line;
		if (k + 1 < n) {
			Dwarf_Die *inner = &chain[k + 1];
			Dwarf_Word cf = 0, cl = 0;
			if (dwarf_formudata(dwarf_attr(inner, DW_AT_call_file, &attr), &cf) == 0 &&
			    dwarf_formudata(dwarf_attr(inner, DW_AT_call_line, &attr), &cl) == 0) {
				file = cu_file(&cu, cf);
				line = (int)cl;
			} else {
				file = NULL;
				line = 0;
			}
		}
		out[k] = (struct guest_dwarf_fn){ name ? name : "[unknown]",
						  dwarf_tag(s) == DW_TAG_inlined_subroutine,
						  file && line > 0 ? base_name(file) : NULL,
						  line > 0 && file ? line : 0 };
	}
	return (size_t)n;
}

void guest_dwarf_frames(struct guest_dwarf *d, const struct guest_syms *syms, uint64_t addr,
			struct strbuf *out)
{
	struct guest_dwarf_fn chain[GUEST_DWARF_MAX_CHAIN];
	size_t n = guest_dwarf_chain(d, syms, addr, chain, GUEST_DWARF_MAX_CHAIN);
	for (size_t k = 0; k < n; k++)
		add_frame(out, chain[k].name, chain[k].inlined, chain[k].file, chain[k].line);
}
