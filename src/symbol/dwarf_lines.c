#include "symbol/dwarf_lines.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

struct dwarf_lines {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf_Addr bias;   /* where libdwfl placed the file (offline ET_DYN: not 0) */
};

static char *no_debuginfo_path;

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &no_debuginfo_path,
};

struct dwarf_lines *dwarf_lines_open(const char *path)
{
	Dwfl *dwfl = dwfl_begin(&offline_callbacks);
	if (!dwfl)
		return NULL;
	dwfl_report_begin(dwfl);
	Dwfl_Module *mod = dwfl_report_offline(dwfl, "", path, -1);
	dwfl_report_end(dwfl, NULL, NULL);
	Dwarf_Addr bias;
	if (!mod || !dwfl_module_getdwarf(mod, &bias)) {
		dwfl_end(dwfl);
		return NULL;
	}
	struct dwarf_lines *dl = xcalloc(1, sizeof(*dl));
	dl->dwfl = dwfl;
	dl->mod = mod;
	dl->bias = bias;
	return dl;
}

void dwarf_lines_close(struct dwarf_lines *dl)
{
	if (!dl)
		return;
	dwfl_end(dl->dwfl);
	free(dl);
}

/* The name addr2line shows for a function DIE: its linkage name when there is one
 * (following abstract_origin/specification), else its name. */
static const char *function_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *n;

	if ((dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) ||
	     dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr)) &&
	    (n = dwarf_formstring(&attr)) != NULL)
		return n;
	if (dwarf_attr_integrate(die, DW_AT_name, &attr) && (n = dwarf_formstring(&attr)) != NULL)
		return n;
	return NULL;
}

int dwarf_lines_inline_names(struct dwarf_lines *dl, uint64_t vaddr,
			     void (*cb)(void *arg, const char *name), void *arg)
{
	Dwarf_Addr bias = 0;
	Dwarf_Die *cu = dwfl_module_addrdie(dl->mod, vaddr + dl->bias, &bias);
	if (!cu)
		return 0;
	Dwarf_Die *scopes = NULL;
	int n = dwarf_getscopes(cu, vaddr + dl->bias - bias, &scopes);
	int count = 0;
	/* dwarf_getscopes continues from an inlined instance into its abstract origin's
	 * scopes; the callers are the concrete parents, which dwarf_getscopes_die lists. */
	for (int i = 0; i < n; i++) {
		int tag = dwarf_tag(&scopes[i]);
		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		const char *name = function_name(&scopes[i]);
		cb(arg, name ? name : "??");
		count++;
		if (tag == DW_TAG_inlined_subroutine) {
			Dwarf_Die *parents = NULL;
			int np = dwarf_getscopes_die(&scopes[i], &parents);
			for (int k = 1; k < np; k++) {
				int t = dwarf_tag(&parents[k]);
				if (t != DW_TAG_inlined_subroutine && t != DW_TAG_subprogram)
					continue;
				name = function_name(&parents[k]);
				cb(arg, name ? name : "??");
				count++;
				if (t == DW_TAG_subprogram)
					break;
			}
			free(parents);
		}
		break;
	}
	free(scopes);
	return count;
}

int dwarf_lines_srcline(struct dwarf_lines *dl, uint64_t vaddr, const char **file,
			unsigned *line)
{
	Dwfl_Line *l = dwfl_module_getsrc(dl->mod, vaddr + dl->bias);
	int lineno = 0;
	if (!l)
		return -1;
	const char *f = dwfl_lineinfo(l, NULL, &lineno, NULL, NULL, NULL);
	if (!f)
		return -1;
	*file = f;
	*line = (unsigned)lineno;
	return 0;
}
