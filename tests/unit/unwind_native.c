/* unwind_native.c - the DWARF unwinder on this very process.
 *
 * f1 -> f2 -> f3 (no frame pointers: the functions are compiled with
 * omit-frame-pointer and rbp is overwritten in the captured registers) capture the
 * registers and a copy of the stack the way the kernel does for a
 * PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER sample.  The unwinder, given the maps
 * of /proc/self/maps, must find f3, f2, f1, run_case and main in that order, and reach
 * the outermost frame when the whole stack was copied.  A 64-byte dump must stop with
 * "stack cut short" and say how much more it wanted.
 *
 * Which function holds an address is answered independently of the unwinder, by
 * libdwfl's symbol table of /proc/self (dwfl_linux_proc_report). x86_64 only. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/libdwfl.h>

#include "unwind/unwinder.h"

#if defined(__x86_64__)

#define PERF_REG_X86_BP 6
#define PERF_REG_X86_SP 7
#define PERF_REG_X86_IP 8
#define NR_PERF_REGS 24
/* AX..SS and R8..R15: what perf record asks for on x86_64 */
#define X86_REGS_MASK 0xff0fffULL

struct captured {
	uint64_t regs[NR_PERF_REGS]; /* perf numbering; values for the mask's bits below */
	uint8_t *stack;
	uint64_t stack_size;
};

/* Stores the caller's registers in perf order into regs[] (rdi): its sp and ip are
 * those right after this call returns, so the "sample" is the caller at its return
 * address.  Callee-saved registers are untouched, which is what CFI describes. */
void capture_regs(uint64_t *regs);
__asm__(".text\n"
	".globl capture_regs\n"
	".type capture_regs, @function\n"
	"capture_regs:\n"
	".cfi_startproc\n"
	"  movq %rax, 0(%rdi)\n"
	"  movq %rbx, 8(%rdi)\n"
	"  movq %rcx, 16(%rdi)\n"
	"  movq %rdx, 24(%rdi)\n"
	"  movq %rsi, 32(%rdi)\n"
	"  movq %rdi, 40(%rdi)\n"
	"  movq %rbp, 48(%rdi)\n"
	"  leaq 8(%rsp), %rax\n"
	"  movq %rax, 56(%rdi)\n"
	"  movq (%rsp), %rax\n"
	"  movq %rax, 64(%rdi)\n"
	"  movq $0, 72(%rdi)\n"
	"  movq $0, 80(%rdi)\n"
	"  movq $0, 88(%rdi)\n"
	"  movq %r8, 128(%rdi)\n"
	"  movq %r9, 136(%rdi)\n"
	"  movq %r10, 144(%rdi)\n"
	"  movq %r11, 152(%rdi)\n"
	"  movq %r12, 160(%rdi)\n"
	"  movq %r13, 168(%rdi)\n"
	"  movq %r14, 176(%rdi)\n"
	"  movq %r15, 184(%rdi)\n"
	"  ret\n"
	".cfi_endproc\n"
	".size capture_regs, .-capture_regs\n");

static uint64_t stack_top;

/* Copies the live stack byte by byte: ASan must not see this as an overflow of some
 * frame's locals, it is what the kernel's dump does. */
__attribute__((no_sanitize_address, noinline)) static void copy_stack(uint8_t *dst,
								  uint64_t from,
								  uint64_t n)
{
	volatile const uint8_t *src = (const uint8_t *)(uintptr_t)from;

	for (uint64_t i = 0; i < n; i++)
		dst[i] = src[i];
}

#define NOFP __attribute__((noinline, optimize("omit-frame-pointer")))

static NOFP int f3(struct captured *c, uint64_t dump)
{
	uint64_t avail;

	capture_regs(c->regs);
	avail = stack_top - c->regs[PERF_REG_X86_SP];
	c->stack_size = dump < avail ? dump : avail;
	c->stack = malloc(c->stack_size);
	copy_stack(c->stack, c->regs[PERF_REG_X86_SP], c->stack_size);
	__asm__ volatile("" ::: "memory");
	return 3;
}

static NOFP int f2(struct captured *c, uint64_t dump)
{
	int r = f3(c, dump);

	__asm__ volatile("" ::: "memory");
	return r + 2;
}

static NOFP int f1(struct captured *c, uint64_t dump)
{
	int r = f2(c, dump);

	__asm__ volatile("" ::: "memory");
	return r + 1;
}

/* ---- the process's maps, as a machine model would give them ---- */

struct self_map {
	uint64_t start, end, pgoff;
	char path[512];
};

struct self_maps {
	struct self_map m[512];
	size_t n;
};

static void read_self_maps(struct self_maps *sm)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024];

	sm->n = 0;
	if (!f) {
		perror("/proc/self/maps");
		exit(1);
	}
	while (fgets(line, sizeof(line), f) && sm->n < 512) {
		struct self_map *m = &sm->m[sm->n];
		char perms[8];
		int name_at = 0;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*s %n", &m->start,
			   &m->end, perms, &m->pgoff, &name_at) < 4)
			continue;
		snprintf(m->path, sizeof(m->path), "%s", line + name_at);
		m->path[strcspn(m->path, "\n")] = 0;
		if (!strcmp(m->path, "[stack]"))
			stack_top = m->end;
		if (m->path[0] != '/')
			continue; /* like perf's MMAP records: only file mappings matter here */
		sm->n++;
	}
	fclose(f);
}

static int find_map(void *arg, uint64_t addr, struct unwind_map *out)
{
	struct self_maps *sm = arg;

	for (size_t i = 0; i < sm->n; i++) {
		if (addr >= sm->m[i].start && addr < sm->m[i].end) {
			out->path = sm->m[i].path;
			out->start = sm->m[i].start;
			out->end = sm->m[i].end;
			out->pgoff = sm->m[i].pgoff;
			out->build_id = NULL;
			out->build_id_size = 0;
			return 1;
		}
	}
	return 0;
}

/* ---- the independent oracle: which function is at an address ---- */

static Dwfl *oracle;

static const char *function_at(uint64_t addr)
{
	Dwfl_Module *mod = dwfl_addrmodule(oracle, addr);
	const char *name = mod ? dwfl_module_addrname(mod, addr) : NULL;

	return name ? name : "?";
}

static void oracle_open(void)
{
	static char *debuginfo_path;
	static const Dwfl_Callbacks cbs = {
		.find_elf = dwfl_linux_proc_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.debuginfo_path = &debuginfo_path,
	};

	oracle = dwfl_begin(&cbs);
	if (!oracle || dwfl_linux_proc_report(oracle, getpid()) != 0 ||
	    dwfl_report_end(oracle, NULL, NULL) != 0) {
		fprintf(stderr, "oracle: %s\n", dwfl_errmsg(-1));
		exit(1);
	}
}

static int failures;

#define CHECK(cond, ...)                                                                     \
	do {                                                                                 \
		if (!(cond)) {                                                               \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                 \
			fprintf(stderr, __VA_ARGS__);                                        \
			fputc('\n', stderr);                                                 \
			failures++;                                                          \
		}                                                                            \
	} while (0)

static void print_frames(const struct unwind_result *res)
{
	for (size_t i = 0; i < res->nr_frames; i++)
		fprintf(stderr, "  #%zu %#" PRIx64 "%s %s\n", i, res->frames[i].pc,
			res->frames[i].is_activation ? "" : " (ret)",
			function_at(unwind_frame_lookup_pc(&res->frames[i])));
	fprintf(stderr, "  status: %s (addr %#" PRIx64 ", needed %" PRIu64 ", %s%s)\n",
		unwind_status_name(res->status), res->addr, res->stack_needed, res->object,
		res->detail);
}

/* DUMP: the stack size asked for; COPIED: how much of it the "kernel" copied (dyn_size). */
static NOFP void run_case(struct unwinder *u, uint64_t dump, uint64_t copied,
			  struct unwind_result *res)
{
	struct captured c;
	uint64_t regs[__builtin_popcountll(X86_REGS_MASK)];
	struct unwind_sample_regs s;
	size_t n = 0;

	memset(&c, 0, sizeof(c));
	f1(&c, dump);
	__asm__ volatile("" ::: "memory");
	/* Frame pointers must not help: a garbage rbp. */
	c.regs[PERF_REG_X86_BP] = 0x5a5a5a5a5a5a5a5aULL;
	for (unsigned bit = 0; bit < NR_PERF_REGS; bit++)
		if (X86_REGS_MASK & (1ULL << bit))
			regs[n++] = c.regs[bit];
	s = (struct unwind_sample_regs){
		.tid = (uint32_t)getpid(),
		.abi = 2,
		.regs_mask = X86_REGS_MASK,
		.regs = regs,
		.stack = c.stack,
		.stack_size = c.stack_size,
		.stack_dyn_size = copied < c.stack_size ? copied : c.stack_size,
	};
	unwinder_walk(u, &s, res);
	free(c.stack);
}

__attribute__((optimize("omit-frame-pointer"))) int main(void)
{
	struct self_maps *sm = calloc(1, sizeof(*sm));
	uint64_t complete_used = 0;
	size_t complete_frames = 0;
	struct unwinder_options opts = {
		.arch = UNWIND_ARCH_X86_64,
		.find_map = find_map,
		.find_map_arg = sm,
	};
	struct tephra_error err = { { 0 } };
	struct unwind_frame frames[64];
	struct unwind_result res = { .frames = frames, .max_frames = 64 };
	static const char *const expect[] = { "f3", "f2", "f1", "run_case", "main" };
	struct unwinder *u;

	read_self_maps(sm);
	CHECK(stack_top != 0, "no [stack] in /proc/self/maps");
	oracle_open();
	u = unwinder_new(&opts, &err);
	if (!u) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}

	/* (a) the whole stack: f3 f2 f1 run_case main ... to the outermost frame */
	run_case(u, 1 << 20, 1 << 20, &res);
	print_frames(&res);
	CHECK(res.nr_frames >= 5, "only %zu frames", res.nr_frames);
	for (size_t i = 0; i < 5 && i < res.nr_frames; i++) {
		const char *fn = function_at(unwind_frame_lookup_pc(&frames[i]));

		/* gcc may name a clone "f3.constprop.0" / "f3.isra.0" */
		CHECK(!strncmp(fn, expect[i], strlen(expect[i])) &&
			      (fn[strlen(expect[i])] == 0 || fn[strlen(expect[i])] == '.'),
		      "frame %zu is %s, expected %s", i, fn, expect[i]);
		CHECK(frames[i].is_activation == (i == 0), "frame %zu activation flag %d", i,
		      frames[i].is_activation);
	}
	CHECK(res.status == UNWIND_COMPLETE, "status %s", unwind_status_name(res.status));
	/* the highest word the walk read: the outermost frame's return address */
	complete_used = res.stack_used;
	complete_frames = res.nr_frames;
	CHECK(complete_used >= 16 && complete_used % 8 == 0, "stack_used %" PRIu64, complete_used);

	/* The same again: the modules are known now, the answer must not change. */
	{
		struct unwind_frame again_frames[64];
		struct unwind_result again = { .frames = again_frames, .max_frames = 64 };
		uint64_t reported = unwinder_stats(u)->nr_modules_reported;

		run_case(u, 1 << 20, 1 << 20, &again);
		CHECK(again.nr_frames == res.nr_frames && again.status == res.status,
		      "second walk: %zu frames (%s)", again.nr_frames,
		      unwind_status_name(again.status));
		CHECK(unwinder_stats(u)->nr_modules_reported == reported,
		      "modules were reported again");
	}

	/* The fast path (cached CFI rows) and libdwfl's unwinder agree, full and cut. */
	{
		struct unwinder_options slow_opts = opts;
		struct unwinder *slow;
		struct unwind_frame fast_frames[64], slow_frames[64];
		struct unwind_result fast = { .frames = fast_frames, .max_frames = 64 };
		struct unwind_result sr = { .frames = slow_frames, .max_frames = 64 };

		slow_opts.libdwfl_only = 1;
		slow = unwinder_new(&slow_opts, &err);
		CHECK(slow != NULL, "libdwfl-only unwinder");
		for (int dump = 0; slow && dump < 2; dump++) {
			uint64_t before = unwinder_stats(u)->nr_fast_walks;

			run_case(u, dump ? 64 : 1 << 20, 1 << 20, &fast);
			run_case(slow, dump ? 64 : 1 << 20, 1 << 20, &sr);
			CHECK(fast.nr_frames == sr.nr_frames && fast.status == sr.status &&
				      fast.stack_needed == sr.stack_needed &&
				      fast.stack_used == sr.stack_used,
			      "dump %d: fast %zu frames %s, libdwfl %zu frames %s", dump,
			      fast.nr_frames, unwind_status_name(fast.status), sr.nr_frames,
			      unwind_status_name(sr.status));
			for (size_t i = 0; i < fast.nr_frames && i < sr.nr_frames; i++)
				/* same code, same call depth: the same pcs in both walks, but
				 * for frame 4, main's two call sites of run_case */
				CHECK((i == 4 || fast_frames[i].pc == slow_frames[i].pc) &&
					      fast_frames[i].is_activation == slow_frames[i].is_activation,
				      "dump %d frame %zu differs", dump, i);
			CHECK(unwinder_stats(u)->nr_fast_walks == before + 1,
			      "dump %d: the fast path did not do the walk", dump);
		}
		unwinder_free(slow);
	}

	/* (b) a 64-byte dump: f3's frame fits, the rest does not */
	run_case(u, 64, 64, &res);
	print_frames(&res);
	CHECK(res.status == UNWIND_STACK_CUT, "status %s, expected stack cut short",
	      unwind_status_name(res.status));
	CHECK(res.stack_needed > 64, "stack_needed %" PRIu64, res.stack_needed);
	CHECK(res.nr_frames >= 1 && !strncmp(function_at(frames[0].pc), "f3", 2),
	      "partial stack lost its first frame");
	CHECK(res.stack_used <= 64, "read %" PRIu64 " bytes of a 64-byte dump", res.stack_used);

	/* (b2) the whole stack asked for, 64 bytes copied (the kernel's copy met a page it
	 * could not read): the walk stops at the same place, but a larger dump would not
	 * have helped, so it is not "stack cut short" */
	run_case(u, 1 << 20, 64, &res);
	CHECK(res.status == UNWIND_STACK_PARTIAL, "status %s, expected stack partly copied",
	      unwind_status_name(res.status));
	CHECK(res.stack_needed > 64 && res.stack_used <= 64, "stack_needed %" PRIu64
	      ", stack_used %" PRIu64, res.stack_needed, res.stack_used);
	CHECK(res.nr_frames >= 1 && !strncmp(function_at(frames[0].pc), "f3", 2),
	      "partly copied stack lost its first frame");

	/* (b3) a copy ending just after the outermost return address the walk of (a) read:
	 * the walk is whole and says it read the copy's last word (perf never reads it);
	 * ending just before it, the walk stops one frame short, partly copied */
	run_case(u, 1 << 20, complete_used, &res);
	CHECK(res.status == UNWIND_COMPLETE && res.nr_frames == complete_frames &&
		      res.stack_used == complete_used,
	      "copy of %" PRIu64 " bytes: %s, %zu frames, read %" PRIu64, complete_used,
	      unwind_status_name(res.status), res.nr_frames, res.stack_used);
	run_case(u, 1 << 20, complete_used - 8, &res);
	CHECK(res.status == UNWIND_STACK_PARTIAL && res.nr_frames == complete_frames - 1 &&
		      res.stack_needed == complete_used,
	      "copy of %" PRIu64 " bytes: %s, %zu frames, needed %" PRIu64, complete_used - 8,
	      unwind_status_name(res.status), res.nr_frames, res.stack_needed);

	/* (e) the maps change under the unwinder, as after an exec: first the test binary's
	 * mappings are said to be another file (/bin/true), then the truth again.  The
	 * unwinder must notice both times and end with the right frames. */
	{
		struct self_maps *saved = malloc(sizeof(*saved));
		char self[512];
		uint64_t rebuilds = unwinder_stats(u)->nr_dwfl_rebuilds;
		ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);

		CHECK(saved && len > 0, "readlink /proc/self/exe");
		if (saved && len > 0) {
			self[len] = 0;
			*saved = *sm;
			for (size_t i = 0; i < sm->n; i++)
				if (!strcmp(sm->m[i].path, self))
					snprintf(sm->m[i].path, sizeof(sm->m[i].path), "/bin/true");
			run_case(u, 1 << 20, 1 << 20, &res);
			*sm = *saved;
			run_case(u, 1 << 20, 1 << 20, &res);
			CHECK(unwinder_stats(u)->nr_dwfl_rebuilds >= rebuilds + 2,
			      "maps changed twice, sessions rebuilt %lu times",
			      (unsigned long)(unwinder_stats(u)->nr_dwfl_rebuilds - rebuilds));
			CHECK(res.nr_frames >= 5 && res.status == UNWIND_COMPLETE &&
				      !strncmp(function_at(frames[1].pc - 1), "f2", 2) &&
				      !strncmp(function_at(frames[4].pc - 1), "main", 4),
			      "after the maps came back: %zu frames, %s", res.nr_frames,
			      unwind_status_name(res.status));
		}
		free(saved);
	}

	/* (c) a frame buffer of 2 */
	res.max_frames = 2;
	run_case(u, 1 << 20, 1 << 20, &res);
	CHECK(res.status == UNWIND_MAX_FRAMES && res.nr_frames == 2, "max frames: %s, %zu",
	      unwind_status_name(res.status), res.nr_frames);

	/* (d) no sp/ip in the mask */
	{
		uint64_t regs[1] = { 0 };
		struct unwind_sample_regs s = { .abi = 2, .regs_mask = 1, .regs = regs };

		res.max_frames = 64;
		unwinder_walk(u, &s, &res);
		CHECK(res.status == UNWIND_NO_REGS && res.nr_frames == 0, "no regs: %s",
		      unwind_status_name(res.status));
	}

	unwinder_free(u);
	dwfl_end(oracle);
	free(sm);
	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	return failures ? 1 : 0;
}

#else
int main(void)
{
	printf("unwind_native: x86_64 only, nothing to check here\n");
	return 0;
}
#endif
