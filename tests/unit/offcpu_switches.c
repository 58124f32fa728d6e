/* Unit test of offcpu/: intervals worked out by hand for switch sequences a recording
 * meets only by chance or never: a switch-in earlier than its switch-out (time running
 * backwards: charged 0), a thread that never switches back in (charged to the last time
 * seen), switch-ins of threads never switched out, a thread switched in by another
 * thread's sched_switch (next_pid) or seen only by its next sample, dead and preempted
 * states, and RAW too short for the fields; a slice (--time) of ranges out of order,
 * overlapping, empty or open-ended, and intervals across and beyond it.  The format is this machine's kernel's
 * sched_switch (6.x); states are named by its print fmt as perf script prints them. */
#include <stdint.h>
#include <string.h>

#include "offcpu/offcpu.h"
#include "tracepoint/trace_format.h"

#include "unit/check.h"

static const char sched_switch[] =
	"name: sched_switch\nID: 372\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s "
	"next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, "
	"(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | "
	"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state & "
	"((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | "
	"0x00000020 | 0x00000040) + 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }, { 0x00000002, "
	"\"D\" }, { 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, "
	"{ 0x00000020, \"Z\" }, { 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", "
	"REC->prev_state & (((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | "
	"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\", REC->next_comm, "
	"REC->next_pid, REC->next_prio\n";

struct charged {
	uint64_t stack, start, ns;
	unsigned state;
};
static struct charged got[32];
static size_t nr_got;

static void charge(void *ctx, uint64_t stack, unsigned state, uint64_t start, uint64_t ns)
{
	(void)ctx;
	if (nr_got < 32)
		got[nr_got++] = (struct charged){ stack, start, ns, state };
}

/* The sched_switch of PREV (leaving in STATE) to NEXT at TIME, its stack STACK. */
static struct offcpu_switch switch_at(struct offcpu *o, int32_t prev, int64_t state, int32_t next,
				      uint64_t time, uint64_t stack)
{
	uint8_t raw[64] = { 0 };
	struct offcpu_switch sw = { 0 };
	memcpy(raw + 24, &prev, 4);
	memcpy(raw + 32, &state, 8);
	memcpy(raw + 56, &next, 4);
	CHECK(offcpu_decode(o, raw, sizeof(raw), &sw) == 0);
	CHECK(sw.prev_tid == prev && sw.next_tid == next);
	offcpu_switch(o, &sw, time, stack);
	return sw;
}

static int charged_is(size_t i, uint64_t stack, uint64_t ns)
{
	return i < nr_got && got[i].stack == stack && got[i].ns == ns;
}

int main(void)
{
	struct tp_formats f = { 0 };
	struct tephra_error err;
	f.long_size = 8;
	CHECK(tp_formats_add_text(&f, "sched", sched_switch, sizeof(sched_switch) - 1, &err) == 0);
	const struct tp_event *ev = &f.events[0];

	struct offcpu *o = offcpu_new(&f, ev, 0, charge, NULL, &err);
	CHECK(o != NULL);
	/* blocked (S) at 1000, switched in at 1500: 500 ns on its stack */
	struct offcpu_switch sw = switch_at(o, 10, 1, 0, 1000, 7);
	CHECK(sw.charged && !strcmp(offcpu_state_name(o, sw.state), "S"));
	offcpu_switch_in(o, 10, 1500);
	CHECK(nr_got == 1 && charged_is(0, 7, 500) && got[0].start == 1000);
	/* preempted (R): not charged by default */
	sw = switch_at(o, 11, 0, 0, 2000, 8);
	CHECK(!sw.charged && !strcmp(offcpu_state_name(o, sw.state), "R"));
	offcpu_switch_in(o, 11, 2100);
	CHECK(nr_got == 1 && offcpu_counts(o)->skipped == 1);
	/* D at 3000, switch-in at 2500: time ran backwards, charged 0 */
	sw = switch_at(o, 12, 2, 0, 3000, 9);
	CHECK(!strcmp(offcpu_state_name(o, sw.state), "D"));
	offcpu_switch_in(o, 12, 2500);
	CHECK(nr_got == 2 && charged_is(1, 9, 0) && offcpu_counts(o)->backwards == 1);
	/* switched in by another thread's sched_switch naming it as next_pid */
	switch_at(o, 14, 1, 0, 5000, 10);
	switch_at(o, 20, 1, 14, 5200, 11);
	CHECK(nr_got == 3 && charged_is(2, 10, 200));
	offcpu_switch_in(o, 20, 5300);
	CHECK(nr_got == 4 && charged_is(3, 11, 100));
	/* no switch-in, then its own sample: the interval ends there */
	switch_at(o, 15, 1, 0, 6000, 12);
	offcpu_sample(o, 15, 6100);
	CHECK(nr_got == 5 && charged_is(4, 12, 100) && offcpu_counts(o)->by_sample == 1 &&
	      got[4].start == 6000);
	/* dead (X): never charged; a switch-in of a thread never switched out: nothing */
	sw = switch_at(o, 16, 0x10, 0, 6500, 13);
	CHECK(!sw.charged && !strcmp(offcpu_state_name(o, sw.state), "X"));
	offcpu_switch_in(o, 99, 6600);
	CHECK(nr_got == 5);
	/* never switched back in: charged to the last time seen */
	switch_at(o, 13, 1, 0, 7000, 14);
	offcpu_seen(o, 9000);
	offcpu_seen(o, 8000); /* earlier times do not shorten the recording */
	offcpu_finish(o);
	CHECK(offcpu_counts(o)->at_end == 1 && nr_got == 6 && charged_is(5, 14, 2000) &&
	      got[5].start == 7000);
	/* switch-out records: after their sched_switch sample they change nothing; without
	 * one (the kernel dropped it) the wait is counted as unsampled up to the switch-in,
	 * a preempted one only with --preempted */
	nr_got = 0;
	switch_at(o, 40, 1, 0, 10000, 15);
	offcpu_switch_out(o, 40, 10020, 0);
	offcpu_switch_in(o, 40, 10500);
	CHECK(nr_got == 1 && charged_is(0, 15, 500) && offcpu_counts(o)->unsampled == 0);
	offcpu_switch_out(o, 40, 11000, 0);
	offcpu_switch_in(o, 40, 11300);
	CHECK(nr_got == 1 && offcpu_counts(o)->unsampled == 1 && offcpu_counts(o)->unsampled_ns == 300);
	offcpu_switch_out(o, 40, 12000, 1);
	offcpu_switch_in(o, 40, 12100);
	CHECK(offcpu_counts(o)->unsampled == 1 && offcpu_counts(o)->unsampled_ns == 300);
	/* RAW too short for next_pid */
	uint8_t short_raw[40] = { 0 };
	CHECK(offcpu_decode(o, short_raw, sizeof(short_raw), &sw) == -1);
	offcpu_free(o);

	/* --preempted: R and R+ are charged, X still not */
	nr_got = 0;
	o = offcpu_new(&f, ev, 1, charge, NULL, &err);
	sw = switch_at(o, 30, 0x100, 31, 100, 1);
	CHECK(sw.charged && !strcmp(offcpu_state_name(o, sw.state), "R+"));
	sw = switch_at(o, 31, 0, 30, 150, 2);
	CHECK(sw.charged && charged_is(0, 1, 50));
	sw = switch_at(o, 32, 0x10, 30, 160, 3);
	CHECK(!sw.charged);
	offcpu_free(o);

	/* a slice: 100..200 and 400.. given last, 150..300 overlapping the first, 600..500
	 * empty: the union is 100..300 and 400.., each part charged at its start */
	nr_got = 0;
	o = offcpu_new(&f, ev, 0, charge, NULL, &err);
	const struct offcpu_range slice[] = { { 400, UINT64_MAX }, { 150, 300 }, { 600, 500 },
					      { 100, 200 } };
	offcpu_set_slice(o, slice, 4);
	CHECK(offcpu_may_charge(o, 0) && offcpu_may_charge(o, 1000000));
	switch_at(o, 50, 1, 0, 50, 1);   /* began before the slice: 100..120 */
	offcpu_switch_in(o, 50, 120);
	CHECK(nr_got == 1 && charged_is(0, 1, 20) && got[0].start == 100);
	switch_at(o, 51, 1, 0, 250, 2);  /* spans the gap: 250..300 and 400..450 */
	offcpu_switch_in(o, 51, 450);
	CHECK(nr_got == 3 && charged_is(1, 2, 50) && got[1].start == 250 &&
	      charged_is(2, 2, 50) && got[2].start == 400);
	switch_at(o, 52, 1, 0, 310, 3);  /* inside the gap: nothing */
	offcpu_switch_in(o, 52, 390);
	CHECK(nr_got == 3 && offcpu_counts(o)->intervals == 2);
	switch_at(o, 53, 1, 0, 900, 4);  /* to the recording's end, in the open range */
	offcpu_seen(o, 1000);
	offcpu_finish(o);
	CHECK(nr_got == 4 && charged_is(3, 4, 100) && got[3].start == 900);
	/* a slice with an end: nothing after it can be charged; an empty one charges nothing */
	offcpu_set_slice(o, slice + 1, 1);
	CHECK(offcpu_may_charge(o, 299) && !offcpu_may_charge(o, 300));
	offcpu_set_slice(o, slice + 2, 1);
	CHECK(!offcpu_may_charge(o, 0));
	switch_at(o, 54, 1, 0, 550, 5);
	offcpu_switch_in(o, 54, 650);
	CHECK(nr_got == 4);
	offcpu_set_slice(o, NULL, 0); /* no slice: whole intervals again */
	switch_at(o, 54, 1, 0, 700, 6);
	offcpu_switch_in(o, 54, 750);
	CHECK(nr_got == 5 && charged_is(4, 6, 50) && got[4].start == 700);
	offcpu_free(o);

	/* under a slice the warnings count only waits that touch it: 100..200 */
	nr_got = 0;
	o = offcpu_new(&f, ev, 0, charge, NULL, &err);
	offcpu_set_slice(o, slice + 3, 1);
	switch_at(o, 60, 1, 0, 300, 1);  /* ended by a sample, after the slice */
	offcpu_sample(o, 60, 350);
	switch_at(o, 61, 1, 0, 150, 2);  /* ended by a sample, inside */
	offcpu_sample(o, 61, 170);
	offcpu_switch_out(o, 62, 250, 0); /* unsampled, after the slice */
	offcpu_switch_in(o, 62, 260);
	offcpu_switch_out(o, 63, 50, 0);  /* unsampled, 100..150 of it inside */
	offcpu_switch_in(o, 63, 150);
	switch_at(o, 64, 1, 0, 400, 3);  /* time backwards, after the slice */
	offcpu_switch_in(o, 64, 390);
	switch_at(o, 65, 1, 0, 500, 4);  /* off at the end, after the slice */
	switch_at(o, 66, 1, 0, 190, 5);  /* off at the end, from inside */
	offcpu_switch_out(o, 67, 199, 0); /* unsampled to the end: 1 ns inside */
	offcpu_seen(o, 600);
	offcpu_finish(o);
	const struct offcpu_counts *c = offcpu_counts(o);
	CHECK(c->by_sample == 1 && c->backwards == 0 && c->at_end == 1 && c->intervals == 2);
	CHECK(c->unsampled == 2 && c->unsampled_ns == 51);
	CHECK(nr_got == 2 && charged_is(0, 2, 20) && charged_is(1, 5, 10));
	offcpu_free(o);

	/* a format without prev_state: refused */
	static const char bare[] = "name: sched_switch\nID: 1\nformat:\n"
				   "\tfield:pid_t prev_pid;\toffset:8;\tsize:4;\tsigned:1;\n"
				   "\tfield:pid_t next_pid;\toffset:12;\tsize:4;\tsigned:1;\n\n"
				   "print fmt: \"x\"\n";
	struct tp_formats g = { 0 };
	g.long_size = 8;
	CHECK(tp_formats_add_text(&g, "sched", bare, sizeof(bare) - 1, &err) == 0);
	CHECK(offcpu_new(&g, &g.events[0], 0, charge, NULL, &err) == NULL);
	CHECK(strstr(err.msg, "prev_state") != NULL);
	tp_formats_free(&g);
	tp_formats_free(&f);
	return failures != 0;
}
