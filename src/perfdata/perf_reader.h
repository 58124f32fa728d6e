/* perf_reader.h - decodes a perf.data file (or a pipe-mode stream, or a perf.data
 * directory) into events.
 *
 * The reader knows bytes, not symbols: it parses the header, the attrs, the feature
 * sections and every record, decompresses COMPRESSED/COMPRESSED2 records (zstd), and
 * delivers records in timestamp order within the windows FINISHED_ROUND closes, the way
 * perf's ordered-events queue does.  Pointers inside a delivered event stay valid until
 * the next perf_reader_next() call.
 *
 * Bad input never crashes: every length is checked against the bytes actually present,
 * and the first problem is reported once through struct tephra_error
 * ("FILE: offset 0xOFF: what"). */
#ifndef TEPHRA_PERFDATA_PERF_READER_H
#define TEPHRA_PERFDATA_PERF_READER_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/report.h"

/* Record types (include/uapi/linux/perf_event.h and perf's user records). */
enum perf_record_type {
	PERF_REC_MMAP = 1,
	PERF_REC_LOST = 2,
	PERF_REC_COMM = 3,
	PERF_REC_EXIT = 4,
	PERF_REC_THROTTLE = 5,
	PERF_REC_UNTHROTTLE = 6,
	PERF_REC_FORK = 7,
	PERF_REC_READ = 8,
	PERF_REC_SAMPLE = 9,
	PERF_REC_MMAP2 = 10,
	PERF_REC_AUX = 11,
	PERF_REC_ITRACE_START = 12,
	PERF_REC_LOST_SAMPLES = 13,
	PERF_REC_SWITCH = 14,
	PERF_REC_SWITCH_CPU_WIDE = 15,
	PERF_REC_NAMESPACES = 16,
	PERF_REC_KSYMBOL = 17,
	PERF_REC_BPF_EVENT = 18,
	PERF_REC_CGROUP = 19,
	PERF_REC_TEXT_POKE = 20,
	PERF_REC_AUX_OUTPUT_HW_ID = 21,
	/* perf's own (user) records */
	PERF_REC_HEADER_ATTR = 64,
	PERF_REC_HEADER_EVENT_TYPE = 65,
	PERF_REC_HEADER_TRACING_DATA = 66,
	PERF_REC_HEADER_BUILD_ID = 67,
	PERF_REC_FINISHED_ROUND = 68,
	PERF_REC_ID_INDEX = 69,
	PERF_REC_AUXTRACE_INFO = 70,
	PERF_REC_AUXTRACE = 71,
	PERF_REC_AUXTRACE_ERROR = 72,
	PERF_REC_THREAD_MAP = 73,
	PERF_REC_CPU_MAP = 74,
	PERF_REC_STAT_CONFIG = 75,
	PERF_REC_STAT = 76,
	PERF_REC_STAT_ROUND = 77,
	PERF_REC_EVENT_UPDATE = 78,
	PERF_REC_TIME_CONV = 79,
	PERF_REC_HEADER_FEATURE = 80,
	PERF_REC_COMPRESSED = 81,
	PERF_REC_FINISHED_INIT = 82,
	PERF_REC_COMPRESSED2 = 83,
};

/* header.misc bits */
#define PERF_MISC_CPUMODE_MASK 0x7
#define PERF_MISC_CPUMODE_UNKNOWN 0
#define PERF_MISC_KERNEL 1
#define PERF_MISC_USER 2
#define PERF_MISC_HYPERVISOR 3
#define PERF_MISC_GUEST_KERNEL 4
#define PERF_MISC_GUEST_USER 5
#define PERF_MISC_MMAP_BUILD_ID (1 << 14)
#define PERF_MISC_COMM_EXEC (1 << 13)
#define PERF_MISC_SWITCH_OUT (1 << 13) /* SWITCH records: out, not in */
#define PERF_MISC_SWITCH_OUT_PREEMPT (1 << 14) /* ... out, and the task was preempted */
#define PERF_MISC_BUILD_ID_SIZE (1 << 15) /* in BUILD_ID feature records */

/* sample_type bits, in the kernel's order of fields inside a sample record */
#define PERF_ST_IP (1ULL << 0)
#define PERF_ST_TID (1ULL << 1)
#define PERF_ST_TIME (1ULL << 2)
#define PERF_ST_ADDR (1ULL << 3)
#define PERF_ST_READ (1ULL << 4)
#define PERF_ST_CALLCHAIN (1ULL << 5)
#define PERF_ST_ID (1ULL << 6)
#define PERF_ST_CPU (1ULL << 7)
#define PERF_ST_PERIOD (1ULL << 8)
#define PERF_ST_STREAM_ID (1ULL << 9)
#define PERF_ST_RAW (1ULL << 10)
#define PERF_ST_BRANCH_STACK (1ULL << 11)
#define PERF_ST_REGS_USER (1ULL << 12)
#define PERF_ST_STACK_USER (1ULL << 13)
#define PERF_ST_WEIGHT (1ULL << 14)
#define PERF_ST_DATA_SRC (1ULL << 15)
#define PERF_ST_IDENTIFIER (1ULL << 16)
#define PERF_ST_TRANSACTION (1ULL << 17)
#define PERF_ST_REGS_INTR (1ULL << 18)
#define PERF_ST_PHYS_ADDR (1ULL << 19)
#define PERF_ST_AUX (1ULL << 20)
#define PERF_ST_CGROUP (1ULL << 21)
#define PERF_ST_DATA_PAGE_SIZE (1ULL << 22)
#define PERF_ST_CODE_PAGE_SIZE (1ULL << 23)
#define PERF_ST_WEIGHT_STRUCT (1ULL << 24)

/* callchain context markers (values above PERF_CONTEXT_MAX are markers, not addresses) */
#define PERF_CONTEXT_HV ((uint64_t)-32)
#define PERF_CONTEXT_KERNEL ((uint64_t)-128)
#define PERF_CONTEXT_USER ((uint64_t)-512)
#define PERF_CONTEXT_GUEST ((uint64_t)-2048)
#define PERF_CONTEXT_GUEST_KERNEL ((uint64_t)-2176)
#define PERF_CONTEXT_GUEST_USER ((uint64_t)-2560)
#define PERF_CONTEXT_MAX ((uint64_t)-4095)

/* The fields of perf_event_attr that tephra uses (decoded from any attr size). */
struct perf_attr {
	uint32_t type;
	uint32_t size;
	uint64_t config;
	uint64_t sample_period_or_freq;
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t flags; /* the bitfield word: disabled, inherit, ..., freq (bit 10), sample_id_all (bit 18), exclude_callchain_user ... */
	uint32_t wakeup;
	uint32_t bp_type;
	uint64_t config1;
	uint64_t config2;
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint32_t sample_stack_user;
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack;
};
#define PERF_ATTR_FLAG_FREQ (1ULL << 10)
#define PERF_ATTR_FLAG_SAMPLE_ID_ALL (1ULL << 18)
#define PERF_ATTR_TYPE_TRACEPOINT 2 /* perf_event_attr.type */

/* read_format bits: the layout of a sample's READ block */
#define PERF_FORMAT_TOTAL_TIME_ENABLED (1ULL << 0)
#define PERF_FORMAT_TOTAL_TIME_RUNNING (1ULL << 1)
#define PERF_FORMAT_ID (1ULL << 2)
#define PERF_FORMAT_GROUP (1ULL << 3)
#define PERF_FORMAT_LOST (1ULL << 4)

struct tp_event;
struct tp_formats;

struct perf_event_desc {
	struct perf_attr attr;
	const char *name; /* from EVENT_DESC ("cpu-clock:ppp"), else from the tracing data
			   * for tracepoints ("sched:sched_switch"), else synthesized as perf does */
	const struct tp_event *tp; /* a tracepoint's format (tracepoint/trace_format.h), or NULL */
	const uint64_t *ids;
	size_t nr_ids;
};

struct perf_build_id_entry {
	int32_t pid;
	uint16_t misc;    /* cpumode: kernel or user */
	uint8_t size;     /* build-id length in bytes (20 when not recorded) */
	uint8_t build_id[20];
	const char *path; /* "[kernel.kallsyms]", "/usr/lib/…", "[vdso]", module names */
};

/* Header information: whatever of it the file carries (NULL / 0 when absent). */
struct perf_header_info {
	int pipe_mode;
	int big_endian;           /* the file was written on the other endianness */
	uint64_t features[4];     /* HEADER_* feature bitmap (256 bits) */
	const char *hostname;
	const char *osrelease;
	const char *version;
	const char *arch;         /* "x86_64", "aarch64", … */
	const char *cpudesc;
	const char *cpuid;
	const char *cmdline;      /* the recorded command line, arguments joined by spaces */
	uint32_t nr_cpus_avail;
	uint32_t nr_cpus_online;
	uint64_t total_mem;
	const struct perf_build_id_entry *build_ids;
	size_t nr_build_ids;
	int has_sample_time;      /* the SAMPLE_TIME feature: the first and last sample's time */
	uint64_t first_sample_time, last_sample_time;
	int directory;            /* a perf.data directory (perf record --threads) */
	unsigned nr_data_files;   /* its data.N files that hold records */
	int unfinished;           /* data size 0: perf record did not finish (killed); like
				   * perf, the reader then delivers no records and no features
				   * (lenient: the records up to the end of the file) */
	int data_cut;             /* the data section runs past the end of the file (lenient:
				   * read up to the end of the file) */
	/* Where things are in the file (0 in pipe mode). */
	uint64_t file_size;
	uint64_t data_offset, data_size;
	uint64_t feat_offset;
};

/* Feature bits (HEADER_* in perf's header.h). */
enum perf_feature {
	PERF_FEAT_TRACING_DATA = 1, PERF_FEAT_BUILD_ID, PERF_FEAT_HOSTNAME, PERF_FEAT_OSRELEASE,
	PERF_FEAT_VERSION, PERF_FEAT_ARCH, PERF_FEAT_NRCPUS, PERF_FEAT_CPUDESC, PERF_FEAT_CPUID,
	PERF_FEAT_TOTAL_MEM, PERF_FEAT_CMDLINE, PERF_FEAT_EVENT_DESC, PERF_FEAT_CPU_TOPOLOGY,
	PERF_FEAT_NUMA_TOPOLOGY, PERF_FEAT_BRANCH_STACK, PERF_FEAT_PMU_MAPPINGS,
	PERF_FEAT_GROUP_DESC, PERF_FEAT_AUXTRACE, PERF_FEAT_STAT, PERF_FEAT_CACHE,
	PERF_FEAT_SAMPLE_TIME, PERF_FEAT_MEM_TOPOLOGY, PERF_FEAT_CLOCKID, PERF_FEAT_DIR_FORMAT,
	PERF_FEAT_BPF_PROG_INFO, PERF_FEAT_BPF_BTF, PERF_FEAT_COMPRESSED, PERF_FEAT_CPU_PMU_CAPS,
	PERF_FEAT_CLOCK_DATA, PERF_FEAT_HYBRID_TOPOLOGY, PERF_FEAT_PMU_CAPS,
};

/* "PERF_RECORD_SAMPLE", "PERF_RECORD_MMAP2", … as perf names them; NULL when unknown. */
const char *perf_record_type_name(uint32_t type);
/* "HOSTNAME", "EVENT_DESC", …; NULL when unknown. */
const char *perf_feature_name(unsigned bit);
/* "IP|TID|TIME|CALLCHAIN|PERIOD" into BUF (as `perf report --header-only` prints it). */
const char *perf_sample_type_string(uint64_t sample_type, char *buf, size_t size);

/* A parsed sample (fields absent from sample_type are 0 / NULL). */
struct perf_sample {
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu;
	uint64_t period;
	uint64_t nr_callchain;
	const uint64_t *callchain; /* raw entries, with PERF_CONTEXT_* markers */
	uint32_t raw_size;
	const uint8_t *raw;
	uint64_t nr_branches;
	const uint8_t *branches; /* 24 bytes each: from, to, flags */
	uint64_t user_regs_abi;  /* 0 none, 1 32-bit, 2 64-bit */
	uint64_t user_regs_mask; /* = attr.sample_regs_user */
	const uint64_t *user_regs; /* popcount(mask) values, lowest bit first */
	uint64_t user_stack_size;  /* bytes copied in the record */
	uint64_t user_stack_dyn_size; /* bytes that were valid (<= size) */
	const uint8_t *user_stack;
	uint64_t weight;
	uint64_t data_src;
	uint64_t transaction;
	uint64_t phys_addr;
	uint64_t cgroup;
	/* Fields added by the decoder (rarer sample_type bits). */
	int has_branch_hw_idx;     /* branch_sample_type has PERF_BRANCH_HW_INDEX */
	uint64_t branch_hw_idx;
	const uint8_t *read;       /* the READ block as recorded (layout set by read_format) */
	uint64_t read_size;        /* its size in bytes */
	uint64_t intr_regs_abi;
	uint64_t intr_regs_mask;   /* = attr.sample_regs_intr */
	const uint64_t *intr_regs;
	uint64_t data_page_size;
	uint64_t code_page_size;
	uint64_t aux_size;
	const uint8_t *aux;
};
#define PERF_BRANCH_HW_INDEX (1ULL << 17) /* branch_sample_type bit */

/* The sample_id_all trailer of non-sample records (valid when has_id). */
struct perf_sample_id {
	int has_id;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu;
};

struct perf_event {
	uint32_t type;  /* enum perf_record_type */
	uint16_t misc;
	uint16_t size;
	int64_t file_offset; /* where the record starts in the file (or stream); for a record
			      * that came out of a COMPRESSED record, where that COMPRESSED
			      * record starts (as `perf script -D` shows it) */
	int in_compressed;   /* 1 when the record came out of a COMPRESSED record */
	const uint8_t *record; /* the record's own bytes (size of them, header included),
				* 8-aligned, for types this header does not decode */
	const struct perf_event_desc *desc; /* the event this record belongs to (by id), or NULL */
	size_t desc_index;
	struct perf_sample_id sid;          /* for non-sample records */
	union {
		struct perf_sample sample;
		struct {
			uint32_t pid, tid;
			uint64_t start, len, pgoff;
			/* MMAP2 only: inode form, or the build-id form when misc has PERF_MISC_MMAP_BUILD_ID */
			uint32_t maj, min;
			uint64_t ino, ino_generation;
			uint32_t prot, flags;
			/* MMAP2 of a kernel before 3.16 (RHEL 7's 3.10): no prot and flags (0 here) */
			uint8_t old_mmap2;
			uint8_t build_id_size;
			uint8_t build_id[20];
			const char *filename;
		} mmap;
		struct {
			uint32_t pid, tid;
			const char *comm;
			int exec; /* misc & PERF_MISC_COMM_EXEC */
		} comm;
		struct {
			uint32_t pid, ppid, tid, ptid;
			uint64_t time;
		} fork; /* FORK and EXIT */
		struct {
			uint64_t id, lost;
		} lost;
		struct {
			uint64_t lost;
		} lost_samples;
		struct {
			uint64_t time, id, stream_id;
		} throttle;
		struct {
			uint64_t addr;
			uint32_t len;
			uint16_t ksym_type, flags;
			const char *name;
		} ksymbol;
		struct {
			uint64_t time_shift, time_mult, time_zero;
		} time_conv;
	} u;
};

/* A sample's period as perf gives it: without PERIOD in the samples (a fixed period, -c)
 * every sample has the event's sample_period. */
static inline uint64_t perf_sample_period(const struct perf_event *ev)
{
	if (ev->desc && !(ev->desc->attr.sample_type & PERF_ST_PERIOD) &&
	    !(ev->desc->attr.flags & PERF_ATTR_FLAG_FREQ))
		return ev->desc->attr.sample_period_or_freq;
	return ev->u.sample.period;
}

struct perf_reader;

struct perf_reader_options {
	int unordered;            /* deliver in file order (no sorting) */
	/* Damaged input keeps what is whole (as perf does): a stream or file that ends
	 * inside a record, junk after the last record, a data section cut short or left
	 * at size 0 by a killed perf record (read to the end of the file), an undecodable
	 * record (skipped) are one warning each through REPORT, not an error; the reader
	 * delivers every whole record before the damage and then ends.  Without it the
	 * first such problem is the error of perf_reader_next. */
	int lenient;
	const struct tephra_report *report; /* progress, in bytes of the file (may be NULL) */
	/* A file-mode perf.data's records are read through a reused window of this many
	 * bytes (0: 4 MB, or the file's size if smaller, doubled up to 64 MB while rounds
	 * are longer); tests make it tiny so that it wraps over records still queued. */
	size_t window_bytes;
	/* perf -f: read a file owned by another user than root and the one running us
	 * (refused otherwise, as perf does: base/file_owner.h; standard input is not
	 * checked) */
	int force;
};

/* Opens PATH: a perf.data file, a pipe-mode stream saved to a file, a perf.data
 * directory (perf record --threads), or "-" for standard input (pipe mode streamed; a
 * file-mode perf.data on a pipe is read into memory first).  On return all attrs and
 * header features that precede the first data record are known.  Returns 0, or -1 with
 * ERR. */
int perf_reader_open(struct perf_reader **out, const char *path,
		     const struct perf_reader_options *opts, struct tephra_error *err);

const struct perf_header_info *perf_reader_header(const struct perf_reader *r);
size_t perf_reader_nr_events(const struct perf_reader *r);
const struct perf_event_desc *perf_reader_event(const struct perf_reader *r, size_t i);
/* The index of the event whose id list holds ID, or -1. */
long perf_reader_event_by_id(const struct perf_reader *r, uint64_t id);
/* The tracepoint formats of the recording (NULL when it has no tracing data). */
const struct tp_formats *perf_reader_tracepoints(const struct perf_reader *r);

/* Delivers the next record (after decompression and ordering).  Returns 1 with EV
 * filled, 0 at the end, -1 with ERR on bad input (events delivered before stay valid
 * results: callers keep what they have, report ERR, and exit non-zero). */
int perf_reader_next(struct perf_reader *r, struct perf_event *ev, struct tephra_error *err);

/* Statistics gathered while reading (for `tephra stat` and the quality report). */
struct perf_reader_stats {
	uint64_t nr_records[128];
	uint64_t nr_records_total;  /* every record read (decompressed ones included) */
	uint64_t nr_lost;          /* sum of LOST.lost */
	uint64_t nr_lost_samples;  /* sum of LOST_SAMPLES.lost */
	uint64_t nr_unknown_records;
	uint64_t bytes_read;
	const uint64_t *nr_samples_by_event; /* indexed like perf_reader_event() */
	uint64_t nr_samples_no_event;        /* samples whose id matched no event */
	uint64_t nr_samples_guest;           /* samples taken in a guest (cpumode GUEST_KERNEL
					      * or GUEST_USER: a perf kvm recording) */
	uint64_t nr_out_of_order;            /* timestamps below an already flushed one */
	uint64_t window_copies;     /* records copied out of the read window before it was
				     * refilled over them (still queued) */
	uint64_t nr_rounds;                  /* FINISHED_ROUND flushes */
	uint64_t max_queued;                 /* most records held by the ordering queue */
	uint64_t aux_bytes;                  /* AUXTRACE payload bytes (hardware traces), not decoded */
	int damaged;                         /* lenient: damage was warned about */
	uint64_t nr_skipped;                 /* lenient: undecodable records skipped */
};
const struct perf_reader_stats *perf_reader_stats(const struct perf_reader *r);

/* The samples lost, counted once.  The kernel writes a LOST record when it drops
 * samples from a full buffer; perf record (6.x) reads the same drops per event and CPU
 * at the end (the read format's lost count) and writes them again as LOST_SAMPLES
 * (tests/quality/lost.test.sh: 1295 and 1295 for one recording).  Either may be
 * missing (older perf; a LOST not flushed), so the larger is the count. */
static inline uint64_t perf_reader_stats_lost(const struct perf_reader_stats *s)
{
	return s->nr_lost > s->nr_lost_samples ? s->nr_lost : s->nr_lost_samples;
}

void perf_reader_close(struct perf_reader *r);

#endif
