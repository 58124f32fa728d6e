/* tp_field.h - a tracepoint field's value from a sample's RAW bytes, by name.
 *
 * For consumers of tracepoint samples (off-CPU profiling reads sched_switch's
 * prev_pid / prev_state / next_pid): look the field up once per event, then read it
 * from each sample.  Reads are bounds-checked against the RAW size. */
#ifndef TEPHRA_TRACEPOINT_TP_FIELD_H
#define TEPHRA_TRACEPOINT_TP_FIELD_H

#include <stddef.h>
#include <stdint.h>

#include "tracepoint/trace_format.h"

/* The field NAME of EV, or NULL. */
const struct tp_field *tp_event_field(const struct tp_event *ev, const char *name);

/* The integer value of F in RAW (sign-extended when the field is signed; a __data_loc
 * field gives its raw u32).  Returns 0, or -1 when the field lies outside RAW. */
int tp_field_u64(const struct tp_field *f, const uint8_t *raw, size_t raw_size, uint64_t *out);

/* The string of a char-array or __data_loc field: *S points into RAW, *LEN stops at the
 * first NUL.  Returns 0, or -1 when the field is not a string or lies outside RAW. */
int tp_field_str(const struct tp_field *f, const uint8_t *raw, size_t raw_size,
		 const char **s, size_t *len);

#endif
