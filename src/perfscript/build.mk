# src/perfscript/build.mk - the perf script text reader's test driver: build/fold/fold-text
# (and the ASan twin under build/asan/fold/) folds perf script text with the same options
# as stackcollapse-perf.pl.  Used by tests/fold/*.test.sh; not installed.
FOLD_TEXT_DRIVER := $(BUILD)/fold/fold-text
EXTRA_ALL += $(FOLD_TEXT_DRIVER)

$(FOLD_TEXT_DRIVER): tests/fold/fold_text_driver.c $(LIBTEPHRA)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) $(LDFLAGS_SAN) -o $@ $< $(LIBTEPHRA) $(LIBS)
