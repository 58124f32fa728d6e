# src/unwind/build.mk - the unwinder's test and benchmark driver: build/unwind/unwind-dump
# (and the ASan twin under build/asan/unwind/) unwinds every sample of a DWARF-mode
# perf.data and prints the frames as `perf script` does.  Used by tests/unwind/*.test.sh
# and bench/unwind.sh; not installed.
UNWIND_DUMP_DRIVER := $(BUILD)/unwind/unwind-dump
EXTRA_ALL += $(UNWIND_DUMP_DRIVER)

$(UNWIND_DUMP_DRIVER): tests/unwind/unwind_dump_driver.c $(LIBTEPHRA)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) $(LDFLAGS_SAN) -o $@ $< $(LIBTEPHRA) $(LIBS)
