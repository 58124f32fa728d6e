# tephra - top-level build.
#   make            build build/tephra, the libraries (build/libtephra.{a,so}), the tools
#                   in */build.mk, man pages and unit tests
#   make install    install under PREFIX (/usr/local; DESTDIR honoured); make uninstall
#   make deb        build the Debian packages (dpkg-buildpackage) into build/deb/
#   make check      install what is missing, build (plain and ASan+UBSan), run every test
#                   (strict: a skip fails unless tests/skip-allowed names it; docs/testing.md)
#   make demo       install what is missing, build, profile the bundled demo, write a flame graph
#   make bench      run the benchmarks in bench/ (not part of check)
# Modules add to the build through their own build.mk fragment, so this file stays small.

BUILD   ?= build
CC      ?= gcc
SAN     ?=
OPT     ?= -O2
PKGS    := libdw libelf libzstd zlib libdeflate
PKG_CONFIG ?= pkg-config

WARN    := -Wall -Wextra -Werror -Wno-missing-field-initializers
TEPHRA_VERSION := $(shell cat VERSION)
CFLAGS_BASE := -std=gnu11 $(WARN) -g $(OPT) -D_GNU_SOURCE -Isrc -I$(BUILD)/include -Iinclude -MMD -MP \
	$(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
ifeq ($(SAN),1)
CFLAGS_BASE += -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
LDFLAGS_SAN := -fsanitize=address,undefined
endif
LIBS    := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null || echo -ldw -lelf -lzstd -lz -ldeflate) -liberty -lpthread -lm

# Before anything compiles, the build packages are checked as a configure step would
# check them: the missing Debian packages are named (scripts/check-build-deps).  Not for
# the targets that install them first and then run make again.
ifeq ($(filter check demo deps deps-test deps-demo clean,$(MAKECMDGOALS)),)
ifneq ($(shell scripts/check-build-deps "$(CC)" "$(PKG_CONFIG)" >&2 || echo missing),)
$(error the build packages above are missing)
endif
endif

LIB_SRCS := $(sort $(wildcard src/*/*.c))
CLI_SRCS := $(sort $(wildcard cli/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/obj/%.o)
UNIT_SRCS := $(sort $(wildcard tests/unit/*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

TEPHRA  := $(BUILD)/tephra
# What the CLI, unit tests and test drivers link: every library object, internal names
# included.  The public libtephra.a and libtephra.so (dist/build.mk) export only the
# TEPHRA_API calls (src/base/api.h).
LIBTEPHRA := $(BUILD)/libtephra-internal.a

# Extra targets contributed by build.mk fragments (Valgrind tool, QEMU plugin, …).
EXTRA_ALL :=

.PHONY: all check demo bench deps deps-test deps-demo clean unit asan tsan installable install \
	uninstall deb
all: $(TEPHRA) $(LIBTEPHRA) $(UNIT_BINS)

-include $(sort $(wildcard */build.mk src/*/build.mk))

all: $(EXTRA_ALL)
installable: $(INSTALLABLE)

# Position-independent with hidden names: the same objects make the CLI, the internal
# archive and libtephra.so, which exports only what src/base/api.h marks.
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -fPIC -fvisibility=hidden $(OBJ_DEFS) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<
# The flags live here: changing them must rebuild the objects.
$(LIB_OBJS) $(CLI_OBJS): Makefile

$(LIBTEPHRA): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(TEPHRA): $(CLI_OBJS) $(LIBTEPHRA)
	$(CC) $(LDFLAGS_SAN) $(LDFLAGS) -o $@ $(CLI_OBJS) $(LIBTEPHRA) $(LIBS)

$(BUILD)/tests/%: tests/unit/%.c $(LIBTEPHRA)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) $(LDFLAGS_SAN) $(UNIT_LDFLAGS) -Itests -o $@ $< $(LIBTEPHRA) $(LIBS)
# It counts the calls that reach the library's out-of-line tephra_trace_step and _charge.
$(BUILD)/tests/trace_inline: UNIT_LDFLAGS = -Wl,--wrap=tephra_trace_step -Wl,--wrap=tephra_trace_charge

deps:
	@scripts/install-deps build
deps-test:
	@scripts/install-deps test
deps-demo:
	@scripts/install-deps demo

# The sanitizer build lives in its own tree so both can coexist.
asan:
	@$(MAKE) --no-print-directory BUILD=build/asan SAN=1 OPT=-O1 all

# ThreadSanitizer build of the CLI alone: the fold's helper threads are checked with it
# (tests/perf-dwarf/threads.test.sh).
tsan:
	@$(MAKE) --no-print-directory BUILD=build/tsan SAN= OPT=-O1 \
		CFLAGS="-fsanitize=thread" LDFLAGS="-fsanitize=thread" build/tsan/tephra

check: deps-test
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory asan
	@$(MAKE) --no-print-directory tsan
	@TEPHRA_STRICT_SKIPS=1 tests/run-all

demo: deps-demo
	@$(MAKE) --no-print-directory all
	@scripts/demo

bench: all
	@bench/run-all

clean:
	rm -rf build

# What each object and test binary was built from (-MMD -MP): editing a header rebuilds
# what includes it.  Tools and drivers of build.mk fragments include their own.
-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(UNIT_BINS:=.d)
