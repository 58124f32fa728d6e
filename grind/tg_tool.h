/* tg_tool.h - state shared by the files of tephragrind, the Valgrind tool behind
 * `tephra grind`.
 *
 * The tool runs inside Valgrind with no libc: only the pub_tool_* API.  Valgrind calls
 * the tool through plain function pointers with no context argument, and the
 * instrumented guest code reads and writes counters at fixed addresses, so the tool's
 * state is one explicit object, `tg` (defined in tg_main.c), rather than scattered
 * globals.  Nothing else is global. */
#ifndef TEPHRA_GRIND_TG_TOOL_H
#define TEPHRA_GRIND_TG_TOOL_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_threadstate.h"

#include "callstack/callstack.h"

/* Values of tg.cur_fn that are never a function id: the instrumented code compares
 * tg.cur_fn with the id of the function a block belongs to and calls the transfer
 * helper on a mismatch, so each of these forces the helper at the next block entry. */
#define TG_CUR_CALL    0xfffffffffffffff1ULL /* last block ended with a call */
#define TG_CUR_RET     0xfffffffffffffff2ULL /* last block ended with a return */
#define TG_CUR_RECHECK 0xfffffffffffffff3ULL /* stack empty, signal, thread switch... */
#define TG_FID_UNKNOWN 0xfffffffffffffff4ULL /* code in no object: one pseudo function */
#define TG_FID_TRUNCATED 0xfffffffffffffff5ULL /* "[truncated]": the outermost frames of
						* a stack deeper than TG_SEED_MAX */

/* The deepest native stack seeded whole (tg_unwind.c), and the frames a thread's call
 * stack holds (deeper calls are not pushed): room for calls above the deepest seed. */
#define TG_SEED_MAX 100000u
#define TG_MAX_DEPTH (2 * TG_SEED_MAX)

enum tg_tail_mode { TG_TAIL_REPLACE, TG_TAIL_NEST };

struct tg_options {
	const HChar *out;          /* folded output file (may hold %p, %q{VAR}) */
	Bool start_on;             /* instrument from the start (--start=on) */
	Bool collect_on;           /* --collect-atstart */
	enum tg_tail_mode tail;    /* --tail-calls= */
	Bool keep_cold;            /* --keep-cold: foo.cold stays its own frame */
	Bool show_below_main;      /* --show-below-main */
	Bool obj_prefix;           /* --obj-prefix: frames as "libc.so.6:memcpy" */
	Bool show_plt;             /* --show-plt: keep PLT stubs and the lazy resolver */
	Bool summary;              /* --summary: one line on stderr at the end */
	Bool inline_frames;        /* --inline: inlined functions as frames */
	const HChar *proc_dir;     /* --proc-dir: a file per process there (tg_process.c) */
	const HChar *notes_dir;    /* --exec-notes: notes of exec'd programs there */
	const HChar *shown_dir;    /* --shown-dir: messages name files PREFIX + base name
				    * (the launcher copies them there from its own directory) */
	HChar **skip_objs;         /* --skip-obj patterns (NULL-terminated growable) */
	Bool *skip_matched;        /* per pattern: it matched an object code ran in */
	UInt n_skip_objs;
};

/* Per-thread state.  Valgrind reuses thread ids, so a finished thread's stack moves to
 * the retired list and keeps its counts until the output is written. */
struct tg_thread {
	struct callstack *cs;
	/* TG_CUR_CALL / TG_CUR_RET announced by the thread's last block but not yet
	 * consumed by its next block (the thread was switched out or interrupted by a
	 * signal in between), else 0. */
	ULong pending_how;
	/* A signal is being delivered: the next block entered is its handler. */
	Bool signal_pending;
	Int signal_no;
	ULong signal_sp;
	Bool signal_alt;
	ULong signal_saved_how;
	/* Handlers in progress, innermost last: stack depth of the handler's frame, so
	 * its return to the signal trampoline is recognised (a return that would leave
	 * the stack below that depth; the trampoline then runs as part of the handler
	 * until rt_sigreturn). */
	UInt nsig;
	UInt sig_depth[32];
	Bool sig_returned[32];
	Bool sig_alt[32];
	ULong sig_saved_how[32]; /* pending_how of the interrupted code */
};

struct tg_retired {
	struct callstack *cs;
	struct tg_retired *next;
};

struct tg_stats {
	ULong underflows_repaired; /* returns past the bottom, repaired by an unwind */
	ULong frames_seeded;       /* frames pushed from native unwinds */
	ULong seeds;               /* native unwinds done */
	ULong dumps;               /* dumps written (DUMP_STATS) */
};

struct tg_state {
	/* Read and written by instrumented code: keep these first and simple. */
	ULong icount;   /* guest instructions executed in instrumented code */
	ULong cur_fn;   /* function id of the running thread's top frame, or TG_CUR_* */
	ULong call_key; /* --inline: inline chain of the last call instruction */
	UWord leaf;     /* --inline: chain key the running code is charged to */

	ULong charged_upto; /* icount already charged to a node */
	Bool instrumenting; /* blocks get instrumented (START/STOP_INSTRUMENTATION) */
	Bool ever_started;  /* instrumenting was on at some point (--start=on, a request) */
	Bool collecting;    /* counts are charged (TOGGLE_COLLECT) */
	ThreadId running;   /* thread whose stack counts are charged to (0 = none) */
	struct tg_options opt;
	struct tg_thread **threads; /* VG_N_THREADS slots by ThreadId, filled on first use */
	struct tg_retired *retired;
	struct cs_host host;
	struct cs_options cs_opts;
	struct tg_stats stats;
	Bool forked_child;
	HChar *out_path;    /* resolved at start (the file name is fixed then) */
	HChar *proc_path;   /* --proc-dir: this process's file, once created */
};

extern struct tg_state tg;

/* tg_main.c */
void tg_add_skip_obj(const HChar *pattern);
struct callstack *tg_new_callstack(void);
/* The state of thread TID, created (with an empty stack) on first use. */
struct tg_thread *tg_thread_get(ThreadId tid);
/* Pops every frame of T's stack (keeping its counts); forgets its signal state. */
void tg_empty_stack(struct tg_thread *t);

/* tg_transfer.c: the helper called by instrumented code on a function change. */
void tg_charge(void);
VG_REGPARM(3) void tg_on_block_entry(ULong fid, Addr pc, Addr sp);
VG_REGPARM(1) void tg_set_leaf(UWord key);
void tg_thread_switch(ThreadId tid);
void tg_signal_deliver(ThreadId tid, Int sigNo, Bool alt_stack);
void tg_signal_return(ThreadId tid, Int sigNo);
void tg_refresh_cur_fn(void);

/* tg_unwind.c: pushes the thread's native stack onto its empty shadow stack. */
void tg_seed_from_unwind(ThreadId tid);

/* tg_instrument.c */
IRSB *tg_instrument(VgCallbackClosure *closure, IRSB *sb_in, const VexGuestLayout *layout,
		    const VexGuestExtents *vge, const VexArchInfo *archinfo_host,
		    IRType gWordTy, IRType hWordTy);

/* tg_requests.c */
Bool tg_client_request(ThreadId tid, UWord *args, UWord *ret);
void tg_start_instrumentation(ThreadId tid);
void tg_stop_instrumentation(void);
void tg_zero_counts(void);

/* tg_output.c: writes the folded stacks to PATH, HEADER (if not NULL) first. */
void tg_write_output(const HChar *path, const HChar *header);

/* tg_process.c */
void tg_process_init(void);
/* --proc-dir: this process's file, created empty on the first call. */
const HChar *tg_process_reserve(void);
void tg_process_forked(void);
void tg_process_exec(UInt syscallno, const UWord *args);
void tg_process_exec_failed(void);
/* Charges what is pending and writes the profile: to --out, or this process's file. */
void tg_write_profile(void);

#endif
