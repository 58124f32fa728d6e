# fuzz/build.mk - libFuzzer targets (docs/fuzzing.md); not part of `make all`.
#   make fuzz-build   build every fuzz/fuzz_*.c into build/fuzz/ (clang, libFuzzer,
#                     ASan+UBSan), the library with the same instrumentation
#   make fuzz         build, then run each target FUZZ_SECONDS (default 60) on a working
#                     corpus build/fuzz/corpus/NAME seeded from fuzz/corpus/NAME, one at a
#                     time, one process (the machine's cores are shared); FUZZ_TARGETS
#                     picks some (names as in fuzz/fuzz_NAME.c)
# tests/fuzz/smoke.test.sh runs each briefly with fixed run counts, in `make check`.

FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_BUILD   := build/fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_SRCS    := $(sort $(wildcard fuzz/fuzz_*.c))
FUZZ_NAMES   := $(FUZZ_SRCS:fuzz/fuzz_%.c=%)
FUZZ_BINS    := $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzz_%)
FUZZ_TARGETS ?= $(FUZZ_NAMES)
# What a run may not exceed: a hang, an allocation over 2 GB (docs/fuzzing.md).
FUZZ_LIMITS  := -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048

.PHONY: fuzz fuzz-build
fuzz-build:
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) OPT=-O1 \
		CFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" $(FUZZ_BINS)

# Only meaningful with BUILD=build/fuzz (the fuzz-build recursion above).
$(FUZZ_BUILD)/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz_common.h $(FUZZ_BUILD)/libtephra-internal.a
	$(CC) $(CFLAGS_BASE) -DFUZZ_ROOT='"$(CURDIR)/fuzz/root"' -Ifuzz \
		-fsanitize=fuzzer $(FUZZ_SAN) -o $@ $< $(FUZZ_BUILD)/libtephra-internal.a $(LIBS)

fuzz: fuzz-build
	@for n in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_BUILD)/corpus/$$n; \
		dict=; [ -f fuzz/dict/$$n.dict ] && dict=-dict=fuzz/dict/$$n.dict; \
		echo "fuzz: $$n for $(FUZZ_SECONDS) s"; \
		$(FUZZ_BUILD)/fuzz_$$n $(FUZZ_LIMITS) $$dict \
			-max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
			-artifact_prefix=$(FUZZ_BUILD)/$$n- \
			$(FUZZ_BUILD)/corpus/$$n fuzz/corpus/$$n || exit 1; \
	done
-include $(FUZZ_BINS:=.d)
