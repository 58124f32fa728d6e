# dist/build.mk - what `make install` and the Debian package ship besides build/tephra:
# the version header, the public libraries, man pages; `make install`, `make uninstall`,
# `make deb`.  Layout and decisions: docs/install.md.

# Install places.  The binary finds the Valgrind tool and the QEMU plugin at
# ../lib/tephra/ from its own directory (cli/companion.c), so BINDIR and PKGLIBDIR are
# fixed under PREFIX; LIBDIR (C library, tephra.pc) may move, e.g. to Debian's multiarch
# directory.
PREFIX     ?= /usr/local
DESTDIR    ?=
LIBDIR     ?= $(PREFIX)/lib
BINDIR     := $(PREFIX)/bin
PKGLIBDIR  := $(PREFIX)/lib/tephra
INCLUDEDIR := $(PREFIX)/include
MAN1DIR    := $(PREFIX)/share/man/man1
BASHCOMPDIR := $(PREFIX)/share/bash-completion/completions

# The version: VERSION holds MAJOR.MINOR.PATCH; the soname follows the major number.
TEPHRA_VERSION_PARTS := $(subst ., ,$(TEPHRA_VERSION))
TEPHRA_MAJOR := $(word 1,$(TEPHRA_VERSION_PARTS))
VERSION_H  := $(BUILD)/include/tephra/version.h

$(VERSION_H): VERSION include/tephra/version.h.in
	@echo '$(TEPHRA_VERSION)' | grep -Eqx '[0-9]+\.[0-9]+\.[0-9]+' || \
		{ echo "VERSION: '$(TEPHRA_VERSION)' is not MAJOR.MINOR.PATCH" >&2; exit 1; }
	@mkdir -p $(dir $@)
	sed -e 's/@MAJOR@/$(word 1,$(TEPHRA_VERSION_PARTS))/' \
	    -e 's/@MINOR@/$(word 2,$(TEPHRA_VERSION_PARTS))/' \
	    -e 's/@PATCH@/$(word 3,$(TEPHRA_VERSION_PARTS))/' \
	    -e 's/@VERSION@/$(TEPHRA_VERSION)/' include/tephra/version.h.in > $@

# tephra --version says what the build used (recursive: grind/build.mk comes later).
QEMU_PLUGIN_API := $(shell sed -n 's/^\#define TEPHRA_QEMU_PLUGIN_API_VERSION //p' qemu/qemu_plugin_api.h)
$(BUILD)/obj/cli/main.o: OBJ_DEFS = -DTEPHRA_BUILT_VALGRIND='"$(GRIND_VERSION)"' \
	-DTEPHRA_BUILT_VALGRIND_PLATFORM='"$(GRIND_PLATFORM)"' \
	-DTEPHRA_BUILT_QEMU_PLUGIN_API='"$(QEMU_PLUGIN_API)"'
$(BUILD)/obj/cli/main.o $(BUILD)/obj/src/base/version.o: $(VERSION_H) dist/build.mk

# The public libraries export only the TEPHRA_API calls (all named tephra_*).  The
# static one is one relocatable object whose hidden names are made local, so they
# cannot clash with a program's or another library's (xmalloc, cs_free...).
LIBTEPHRA_A    := $(BUILD)/libtephra.a
LIBTEPHRA_SO   := $(BUILD)/libtephra.so.$(TEPHRA_VERSION)
LIBTEPHRA_SONAME := libtephra.so.$(TEPHRA_MAJOR)
LIBTEPHRA_LINKS := $(BUILD)/$(LIBTEPHRA_SONAME) $(BUILD)/libtephra.so

$(BUILD)/libtephra-public.o: $(LIB_OBJS)
	$(LD) -r -o $@.tmp $^
	objcopy --localize-hidden $@.tmp $@
	rm -f $@.tmp

$(LIBTEPHRA_A): $(BUILD)/libtephra-public.o
	rm -f $@ && ar rcs $@ $<

$(LIBTEPHRA_SO): $(LIB_OBJS) dist/libtephra.map
	$(CC) -shared -Wl,-soname,$(LIBTEPHRA_SONAME) -Wl,--version-script=dist/libtephra.map \
		-Wl,-z,defs $(LDFLAGS) -o $@ $(LIB_OBJS) $(LIBS)

$(LIBTEPHRA_LINKS): $(LIBTEPHRA_SO)
	ln -sf $(notdir $<) $@

# Man pages, written from each command's --help by dist/man-from-help.
TEPHRA_COMMANDS := $(patsubst cli/cmd_%.c,%,$(wildcard cli/cmd_*.c))
MAN_PAGES := $(BUILD)/man/tephra.1 $(TEPHRA_COMMANDS:%=$(BUILD)/man/tephra-%.1)

$(BUILD)/man/tephra.1: $(TEPHRA) dist/man-from-help
	@mkdir -p $(dir $@)
	dist/man-from-help $(TEPHRA) > $@.tmp && mv $@.tmp $@

$(BUILD)/man/tephra-%.1: $(TEPHRA) dist/man-from-help
	@mkdir -p $(dir $@)
	dist/man-from-help $(TEPHRA) $* > $@.tmp && mv $@.tmp $@

# Not in the sanitizer trees: nothing there is installed.
ifeq ($(SAN),)
EXTRA_ALL += $(LIBTEPHRA_A) $(LIBTEPHRA_SO) $(LIBTEPHRA_LINKS) $(MAN_PAGES)
endif

# Everything make install copies (recursive: the tools' fragments come later; the
# Makefile makes `installable` depend on it after including every fragment).
INSTALLABLE = $(TEPHRA) $(LIBTEPHRA_A) $(LIBTEPHRA_SO) $(MAN_PAGES) $(QEMU_PLUGIN) \
	$(if $(GRIND_TOOL),$(GRIND_TOOL) $(GRIND_LIB)/VERSION)
PUBLIC_HEADERS := include/tephra/tephra.h include/tephra/trace.h include/tephra/grind.h

install: installable
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(PKGLIBDIR) $(DESTDIR)$(LIBDIR)/pkgconfig \
		$(DESTDIR)$(INCLUDEDIR)/tephra $(DESTDIR)$(MAN1DIR) $(DESTDIR)$(BASHCOMPDIR)
	install -m 755 $(TEPHRA) $(DESTDIR)$(BINDIR)/tephra
	install -m 644 $(QEMU_PLUGIN) $(DESTDIR)$(PKGLIBDIR)/libtephra-qemu.so
	if [ -n "$(GRIND_TOOL)" ]; then \
		install -d $(DESTDIR)$(PKGLIBDIR)/grind && \
		install -m 755 $(GRIND_TOOL) $(DESTDIR)$(PKGLIBDIR)/grind/ && \
		install -m 644 $(GRIND_LIB)/VERSION $(DESTDIR)$(PKGLIBDIR)/grind/VERSION && \
		for f in $(GRIND_STOCK_FILES); do \
			ln -sfn $(GRIND_STOCK)/$$f $(DESTDIR)$(PKGLIBDIR)/grind/$$f || exit 1; done; \
	fi
	install -m 644 $(LIBTEPHRA_A) $(LIBTEPHRA_SO) $(DESTDIR)$(LIBDIR)/
	ln -sfn $(notdir $(LIBTEPHRA_SO)) $(DESTDIR)$(LIBDIR)/$(LIBTEPHRA_SONAME)
	ln -sfn $(LIBTEPHRA_SONAME) $(DESTDIR)$(LIBDIR)/libtephra.so
	install -m 644 $(PUBLIC_HEADERS) $(VERSION_H) $(DESTDIR)$(INCLUDEDIR)/tephra/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@VERSION@|$(TEPHRA_VERSION)|' \
	    -e 's|@LIBS_PRIVATE@|$(strip $(LIBS))|' dist/tephra.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/tephra.pc
	install -m 644 $(MAN_PAGES) $(DESTDIR)$(MAN1DIR)/
	install -m 644 dist/tephra.bash-completion $(DESTDIR)$(BASHCOMPDIR)/tephra

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/tephra $(DESTDIR)$(PKGLIBDIR)/libtephra-qemu.so
	rm -rf $(DESTDIR)$(PKGLIBDIR)/grind
	-rmdir $(DESTDIR)$(PKGLIBDIR)
	rm -f $(DESTDIR)$(LIBDIR)/libtephra.a $(DESTDIR)$(LIBDIR)/libtephra.so* \
		$(DESTDIR)$(LIBDIR)/pkgconfig/tephra.pc
	rm -f $(PUBLIC_HEADERS:include/tephra/%=$(DESTDIR)$(INCLUDEDIR)/tephra/%) \
		$(DESTDIR)$(INCLUDEDIR)/tephra/version.h
	-rmdir $(DESTDIR)$(INCLUDEDIR)/tephra
	rm -f $(DESTDIR)$(MAN1DIR)/tephra.1 $(TEPHRA_COMMANDS:%=$(DESTDIR)$(MAN1DIR)/tephra-%.1) \
		$(DESTDIR)$(BASHCOMPDIR)/tephra

# The Debian packages (debian/), built from a copy of the sources in DEB_DIR, which
# also receives the .deb files.
DEB_DIR ?= $(BUILD)/deb
deb:
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/tephra-$(TEPHRA_VERSION)
	tar -c --exclude=./build --exclude=./.git . | tar -x -C $(DEB_DIR)/tephra-$(TEPHRA_VERSION)
	cd $(DEB_DIR)/tephra-$(TEPHRA_VERSION) && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		DEB_BUILD_OPTIONS="nocheck parallel=2" dpkg-buildpackage -b -us -uc
	ls $(DEB_DIR)/*.deb
