/* perf_names.c - the names perf prints for record types, features and sample_type bits. */
#include <stdio.h>
#include <string.h>

#include "perfdata/perf_reader.h"

#define REC(x) "PERF_RECORD_" #x

const char *perf_record_type_name(uint32_t type)
{
	static const char *const kernel[] = {
		REC(MMAP), REC(LOST), REC(COMM), REC(EXIT), REC(THROTTLE), REC(UNTHROTTLE), REC(FORK),
		REC(READ), REC(SAMPLE), REC(MMAP2), REC(AUX), REC(ITRACE_START), REC(LOST_SAMPLES),
		REC(SWITCH), REC(SWITCH_CPU_WIDE), REC(NAMESPACES), REC(KSYMBOL), REC(BPF_EVENT),
		REC(CGROUP), REC(TEXT_POKE), REC(AUX_OUTPUT_HW_ID),
	};
	static const char *const user[] = {
		REC(ATTR), REC(EVENT_TYPE), REC(TRACING_DATA), REC(BUILD_ID), REC(FINISHED_ROUND),
		REC(ID_INDEX), REC(AUXTRACE_INFO), REC(AUXTRACE), REC(AUXTRACE_ERROR), REC(THREAD_MAP),
		REC(CPU_MAP), REC(STAT_CONFIG), REC(STAT), REC(STAT_ROUND), REC(EVENT_UPDATE),
		REC(TIME_CONV), REC(FEATURE), REC(COMPRESSED), REC(FINISHED_INIT), REC(COMPRESSED2),
	};

	if (type >= 1 && type < 1 + sizeof(kernel) / sizeof(kernel[0]))
		return kernel[type - 1];
	if (type >= PERF_REC_HEADER_ATTR &&
	    type - PERF_REC_HEADER_ATTR < sizeof(user) / sizeof(user[0]))
		return user[type - PERF_REC_HEADER_ATTR];
	return NULL;
}

const char *perf_feature_name(unsigned bit)
{
	static const char *const names[] = {
		"RESERVED", "TRACING_DATA", "BUILD_ID", "HOSTNAME", "OSRELEASE", "VERSION", "ARCH",
		"NRCPUS", "CPUDESC", "CPUID", "TOTAL_MEM", "CMDLINE", "EVENT_DESC", "CPU_TOPOLOGY",
		"NUMA_TOPOLOGY", "BRANCH_STACK", "PMU_MAPPINGS", "GROUP_DESC", "AUXTRACE", "STAT",
		"CACHE", "SAMPLE_TIME", "MEM_TOPOLOGY", "CLOCKID", "DIR_FORMAT", "BPF_PROG_INFO",
		"BPF_BTF", "COMPRESSED", "CPU_PMU_CAPS", "CLOCK_DATA", "HYBRID_TOPOLOGY", "PMU_CAPS",
	};
	return bit < sizeof(names) / sizeof(names[0]) ? names[bit] : NULL;
}

const char *perf_sample_type_string(uint64_t sample_type, char *buf, size_t size)
{
	static const char *const bits[] = {
		"IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU", "PERIOD",
		"STREAM_ID", "RAW", "BRANCH_STACK", "REGS_USER", "STACK_USER", "WEIGHT",
		"DATA_SRC", "IDENTIFIER", "TRANSACTION", "REGS_INTR", "PHYS_ADDR", "AUX",
		"CGROUP", "DATA_PAGE_SIZE", "CODE_PAGE_SIZE", "WEIGHT_STRUCT",
	};
	size_t len = 0;

	if (size)
		buf[0] = 0;
	for (unsigned i = 0; i < 64; i++) {
		char tmp[32];
		int n;

		if (!(sample_type >> i & 1))
			continue;
		if (i < sizeof(bits) / sizeof(bits[0]))
			snprintf(tmp, sizeof(tmp), "%s", bits[i]);
		else
			snprintf(tmp, sizeof(tmp), "bit%u", i);
		n = snprintf(buf + len, size > len ? size - len : 0, "%s%s", len ? "|" : "", tmp);
		if (n < 0 || len + (size_t)n >= size)
			break;
		len += (size_t)n;
	}
	return buf;
}
