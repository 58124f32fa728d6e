/* tp_print.h - a tracepoint sample's text as `perf script` prints it (perf 6.1 with its
 * libtraceevent, no plugins): the event's print fmt evaluated over the RAW bytes.
 *
 * The print fmt arguments are a small C expression language: REC->field, numbers,
 * strings, casts, arithmetic, comparisons, ?:, and the helpers __print_flags,
 * __print_symbolic, __get_str, __get_dynamic_array_len and __print_hex.  An event whose
 * print fmt does not parse prints "[FAILED TO PARSE]" and its fields, as perf does. */
#ifndef TEPHRA_TRACEPOINT_TP_PRINT_H
#define TEPHRA_TRACEPOINT_TP_PRINT_H

#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "tracepoint/trace_format.h"

/* Parses EV's print fmt arguments (ARGS: the text after the format string's closing
 * quote).  Sets ev->print_ok; returns 0 or -1 (the event then prints its fields). */
int tp_print_parse(struct tp_event *ev, const char *args);

/* Names kernel addresses for %ps / %pS (function=tick_nohz_handler, call_site=
 * vm_area_dup+0x1e): the symbol's name and ADDR's offset in it, or NULL. */
struct tp_symbolizer {
	const char *(*name)(void *ctx, uint64_t addr, uint64_t *offset);
	void *ctx;
};

/* Appends EV's text for RAW to OUT (SYM may be NULL: addresses print in hex). */
void tp_print_sample(const struct tp_formats *f, const struct tp_event *ev,
		     const uint8_t *raw, size_t raw_size, const struct tp_symbolizer *sym,
		     struct strbuf *out);

void tp_print_free(struct tp_event *ev);

#endif
