/* cmd_symbolize.c - tephra symbolize: turn the hex frames of a raw folded profile
 * (tephra emu --raw, tephra trace --raw) into names with inline chains and source lines,
 * summing the stacks that become equal. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "cli_files.h"
#include "commands.h"
#include "fold/fold_table.h"
#include "trace/guest_dwarf.h"
#include "trace/guest_elf.h"

static const char usage_text[] =
	"usage: tephra symbolize --elf GUEST [-o OUT] RAW.folded\n"
	"\n"
	"Expands every hex frame (0x...) of a raw folded profile into the function it is in,\n"
	"the functions inlined there (name_[i]), and source lines: \"func (file.c:12)\".\n"
	"Callers' frames are call sites, so their line is the line of the call.  Other\n"
	"frames are kept as they are.  Stacks that become equal are summed; the output is\n"
	"sorted.  \"-\" reads standard input.\n"
	"\n"
	"  -e, --elf GUEST       the guest executable (symbols and DWARF)\n"
	"  -o, --output FILE     folded output (default: standard output)\n"
	"  -h, --help            this text\n";

/* Expansion of each distinct address: frame ids in POOL[first .. first+n). */
struct expansions {
	struct hashmap byaddr; /* key: uint64 address, value: index into spans */
	struct span {
		size_t first, n;
	} *spans;
	size_t nspans;
	uint32_t *pool;
	size_t npool, pool_cap;
};

static void pool_add(struct expansions *x, uint32_t id)
{
	if (x->npool == x->pool_cap) {
		x->pool_cap = x->pool_cap ? x->pool_cap * 2 : 1024;
		x->pool = xrealloc(x->pool, x->pool_cap * sizeof(*x->pool));
	}
	x->pool[x->npool++] = id;
}

static const struct span *expand(struct expansions *x, struct fold_table *ft,
				 struct guest_dwarf *dw, const struct guest_syms *syms, uint64_t addr)
{
	int created;
	size_t e = hashmap_intern(&x->byaddr, &addr, sizeof(addr), &created);
	if (!created)
		return &x->spans[hashmap_entry(&x->byaddr, e)->value];
	struct strbuf sb = STRBUF_INIT;
	guest_dwarf_frames(dw, syms, addr, &sb);
	x->spans = xrealloc(x->spans, (x->nspans + 1) * sizeof(*x->spans));
	struct span *s = &x->spans[x->nspans];
	s->first = x->npool;
	for (char *p = sb.buf; p && *p;) {
		char *semi = strchr(p, ';');
		size_t len = semi ? (size_t)(semi - p) : strlen(p);
		pool_add(x, fold_table_frame(ft, p, len));
		p = semi ? semi + 1 : p + len;
	}
	s->n = x->npool - s->first;
	hashmap_entry(&x->byaddr, e)->value = x->nspans++;
	strbuf_release(&sb);
	return s;
}

static int parse_hex(const char *s, size_t len, uint64_t *out)
{
	if (len < 3 || len > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return -1;
	uint64_t v = 0;
	for (size_t i = 2; i < len; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		v = v << 4 | (uint64_t)d;
	}
	*out = v;
	return 0;
}

int cmd_symbolize(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "elf", required_argument, NULL, 'e' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *elf = NULL, *output = NULL;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "e:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'e': elf = optarg; break;
		case 'o': output = optarg; break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fputs(usage_text, stderr); return 2;
		}
	}
	if (!elf) {
		fprintf(stderr, "tephra symbolize: --elf GUEST is needed: the guest's symbols\n");
		return 2;
	}
	if (cli_check_inputs("tephra symbolize", argc, argv, optind, 1, 1))
		return 2;
	const char *path = argv[optind];
	struct tephra_error err;
	struct guest_elf g;
	if (guest_elf_open(&g, elf, &err) != 0) {
		fprintf(stderr, "tephra symbolize: %s\n", err.msg);
		return 1;
	}
	if (g.sym_problem)
		fprintf(stderr, "tephra symbolize: %s: warning: %s; frames without a name are "
			"[unknown]\n", elf, g.sym_problem);
	struct guest_dwarf *dw = guest_dwarf_open(elf, &err);
	FILE *in = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!dw || !in) {
		if (!dw)
			fprintf(stderr, "tephra symbolize: %s\n", err.msg);
		else
			fprintf(stderr, "tephra symbolize: %s: cannot open: %s\n", path, strerror(errno));
		if (in && in != stdin)
			fclose(in);
		guest_dwarf_close(dw);
		guest_elf_close(&g);
		return 1;
	}
	struct fold_table *ft = fold_table_new();
	struct expansions x = { .byaddr = HASHMAP_INIT };
	uint32_t *frames = NULL;
	size_t fcap = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int64_t off = 0;
	uint64_t total = 0;
	const char *name = in == stdin ? "<stdin>" : path;
	int rc = 0;
	while ((n = getline(&line, &cap, in)) > 0) {
		size_t len = (size_t)n;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			len--;
		line[len] = 0;
		char *sp = strrchr(line, ' '), *end;
		errno = 0;
		unsigned long long w = sp ? strtoull(sp + 1, &end, 10) : 0;
		/* strtoull takes "-5" as 2^64 - 5: a count is digits only. */
		if (!sp || sp == line || errno || end == sp + 1 || *end ||
		    !(sp[1] >= '0' && sp[1] <= '9')) {
			if (len) {
				fprintf(stderr, "tephra symbolize: %s: offset 0x%" PRIx64
						": not a folded line \"stack count\"\n", name, off);
				rc = 1;
				break;
			}
			off += n;
			continue;
		}
		if (total + w < total) {
			fprintf(stderr, "tephra symbolize: %s: offset 0x%" PRIx64 ": the counts add "
					"up to more than 2^64\n", name, off);
			rc = 1;
			break;
		}
		total += w;
		size_t nf = 0;
		for (char *p = line; p < sp;) {
			char *semi = memchr(p, ';', (size_t)(sp - p));
			size_t flen = semi ? (size_t)(semi - p) : (size_t)(sp - p);
			uint64_t addr;
			size_t need = nf + 64;
			if (need > fcap) {
				fcap = need * 2;
				frames = xrealloc(frames, fcap * sizeof(*frames));
			}
			if (parse_hex(p, flen, &addr) == 0) {
				const struct span *s = expand(&x, ft, dw, &g.syms, addr);
				if (nf + s->n > fcap) {
					fcap = (nf + s->n) * 2;
					frames = xrealloc(frames, fcap * sizeof(*frames));
				}
				memcpy(frames + nf, x.pool + s->first, s->n * sizeof(*frames));
				nf += s->n;
			} else {
				frames[nf++] = fold_table_frame(ft, p, flen);
			}
			p += flen + 1;
		}
		if (nf)
			fold_table_add(ft, frames, nf, w);
		off += n;
	}
	if (rc == 0 && ferror(in)) {
		fprintf(stderr, "tephra symbolize: %s: offset 0x%" PRIx64 ": read error: %s\n", name,
			off, strerror(errno));
		rc = 1;
	}
	free(line);
	if (in != stdin)
		fclose(in);
	if (rc == 0) {
		struct out_file of;
		FILE *out = cli_out_open(&of, "tephra symbolize", output ? output : "-");
		if (!out || cli_out_close(&of, "tephra symbolize", fold_table_write(ft, out) == 0) != 0)
			rc = 1;
	}
	free(frames);
	free(x.spans);
	free(x.pool);
	hashmap_release(&x.byaddr);
	fold_table_free(ft);
	guest_dwarf_close(dw);
	guest_elf_close(&g);
	return rc;
}
