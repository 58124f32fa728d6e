# grind/build.mk - the Valgrind tool behind `tephra grind`.
#
# A Valgrind tool is a static executable linked against Valgrind's own core
# (libcoregrind) and VEX; it runs on no libc, only the pub_tool_* API.  We build it
# against the static libraries of the installed Valgrind (pkg-config valgrind) and
# lay out build/grind/lib so /usr/bin/valgrind can load it through VALGRIND_LIB:
# our tool beside symlinks to the stock preload objects and suppressions.
#
# The compile and link flags follow what Valgrind's build documents for tools:
# freestanding code (-fno-builtin, no stack protector, no PIE), static link with
# no default libraries or start files (coregrind supplies _start), and the text
# placed at the platform's load address (valt_load_address in valgrind.pc).

GRIND_PKG      := valgrind
GRIND_PLATFORM := $(shell pkg-config --variable=platform $(GRIND_PKG) 2>/dev/null)
GRIND_LOADADDR := $(shell pkg-config --variable=valt_load_address $(GRIND_PKG) 2>/dev/null)
GRIND_VERSION  := $(shell pkg-config --modversion $(GRIND_PKG) 2>/dev/null)
GRIND_LIBDIR   := $(shell pkg-config --variable=libdir $(GRIND_PKG) 2>/dev/null)/valgrind
# Where the distribution keeps the preload objects and suppressions the launcher needs.
GRIND_STOCK    := $(firstword $(wildcard /usr/libexec/valgrind /usr/lib/x86_64-linux-gnu/valgrind /usr/lib/valgrind))

ifneq ($(GRIND_PLATFORM),)
GRIND_OUT     := $(BUILD)/grind
GRIND_LIB     := $(GRIND_OUT)/lib
GRIND_TOOL    := $(GRIND_LIB)/tephragrind-$(GRIND_PLATFORM)
GRIND_SRCS    := $(sort $(wildcard grind/*.c)) $(sort $(wildcard src/callstack/*.c))
GRIND_OBJS    := $(GRIND_SRCS:%.c=$(GRIND_OUT)/obj/%.o)
GRIND_ARCH_DEFS := $(shell echo $(GRIND_PLATFORM) | sed 's/\(.*\)-\(.*\)/-DVGA_\1=1 -DVGO_\2=1 -DVGP_\1_\2=1 -DVGPV_\1_\2_vanilla=1/')

# No sanitizers here even in the ASan tree: the tool has no libc to report through.
GRIND_CFLAGS := -std=gnu11 $(WARN) -Wno-unused-parameter -g -O2 -m64 \
	-fno-strict-aliasing -fno-builtin -fno-stack-protector -fomit-frame-pointer \
	-fno-pie -fno-pic -fno-asynchronous-unwind-tables \
	$(GRIND_ARCH_DEFS) \
	-Igrind -Isrc -Iinclude $(shell pkg-config --cflags $(GRIND_PKG)) -MMD -MP
GRIND_LDFLAGS := -m64 -static -nodefaultlibs -nostartfiles -no-pie -u _start \
	-Wl,--build-id=none -Wl,-Ttext-segment=$(GRIND_LOADADDR)
GRIND_LIBS    := -L$(GRIND_LIBDIR) -lcoregrind-$(GRIND_PLATFORM) -lvex-$(GRIND_PLATFORM) -lgcc

GRIND_STOCK_FILES := vgpreload_core-$(GRIND_PLATFORM).so default.supp
GRIND_LINKS := $(GRIND_STOCK_FILES:%=$(GRIND_LIB)/%)

EXTRA_ALL += $(GRIND_TOOL) $(GRIND_LINKS) $(GRIND_LIB)/VERSION

$(GRIND_OUT)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(GRIND_CFLAGS) -c -o $@ $<

$(GRIND_TOOL): $(GRIND_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(GRIND_LDFLAGS) -o $@ $^ $(GRIND_LIBS)

$(GRIND_LINKS): $(GRIND_LIB)/%:
	@mkdir -p $(dir $@)
	ln -sf $(GRIND_STOCK)/$* $@

# The launcher compares this with `valgrind --version` before running the tool.
$(GRIND_LIB)/VERSION: $(GRIND_TOOL)
	echo 'valgrind-$(GRIND_VERSION)' > $@

-include $(GRIND_OBJS:.o=.d)
endif
