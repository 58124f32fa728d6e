/* perfdata_synthetic.c - decodes a perf.data file built here byte by byte, with every
 * value chosen by hand, and checks every field comes back:
 *  - two attrs (ids 100,101 and 200) whose sample_type has every field the kernel can
 *    write (IDENTIFIER … AUX, READ as a group, BRANCH_STACK with hw_idx), and records
 *    attributed to them by id;
 *  - MMAP2 in build-id form, COMM exec, FORK, EXIT, LOST, LOST_SAMPLES, THROTTLE,
 *    KSYMBOL, TIME_CONV, an unknown record type, FINISHED_ROUND;
 *  - features HOSTNAME, NRCPUS, CMDLINE, BUILD_ID (with the real-size byte),
 *    EVENT_DESC (listed in the other order, matched by id);
 *  - the delivery order perf's rounds give (worked out by hand below);
 *  - the same records in pipe mode, compressed into two COMPRESSED records that split a
 *    record in the middle (one COMPRESSED, unpadded as perf 6.1 writes it, one
 *    COMPRESSED2), read from a file and from a real pipe;
 *  - a byte-swapped header is refused with a message about endianness. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include "perfdata/perf_reader.h"

static int failures;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: CHECK failed: %s\n", \
	__FILE__, __LINE__, #cond); failures++; } } while (0)

struct buf { unsigned char *p; size_t len, cap; };

static void put(struct buf *b, const void *d, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 256;
		b->p = realloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, d, n);
	b->len += n;
}
static void u8(struct buf *b, uint8_t v) { put(b, &v, 1); }
static void u16(struct buf *b, uint16_t v) { put(b, &v, 2); }
static void u32(struct buf *b, uint32_t v) { put(b, &v, 4); }
static void u64(struct buf *b, uint64_t v) { put(b, &v, 8); }
static void zeros(struct buf *b, size_t n) { while (n--) u8(b, 0); }
static void set64(struct buf *b, size_t at, uint64_t v) { memcpy(b->p + at, &v, 8); }
static void set16(struct buf *b, size_t at, uint16_t v) { memcpy(b->p + at, &v, 2); }

#define ST_ALL (PERF_ST_IDENTIFIER | PERF_ST_IP | PERF_ST_TID | PERF_ST_TIME | PERF_ST_ADDR | \
	PERF_ST_ID | PERF_ST_STREAM_ID | PERF_ST_CPU | PERF_ST_PERIOD | PERF_ST_READ | \
	PERF_ST_CALLCHAIN | PERF_ST_RAW | PERF_ST_BRANCH_STACK | PERF_ST_REGS_USER | \
	PERF_ST_STACK_USER | PERF_ST_WEIGHT | PERF_ST_DATA_SRC | PERF_ST_TRANSACTION | \
	PERF_ST_REGS_INTR | PERF_ST_PHYS_ADDR | PERF_ST_CGROUP | PERF_ST_DATA_PAGE_SIZE | \
	PERF_ST_CODE_PAGE_SIZE | PERF_ST_AUX)
#define RF_TOTAL_TIME_ENABLED 1
#define RF_ID 4
#define RF_GROUP 8

/* A 128-byte perf_event_attr. */
static void attr(struct buf *b, uint64_t config)
{
	size_t at = b->len;
	zeros(b, 128);
	memcpy(b->p + at + 0, &(uint32_t){ 1 }, 4);        /* type: software */
	memcpy(b->p + at + 4, &(uint32_t){ 128 }, 4);      /* size */
	set64(b, at + 8, config);
	set64(b, at + 16, 4000);
	set64(b, at + 24, ST_ALL);
	set64(b, at + 32, RF_GROUP | RF_ID | RF_TOTAL_TIME_ENABLED);
	set64(b, at + 40, PERF_ATTR_FLAG_FREQ | PERF_ATTR_FLAG_SAMPLE_ID_ALL);
	set64(b, at + 72, PERF_BRANCH_HW_INDEX);
	set64(b, at + 80, 0x5);   /* two user registers */
	set64(b, at + 96, 0x1);   /* one interrupt register */
}

/* Record helpers: begin writes the header with size 0, end patches the size. */
static size_t begin(struct buf *b, uint32_t type, uint16_t misc)
{
	size_t at = b->len;
	u32(b, type);
	u16(b, misc);
	u16(b, 0);
	return at;
}
static void end(struct buf *b, size_t at) { set16(b, at + 6, (uint16_t)(b->len - at)); }

/* The sample_id_all trailer: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER. */
static void trailer(struct buf *b, uint32_t pid, uint64_t time, uint64_t id)
{
	u32(b, pid); u32(b, pid); u64(b, time); u64(b, id); u64(b, 7); u32(b, 1); u32(b, 0);
	u64(b, id);
}

static void sample(struct buf *b, uint64_t id, uint64_t time)
{
	size_t at = begin(b, PERF_REC_SAMPLE, PERF_MISC_USER);
	u64(b, id);                      /* IDENTIFIER */
	u64(b, 0x401000 + time);         /* IP */
	u32(b, 10); u32(b, 11);          /* TID */
	u64(b, time);                    /* TIME */
	u64(b, 0xdead);                  /* ADDR */
	u64(b, id);                      /* ID */
	u64(b, 7);                       /* STREAM_ID */
	u32(b, 1); u32(b, 0);            /* CPU */
	u64(b, 5000);                    /* PERIOD */
	u64(b, 2); u64(b, 99);           /* READ: nr, time_enabled */
	u64(b, 1); u64(b, 100); u64(b, 2); u64(b, 200);
	u64(b, 3);                       /* CALLCHAIN */
	u64(b, PERF_CONTEXT_USER); u64(b, 0x401000); u64(b, 0x402000);
	u32(b, 4); put(b, "abcd", 4);    /* RAW */
	u64(b, 1); u64(b, 5);            /* BRANCH_STACK: nr, hw_idx */
	u64(b, 0x1); u64(b, 0x2); u64(b, 0x3);
	u64(b, 2); u64(b, 11); u64(b, 22);   /* REGS_USER */
	u64(b, 16); put(b, "0123456789abcdef", 16); u64(b, 8); /* STACK_USER */
	u64(b, 77);                      /* WEIGHT */
	u64(b, 88);                      /* DATA_SRC */
	u64(b, 99);                      /* TRANSACTION */
	u64(b, 2); u64(b, 33);           /* REGS_INTR */
	u64(b, 0x1234);                  /* PHYS_ADDR */
	u64(b, 55);                      /* CGROUP */
	u64(b, 4096);                    /* DATA_PAGE_SIZE */
	u64(b, 8192);                    /* CODE_PAGE_SIZE */
	u64(b, 8); put(b, "AUXDATA!", 8); /* AUX */
	end(b, at);
}

static void str(struct buf *b, const char *s) /* a header string, padded to 8 */
{
	uint32_t len = (uint32_t)((strlen(s) + 1 + 7) / 8 * 8);
	u32(b, len);
	put(b, s, strlen(s));
	zeros(b, len - strlen(s));
}

static void fixed_str(struct buf *b, const char *s, size_t padded)
{
	put(b, s, strlen(s));
	zeros(b, padded - strlen(s));
}

/* The data records, in file order.  Expected delivery order (perf's rounds):
 *   COMM (time 0: at once) | FR1 (limit 0: nothing; limit := 1000)
 *   FR2 then MMAP2@500 SAMPLE(200)@800 FORK@900 SAMPLE(100)@1000 (limit := 1500)
 *   unknown type 200, TIME_CONV (perf's own records: at once)
 *   final: LOST@1100 EXIT@1200 SAMPLE@1500 LOST_SAMPLES@1600 THROTTLE@1700 KSYMBOL@1800 */
static void data_records(struct buf *b)
{
	size_t at;

	at = begin(b, PERF_REC_COMM, PERF_MISC_COMM_EXEC);
	u32(b, 10); u32(b, 10); fixed_str(b, "prog", 8); trailer(b, 10, 0, 100); end(b, at);

	at = begin(b, PERF_REC_MMAP2, PERF_MISC_USER | PERF_MISC_MMAP_BUILD_ID);
	u32(b, 10); u32(b, 10); u64(b, 0x400000); u64(b, 0x1000); u64(b, 0);
	u8(b, 20); u8(b, 0); u16(b, 0);
	for (int i = 1; i <= 20; i++)
		u8(b, (uint8_t)i);
	u32(b, 5); u32(b, 2); fixed_str(b, "/bin/prog", 16); trailer(b, 10, 500, 101); end(b, at);

	sample(b, 100, 1000);
	sample(b, 200, 800);
	at = begin(b, PERF_REC_FINISHED_ROUND, 0); end(b, at);

	at = begin(b, PERF_REC_FORK, 0);
	u32(b, 12); u32(b, 10); u32(b, 12); u32(b, 10); u64(b, 900); trailer(b, 12, 900, 100);
	end(b, at);
	sample(b, 100, 1500);
	at = begin(b, PERF_REC_LOST, 0); u64(b, 100); u64(b, 3); trailer(b, 10, 1100, 100); end(b, at);
	at = begin(b, PERF_REC_FINISHED_ROUND, 0); end(b, at);

	at = begin(b, PERF_REC_LOST_SAMPLES, 0); u64(b, 4); trailer(b, 10, 1600, 200); end(b, at);
	at = begin(b, PERF_REC_THROTTLE, 0);
	u64(b, 1700); u64(b, 100); u64(b, 7); trailer(b, 10, 1700, 100); end(b, at);
	at = begin(b, PERF_REC_KSYMBOL, 0);
	u64(b, 0xffffffff81000000ULL); u32(b, 0x100); u16(b, 1); u16(b, 0);
	fixed_str(b, "bpf_prog", 16); trailer(b, 0, 1800, 100); end(b, at);
	at = begin(b, 200, 0); u64(b, 0x42); end(b, at);
	at = begin(b, PERF_REC_TIME_CONV, 0); u64(b, 10); u64(b, 20); u64(b, 30); end(b, at);
	at = begin(b, PERF_REC_EXIT, 0);
	u32(b, 12); u32(b, 10); u32(b, 12); u32(b, 10); u64(b, 1200); trailer(b, 12, 1200, 100);
	end(b, at);
}

struct expect { uint32_t type; uint64_t time; uint64_t id; };
static const struct expect order[] = {
	{ PERF_REC_COMM, 0, 100 }, { PERF_REC_FINISHED_ROUND, 0, 0 },
	{ PERF_REC_FINISHED_ROUND, 0, 0 }, { PERF_REC_MMAP2, 500, 101 },
	{ PERF_REC_SAMPLE, 800, 200 }, { PERF_REC_FORK, 900, 100 },
	{ PERF_REC_SAMPLE, 1000, 100 }, { 200, 0, 0 }, { PERF_REC_TIME_CONV, 0, 0 },
	{ PERF_REC_LOST, 1100, 100 }, { PERF_REC_EXIT, 1200, 100 },
	{ PERF_REC_SAMPLE, 1500, 100 }, { PERF_REC_LOST_SAMPLES, 1600, 200 },
	{ PERF_REC_THROTTLE, 1700, 100 }, { PERF_REC_KSYMBOL, 1800, 100 },
};
#define NR_ORDER (sizeof(order) / sizeof(order[0]))

static void check_sample(const struct perf_sample *s, uint64_t id, uint64_t time)
{
	CHECK(s->id == id);
	CHECK(s->ip == 0x401000 + time);
	CHECK(s->pid == 10 && s->tid == 11);
	CHECK(s->time == time);
	CHECK(s->addr == 0xdead);
	CHECK(s->stream_id == 7);
	CHECK(s->cpu == 1);
	CHECK(s->period == 5000);
	CHECK(s->read_size == 48);
	CHECK(s->nr_callchain == 3 && s->callchain && s->callchain[0] == PERF_CONTEXT_USER &&
	      s->callchain[2] == 0x402000);
	CHECK(s->raw_size == 4 && s->raw && !memcmp(s->raw, "abcd", 4));
	CHECK(s->nr_branches == 1 && s->has_branch_hw_idx && s->branch_hw_idx == 5);
	CHECK(s->branches && s->branches[0] == 1 && s->branches[8] == 2 && s->branches[16] == 3);
	CHECK(s->user_regs_abi == 2 && s->user_regs_mask == 5 && s->user_regs &&
	      s->user_regs[0] == 11 && s->user_regs[1] == 22);
	CHECK(s->user_stack_size == 16 && s->user_stack_dyn_size == 8 && s->user_stack &&
	      !memcmp(s->user_stack, "0123456789abcdef", 16));
	CHECK(s->weight == 77 && s->data_src == 88 && s->transaction == 99);
	CHECK(s->intr_regs_abi == 2 && s->intr_regs && s->intr_regs[0] == 33);
	CHECK(s->phys_addr == 0x1234 && s->cgroup == 55);
	CHECK(s->data_page_size == 4096 && s->code_page_size == 8192);
	CHECK(s->aux_size == 8 && s->aux && !memcmp(s->aux, "AUXDATA!", 8));
}

/* Reads every record of PATH and checks order and contents; FILE_MODE says whether the
 * header features are expected. */
/* WINDOW: the reader's window_bytes (0: its default); a tiny one wraps over records
 * still queued, which must come back intact all the same. */
static void check_reader(const char *path, int file_mode, int compressed, size_t window)
{
	struct perf_reader_options opts = { .window_bytes = window };
	struct perf_reader *r;
	struct tephra_error err = { { 0 } };
	struct perf_event ev;
	size_t k = 0, nr_compressed = 0;
	int rc;

	if (perf_reader_open(&r, path, &opts, &err)) {
		fprintf(stderr, "%s: open failed: %s\n", path, err.msg);
		failures++;
		return;
	}
	const struct perf_header_info *h = perf_reader_header(r);
	CHECK(h->hostname && !strcmp(h->hostname, "synth"));
	CHECK(h->pipe_mode == !file_mode);
	CHECK(perf_reader_nr_events(r) == 2);
	CHECK(!strcmp(perf_reader_event(r, 0)->name, "cycles:u"));
	CHECK(!strcmp(perf_reader_event(r, 1)->name, "instr"));
	CHECK(perf_reader_event(r, 0)->nr_ids == 2 && perf_reader_event(r, 0)->ids[1] == 101);
	CHECK(perf_reader_event(r, 1)->attr.config == 1);
	CHECK(perf_reader_event(r, 1)->attr.sample_type == ST_ALL);
	if (file_mode) {
		CHECK(h->nr_cpus_avail == 8 && h->nr_cpus_online == 4);
		CHECK(h->cmdline && !strcmp(h->cmdline, "perf record -a"));
		CHECK(h->nr_build_ids == 1);
		if (h->nr_build_ids == 1) {
			CHECK(h->build_ids[0].size == 16 && h->build_ids[0].build_id[15] == 0xaf);
			CHECK(h->build_ids[0].pid == -1);
			CHECK(!strcmp(h->build_ids[0].path, "[kernel.kallsyms]"));
		}
	}
	while ((rc = perf_reader_next(r, &ev, &err)) > 0) {
		uint64_t time, id;

		if (ev.type == PERF_REC_COMPRESSED || ev.type == PERF_REC_COMPRESSED2) {
			nr_compressed++;
			continue;
		}
		CHECK(ev.in_compressed == (compressed && ev.type != PERF_REC_HEADER_ATTR &&
					   ev.type != PERF_REC_HEADER_FEATURE));
		if (ev.type == PERF_REC_HEADER_ATTR || ev.type == PERF_REC_HEADER_FEATURE)
			continue;
		time = ev.type == PERF_REC_SAMPLE ? ev.u.sample.time : ev.sid.time;
		id = ev.type == PERF_REC_SAMPLE ? ev.u.sample.id : ev.sid.id;
		if (k >= NR_ORDER || ev.type != order[k].type || time != order[k].time ||
		    id != order[k].id) {
			fprintf(stderr, "%s: record %zu: type %u time %llu id %llu, want type %u time %llu id %llu\n",
				path, k, ev.type, (unsigned long long)time, (unsigned long long)id,
				k < NR_ORDER ? order[k].type : 0,
				k < NR_ORDER ? (unsigned long long)order[k].time : 0ULL,
				k < NR_ORDER ? (unsigned long long)order[k].id : 0ULL);
			failures++;
			k++;
			continue;
		}
		k++;
		switch (ev.type) {
		case PERF_REC_SAMPLE:
			check_sample(&ev.u.sample, id, time);
			CHECK(ev.desc == perf_reader_event(r, id == 200 ? 1 : 0));
			break;
		case PERF_REC_COMM:
			CHECK(ev.u.comm.exec && !strcmp(ev.u.comm.comm, "prog") && ev.u.comm.pid == 10);
			break;
		case PERF_REC_MMAP2:
			CHECK(ev.u.mmap.start == 0x400000 && ev.u.mmap.len == 0x1000);
			CHECK(ev.u.mmap.build_id_size == 20 && ev.u.mmap.build_id[19] == 20);
			CHECK(ev.u.mmap.prot == 5 && ev.u.mmap.flags == 2);
			CHECK(!strcmp(ev.u.mmap.filename, "/bin/prog"));
			CHECK(ev.desc == perf_reader_event(r, 0));
			break;
		case PERF_REC_FORK:
			CHECK(ev.u.fork.pid == 12 && ev.u.fork.ppid == 10 && ev.u.fork.time == 900);
			break;
		case PERF_REC_LOST:
			CHECK(ev.u.lost.id == 100 && ev.u.lost.lost == 3);
			break;
		case PERF_REC_LOST_SAMPLES:
			CHECK(ev.u.lost_samples.lost == 4 && ev.desc == perf_reader_event(r, 1));
			break;
		case PERF_REC_THROTTLE:
			CHECK(ev.u.throttle.time == 1700 && ev.u.throttle.stream_id == 7);
			break;
		case PERF_REC_KSYMBOL:
			CHECK(ev.u.ksymbol.len == 0x100 && !strcmp(ev.u.ksymbol.name, "bpf_prog"));
			break;
		case PERF_REC_TIME_CONV:
			CHECK(ev.u.time_conv.time_mult == 20 && ev.u.time_conv.time_zero == 30);
			break;
		default:
			break;
		}
	}
	if (rc < 0) {
		fprintf(stderr, "%s: read failed: %s\n", path, err.msg);
		failures++;
	}
	CHECK(k == NR_ORDER);
	CHECK(nr_compressed == (compressed ? 2u : 0u));
	const struct perf_reader_stats *st = perf_reader_stats(r);
	CHECK(st->nr_records[PERF_REC_SAMPLE] == 3);
	CHECK(st->nr_samples_by_event[0] == 2 && st->nr_samples_by_event[1] == 1);
	CHECK(st->nr_lost == 3 && st->nr_lost_samples == 4);
	CHECK(st->nr_unknown_records == 1);
	/* a 64-byte window is refilled over queued records: they were copied out first */
	CHECK(window != 64 || st->window_copies > 0);
	CHECK(window != 0 || st->window_copies == 0);
	perf_reader_close(r);
}

static void write_file(const char *path, const struct buf *b)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(b->p, 1, b->len, f) != b->len || fclose(f)) {
		perror(path);
		exit(2);
	}
}

static void build_file(struct buf *b)
{
	size_t ids_at, data_at, feat_at, sec;
	struct buf d = { 0 };

	put(b, "PERFILE2", 8);
	u64(b, 104);
	u64(b, 144);                     /* attr_size: 128-byte attr + ids section */
	u64(b, 104); u64(b, 288);        /* attrs */
	u64(b, 0); u64(b, 0);            /* data: patched below */
	u64(b, 0); u64(b, 0);            /* event_types */
	u64(b, (1ULL << PERF_FEAT_BUILD_ID) | (1ULL << PERF_FEAT_HOSTNAME) |
	       (1ULL << PERF_FEAT_NRCPUS) | (1ULL << PERF_FEAT_CMDLINE) |
	       (1ULL << PERF_FEAT_EVENT_DESC) | (1ULL << PERF_FEAT_CPU_TOPOLOGY));
	u64(b, 0); u64(b, 0); u64(b, 0);
	attr(b, 0); u64(b, 0); u64(b, 16);
	attr(b, 1); u64(b, 0); u64(b, 8);
	ids_at = b->len;
	u64(b, 100); u64(b, 101); u64(b, 200);
	set64(b, 104 + 128, ids_at);
	set64(b, 104 + 144 + 128, ids_at + 16);
	data_at = b->len;
	data_records(&d);
	put(b, d.p, d.len);
	set64(b, 40, data_at);
	set64(b, 48, d.len);
	feat_at = b->len;
	zeros(b, 6 * 16);
	sec = 0;
	/* BUILD_ID: one entry, 16-byte id (real size in the byte after the 20) */
	{
		size_t s0 = b->len, at = begin(b, 0, PERF_MISC_KERNEL | PERF_MISC_BUILD_ID_SIZE);
		u32(b, (uint32_t)-1);
		for (int i = 0; i < 20; i++)
			u8(b, (uint8_t)(i < 16 ? 0xa0 + i : 0));
		u8(b, 16); u8(b, 0); u16(b, 0);
		fixed_str(b, "[kernel.kallsyms]", 24);
		end(b, at);
		set64(b, feat_at + 16 * sec, s0); set64(b, feat_at + 16 * sec + 8, b->len - s0); sec++;
	}
	{ size_t s0 = b->len; str(b, "synth");
	  set64(b, feat_at + 16 * sec, s0); set64(b, feat_at + 16 * sec + 8, b->len - s0); sec++; }
	{ size_t s0 = b->len; u32(b, 8); u32(b, 4);
	  set64(b, feat_at + 16 * sec, s0); set64(b, feat_at + 16 * sec + 8, b->len - s0); sec++; }
	{ size_t s0 = b->len; u32(b, 3); str(b, "perf"); str(b, "record"); str(b, "-a");
	  set64(b, feat_at + 16 * sec, s0); set64(b, feat_at + 16 * sec + 8, b->len - s0); sec++; }
	{ /* EVENT_DESC, second event first: names must be matched by id */
		size_t s0 = b->len;
		u32(b, 2); u32(b, 128);
		attr(b, 1); u32(b, 1); str(b, "instr"); u64(b, 200);
		attr(b, 0); u32(b, 2); str(b, "cycles:u"); u64(b, 100); u64(b, 101);
		set64(b, feat_at + 16 * sec, s0); set64(b, feat_at + 16 * sec + 8, b->len - s0); sec++;
	}
	{ size_t s0 = b->len; u64(b, 0xabcdef);   /* CPU_TOPOLOGY: not decoded, skipped */
	  set64(b, feat_at + 16 * sec, s0); set64(b, feat_at + 16 * sec + 8, b->len - s0); sec++; }
	free(d.p);
}

/* Pipe mode: header, HEADER_ATTRs, a HOSTNAME and an EVENT_DESC feature, then the data
 * records, either plain or compressed into two COMPRESSED records whose split falls in
 * the middle of a record. */
static void build_pipe(struct buf *b, int compressed)
{
	struct buf d = { 0 }, a = { 0 };
	size_t at;

	put(b, "PERFILE2", 8);
	u64(b, 16);
	at = begin(b, PERF_REC_HEADER_ATTR, 0); attr(b, 0); u64(b, 100); u64(b, 101); end(b, at);
	at = begin(b, PERF_REC_HEADER_ATTR, 0); attr(b, 1); u64(b, 200); end(b, at);
	at = begin(b, PERF_REC_HEADER_FEATURE, 0); u64(b, PERF_FEAT_HOSTNAME); str(b, "synth");
	end(b, at);
	at = begin(b, PERF_REC_HEADER_FEATURE, 0); u64(b, PERF_FEAT_EVENT_DESC);
	u32(b, 2); u32(b, 128);
	attr(b, 0); u32(b, 2); str(b, "cycles:u"); u64(b, 100); u64(b, 101);
	attr(b, 1); u32(b, 1); str(b, "instr"); u64(b, 200);
	end(b, at);
	data_records(&d);
	if (!compressed) {
		put(b, d.p, d.len);
	} else {
		size_t split = 200 + 3; /* inside the MMAP2 record (COMM is 72 bytes) */
		for (int part = 0; part < 2; part++) {
			const unsigned char *src = d.p + (part ? split : 0);
			size_t n = part ? d.len - split : split;
			size_t cap = ZSTD_compressBound(n), z;
			unsigned char *out = malloc(cap);

			z = ZSTD_compress(out, cap, src, n, 3);
			if (ZSTD_isError(z) || z + 8 > 65535) {
				fprintf(stderr, "zstd compress failed\n");
				exit(2);
			}
			/* perf 6.1 writes COMPRESSED unpadded (later records end up at odd
			 * offsets); COMPRESSED2 carries the data size and pads to 8. */
			if (part == 0) {
				at = begin(b, PERF_REC_COMPRESSED, 0);
				put(b, out, z);
			} else {
				at = begin(b, PERF_REC_COMPRESSED2, 0);
				u64(b, z);
				put(b, out, z);
				zeros(b, (8 - z % 8) % 8);
			}
			end(b, at);
			free(out);
		}
	}
	free(d.p);
	free(a.p);
}

static void check_via_pipe(const struct buf *b)
{
	int fds[2], saved = dup(0);
	pid_t pid;

	if (pipe(fds)) {
		perror("pipe");
		exit(2);
	}
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		if (write(fds[1], b->p, b->len) != (ssize_t)b->len)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	dup2(fds[0], 0);
	close(fds[0]);
	check_reader("-", 0, 1, 0);
	dup2(saved, 0);
	close(saved);
	waitpid(pid, NULL, 0);
}

int main(void)
{
	char dir[] = "/tmp/perfdata_synthetic.XXXXXX", path[256];
	struct buf f = { 0 }, p = { 0 }, z = { 0 };
	struct perf_reader *r;
	struct tephra_error err = { { 0 } };

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}
	build_file(&f);
	snprintf(path, sizeof(path), "%s/file.data", dir);
	write_file(path, &f);
	check_reader(path, 1, 0, 0);
	check_reader(path, 1, 0, 64);
	check_reader(path, 1, 0, 256);

	build_pipe(&p, 0);
	snprintf(path, sizeof(path), "%s/pipe.data", dir);
	write_file(path, &p);
	check_reader(path, 0, 0, 0);

	build_pipe(&z, 1);
	snprintf(path, sizeof(path), "%s/zpipe.data", dir);
	write_file(path, &z);
	check_reader(path, 0, 1, 0);
	check_via_pipe(&z);

	/* the same file written by a big-endian machine: refused, with the reason */
	for (int i = 0; i < 4; i++) {
		unsigned char t = f.p[i];
		f.p[i] = f.p[7 - i];
		f.p[7 - i] = t;
	}
	snprintf(path, sizeof(path), "%s/be.data", dir);
	write_file(path, &f);
	CHECK(perf_reader_open(&r, path, NULL, &err) == -1);
	CHECK(strstr(err.msg, "endianness") && strstr(err.msg, "offset 0x0"));
	unlink(path);

	snprintf(path, sizeof(path), "%s/file.data", dir); unlink(path);
	snprintf(path, sizeof(path), "%s/pipe.data", dir); unlink(path);
	snprintf(path, sizeof(path), "%s/zpipe.data", dir); unlink(path);
	rmdir(dir);
	free(f.p); free(p.p); free(z.p);
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures != 0;
}
