/* trace_format.h - the tracepoint event formats a perf.data file carries.
 *
 * perf record stores, for recordings with tracepoints (sched:sched_switch, syscalls,
 * uprobes made with `perf probe -x`), the kernel's ftrace format text of each event in
 * the TRACING_DATA feature section (a HEADER_TRACING_DATA record in pipe mode).  This
 * module parses that blob: per event its system, name, id (= attr.config), its fields
 * (name, offset, size, signedness, arrays, __data_loc strings) and its "print fmt",
 * which tp_print.h evaluates to the text `perf script` prints.  Field values by name:
 * tp_field.h.  Bad input never crashes: an event whose format cannot be parsed keeps
 * its fields when those parsed, and is printed the way perf prints such events. */
#ifndef TEPHRA_TRACEPOINT_TRACE_FORMAT_H
#define TEPHRA_TRACEPOINT_TRACE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

struct tp_field {
	char *name;
	char *type;         /* the C declaration without the name ("unsigned short", "char[]") */
	uint32_t offset, size;
	int is_signed;
	int is_array;       /* "char comm[16]": the size is the whole array's */
	int is_data_loc;    /* "__data_loc char[] name": u32 (length << 16 | offset) */
	int is_rel_loc;     /* "__rel_loc": the offset counts from the end of the field */
	int is_string;      /* char arrays and __data_loc char[] */
	int is_common;      /* common_type, common_pid, … */
};

struct tp_print_node; /* the parsed print fmt (tp_print.c) */

struct tp_event {
	char *system;       /* "sched", "probe_untitled1" */
	char *name;         /* "sched_switch", "main" */
	char *full_name;    /* "sched:sched_switch", as perf names the event */
	uint32_t id;
	struct tp_field *fields;
	size_t nr_fields;
	char *print_fmt;    /* the format string of "print fmt:", unescaped */
	struct tp_print_node *print_args; /* its arguments, NULL when they did not parse */
	size_t nr_print_args;
	int print_ok;       /* print fmt parsed */
};

struct tp_formats {
	struct tp_event *events;
	size_t nr_events, cap_events;
	int long_size;      /* of the recording machine (4 or 8) */
	uint32_t page_size;
};

/* Parses the TRACING_DATA blob (perf's trace-event-read layout, versions 0.5 and 0.6)
 * into OUT (zeroed first).  Returns 0, or -1 with ERR naming the offset in the blob. */
int tp_formats_parse(struct tp_formats *out, const uint8_t *data, size_t size,
		     struct tephra_error *err);

/* Parses one event's format text (as in /sys/kernel/tracing/events/SYS/NAME/format)
 * of SYSTEM and adds it to F.  Returns 0, or -1 with ERR. */
int tp_formats_add_text(struct tp_formats *f, const char *system, const char *text, size_t len,
			struct tephra_error *err);

/* The event with id ID, or NULL. */
const struct tp_event *tp_formats_find(const struct tp_formats *f, uint64_t id);

void tp_formats_free(struct tp_formats *f);

#endif
