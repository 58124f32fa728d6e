/* symbol_kallsyms_thread.c - kallsyms read on the store's second thread.
 *
 * The kallsyms file is a FIFO, so the test decides when the thread gets its text: the
 * store must be reading before any lookup (the kernel's dso was made with a recorded
 * build-id), must not be for a kernel without one, must answer lookups exactly as the
 * serial load does (expected symbols worked out by hand from the text below, perf's
 * kallsyms end rules: docs/symbols.md), and must be freed cleanly (ASan/LSan) when no
 * lookup ever came. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "symbol/symbol_store.h"

static const char text[] =
	"ffffffff81001000 T _stext\n"
	"ffffffff81001040 t local_fn\n"
	"ffffffff81001100 r some_rodata\n"
	"ffffffff81001200 W weak_fn\n"
	"ffffffffc0001000 t mod_fn\t[mymod]\n";

static const uint8_t kernel_bid[20] = { 0x4a, 0x5a, 0x9b, 1, 2, 3 };

/* Gives the store's thread S through FIFO.  Called only while the thread runs: it
 * opens FIFO for reading (waiting for a writer), so this open cannot wait forever. */
static int feed(const char *fifo, const char *s)
{
	int fd = open(fifo, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t n = strlen(s);
	int ok = write(fd, s, n) == (ssize_t)n;
	close(fd);
	return ok ? 0 : -1;
}

/* A store reading FIFO on its thread, or NULL (a failed check) when no thread runs:
 * a lookup would then open the FIFO itself and wait for a writer forever. */
static struct symbol_store *store_reading(const struct symbol_options *o)
{
	struct symbol_store *st = symbol_store_new(o);
	CHECK(!symbol_store_loading(st));
	symbol_store_dso(st, "[kernel.kallsyms]", kernel_bid, sizeof(kernel_bid));
	int loading = symbol_store_loading(st);
	CHECK(loading);
	if (!loading) {
		symbol_store_free(st);
		return NULL;
	}
	return st;
}

static void check_symbols(struct symbol_store *st)
{
	struct dso *k = symbol_store_dso(st, "[kernel.kallsyms]", kernel_bid, sizeof(kernel_bid));
	const struct dso_symbol *s = dso_find_symbol(k, 0xffffffff81001010);
	CHECK(s && !strcmp(s->name, "_stext") && s->start == 0xffffffff81001000 &&
	      s->end == 0xffffffff81001040);
	/* rodata is not kept: local_fn runs to weak_fn */
	s = dso_find_symbol(k, 0xffffffff810011ff);
	CHECK(s && !strcmp(s->name, "local_fn"));
	/* the last kernel symbol before a module's: to its page end plus a page */
	s = dso_find_symbol(k, 0xffffffff81002fff);
	CHECK(s && !strcmp(s->name, "weak_fn"));
	CHECK(dso_find_symbol(k, 0xffffffff81003000) == NULL);
	CHECK(dso_find_symbol(k, 0xffffffffc0001010) == NULL);
	struct dso *m = symbol_store_dso(st, "[mymod]", NULL, 0);
	s = dso_find_symbol(m, 0xffffffffc0001010);
	CHECK(s && !strcmp(s->name, "mod_fn"));
}

int main(void)
{
	char dir[] = "/tmp/symbol_kallsyms_thread.XXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	char fifo[64], plain[64];
	snprintf(fifo, sizeof(fifo), "%s/kallsyms.fifo", dir);
	snprintf(plain, sizeof(plain), "%s/kallsyms", dir);
	if (mkfifo(fifo, 0600) != 0) {
		perror("mkfifo");
		return 1;
	}
	FILE *f = fopen(plain, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		perror(plain);
		return 1;
	}

	/* a hang is a failure too */
	alarm(60);

	/* Recorded kernel build-id: reading starts when the dso is made, before any
	 * lookup (the thread waits on the FIFO meanwhile). */
	struct symbol_options o = { .kallsyms = fifo };
	struct symbol_store *st = store_reading(&o);
	if (st) {
		CHECK(feed(fifo, text) == 0);
		check_symbols(st);
		CHECK(!symbol_store_loading(st));
		symbol_store_free(st);
	}

	/* Freed with the thread started and no lookup ever made: joined, nothing leaks. */
	st = store_reading(&o);
	if (st) {
		CHECK(feed(fifo, text) == 0);
		symbol_store_free(st);
	}

	/* An empty file read by the thread (no addresses at all: nothing is named), freed
	 * without a lookup. */
	st = store_reading(&o);
	if (st) {
		CHECK(feed(fifo, "") == 0);
		symbol_store_free(st);
	}

	/* No recorded build-id (perf writes none when no sample hit the kernel): no
	 * thread; the first lookup reads the file itself, with the same answers. */
	struct symbol_options op = { .kallsyms = plain };
	st = symbol_store_new(&op);
	symbol_store_dso(st, "[kernel.kallsyms]", NULL, 0);
	CHECK(!symbol_store_loading(st));
	struct dso *k = symbol_store_dso(st, "[kernel.kallsyms]", NULL, 0);
	const struct dso_symbol *s = dso_find_symbol(k, 0xffffffff81001010);
	CHECK(s && !strcmp(s->name, "_stext"));
	symbol_store_free(st);

	/* Thread on a regular file, same answers. */
	st = symbol_store_new(&op);
	check_symbols(st);
	symbol_store_free(st);

	/* kptr_restrict (every address 0) read by the thread: no kernel symbols. */
	st = store_reading(&o);
	if (st) {
		k = symbol_store_dso(st, "[kernel.kallsyms]", kernel_bid, sizeof(kernel_bid));
		CHECK(feed(fifo, "0000000000000000 T _stext\n0000000000000000 t local_fn\n") == 0);
		CHECK(dso_find_symbol(k, 0) == NULL && dso_loaded_from(k) == NULL);
		symbol_store_free(st);
	}

	unlink(fifo);
	unlink(plain);
	rmdir(dir);
	return failures != 0;
}
