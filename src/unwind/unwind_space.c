#include "unwind/unwind_space.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "symbol/debug_paths.h"
#include "symbol/named_file.h"
#include "symbol/vdso_image.h"

void unwind_space_init(struct unwind_space *sp, const struct unwinder_options *opts)
{
	memset(sp, 0, sizeof(*sp));
	sp->opts = opts;
	debug_paths_init(&sp->paths, opts->root_dir, NULL, opts->buildid_dir);
	sp->paths.root_flat = opts->root_dir && opts->root_flat;
}

void unwind_space_release(struct unwind_space *sp)
{
	unwind_space_clear(sp);
	debug_paths_release(&sp->paths);
}

void unwind_space_clear(struct unwind_space *sp)
{
	for (size_t i = 0; i < sp->nr_modules; i++) {
		free(sp->modules[i]->path);
		free(sp->modules[i]->file);
		free(sp->modules[i]);
	}
	free(sp->modules);
	free(sp->maps);
	sp->modules = NULL;
	sp->maps = NULL;
	sp->nr_modules = sp->cap_modules = 0;
	sp->nr_maps = sp->cap_maps = 0;
	sp->last_hit = 0;
}

static struct unwind_known_map *known_map_at(struct unwind_space *sp, uint64_t addr)
{
	if (sp->last_hit < sp->nr_maps) {
		struct unwind_known_map *m = &sp->maps[sp->last_hit];

		if (addr >= m->start && addr < m->end)
			return m;
	}
	for (size_t i = 0; i < sp->nr_maps; i++) {
		if (addr >= sp->maps[i].start && addr < sp->maps[i].end) {
			sp->last_hit = i;
			return &sp->maps[i];
		}
	}
	return NULL;
}

enum unwind_space_lookup unwind_space_lookup(struct unwind_space *sp, uint64_t addr,
					     struct unwind_known_map **out,
					     struct unwind_map *new_map)
{
	struct unwind_map m = { 0 };
	struct unwind_known_map *k = known_map_at(sp, addr);

	if (k && k->checked_walk == sp->walk) {
		*out = k;
		return SPACE_KNOWN;
	}
	if (!sp->opts->find_map(sp->opts->find_map_arg, addr, &m) || !m.path || m.end <= m.start)
		return SPACE_UNMAPPED;
	if (k) {
		if (k->start == m.start && k->end == m.end && k->pgoff == m.pgoff &&
		    !strcmp(k->module->path, m.path)) {
			k->checked_walk = sp->walk;
			*out = k;
			return SPACE_KNOWN;
		}
		return SPACE_CONTRADICTED;
	}
	/* A new mapping that overlaps a known one means the process's maps changed. */
	for (size_t i = 0; i < sp->nr_maps; i++)
		if (sp->maps[i].start < m.end && m.start < sp->maps[i].end)
			return SPACE_CONTRADICTED;
	*new_map = m;
	sp->new_map_addr = addr;
	return SPACE_NEW;
}

/* An opened candidate file: its ELF handle and what we learnt from it. */
struct candidate {
	int fd;
	Elf *elf;
};

static void candidate_close(struct candidate *c)
{
	if (c->elf)
		elf_end(c->elf);
	if (c->fd >= 0)
		close(c->fd);
	c->elf = NULL;
	c->fd = -1;
}

/* Opens FILE as an ELF file whose build-id (when both sides have one) is BUILD_ID.
 * Returns 0, or -1 with *WHY. */
static int candidate_open(struct candidate *c, const char *file, const struct unwind_map *map,
			  const char **why)
{
	const void *id;
	ssize_t id_len;

	c->fd = named_file_open(file, 0, why);   /* never a FIFO or a device */
	if (c->fd < 0) {
		if (!named_file_refused(*why))
			*why = "cannot open the file";
		return -1;
	}
	c->elf = elf_begin(c->fd, ELF_C_READ_MMAP, NULL);
	if (!c->elf || elf_kind(c->elf) != ELF_K_ELF) {
		*why = "not an ELF file";
		candidate_close(c);
		return -1;
	}
	if (map->build_id && map->build_id_size > 0) {
		id_len = dwelf_elf_gnu_build_id(c->elf, &id);
		if (id_len > 0 && ((size_t)id_len != map->build_id_size ||
				   memcmp(id, map->build_id, map->build_id_size))) {
			*why = "build-id differs from the recorded one";
			candidate_close(c);
			return -1;
		}
	}
	return 0;
}

/* Whether PH's first page is file offset PGOFF (EXACT), or PH's bytes reach into the
 * page at PGOFF. */
static int segment_at_pgoff(const GElf_Phdr *ph, uint64_t pgoff, int exact)
{
	uint64_t align = ph->p_align > 1 ? ph->p_align : 1;
	uint64_t first_page = ph->p_offset & ~(align - 1);

	if (exact)
		return first_page == pgoff;
	return first_page <= pgoff && pgoff < ph->p_offset + ph->p_filesz;
}

/* The load bias of MAP's file: the process address of ELF virtual address 0, i.e.
 * start - (p_vaddr - p_offset + pgoff) for the PT_LOAD segment mapped there.  Which
 * segment that is takes care: linkers that do not page-align segments' file offsets
 * (lld, as rustc and -fuse-ld=lld use it) make segments share pages, and a small
 * program's read-only, text and data segments can all start in file page 0, each
 * mapped from there at its own address.  So, in order:
 *   - the segment whose bytes hold ADDR's file offset (ADDR is the address that made
 *     us learn the mapping: a pc or a word read there);
 *   - a segment whose first page is pgoff (the kernel maps each one from there);
 *   - a segment reaching into the page at pgoff (a mapping split inside a segment). */
static uint64_t map_bias(Elf *elf, const struct unwind_map *map, uint64_t addr)
{
	size_t phnum = 0;
	uint64_t file_off = addr - map->start + map->pgoff;

	if (elf_getphdrnum(elf, &phnum) != 0)
		return map->start - map->pgoff;
	for (int pass = 0; pass < 3; pass++) {
		for (size_t i = 0; i < phnum; i++) {
			GElf_Phdr mem, *ph = gelf_getphdr(elf, (int)i, &mem);
			int match;

			if (!ph || ph->p_type != PT_LOAD)
				continue;
			if (pass == 0)
				match = addr >= map->start && addr < map->end &&
					file_off >= ph->p_offset &&
					file_off - ph->p_offset < ph->p_filesz &&
					segment_at_pgoff(ph, map->pgoff, 0);
			else
				match = segment_at_pgoff(ph, map->pgoff, pass == 1);
			if (match)
				return map->start - (ph->p_vaddr - ph->p_offset + map->pgoff);
		}
	}
	return map->start - map->pgoff;
}

/* Whether ELF is an ET_EXEC file.  libdwfl reports such a file at its link-time
 * addresses whatever load bias it is given (an executable cannot move), so all the
 * maps of one are one module, at bias 0. */
static int is_exec_file(Elf *elf)
{
	GElf_Ehdr mem, *eh = gelf_getehdr(elf, &mem);

	return eh && eh->e_type == ET_EXEC;
}

/* dwfl_report_end's callback for each module libdwfl is about to drop.  libdwfl takes
 * a module reported again under the same name and addresses from another file (or
 * another open of it) for a conflict: it rejects the new one and drops the one it had,
 * ending its Elf, which our modules still point at (a fuzzed recording met it: SEGV
 * reading the unmapped image).  module_for() keeps such reports from happening; should
 * one happen anyway, the module we hold is reported again, which libdwfl documents as
 * keeping it. */
static int keep_our_module(Dwfl_Module *mod, void *userdata, const char *name,
			   Dwarf_Addr base, void *arg)
{
	struct unwind_space *sp = arg;
	Dwarf_Addr start, end;

	(void)userdata;
	(void)base;
	for (size_t i = 0; i < sp->nr_modules; i++) {
		if (sp->modules[i]->mod != mod)
			continue;
		if (dwfl_module_info(mod, NULL, &start, &end, NULL, NULL, NULL, NULL))
			dwfl_report_module(sp->dwfl, name, start, end);
		break;
	}
	return DWARF_CB_OK;
}

static struct unwind_module *module_for(struct unwind_space *sp, const char *path,
					const char *file, uint64_t bias)
{
	for (size_t i = 0; i < sp->nr_modules; i++) {
		struct unwind_module *m = sp->modules[i];

		if (m->bias == bias && !strcmp(m->path, path) &&
		    ((!m->file && !file) || (m->file && file && !strcmp(m->file, file))))
			return m;
	}
	return NULL;
}

static struct unwind_module *module_add(struct unwind_space *sp, const char *path,
					const char *file, uint64_t bias)
{
	struct unwind_module *m = xcalloc(1, sizeof(*m));

	m->path = xstrdup(path);
	m->file = file ? xstrdup(file) : NULL;
	m->bias = bias;
	if (sp->nr_modules == sp->cap_modules) {
		sp->cap_modules = sp->cap_modules ? 2 * sp->cap_modules : 16;
		sp->modules = xrealloc(sp->modules, sp->cap_modules * sizeof(*sp->modules));
	}
	sp->modules[sp->nr_modules++] = m;
	return m;
}

void unwind_space_learn(struct unwind_space *sp, const struct unwind_map *map)
{
	struct candidate c = { -1, NULL };
	struct strbuf file = STRBUF_INIT;
	struct debug_paths_list files = { 0 };
	/* The cached copy's NAME stays "elf" even for [vdso], which perf caches as
	 * "vdso": the unwinder then takes the running kernel's vdso (below), as it
	 * always has. */
	struct debug_paths_object obj = {
		.path = map->path, .build_id = map->build_id,
		.build_id_size = map->build_id ? map->build_id_size : 0,
		.proc_root = map->proc_root,
	};
	const char *why = "no file";
	struct unwind_module *m;
	uint64_t bias = 0;
	int found = 0, own_vdso = -1;
	/* The kernel maps whole pages (4 KB at least): a map that starts, or maps its file
	 * from, inside a page was not recorded from a process, and libdw's CFI lookup read
	 * wild pointers in a module placed by one (found by fuzz_perf_pipeline). */
	int aligned = !((map->start | map->pgoff) & 0xfff);

	if (!aligned)
		why = "the map does not start on a page";
	/* perf's build-id cache holds the very file that was recorded, then the file */
	debug_paths_list(&sp->paths, DEBUG_PATHS_UNWIND, &obj, &files);
	for (size_t i = 0; i < files.nr && !found && aligned; i++) {
		strbuf_reset(&file);
		strbuf_addstr(&file, files.paths[i]);
		found = candidate_open(&c, file.buf, map, &why) == 0;
	}
	debug_paths_list_release(&files);
	/* No saved copy of [vdso] (recorded with -N, or the cache is gone): this process's
	 * own vdso, which is the recorded one when the recording was made under the running
	 * kernel (a recorded build-id that differs refuses it).  Without its .eh_frame
	 * libdwfl falls back to frame pointers there and skips the vdso's callers. */
	if (!found && aligned && !strcmp(map->path, "[vdso]")) {
		own_vdso = vdso_image_memfd();
		if (own_vdso >= 0) {
			strbuf_reset(&file);
			strbuf_addf(&file, "/proc/self/fd/%d", own_vdso);
			found = candidate_open(&c, file.buf, map, &why) == 0;
		}
	}
	if (found && is_exec_file(c.elf))
		bias = 0;
	else if (found)
		bias = map_bias(c.elf, map, sp->new_map_addr);
	else
		bias = map->start - map->pgoff;

	m = module_for(sp, map->path, found ? file.buf : NULL, bias);
	if (!m) {
		m = module_add(sp, map->path, found ? file.buf : NULL, bias);
		if (found) {
			dwfl_report_begin_add(sp->dwfl);
			/* add_p_vaddr: the module starts at bias + the first segment's vaddr. */
			/* the checked descriptor, not the path again: libdwfl owns the copy
			 * once the module is made */
			int fd = dup(c.fd);
			m->mod = fd < 0 ? NULL : dwfl_report_elf(sp->dwfl, map->path, file.buf,
								 fd, bias, true);
			dwfl_report_end(sp->dwfl, keep_our_module, sp);
			if (!m->mod && fd >= 0)
				close(fd);
			if (!m->mod)
				m->why = "libdwfl rejected the file";
			else
				sp->nr_reported++;
		} else {
			m->why = why;
		}
	}
	candidate_close(&c);
	/* libdwfl opened the copy itself: the memory file lives as long as it does */
	if (own_vdso >= 0)
		close(own_vdso);
	strbuf_release(&file);

	if (sp->nr_maps == sp->cap_maps) {
		sp->cap_maps = sp->cap_maps ? 2 * sp->cap_maps : 32;
		sp->maps = xrealloc(sp->maps, sp->cap_maps * sizeof(*sp->maps));
	}
	sp->maps[sp->nr_maps++] = (struct unwind_known_map){
		.start = map->start, .end = map->end, .pgoff = map->pgoff, .module = m,
	};
}

int unwind_space_read_file_word(struct unwind_space *sp, struct unwind_known_map *km,
				uint64_t addr, uint64_t *value)
{
	struct unwind_module *m = km->module;
	Dwarf_Addr bias;
	Elf *elf;
	size_t phnum = 0;
	uint64_t vaddr;

	(void)sp;
	if (!m->mod)
		return 0;
	elf = dwfl_module_getelf(m->mod, &bias);
	if (!elf)
		return 0;
	if (!m->image_tried) {
		m->image_tried = 1;
		m->image = (const uint8_t *)elf_rawfile(elf, &m->image_size);
	}
	if (!m->image || elf_getphdrnum(elf, &phnum) != 0)
		return 0;
	vaddr = addr - bias;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr mem, *ph = gelf_getphdr(elf, (int)i, &mem);
		uint64_t off;

		/* Writable segments hold run-time data the file does not know. */
		if (!ph || ph->p_type != PT_LOAD || (ph->p_flags & PF_W))
			continue;
		if (vaddr < ph->p_vaddr || ph->p_filesz < sizeof(*value) ||
		    vaddr - ph->p_vaddr > ph->p_filesz - sizeof(*value))
			continue;
		off = ph->p_offset + (vaddr - ph->p_vaddr);
		if (off > m->image_size || m->image_size - off < sizeof(*value))
			return 0;
		memcpy(value, m->image + off, sizeof(*value));
		return 1;
	}
	return 0;
}
