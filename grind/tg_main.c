/* tg_main.c - tephragrind: registration with the Valgrind core, options, thread and
 * signal tracking, and the end of the run.  See docs/grind.md. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vkiscnums.h"

#include "tg_funcs.h"
#include "tg_tool.h"

struct tg_state tg;

static void *host_alloc(void *ctx, size_t size)
{
	(void)ctx;
	return VG_(calloc)("tg.callstack", 1, size ? size : 1);
}

static void host_free(void *ctx, void *p, size_t size)
{
	(void)ctx, (void)size;
	VG_(free)(p);
}

struct callstack *tg_new_callstack(void)
{
	return cs_new(&tg.host, &tg.cs_opts);
}

struct tg_thread *tg_thread_get(ThreadId tid)
{
	struct tg_thread *t = tg.threads[tid];
	if (!t)
		t = tg.threads[tid] = VG_(calloc)("tg.thread", 1, sizeof(*t));
	if (!t->cs)
		t->cs = tg_new_callstack();
	return t;
}

static void add_skip_obj(const HChar *pattern)
{
	tg.opt.skip_objs = VG_(realloc)("tg.opt.skip", tg.opt.skip_objs,
					(tg.opt.n_skip_objs + 1) * sizeof(*tg.opt.skip_objs));
	tg.opt.skip_matched = VG_(realloc)("tg.opt.skip", tg.opt.skip_matched,
					   (tg.opt.n_skip_objs + 1) * sizeof(*tg.opt.skip_matched));
	tg.opt.skip_matched[tg.opt.n_skip_objs] = False;
	tg.opt.skip_objs[tg.opt.n_skip_objs++] = VG_(strdup)("tg.opt.skip", pattern);
}

void tg_add_skip_obj(const HChar *pattern)
{
	add_skip_obj(pattern);
	tg_funcs_reclassify();
}

static Bool process_cmd_line_option(const HChar *arg)
{
	const HChar *s;
	if VG_STR_CLO(arg, "--out", tg.opt.out) {}
	else if VG_STR_CLO(arg, "--skip-obj", s) { add_skip_obj(s); }
	else if VG_XACT_CLO(arg, "--start=on", tg.opt.start_on, True) {}
	else if VG_XACT_CLO(arg, "--start=off", tg.opt.start_on, False) {}
	else if VG_BOOL_CLO(arg, "--instr-atstart", tg.opt.start_on) {}
	else if VG_BOOL_CLO(arg, "--collect-atstart", tg.opt.collect_on) {}
	else if VG_XACT_CLO(arg, "--tail-calls=replace", tg.opt.tail, TG_TAIL_REPLACE) {}
	else if VG_XACT_CLO(arg, "--tail-calls=nest", tg.opt.tail, TG_TAIL_NEST) {}
	else if VG_BOOL_CLO(arg, "--keep-cold", tg.opt.keep_cold) {}
	else if VG_BOOL_CLO(arg, "--obj-prefix", tg.opt.obj_prefix) {}
	else if VG_BOOL_CLO(arg, "--show-plt", tg.opt.show_plt) {}
	else if VG_BOOL_CLO(arg, "--summary", tg.opt.summary) {}
	else if VG_BOOL_CLO(arg, "--inline", tg.opt.inline_frames) {}
	else if VG_STR_CLO(arg, "--proc-dir", tg.opt.proc_dir) {}
	else if VG_STR_CLO(arg, "--exec-notes", tg.opt.notes_dir) {}
	else if VG_STR_CLO(arg, "--shown-dir", tg.opt.shown_dir) {}
	else
		return False;
	return True;
}

static void print_usage(void)
{
	VG_(printf)(
"    --out=FILE                 folded stacks file [tephragrind.%%p.folded]\n"
"    --start=on|off             instrument from the start or wait for a start\n"
"                               client request [on]\n"
"    --collect-atstart=yes|no   charge counts from the start [yes]\n"
"    --skip-obj=PATTERN         functions of objects matching PATTERN (glob on the\n"
"                               path or its base name) are not frames; their\n"
"                               instructions go to the nearest caller (repeatable)\n"
"    --tail-calls=replace|nest  a tail call replaces its caller's frame, or nests\n"
"                               under it as callgrind shows it [replace]\n"
"    --keep-cold=yes|no         keep foo.cold as its own frame [no]\n"
"    --show-below-main=yes|no   keep _start, __libc_start_main, start_thread... [no]\n"
"    --obj-prefix=yes|no        prefix frames with their object's base name [no]\n"
"    --show-plt=yes|no          keep PLT stubs and the lazy resolver as frames [no]\n"
"    --summary=yes|no           one summary line on stderr at the end [yes]\n"
"    --inline=yes|no            inlined functions as frames (with\n"
"                               --read-inline-info=yes) [no]\n"
"    --proc-dir=DIR             one file per process in DIR, instead of --out\n"
"    --exec-notes=DIR           note in DIR the programs exec'd and not followed\n"
"    --shown-dir=PREFIX         messages name a file PREFIX + its base name\n");
}

static void print_debug_usage(void)
{
	VG_(printf)("    (none)\n");
}

static void post_clo_init(void)
{
	/* One block = one entry point: following branches into other code within a
	 * block would hide calls and jumps from the entry check. */
	VG_(clo_vex_control).guest_chase = False;
	/* Real names of the functions below main: we decide what to print ourselves
	 * (--show-below-main), Valgrind would rename them all "(below main)". */
	tg.opt.show_below_main = VG_(clo_show_below_main); /* the core owns the option */
	VG_(clo_show_below_main) = True;
	tg.cs_opts.match = CS_MATCH_SP;
	tg.cs_opts.max_depth = TG_MAX_DEPTH;
	/* With --inline, call-trie nodes are keyed by the inline chain of their call
	 * site (passed as the call site), so callees of inlined code hang below it. */
	tg.cs_opts.flags = (tg.opt.inline_frames ? 0 : CS_OPT_NO_CALLSITE) |
			   (tg.opt.tail == TG_TAIL_NEST ? CS_OPT_NEST_TAIL : 0);
	tg.instrumenting = tg.ever_started = tg.opt.start_on;
	tg.collecting = tg.opt.collect_on;
	tg.cur_fn = TG_CUR_RECHECK;
	tg.threads = VG_(calloc)("tg.threads", VG_N_THREADS, sizeof(*tg.threads));
	tg.out_path = VG_(expand_file_name)("--out", tg.opt.out);
	tg_process_init();
}

static void on_start_client_code(ThreadId tid, ULong blocks)
{
	(void)blocks;
	if (tid != tg.running)
		tg_thread_switch(tid);
}

void tg_empty_stack(struct tg_thread *t)
{
	t->nsig = 0;
	t->signal_pending = False;
	t->pending_how = 0;
	if (t->cs)
		cs_clear(t->cs);
}

static void on_thread_create(ThreadId parent, ThreadId child)
{
	(void)parent;
	struct tg_thread *t = tg.threads[child];
	if (!t)
		t = tg.threads[child] = VG_(calloc)("tg.thread", 1, sizeof(*t));
	if (t->cs) {
		/* A reused thread id: the old thread's counts stay for the output. */
		struct tg_retired *r = VG_(malloc)("tg.retired", sizeof(*r));
		r->cs = t->cs;
		r->next = tg.retired;
		tg.retired = r;
	}
	VG_(memset)(t, 0, sizeof(*t));
	t->cs = tg_new_callstack();
}

static void on_fork_child(ThreadId tid)
{
	(void)tid;
	/* The child counts only what it runs itself, into its own file. */
	tg.forked_child = True;
	tg_charge();
	tg_zero_counts();
	tg_process_forked();
	HChar *path = tg.out_path;
	if (!VG_(strstr)(tg.opt.out, "%p")) {
		SizeT len = VG_(strlen)(path) + 32;
		HChar *np = VG_(malloc)("tg.out", len);
		VG_(snprintf)(np, len, "%s.%d", path, VG_(getpid)());
		tg.out_path = np;
	} else {
		tg.out_path = VG_(expand_file_name)("--out", tg.opt.out);
	}
}

/* A successful exec replaces the process without running fini (unless Valgrind follows
 * the new program, which then starts a new tool): write what was counted now.  If the
 * exec fails, fini writes the file again later. */
static void pre_syscall(ThreadId tid, UInt syscallno, UWord *args, UInt nargs)
{
	(void)tid, (void)nargs;
	if (syscallno == __NR_execve || syscallno == __NR_execveat) {
		tg_write_profile();
		tg_process_exec(syscallno, args);
	}
}

/* Reached by an exec only when it failed: the process goes on. */
static void post_syscall(ThreadId tid, UInt syscallno, UWord *args, UInt nargs, SysRes res)
{
	(void)tid, (void)args, (void)nargs, (void)res;
	if (syscallno == __NR_execve || syscallno == __NR_execveat)
		tg_process_exec_failed();
}

static void fini(Int exitcode)
{
	(void)exitcode;
	tg_write_profile();
}

static void pre_clo_init(void)
{
	VG_(details_name)("tephragrind");
	VG_(details_version)(NULL);
	VG_(details_description)("instructions per full call path, for flame graphs");
	VG_(details_copyright_author)("the tephra authors");
	VG_(details_bug_reports_to)("the tephra project");
	VG_(details_avg_translation_sizeB)(300);

	VG_(basic_tool_funcs)(post_clo_init, tg_instrument, fini);
	VG_(needs_command_line_options)(process_cmd_line_option, print_usage, print_debug_usage);
	VG_(needs_client_requests)(tg_client_request);
	VG_(needs_syscall_wrapper)(pre_syscall, post_syscall);

	VG_(track_start_client_code)(on_start_client_code);
	VG_(track_pre_thread_ll_create)(on_thread_create);
	VG_(track_pre_deliver_signal)(tg_signal_deliver);
	VG_(track_post_deliver_signal)(tg_signal_return);
	VG_(atfork)(NULL, NULL, on_fork_child);

	tg.opt.out = "tephragrind.%p.folded";
	tg.opt.start_on = True;
	tg.opt.collect_on = True;
	tg.opt.summary = True;
	tg.host.alloc = host_alloc;
	tg.host.free = host_free;
	tg.host.func_of = tg_func_of;
}

VG_DETERMINE_INTERFACE_VERSION(pre_clo_init)
