/* Unit test of tracepoint/: event formats as this machine's kernel (6.x) writes them, and
 * the text perf script 6.1 printed for samples with these values (observed on recordings
 * here; tests/perf/tracepoints.test.sh compares whole recordings).  Deterministic cases
 * that a recording meets only by chance: timer_start's `flags & (A | B | C | D)` (perf
 * prints D|P|I for 0x400001), __print_flags with unresolved names at 0 and not at 0,
 * __print_symbolic with no match, and malformed formats (no crash, fields kept). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tracepoint/tp_field.h"
#include "tracepoint/tp_print.h"
#include "tracepoint/trace_format.h"

#include "unit/check.h"

static const char timer_start[] =
	"name: timer_start\nID: 100\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:void * timer;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned int flags;\toffset:16;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"cpu=%u idx=%u flags=%s\", REC->flags & 0x0003FFFF, REC->flags >> 22, "
	"__print_flags(REC->flags & (0x00040000 | 0x00080000 | 0x00100000 | 0x00200000), \"|\", "
	"{ 0x00040000, \"M\" }, { 0x00080000, \"D\" }, { 0x00100000, \"P\" }, { 0x00200000, \"I\" })\n";

static const char dirty[] =
	"name: writeback_mark_inode_dirty\nID: 101\nformat:\n"
	"\tfield:char name[32];\toffset:8;\tsize:32;\tsigned:0;\n"
	"\tfield:unsigned long state;\toffset:40;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"bdi %s: state=%s mode=%s\", REC->name, __print_flags(REC->state, \"|\", "
	"{I_DIRTY_SYNC, \"I_DIRTY_SYNC\"}, {I_DIRTY_DATASYNC, \"I_DIRTY_DATASYNC\"}), "
	"__print_symbolic(REC->state, { HRTIMER_MODE_ABS, \"ABS\" })\n";

static void print(const struct tp_formats *f, const struct tp_event *ev, const uint8_t *raw,
		  size_t n, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	tp_print_sample(f, ev, raw, n, NULL, &sb);
	CHECK(sb.buf && !strcmp(sb.buf, want));
	if (!sb.buf || strcmp(sb.buf, want))
		fprintf(stderr, "  got  '%s'\n  want '%s'\n", sb.buf ? sb.buf : "", want);
	strbuf_release(&sb);
}

int main(void)
{
	struct tp_formats f = { 0 };
	struct tephra_error err;
	uint8_t raw[64] = { 0 };
	uint32_t flags = 0x400001;
	uint64_t state;

	f.long_size = 8;
	CHECK(tp_formats_add_text(&f, "timer", timer_start, sizeof(timer_start) - 1, &err) == 0);
	CHECK(tp_formats_add_text(&f, "writeback", dirty, sizeof(dirty) - 1, &err) == 0);
	CHECK(f.nr_events == 2 && !strcmp(f.events[0].full_name, "timer:timer_start"));
	CHECK(tp_formats_find(&f, 101) == &f.events[1]);

	memcpy(raw + 16, &flags, 4);
	print(&f, &f.events[0], raw, sizeof(raw), "cpu=1 idx=1 flags=D|P|I");
	uint64_t v = 0;
	CHECK(tp_field_u64(tp_event_field(&f.events[0], "flags"), raw, sizeof(raw), &v) == 0 &&
	      v == 0x400001);
	CHECK(tp_field_u64(tp_event_field(&f.events[0], "flags"), raw, 18, &v) == -1);

	memcpy(raw + 8, "254:0", 6);
	state = 0;
	memcpy(raw + 40, &state, 8);
	print(&f, &f.events[1], raw, sizeof(raw), "bdi 254:0: state=I_DIRTY_SYNC mode=0x0");
	state = 0x50;
	memcpy(raw + 40, &state, 8);
	print(&f, &f.events[1], raw, sizeof(raw), "bdi 254:0: state=0x50 mode=0x50");
	const char *s;
	size_t len;
	CHECK(tp_field_str(tp_event_field(&f.events[1], "name"), raw, sizeof(raw), &s, &len) == 0 &&
	      len == 5 && !memcmp(s, "254:0", 5));

	/* malformed: the event is kept, an unparsable print fmt prints the fields */
	static const char bad[] = "name: b\nID: 7\nformat:\n\tfield:int x;\toffset:0;\tsize:4;\tsigned:1;\n"
				  "print fmt: \"x=%d\", REC->x +* (";
	CHECK(tp_formats_add_text(&f, "s", bad, sizeof(bad) - 1, &err) == 0);
	print(&f, &f.events[2], (const uint8_t *)"\xff\xff\xff\xff", 4, "[FAILED TO PARSE] x=-1");
	/* hostile conversions (fuzz_trace_format): "%q n" reads as printf's %n, which writes;
	 * an unknown conversion prints as written, a huge width is cut to 4096 */
	static const char conv[] = "name: c\nID: 8\nformat:\n\tfield:int x;\toffset:0;\tsize:4;\tsigned:1;\n"
				   "print fmt: \"a=%q nb|%99999999999d|%y\", REC->x, REC->x, REC->x";
	char want[4200];
	CHECK(tp_formats_add_text(&f, "s", conv, sizeof(conv) - 1, &err) == 0);
	snprintf(want, sizeof(want), "a=%%q nb|%4096d|%%y", 5);
	print(&f, &f.events[3], (const uint8_t *)"\5\0\0\0", 4, want);
	CHECK(tp_formats_add_text(&f, "s", "ID: 3\n", 6, &err) == -1); /* no name */
	uint8_t blob[4] = { 1, 2, 3, 4 };
	struct tp_formats g;
	CHECK(tp_formats_parse(&g, blob, sizeof(blob), &err) == -1);
	tp_formats_free(&f);
	return failures != 0;
}
