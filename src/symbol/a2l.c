#include "symbol/a2l.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/hashmap.h"
#include "base/xalloc.h"
#include "symbol/a2l_symbols.h"
#include "symbol/a2l_lines.h"
#include "symbol/a2l_unit_index.h"
#include "symbol/debug_inflate.h"
#include "symbol/debug_paths.h"
#include "symbol/named_file.h"

/* One address's answer: NR records (name, source file or NULL for addr2line's "??",
 * line or 0), innermost first.  The strings are the facts' (DWARF, ELF symbols) or
 * DL's renames: valid while DL is open, not copied. */
struct answer_record {
	const char *name, *file;
	unsigned line;
};

struct inline_answer {
	struct answer_record *rec;
	int nr;
};

/* The facts addr2line's answer for one address is made of, before binutils' memory
 * (function_state) is applied: pure functions of the file, so they can be worked out
 * ahead, in any order, on another thread (a2l_prepare).  Strings point into
 * the file's DWARF and symbol tables, valid while DL is open. */
struct scope_fact {
	Dwarf_Off die;      /* the function's DIE */
	const char *name;   /* function_name's answer */
	int final;
	const char *file;   /* the address's row (innermost) or the call site (callers) */
	unsigned line;
};

struct inline_facts {
	int found;                  /* a function DIE holds the address */
	int inlined;                /* ... and it is an inlined subroutine */
	struct scope_fact fn;       /* its name; file/line: the address's row (also
				     * when no function was found) */
	const char *sym, *sym_file; /* the ELF symbol binutils would take (NULL: none) */
	Dwarf_Addr sym_value;
	int low_is_sym;             /* the function starts exactly at that symbol */
	struct scope_fact *callers; /* the functions it is inlined into, innermost first,
				     * each with the call site of the one inside it */
	int nr_callers;
};

/* A unit's address range (module address = range + bias), for unit_at's scan. */
struct unit_range {
	Dwarf_Addr lo, hi;
	Dwarf_Die *cu;
	Dwarf_Addr bias;
};

struct a2l {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf_Addr bias;   /* where libdwfl placed the file (offline ET_DYN: not 0) */
	int has_dwarf;
	struct debug_inflated inflated; /* the file's DWARF sections we inflated */
	struct a2l_symbols *symbols;    /* its ELF symbols as addr2line walks them */
	int symbols_tried;
	/* binutils' lookups have memory (see function_state); perf asks once per
	 * address and keeps the answer, so answers are kept here too and replayed */
	/* (the four maps are keyed by integers: hashmap_*_u64) */
	struct hashmap answers;           /* vaddr -> index in answer_list */
	struct inline_answer *answer_list;
	size_t nr_answers, cap_answers;
	struct hashmap function_state;    /* DIE offset -> FN_* */
	struct hashmap facts;             /* module address -> index in facts_list */
	struct hashmap unit_index;        /* unit DIE offset -> index in units */
	struct unit_range *unit_ranges;   /* every unit's ranges, in unit order */
	size_t nr_unit_ranges, cap_unit_ranges;
	int unit_ranges_done;
	struct a2l_unit_index *units;     /* each unit's functions, read on first use */
	struct inline_facts *facts_list;
	size_t nr_facts, cap_facts;
	char **renamed;                   /* FN_RENAMED + i: the ELF name taken for good */
	size_t nr_renamed;
};

/* What binutils remembers of a function DIE whose name is not final (no linkage
 * name, a mangling language): the first lookup takes the ELF symbol's name and marks
 * the function done; if that symbol starts exactly at the function, the function is
 * renamed for good (also as a caller), else later lookups print DW_AT_name.
 * Observed with perf 6.1: a C++ lambda's `operator()` prints as `main` at the first
 * address perf asks about and as `operator()` at the next ones. */
enum { FN_FRESH = 0, FN_DONE = 1, FN_RENAMED = 2 };

static char *no_debuginfo_path;

/* Whether one of the places libdwfl's standard search looks for a .gnu_debuglink file
 * holds it: next to the object, in .debug/ there, under /usr/lib/debug.  That search
 * opens its candidates by path itself, so when one is a FIFO or a device (named_file.h)
 * it is not run at all. */
static int debuglink_candidate_exists(const char *modname, const char *debuglink_file)
{
	struct debug_paths_object obj = { .path = modname ? modname : "",
					  .debuglink = debuglink_file };
	struct debug_paths_list files = { 0 };
	int found = 0;

	debug_paths_list(&debug_paths_libdwfl, DEBUG_PATHS_LIBDWFL, &obj, &files);
	for (size_t i = 0; i < files.nr; i++) {
		const char *why;
		if (named_file_check(files.paths[i], 0, &why) == 0) {
			found = 1;
		} else if (named_file_refused(why)) {
			found = 0;
			break;
		}
	}
	debug_paths_list_release(&files);
	return found;
}

/* libdwfl's search for a separate debug file, local files only: its standard search
 * ends, when nothing is found, by loading libdebuginfod (~10 ms, even with no server
 * configured) and, with DEBUGINFOD_URLS set, by waiting on the network.  perf's
 * addr2line answers from local files; so do we. */
static int local_find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
				Dwarf_Addr base, const char *file_name,
				const char *debuglink_file, GElf_Word debuglink_crc,
				char **debuginfo_file_name)
{
	int fd = dwfl_build_id_find_debuginfo(mod, userdata, modname, base, file_name,
					      debuglink_file, debuglink_crc, debuginfo_file_name);
	if (fd >= 0 || !debuglink_candidate_exists(modname, debuglink_file))
		return fd;
	return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
					    debuglink_file, debuglink_crc, debuginfo_file_name);
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = local_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &no_debuginfo_path,
};

struct a2l *a2l_open(const char *path)
{
	Dwfl *dwfl = dwfl_begin(&offline_callbacks);
	if (!dwfl)
		return NULL;
	/* opened here, not by libdwfl: never a FIFO or a device (named_file.h) */
	int fd = named_file_open(path, 0, NULL);
	if (fd < 0) {
		dwfl_end(dwfl);
		return NULL;
	}
	dwfl_report_begin(dwfl);
	Dwfl_Module *mod = dwfl_report_offline(dwfl, "", path, fd); /* owns FD if made */
	dwfl_report_end(dwfl, NULL, NULL);
	if (!mod) {
		close(fd);
		dwfl_end(dwfl);
		return NULL;
	}
	struct a2l *dl = xcalloc(1, sizeof(*dl));
	/* inflate the file's own DWARF sections before libdw reads them (debug_inflate.h) */
	Dwarf_Addr bias = 0;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	size_t file_size = 0;
	if (elf && elf_rawfile(elf, &file_size))
		debug_inflate_sections(elf, file_size, &dl->inflated);
	/* a file without DWARF still answers by its ELF symbols, as addr2line does */
	int has_dwarf = !dl->inflated.refused && dwfl_module_getdwarf(mod, &bias) != NULL;
	if (!has_dwarf && !dwfl_module_getelf(mod, &bias)) {
		dwfl_end(dwfl);
		debug_inflated_free(&dl->inflated);
		free(dl);
		return NULL;
	}
	dl->dwfl = dwfl;
	dl->mod = mod;
	dl->bias = bias;
	dl->has_dwarf = has_dwarf;
	hashmap_init(&dl->answers);
	hashmap_init(&dl->function_state);
	hashmap_init(&dl->facts);
	hashmap_init(&dl->unit_index);
	return dl;
}

void a2l_close(struct a2l *dl)
{
	if (!dl)
		return;
	a2l_symbols_free(dl->symbols);
	dwfl_end(dl->dwfl);
	debug_inflated_free(&dl->inflated);
	for (size_t i = 0; i < dl->nr_answers; i++)
		free(dl->answer_list[i].rec);
	free(dl->answer_list);
	for (size_t i = 0; i < dl->nr_renamed; i++)
		free(dl->renamed[i]);
	free(dl->renamed);
	hashmap_release(&dl->answers);
	hashmap_release(&dl->function_state);
	for (size_t i = 0; i < dl->nr_facts; i++)
		free(dl->facts_list[i].callers);
	free(dl->facts_list);
	hashmap_release(&dl->facts);
	for (size_t i = 0; i < hashmap_count(&dl->unit_index); i++)
		a2l_unit_index_free(&dl->units[i]);
	free(dl->units);
	free(dl->unit_ranges);
	hashmap_release(&dl->unit_index);
	free(dl);
}

/* Languages whose plain DW_AT_name is the symbol name (no mangling): for these
 * binutils takes DW_AT_name as final, for the others it prefers the ELF symbol
 * when DWARF gives no linkage name (observed: a C++ lambda's `operator()` prints as
 * the enclosing `main`, an anonymous-namespace function as its demangled symbol). */
static int unmangled_language(int lang)
{
	switch (lang) {
	case DW_LANG_C89:
	case DW_LANG_C:
	case DW_LANG_Cobol74:
	case DW_LANG_Cobol85:
	case DW_LANG_Fortran77:
	case DW_LANG_Pascal83:
	case DW_LANG_PLI:
	case DW_LANG_C99:
	case DW_LANG_UPC:
	case DW_LANG_C11:
	case DW_LANG_Mips_Assembler:
	case 0x8765: /* DW_LANG_Upc */
	case 0x8101: /* DW_LANG_HP_Basic91 */
	case 0x8102: /* DW_LANG_HP_Pascal91 */
	case 0x8103: /* DW_LANG_HP_IMacro */
	case 0x8107: /* DW_LANG_HP_Assembler */
		return 1;
	default:
		return 0;
	}
}

/* The name addr2line shows for a function DIE: its linkage name when there is one
 * (following abstract_origin/specification), else its name.  *FINAL says whether
 * the name is final or addr2line would rather look up the ELF symbol. */
static const char *function_name(Dwarf_Die *die, int *final)
{
	Dwarf_Attribute attr;
	const char *n;

	*final = 1;
	if ((dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) ||
	     dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr)) &&
	    (n = dwarf_formstring(&attr)) != NULL)
		return n;
	if (dwarf_attr_integrate(die, DW_AT_name, &attr) && (n = dwarf_formstring(&attr)) != NULL) {
		Dwarf_Die cu;
		*final = dwarf_diecu(die, &cu, NULL, NULL) && unmangled_language(dwarf_srclang(&cu));
		return n;
	}
	*final = 0;
	return NULL;
}

/* The unit's functions, read once (a2l_unit_index.h: binutils' pick and the
 * nesting, without a walk of the unit's DIEs per address). */
static const struct a2l_unit_index *unit_index(struct a2l *dl, Dwarf_Die *cu)
{
	int created;
	size_t i = hashmap_intern_u64(&dl->unit_index, dwarf_dieoffset(cu), &created);
	if (created) {
		dl->units = xrealloc(dl->units, (i + 1) * sizeof(*dl->units));
		a2l_unit_index_build(&dl->units[i], cu);
	}
	return &dl->units[i];
}

/* The unit holding ADDR (module address): .debug_aranges first, then each unit's
 * own ranges (units without aranges, e.g. Rust's std, are found this way). */
static Dwarf_Die *unit_at(struct a2l *dl, Dwarf_Addr addr, Dwarf_Addr *bias)
{
	/* libdwfl gives a gap after a unit's last arange to that unit: check */
	Dwarf_Die *cu = dwfl_module_addrdie(dl->mod, addr, bias);
	if (cu && dwarf_haspc(cu, addr - *bias) > 0)
		return cu;
	/* every unit's ranges, in unit order, gathered once: glibc has ~2000 units, and
	 * its assembler functions are in no arange */
	if (!dl->unit_ranges_done) {
		dl->unit_ranges_done = 1;
		Dwarf_Addr b = 0;
		cu = NULL;
		while ((cu = dwfl_module_nextcu(dl->mod, cu, &b)) != NULL) {
			Dwarf_Addr base, lo, hi;
			ptrdiff_t off = 0;
			while ((off = dwarf_ranges(cu, off, &base, &lo, &hi)) > 0) {
				if (dl->nr_unit_ranges == dl->cap_unit_ranges) {
					dl->cap_unit_ranges = dl->cap_unit_ranges ? 2 * dl->cap_unit_ranges : 256;
					dl->unit_ranges = xrealloc(dl->unit_ranges, dl->cap_unit_ranges *
									    sizeof(*dl->unit_ranges));
				}
				dl->unit_ranges[dl->nr_unit_ranges++] =
					(struct unit_range){ lo, hi, cu, b };
			}
		}
	}
	for (size_t i = 0; i < dl->nr_unit_ranges; i++) {
		const struct unit_range *u = &dl->unit_ranges[i];
		if (u->lo <= addr - u->bias && addr - u->bias < u->hi) {
			*bias = u->bias;
			return u->cu;
		}
	}
	return NULL;
}

/* The lowest address binutils keeps for a function (its first range). */
static int function_low(Dwarf_Die *die, Dwarf_Addr *low)
{
	if (dwarf_lowpc(die, low) == 0)
		return 0;
	Dwarf_Addr base, hi;
	return dwarf_ranges(die, 0, &base, low, &hi) > 0 ? 0 : -1;
}

/* A has room for every record (answer_from_facts sizes it). */
static void answer_add(struct inline_answer *a, const char *name, const char *file,
		       unsigned line)
{
	a->rec[a->nr++] = (struct answer_record){ name, file, line };
}

static void compute_facts(struct a2l *dl, Dwarf_Addr addr, struct inline_facts *f)
{
	memset(f, 0, sizeof(*f));
	Dwarf_Addr bias = 0;
	Dwarf_Die *cu = dl->has_dwarf ? unit_at(dl, addr, &bias) : NULL;
	const struct a2l_unit_index *u = cu ? unit_index(dl, cu) : NULL;
	int32_t fn = u ? a2l_unit_index_pick(u, addr - bias) : -1;
	Dwarf_Die die = fn >= 0 ? u->fns[fn].die : (Dwarf_Die){ 0 };
	f->fn.file = cu ? a2l_lines_row(cu, addr - bias, &f->fn.line) : NULL;
	f->found = fn >= 0;
	if (f->found) {
		f->fn.die = dwarf_dieoffset(&die);
		f->fn.name = function_name(&die, &f->fn.final);
	}
	if (!f->fn.final) {
		/* no DWARF name that binutils takes as it is: the ELF symbol may decide */
		if (!dl->symbols_tried) {
			dl->symbols_tried = 1;
			dl->symbols = a2l_symbols_new(dl->mod);
		}
		f->sym = a2l_symbols_function(dl->symbols, addr, &f->sym_value, &f->sym_file);
		Dwarf_Addr low;
		f->low_is_sym = f->found && f->sym && function_low(&die, &low) == 0 &&
				low + bias == f->sym_value;
	}
	if (!f->found || dwarf_tag(&die) != DW_TAG_inlined_subroutine)
		return;
	f->inlined = 1;
	/* the callers: the functions the DIE is nested in, up to the subprogram */
	Dwarf_Die callee = die;
	for (int32_t k = u->fns[fn].parent; k >= 0; k = u->fns[k].parent) {
		Dwarf_Die caller = u->fns[k].die;
		f->callers = xrealloc(f->callers, (size_t)(f->nr_callers + 1) * sizeof(*f->callers));
		struct scope_fact *c = &f->callers[f->nr_callers++];
		c->die = dwarf_dieoffset(&caller);
		c->name = function_name(&caller, &c->final);
		c->file = a2l_lines_call_site(&callee, &c->line);
		callee = caller;
		if (dwarf_tag(&caller) != DW_TAG_inlined_subroutine)
			break;
	}
}

/* The facts of ADDR (module address), worked out once. */
static const struct inline_facts *facts_at(struct a2l *dl, Dwarf_Addr addr)
{
	int created;
	size_t i = hashmap_intern_u64(&dl->facts, addr, &created);
	struct hashmap_entry *e = hashmap_entry(&dl->facts, i);
	if (created) {
		if (dl->nr_facts == dl->cap_facts) {
			dl->cap_facts = dl->cap_facts ? 2 * dl->cap_facts : 64;
			dl->facts_list = xrealloc(dl->facts_list, dl->cap_facts * sizeof(*dl->facts_list));
		}
		compute_facts(dl, addr, &dl->facts_list[dl->nr_facts]);
		e->value = dl->nr_facts++;
	}
	return &dl->facts_list[e->value];
}

static uint64_t *function_state_of(struct a2l *dl, Dwarf_Off die)
{
	size_t i = hashmap_intern_u64(&dl->function_state, die, NULL);
	return &hashmap_entry(&dl->function_state, i)->value;
}

/* A function's name as binutils gives it once it is no longer fresh. */
static const char *settled_name(struct a2l *dl, const struct scope_fact *s)
{
	if (!s->final) {
		uint64_t st = *function_state_of(dl, s->die);
		if (st >= FN_RENAMED)
			return dl->renamed[st - FN_RENAMED];
	}
	return s->name;
}

/* addr2line's answer from the facts, with binutils' memory: asked in perf's order. */
static void answer_from_facts(struct a2l *dl, const struct inline_facts *f,
			      struct inline_answer *a)
{
	const char *file = f->fn.file;
	const char *name = f->found ? settled_name(dl, &f->fn) : NULL;
	uint64_t *state = f->found && !f->fn.final ? function_state_of(dl, f->fn.die) : NULL;
	if (!f->fn.final && (!state || *state == FN_FRESH)) {
		if (f->sym)
			name = f->sym;
		if (!file)
			file = f->sym_file;
		if (state) {
			*state = FN_DONE;
			if (f->low_is_sym) {
				dl->renamed = xrealloc(dl->renamed,
						       (dl->nr_renamed + 1) * sizeof(*dl->renamed));
				dl->renamed[dl->nr_renamed] = xstrdup(f->sym);
				*state = FN_RENAMED + dl->nr_renamed++;
			}
		}
	}
	/* addr2line's "??" at "??:0" is no answer: perf prints the frame as it is */
	if (!name && !file)
		return;
	a->rec = xmalloc((size_t)(1 + f->nr_callers) * sizeof(*a->rec));
	answer_add(a, name ? name : "??", file, f->fn.line);
	for (int k = 0; k < f->nr_callers; k++) {
		const char *caller = settled_name(dl, &f->callers[k]);
		answer_add(a, caller ? caller : "??", f->callers[k].file, f->callers[k].line);
	}
}

void a2l_prepare(struct a2l *dl, uint64_t vaddr)
{
	(void)facts_at(dl, vaddr + dl->bias);
}

struct first_record {
	int found;
	const char *file;
	unsigned line;
};

static void keep_first(void *arg, const char *name, const char *file, unsigned line)
{
	struct first_record *fr = arg;
	(void)name;
	if (fr->found++)
		return;
	fr->file = file;
	fr->line = line;
}

int a2l_inline_records(struct a2l *dl, uint64_t vaddr,
		       void (*cb)(void *arg, const char *name, const char *file,
				  unsigned line),
		       void *arg)
{
	int created;
	size_t i = hashmap_intern_u64(&dl->answers, vaddr, &created);
	struct hashmap_entry *e = hashmap_entry(&dl->answers, i);
	if (created) {
		if (dl->nr_answers == dl->cap_answers) {
			dl->cap_answers = dl->cap_answers ? 2 * dl->cap_answers : 64;
			dl->answer_list = xrealloc(dl->answer_list,
						   dl->cap_answers * sizeof(*dl->answer_list));
		}
		struct inline_answer *a = &dl->answer_list[dl->nr_answers];
		memset(a, 0, sizeof(*a));
		answer_from_facts(dl, facts_at(dl, vaddr + dl->bias), a);
		e->value = dl->nr_answers++;
	}
	const struct inline_answer *a = &dl->answer_list[e->value];
	for (int k = 0; k < a->nr; k++)
		cb(arg, a->rec[k].name, a->rec[k].file, a->rec[k].line);
	return a->nr;
}

int a2l_first_record(struct a2l *dl, uint64_t vaddr, const char **file,
		     unsigned *line)
{
	struct first_record fr = { 0, NULL, 0 };
	a2l_inline_records(dl, vaddr, keep_first, &fr);
	*file = fr.file;
	*line = fr.line;
	return fr.found;
}

struct names_only {
	void (*cb)(void *arg, const char *name);
	void *arg;
};

static void name_of_record(void *arg, const char *name, const char *file, unsigned line)
{
	struct names_only *n = arg;
	(void)file;
	(void)line;
	n->cb(n->arg, name);
}

int a2l_inline_names(struct a2l *dl, uint64_t vaddr,
		     void (*cb)(void *arg, const char *name), void *arg)
{
	struct names_only n = { cb, arg };
	return a2l_inline_records(dl, vaddr, name_of_record, &n);
}

int a2l_srcline(struct a2l *dl, uint64_t vaddr, const char **file,
		unsigned *line)
{
	if (!dl->has_dwarf)
		return -1;
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

/* The function DIEs (subprogram, inlined subroutines) whose ranges hold PC under
 * PARENT, outermost first, into CHAIN (at most MAX): a walk of the tree, not
 * binutils' pick, so the chain is the DWARF's nesting as llvm-symbolizer reads it.
 * Returns 1 when a function holding PC was found. */
static int function_walk(Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die *chain, int *n, int max,
			 int depth)
{
	Dwarf_Die c;
	/* hostile DWARF may nest without end: a bound keeps the recursion off the stack's */
	if (depth > 256 || dwarf_child(parent, &c) != 0)
		return 0;
	do {
		switch (dwarf_tag(&c)) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_lexical_block:
			if (dwarf_haspc(&c, pc) <= 0)
				break;
			if (dwarf_tag(&c) != DW_TAG_lexical_block && *n < max)
				chain[(*n)++] = c;
			function_walk(&c, pc, chain, n, max, depth + 1);
			return 1;
		case DW_TAG_namespace: /* C++ and Rust put definitions inside these */
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			if (function_walk(&c, pc, chain, n, max, depth + 1))
				return 1;
			break;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return 0;
}

/* The linkage name (mangled) where DWARF has one, through abstract origins and
 * specifications, else the plain name; NULL when neither. */
static const char *function_die_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *n = NULL;
	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &a) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a))
		n = dwarf_formstring(&a);
	if (!n && dwarf_attr_integrate(die, DW_AT_name, &a))
		n = dwarf_formstring(&a);
	return n;
}

/* The call site an inlined subroutine DIE records (DW_AT_call_file/line). */
static void call_site(Dwarf_Die *die, const char **file, unsigned *line)
{
	Dwarf_Attribute a;
	Dwarf_Word w;
	Dwarf_Die cu;
	Dwarf_Files *files;
	size_t nfiles;
	*file = NULL;
	*line = 0;
	if (dwarf_attr(die, DW_AT_call_line, &a) && dwarf_formudata(&a, &w) == 0)
		*line = (unsigned)w;
	if (dwarf_attr(die, DW_AT_call_file, &a) && dwarf_formudata(&a, &w) == 0 &&
	    dwarf_diecu(die, &cu, NULL, NULL) && dwarf_getsrcfiles(&cu, &files, &nfiles) == 0 &&
	    w < nfiles)
		*file = dwarf_filesrc(files, w, NULL, NULL);
}

int a2l_function_chain(struct a2l *dl, uint64_t vaddr,
		       void (*cb)(void *arg, const char *name, const char *file,
				  unsigned line),
		       void *arg)
{
	if (!dl->has_dwarf)
		return 0;
	Dwarf_Addr bias = 0;
	Dwarf_Die *cu = unit_at(dl, vaddr + dl->bias, &bias);
	if (!cu)
		return 0;
	Dwarf_Die chain[64];
	int n = 0;
	function_walk(cu, vaddr + dl->bias - bias, chain, &n, 64, 0);
	for (int j = n - 1; j >= 0; j--) {
		const char *file = NULL;
		unsigned line = 0;
		if (j < n - 1)
			call_site(&chain[j + 1], &file, &line);
		cb(arg, function_die_name(&chain[j]), file, line);
	}
	return n;
}
