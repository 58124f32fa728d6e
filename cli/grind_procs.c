/* grind_procs.c - the per-process files of `tephra grind` merged (grind_procs.h). */
#include "grind_procs.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "fold/fold_naming.h"

#define HEADER_PREFIX "# tephragrind "

/* "# tephragrind pid=P ppid=Q underflows=U seeded=S started=0|1 skips=[01]* comm=NAME"
 * (tg_process.c). */
static int parse_header(const char *line, struct grind_image *im)
{
	int ppid, skips_at = -1, comm_at = -1;
	unsigned long long u, s;
	if (sscanf(line, HEADER_PREFIX "pid=%d ppid=%d underflows=%llu seeded=%llu started=%d "
		   "skips=%n", &im->pid, &ppid, &u, &s, &im->started, &skips_at) != 5 ||
	    skips_at < 0)
		return -1;
	size_t n = strspn(line + skips_at, "01");
	if (strncmp(line + skips_at + n, " comm=", 6))
		return -1;
	comm_at = skips_at + (int)n + 6;
	snprintf(im->skips, sizeof(im->skips), "%.*s", (int)n, line + skips_at);
	im->underflows = u;
	im->seeded = s;
	snprintf(im->comm, sizeof(im->comm), "%.*s", (int)strcspn(line + comm_at, "\n"),
		 line + comm_at);
	return 0;
}

/* A folded line "stack COUNT" into T. */
static int add_folded_line(struct fold_table *t, const char *line, size_t len)
{
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	if (!len)
		return 0;
	const char *sp = memrchr(line, ' ', len);
	if (!sp || sp + 1 == line + len)
		return -1;
	uint64_t w = 0;
	for (const char *c = sp + 1; c < line + len; c++) {
		if (*c < '0' || *c > '9' || w > (UINT64_MAX - 9) / 10)
			return -1;
		w = w * 10 + (uint64_t)(*c - '0');
	}
	fold_table_add_text(t, line, (size_t)(sp - line), w);
	return 0;
}

static int read_image(const char *path, struct grind_image *im, struct tephra_error *err)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		tephra_error_set(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	int rc = 0;
	im->stacks = fold_table_new();
	while ((len = getline(&line, &cap, f)) >= 0) {
		if (lineno++ == 0) {
			if (parse_header(line, im) != 0) {
				tephra_error_set(err, "%s: not a file of the tephragrind tool", path);
				rc = -1;
				break;
			}
		} else if (line[len - 1] != '\n' ||
			   add_folded_line(im->stacks, line, (size_t)len) != 0) {
			tephra_error_set(err, "%s: line %zu: not a folded line", path, lineno);
			rc = -1;
			break;
		}
	}
	if (rc == 0 && lineno == 0)
		rc = 1; /* its process is still running */
	free(line);
	fclose(f);
	return rc;
}

static int read_note(const char *dir, const char *name, struct grind_procs *p)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "r");
	char prog[1024] = "";
	if (f) {
		if (!fgets(prog, sizeof(prog), f))
			prog[0] = 0;
		fclose(f);
	}
	prog[strcspn(prog, "\n")] = 0;
	p->untraced = xrealloc(p->untraced, (p->nuntraced + 1) * sizeof(*p->untraced));
	p->untraced[p->nuntraced].pid = atoi(name + 5);
	p->untraced[p->nuntraced].path = xstrdup(prog[0] ? prog : "?");
	p->nuntraced++;
	return 0;
}

static int by_pid(const void *a, const void *b)
{
	const struct grind_untraced *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

int grind_procs_read(const char *dir, struct grind_procs *p, struct tephra_error *err)
{
	memset(p, 0, sizeof(*p));
	DIR *d = opendir(dir);
	if (!d) {
		tephra_error_set(err, "%s: %s", dir, strerror(errno));
		return -1;
	}
	struct dirent *e;
	struct tephra_error err_keep = { { 0 } };
	int rc = 0;
	while (rc == 0 && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (!strncmp(e->d_name, "exec.", 5)) {
			rc = read_note(dir, e->d_name, p);
		} else if (n > 7 && !strcmp(e->d_name + n - 7, ".folded")) {
			char path[4096];
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			p->images = xrealloc(p->images, (p->nimages + 1) * sizeof(*p->images));
			struct grind_image *im = &p->images[p->nimages];
			memset(im, 0, sizeof(*im));
			int r = read_image(path, im, &p->incomplete);
			if (r == 0) {
				p->nimages++;
			} else if (r > 0) {
				fold_table_free(im->stacks);
				p->nrunning++;
			} else {
				fold_table_free(im->stacks);
				if (p->nincomplete++ == 0)
					err_keep = p->incomplete;
			}
		}
	}
	closedir(d);
	p->incomplete = err_keep;
	if (p->nuntraced)
		qsort(p->untraced, p->nuntraced, sizeof(*p->untraced), by_pid);
	return rc;
}

void grind_procs_release(struct grind_procs *p)
{
	for (size_t i = 0; i < p->nimages; i++)
		fold_table_free(p->images[i].stacks);
	free(p->images);
	for (size_t i = 0; i < p->nuntraced; i++)
		free(p->untraced[i].path);
	free(p->untraced);
	memset(p, 0, sizeof(*p));
}

struct merge_ctx {
	struct fold_table *out;
	struct strbuf *root;   /* "ROOT;" */
	struct strbuf line;
};

static int merge_line(void *arg, const char *stack, size_t len, uint64_t weight)
{
	struct merge_ctx *m = arg;
	strbuf_reset(&m->line);
	strbuf_add(&m->line, m->root->buf, m->root->len);
	strbuf_add(&m->line, stack, len);
	fold_table_add_text(m->out, m->line.buf, m->line.len, weight);
	return 0;
}

struct fold_table *grind_procs_merge(const struct grind_procs *p, int pid, int with_pid)
{
	struct strbuf root = { 0 };
	struct merge_ctx m = { .out = fold_table_new(), .root = &root };
	for (size_t i = 0; i < p->nimages; i++) {
		const struct grind_image *im = &p->images[i];
		if (pid >= 0 && im->pid != pid)
			continue;
		strbuf_reset(&root);
		fold_name_root(&root, im->comm, (uint32_t)im->pid, (uint32_t)im->pid,
			       with_pid ? FOLD_ROOT_PID : FOLD_ROOT_COMM);
		strbuf_addch(&root, ';');
		fold_table_each_line(im->stacks, merge_line, &m);
	}
	strbuf_release(&root);
	strbuf_release(&m.line);
	return m.out;
}

void grind_procs_remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (d) {
		struct dirent *e;
		char path[4096];
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
		closedir(d);
	}
	rmdir(dir);
}
