# src/unwind/build.mk - the unwinder's test and benchmark driver: build/unwind/unwind-dump
# (and the ASan twin under build/asan/unwind/) unwinds every sample of a DWARF-mode
# perf.data and prints the frames as `perf script` does.  Used by tests/unwind/*.test.sh
# and bench/unwind.sh; not installed.  Its --quality pass (tests/unwind/unwind_stat.c)
# is compiled in from tests/.
UNWIND_DUMP_DRIVER := $(BUILD)/unwind/unwind-dump
UNWIND_STAT_OBJ := $(BUILD)/obj/tests/unwind/unwind_stat.o
EXTRA_ALL += $(UNWIND_DUMP_DRIVER)

$(UNWIND_DUMP_DRIVER): tests/unwind/unwind_dump_driver.c $(UNWIND_STAT_OBJ) $(LIBTEPHRA)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) $(LDFLAGS_SAN) -o $@ $< $(UNWIND_STAT_OBJ) $(LIBTEPHRA) $(LIBS)

# build/unwind/unwind-capture unwinds one captured sample (registers + stack + maps in a
# text file): how tests/unwind checks aarch64 unwinding on an x86_64 host.
UNWIND_CAPTURE_DRIVER := $(BUILD)/unwind/unwind-capture
EXTRA_ALL += $(UNWIND_CAPTURE_DRIVER)

$(UNWIND_CAPTURE_DRIVER): tests/unwind/unwind_capture_driver.c $(LIBTEPHRA)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) $(LDFLAGS_SAN) -o $@ $< $(LIBTEPHRA) $(LIBS)
