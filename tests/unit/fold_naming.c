/* Unit tests of the fold_naming C API (the entry used by the perf.data pipeline, the
 * Valgrind tool and the tracers), with expected names worked out by hand from the
 * rules in docs/folding.md. */
#include <stdio.h>
#include <string.h>

#include "fold/fold_naming.h"

static int failures;

static void expect_frame(const char *sym, const char *dso, uint64_t addr, unsigned flags,
			 int want_ret, const char *want, int line)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = fold_name_frame(&sb, sym, dso, addr, flags);
	const char *got = sb.buf ? sb.buf : "";

	if (ret != want_ret || strcmp(got, want) != 0) {
		fprintf(stderr, "line %d: fold_name_frame(%s, %s) = %d \"%s\", want %d \"%s\"\n",
			line, sym ? sym : "NULL", dso ? dso : "NULL", ret, got, want_ret, want);
		failures++;
	}
	strbuf_release(&sb);
}

static void expect_root(const char *comm, uint32_t pid, uint32_t tid, enum fold_root_mode m,
			const char *want, int line)
{
	struct strbuf sb = STRBUF_INIT;

	fold_name_root(&sb, comm, pid, tid, m);
	if (strcmp(sb.buf ? sb.buf : "", want) != 0) {
		fprintf(stderr, "line %d: fold_name_root = \"%s\", want \"%s\"\n", line, sb.buf,
			want);
		failures++;
	}
	strbuf_release(&sb);
}

/* tephra's default naming (fold_name_frame_exact, not --compat). */
static void expect_exact(const char *sym, const char *dso, uint64_t addr, unsigned flags,
			 const char *want, int line)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = fold_name_frame_exact(&sb, sym, dso, addr, flags);
	const char *got = sb.buf ? sb.buf : "";

	if (ret != 1 || strcmp(got, want) != 0) {
		fprintf(stderr, "line %d: fold_name_frame_exact(%s, %s) = %d \"%s\", want \"%s\"\n",
			line, sym ? sym : "NULL", dso ? dso : "NULL", ret, got, want);
		failures++;
	}
	strbuf_release(&sb);
}

#define F(sym, dso, addr, flags, ret, want) expect_frame(sym, dso, addr, flags, ret, want, __LINE__)
#define E(sym, dso, addr, flags, want) expect_exact(sym, dso, addr, flags, want, __LINE__)
#define R(comm, pid, tid, mode, want) expect_root(comm, pid, tid, mode, want, __LINE__)

int main(void)
{
	/* Known symbols: as given, minus argument lists; ';' -> ':'; quotes gone. */
	F("main", "/bin/a", 0x401000, 0, 1, "main");
	F("foo(int, char)", "/bin/a", 1, 0, 1, "foo");
	F("a;b", "/bin/a", 1, 0, 1, "a:b");
	F("say\"hi'", "/bin/a", 1, 0, 1, "sayhi");
	F("(anonymous namespace)::f", "/bin/a", 1, 0, 0, "");
	F("x::(anonymous namespace)::f(int)", "/bin/a", 1, 0, 1, "x::(anonymous namespace)::f");
	F("main.(*T).Run", "/bin/go", 1, 0, 1, "main.(*T).Run");
	/* Unknown symbols (NULL or "[unknown]"): the dso's basename, or [unknown]. */
	F(NULL, "/usr/lib/libc.so.6", 0x7f00, 0, 1, "[libc.so.6]");
	F("[unknown]", NULL, 0x7f00, 0, 1, "[unknown]");
	F(NULL, "[unknown]", 0x7f00, 0, 1, "[unknown]");
	F(NULL, "/usr/lib/libc.so.6", 0x7f00, FOLD_ADDRS, 1, "[libc.so.6 <7f00>]");
	F(NULL, NULL, 0xffffffffffffffffULL, FOLD_ADDRS, 1, "[unknown <ffffffffffffffff>]");
	F("main", "/bin/a", 0x10, FOLD_ADDRS, 1, "main");
	/* Default naming: whole names, ';' -> ':' only; "->" split only in JIT maps;
	 * _[k] for frames the caller says are in the kernel, not for "[vdso]". */
	E("foo(int, char)", "/bin/a", 1, 0, "foo(int, char)");
	E("std::function<double (double)>::operator()(double) const", "/bin/a", 1, 0,
	  "std::function<double (double)>::operator()(double) const");
	E("operator\"\" _w", "/bin/a", 1, 0, "operator\"\" _w");
	E("(anonymous namespace)::f", "/bin/a", 1, 0, "(anonymous namespace)::f");
	E("a;b", "/bin/a", 1, 0, "a:b");
	E("p->q", "/bin/a", 1, 0, "p->q");
	E("a->b->c", "/tmp/perf-42.map", 1, FOLD_JIT, "a_[j];b_[i];c_[i]");
	E("f", "/tmp/x.so (deleted)", 1, 0, "f");
	E(NULL, "/tmp/x.so (deleted)", 1, 0, "[x.so (deleted)]");
	E("", "/usr/lib/libc.so.6", 0x7f00, FOLD_ADDRS, "[libc.so.6 <7f00>]");
	E(NULL, NULL, 0x10, 0, "[unknown]");
	E("schedule", "[kernel.kallsyms]", 1, FOLD_KERNEL | FOLD_KERNEL_FRAME, "schedule_[k]");
	E("schedule", "[kernel.kallsyms]", 1, FOLD_KERNEL_FRAME, "schedule");
	E("__vdso_clock_gettime", "[vdso]", 1, FOLD_KERNEL, "__vdso_clock_gettime");
	E("g", "/bin/a", 1, FOLD_INLINED, "g_[i]");
	E("Lorg/x/Y;.m(I)V", "/tmp/perf-9.map", 1, FOLD_JAVA, "org/x/Y:.m(I)V");
	/* A dso holding " (" moves perf script's split as the script sees it. */
	F(NULL, "/tmp/libx.so (deleted)", 1, 0, 1, "[unknown] ");
	F("f", "/tmp/libx.so (deleted)", 1, 0, 1, "f ");
	/* Annotations. */
	F("schedule", "[kernel.kallsyms]", 1, FOLD_KERNEL, 1, "schedule_[k]");
	F("tcp_sendmsg", "/boot/vmlinux", 1, FOLD_KERNEL, 1, "tcp_sendmsg_[k]");
	F(NULL, "[vdso]", 1, FOLD_KERNEL, 1, "[[vdso]]_[k]");
	F(NULL, "[unknown]", 1, FOLD_KERNEL, 1, "[unknown]");
	F("main", "/bin/a", 1, FOLD_KERNEL, 1, "main");
	F("Lx;.m", "/tmp/perf-42.map", 1, FOLD_JIT, 1, "Lx:.m_[j]");
	F("m_[j]", "/tmp/perf-42.map", 1, FOLD_JIT, 1, "m_[j]");
	F("Lorg/x/Y;.m(I)V", "/tmp/perf-42.map", 1, FOLD_JIT | FOLD_JAVA, 1, "org/x/Y:.m_[j]");
	F("Lfoo", "/bin/a", 1, FOLD_JAVA, 1, "Lfoo");
	F("inlined_fn", "/bin/a", 1, FOLD_INLINED | FOLD_KERNEL, 1, "inlined_fn_[i]");
	F("g_[i]", "/bin/a", 1, FOLD_INLINED, 1, "g_[i]");
	F("a->b->c", "[kernel.kallsyms]", 1, FOLD_KERNEL, 1, "a_[k];b_[i];c_[i]");
	F("->", "/bin/a", 1, 0, 0, "");
	F("", "/bin/a", 1, 0, 0, ""); /* Perl splits "" into no pieces */

	/* Roots. */
	R("V8 WorkerThread", 10, 11, FOLD_ROOT_COMM, "V8_WorkerThread");
	R("V8 WorkerThread", 10, 11, FOLD_ROOT_PID, "V8_WorkerThread-10");
	R("V8 WorkerThread", 10, 11, FOLD_ROOT_TID, "V8_WorkerThread-10/11");
	R("", 0, 0, FOLD_ROOT_TID, "-0/0");
	R("a;b\t", 1, 2, FOLD_ROOT_COMM, "a;b\t");

	/* fold_strip_offset: only a trailing "+0x<lowercase hex>". */
	struct { const char *in; size_t want; } strip[] = {
		{ "f+0x1f", 1 }, { "f+0x1F", 6 }, { "f+0x", 4 }, { "f+0x10+0x2", 6 },
		{ "+0x0", 0 }, { "0x10", 4 }, { "f+0", 3 },
	};
	for (size_t i = 0; i < sizeof(strip) / sizeof(strip[0]); i++) {
		size_t got = fold_strip_offset(strip[i].in, strlen(strip[i].in));
		if (got != strip[i].want) {
			fprintf(stderr, "fold_strip_offset(%s) = %zu, want %zu\n", strip[i].in, got,
				strip[i].want);
			failures++;
		}
	}
	if (!fold_root_is_java("java-12", 7) || fold_root_is_java("jav", 3)) {
		fprintf(stderr, "fold_root_is_java wrong\n");
		failures++;
	}
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
