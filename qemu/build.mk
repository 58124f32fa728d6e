# qemu/build.mk - the QEMU TCG plugin: $(BUILD)/qemu/libtephra-qemu.so
# Built position-independent from its own sources plus the shared core it needs
# (callstack, riscv, trace symbol tables, fold table, demangler); links libelf for guest
# symbols and libiberty (position-independent on Debian) to demangle them.
QEMU_PLUGIN := $(BUILD)/qemu/libtephra-qemu.so
QEMU_PLUGIN_SRCS := $(wildcard qemu/*.c) $(wildcard src/callstack/*.c) $(wildcard src/riscv/*.c) \
	src/trace/guest_elf.c src/trace/guest_syms.c src/trace/guest_modules.c src/trace/trace_fold.c \
	src/fold/fold_table.c src/base/hashmap.c src/base/strbuf.c src/base/xalloc.c src/base/error.c \
	src/base/out_file.c \
	src/symbol/symbol_demangle.c
QEMU_PLUGIN_OBJS := $(QEMU_PLUGIN_SRCS:%.c=$(BUILD)/qemu/obj/%.o)
EXTRA_ALL += $(QEMU_PLUGIN)

# Never sanitized, not even in the ASan tree: it is loaded into an uninstrumented QEMU.
QEMU_PLUGIN_CFLAGS := $(filter-out -fsanitize% -fno-sanitize%,$(CFLAGS_BASE) $(CFLAGS))

$(BUILD)/qemu/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(QEMU_PLUGIN_CFLAGS) -fPIC -fvisibility=hidden -I. -c -o $@ $<

$(QEMU_PLUGIN): $(QEMU_PLUGIN_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -shared $(LDFLAGS) -o $@ $^ -lelf -liberty

-include $(QEMU_PLUGIN_OBJS:.o=.d)

# The flags live here: changing them must rebuild the plugin.
$(QEMU_PLUGIN_OBJS): qemu/build.mk
