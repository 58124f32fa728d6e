/* tg_process.c - one profile file per process, and notes of the programs a process
 * exec'd that the tool did not follow.  See docs/grind.md, "Programs that start others".
 *
 * With --proc-dir=DIR (what `tephra grind` passes, with --trace-children=yes) each
 * process writes DIR/PID.K.folded, K the first number whose file did not exist yet: a
 * process that execs a followed program keeps its pid, and the new program's tool
 * writes a file of its own.  The name is taken (created empty) when the program starts
 * or the process forks, and the content renamed into place when it is written (at the
 * end or at an exec), so the file is whole, or empty while the process still runs: the
 * launcher reads them once the program it started has ended, and a process that
 * outlived it is told apart from one that ran.  The file's first line says whose stacks follow:
 *     # tephragrind pid=P ppid=Q underflows=U seeded=S started=0|1 skips=[01]* comm=NAME
 * started: the program was counted at some point (--start=on, or a start request);
 * skips: per --skip-obj pattern, in order, whether it matched an object code ran in
 * (the launcher warns about a pattern no process matched, and says why nothing was
 * counted when no process started).
 * NAME is the name the kernel gives the process after an exec: the base name of the
 * program, cut to 15 bytes (TASK_COMM_LEN - 1), so roots match `tephra fold`'s.
 *
 * An exec leaves DIR/exec.PID holding the program's path, written at the execve.  The
 * note is removed when the exec failed (the tool sees the system call return only
 * then) and by the tool the exec started when Valgrind followed it: the notes left at
 * the end are programs that ran without the tool (--trace-children=no, a program
 * --trace-children-skip names).  --exec-notes=DIR writes only the notes. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#include "tg_tool.h"

#define COMM_MAX 15 /* the kernel's TASK_COMM_LEN - 1 */

/* Valgrind's --trace-children, a core variable no pub_tool header declares: a followed
 * exec of a setuid or setgid program fails (EACCES, Valgrind cannot run it with the
 * privileges), so for such an exec the tool turns following off and the program runs
 * natively, as it would without the tool (its note stays: a warning names it).  The
 * tool is only run with the core it was linked with (the launcher checks). */
extern Bool VG_(clo_trace_children);

static HChar comm[COMM_MAX + 1];
static Bool follow_off_for_exec; /* clo_trace_children turned off for the exec under way */

static HChar *dir_file(const HChar *dir, const HChar *fmt, Int pid, Int k)
{
	SizeT len = VG_(strlen)(dir) + 64;
	HChar *p = VG_(malloc)("tg.proc.path", len);
	SizeT n = VG_(snprintf)(p, len, "%s/", dir);
	VG_(snprintf)(p + n, len - n, fmt, pid, k);
	return p;
}

static void remove_exec_note(void)
{
	HChar *note = dir_file(tg.opt.notes_dir, "exec.%d", VG_(getpid)(), 0);
	VG_(unlink)(note);
	VG_(free)(note);
}

void tg_process_init(void)
{
	if (tg.opt.proc_dir)
		tg.opt.notes_dir = tg.opt.proc_dir;
	if (tg.opt.notes_dir)
		remove_exec_note(); /* this program runs under the tool: it was followed */
	const HChar *exe = VG_(args_the_exename) ? VG_(args_the_exename) : "[unknown]";
	const HChar *slash = VG_(strrchr)(exe, '/');
	if (slash && slash[1])
		exe = slash + 1;
	SizeT i;
	for (i = 0; i < COMM_MAX && exe[i]; i++) {
		HChar c = exe[i];
		comm[i] = c == ';' ? ':' : (c == '\n' || c == '\r') ? ' ' : c;
	}
	comm[i] = 0;
	if (tg.opt.proc_dir)
		tg_process_reserve();
}

void tg_process_forked(void)
{
	/* The child writes a file of its own, created at its first write, with its own
	 * figures. */
	if (tg.opt.proc_dir) {
		tg.proc_path = NULL;
		VG_(memset)(&tg.stats, 0, sizeof(tg.stats));
		tg_process_reserve();
	}
}

/* Copies the client's NUL-terminated string at ADDR (at most CAP - 1 bytes), reading
 * only memory the client may read: the path comes from the program. */
static void copy_client_string(Addr addr, HChar *out, SizeT cap)
{
	SizeT n = 0;
	while (n + 1 < cap && addr && VG_(am_is_valid_for_client)(addr + n, 1, VKI_PROT_READ)) {
		HChar c = *(const HChar *)(addr + n);
		if (!c)
			break;
		out[n++] = (c == '\n' || c == '\r') ? ' ' : c;
	}
	out[n] = 0;
}

void tg_process_exec(UInt syscallno, const UWord *args)
{
	if (!tg.opt.notes_dir)
		return;
	HChar prog[512];
	copy_client_string(syscallno == __NR_execve ? args[0] : args[1], prog, sizeof(prog));
	struct vg_stat st;
	if (syscallno == __NR_execve && VG_(clo_trace_children) &&
	    !sr_isError(VG_(stat)(prog, &st)) && (st.mode & (VKI_S_ISUID | VKI_S_ISGID))) {
		VG_(clo_trace_children) = False;
		follow_off_for_exec = True;
	}
	HChar *note = dir_file(tg.opt.notes_dir, "exec.%d", VG_(getpid)(), 0);
	SysRes sr = VG_(open)(note, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC, 0600);
	if (!sr_isError(sr)) {
		Int fd = sr_Res(sr);
		SizeT len = VG_(strlen)(prog);
		prog[len] = '\n';
		VG_(write)(fd, prog, len + 1);
		VG_(close)(fd);
	}
	VG_(free)(note);
}

void tg_process_exec_failed(void)
{
	if (tg.opt.notes_dir)
		remove_exec_note();
	if (follow_off_for_exec) {
		VG_(clo_trace_children) = True;
		follow_off_for_exec = False;
	}
}

/* The process's file, created empty (O_EXCL: the number K that is free). */
const HChar *tg_process_reserve(void)
{
	if (tg.proc_path)
		return tg.proc_path;
	Int pid = VG_(getpid)();
	for (Int k = 0; k < 10000; k++) {
		HChar *p = dir_file(tg.opt.proc_dir, "%d.%d.folded", pid, k);
		SysRes sr = VG_(open)(p, VKI_O_CREAT | VKI_O_EXCL | VKI_O_WRONLY, 0600);
		if (!sr_isError(sr)) {
			VG_(close)(sr_Res(sr));
			tg.proc_path = p;
			return p;
		}
		VG_(free)(p);
		if (sr_Err(sr) != VKI_EEXIST)
			break;
	}
	VG_(printf)("tephra grind: cannot create a file for process %d in %s\n", pid,
		    tg.opt.proc_dir);
	return NULL;
}

/* Without --proc-dir (tephra grind --no-children) no launcher reads the header: what
 * was asked for and came to nothing is said here (tephra grind words it alike). */
static void tg_report_unused(void)
{
	if (!tg.ever_started)
		VG_(printf)("tephra grind: %s: nothing was counted: with --start=off counting "
			    "waits for a start request (CALLGRIND_START_INSTRUMENTATION or "
			    "TEPHRA_GRIND_START), and the program made none\n", tg.out_path);
	for (UInt i = 0; i < tg.opt.n_skip_objs; i++)
		if (!tg.opt.skip_matched[i])
			VG_(printf)("tephra grind: warning: --skip-obj=%s matched no object the "
				    "program ran code in: nothing was skipped for it\n",
				    tg.opt.skip_objs[i]);
}

void tg_write_profile(void)
{
	tg_charge();
	if (!tg.opt.proc_dir) {
		tg_write_output(tg.out_path, NULL);
		tg_report_unused();
		return;
	}
	const HChar *path = tg_process_reserve();
	if (!path)
		return;
	/* skips: a 1 or 0 per --skip-obj pattern, whether it matched an object code ran in */
	SizeT hsize = 160 + sizeof(comm) + tg.opt.n_skip_objs;
	HChar *header = VG_(malloc)("tg.proc.header", hsize);
	Int k = VG_(snprintf)(header, hsize, "# tephragrind pid=%d ppid=%d underflows=%llu "
			      "seeded=%llu started=%d skips=", VG_(getpid)(), VG_(getppid)(),
			      tg.stats.underflows_repaired, tg.stats.frames_seeded,
			      tg.ever_started ? 1 : 0);
	for (UInt i = 0; i < tg.opt.n_skip_objs; i++)
		header[k++] = tg.opt.skip_matched[i] ? '1' : '0';
	VG_(snprintf)(header + k, hsize - (SizeT)k, " comm=%s\n", comm);
	/* Written beside and renamed into place: the launcher reads every file once the
	 * program has ended, and a process that outlived it may still be writing. */
	SizeT len = VG_(strlen)(path) + 8;
	HChar *part = VG_(malloc)("tg.proc.part", len);
	VG_(snprintf)(part, len, "%s.part", path);
	tg_write_output(part, header);
	VG_(rename)(part, path);
	VG_(free)(part);
	VG_(free)(header);
}
