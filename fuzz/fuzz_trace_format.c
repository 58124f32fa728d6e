/* fuzz_trace_format.c - libFuzzer target: the tracing data a perf.data file carries
 * (TRACING_DATA blob: ftrace event formats and their print fmt), and one event's format
 * text on its own.  Every parsed event then prints a sample whose RAW bytes are the
 * input's last bytes, and reads each field by name, as perf script's text would. */
#include "fuzz_common.h"
#include "base/strbuf.h"
#include "tracepoint/tp_field.h"
#include "tracepoint/tp_print.h"
#include "tracepoint/trace_format.h"

static const char *name_addr(void *ctx, uint64_t addr, uint64_t *offset)
{
	(void)ctx;
	*offset = addr & 0xff;
	return (addr & 0x100) ? "fuzz_symbol" : NULL;
}

static void use(const struct tp_formats *f, const uint8_t *raw, size_t raw_size)
{
	static const struct tp_symbolizer sym = { .name = name_addr };
	struct strbuf out = { 0 };

	for (size_t i = 0; i < f->nr_events; i++) {
		const struct tp_event *ev = &f->events[i];

		tp_print_sample(f, ev, raw, raw_size, (i & 1) ? &sym : NULL, &out);
		strbuf_reset(&out);
		for (size_t j = 0; j < ev->nr_fields; j++) {
			const struct tp_field *fl = tp_event_field(ev, ev->fields[j].name);
			uint64_t v;
			const char *s;
			size_t len;

			if (!fl)
				continue;
			tp_field_u64(fl, raw, raw_size, &v);
			tp_field_str(fl, raw, raw_size, &s, &len);
		}
	}
	strbuf_release(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t raw_size = size < 128 ? size : 128;
	const uint8_t *raw = data + size - raw_size;
	struct tp_formats f;
	struct tephra_error err;

	if (tp_formats_parse(&f, data, size, &err) == 0)
		use(&f, raw, raw_size);
	tp_formats_free(&f);

	struct tp_formats one = { .long_size = 8, .page_size = 4096 };

	tp_formats_add_text(&one, "fuzz", (const char *)data, size, &err);
	use(&one, raw, raw_size);
	tp_formats_free(&one);
	return 0;
}
