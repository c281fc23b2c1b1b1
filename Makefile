# Installs wlr-orient the way Linux packages lay it out (run as root for /usr/local):
#
#   make install [PREFIX=/usr/local] [DESTDIR=/path/to/staging]
#   make uninstall [PREFIX=…] [DESTDIR=…]
#
# Builds first if needed (scripts/build-plugin.sh release: the Swift runtime linked in, so
# nothing of the toolchain is needed where it is installed). Installs the plugin, the preload
# that starts it in unmodified compositors (wlr-orient run) and the plugin's C header, a pkg-config file, the CLI (which the plugin runs to read its config, and finds in
# PREFIX/bin), the daemon's program and the plugin's sensor helper (in LIBEXECDIR), man pages
# (scdoc), shell completions (bash, zsh, fish), the example config, the systemd user unit that
# runs `wlr-orient daemon`, and the udev rule that gives the seat's user the accelerometer (then:
# udevadm control --reload && udevadm trigger --subsystem-match=iio).
# The Debian packages it needs: scripts/install-deps.sh install.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
LIBEXECDIR ?= $(PREFIX)/libexec
INCLUDEDIR ?= $(PREFIX)/include
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
DOCDIR ?= $(DATADIR)/doc/wlr-orient
SYSTEMDUSERDIR ?= $(PREFIX)/lib/systemd/user
# udev reads /usr/lib/udev/rules.d and /usr/local/lib/udev/rules.d (and /etc/udev/rules.d).
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d
# Where pkg-config looks (a package's private LIBDIR is not).
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
# Debian's zsh reads vendor-completions (PREFIX=/usr packages set ZSHCOMPDIR to it).
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
# The release, as the CLI says it (--version): written once, in the Swift source.
VERSION := $(shell sed -n 's/^let wlrOrientVersion = "\(.*\)"$$/\1/p' Sources/wlr-orient/WlrOrient.swift)
ifeq ($(VERSION),)
$(error no wlrOrientVersion in Sources/wlr-orient/WlrOrient.swift)
endif

BUILD = build/release
MAN = build/man
# What is rendered from a template and the table of config keys (the CLI's render-config-docs).
DOC = build/doc

# What `make install` puts in place (under DESTDIR), one path per line: uninstall removes these.
INSTALLED = \
	$(BINDIR)/wlr-orient \
	$(LIBEXECDIR)/wlr-orient-daemon \
	$(LIBEXECDIR)/wlr-orient-sensor-feed \
	$(LIBDIR)/libwlr-orient.so \
	$(LIBDIR)/libwlr-orient-preload.so \
	$(LIBDIR)/libwlr-orient-preload.wlroots \
	$(PKGCONFIGDIR)/wlr-orient.pc \
	$(INCLUDEDIR)/wlr-orient.h \
	$(MANDIR)/man1/wlr-orient.1 \
	$(MANDIR)/man5/wlr-orient.5 \
	$(DATADIR)/bash-completion/completions/wlr-orient \
	$(ZSHCOMPDIR)/_wlr-orient \
	$(DATADIR)/fish/vendor_completions.d/wlr-orient.fish \
	$(DOCDIR)/config.example.toml \
	$(SYSTEMDUSERDIR)/wlr-orient.service \
	$(UDEVRULESDIR)/70-wlr-orient.rules

.PHONY: all build install install-programs install-plugin install-header uninstall example-config

all: build $(MAN)/wlr-orient.1 $(MAN)/wlr-orient.5 $(DOC)/config.example.toml

# Always asked: swift build knows what is up to date. NOBUILD=1: $(BUILD) holds a build already
# (a package builds one per wlroots release first, each into its own BUILD).
build:
ifeq ($(NOBUILD),)
	bash scripts/build-plugin.sh release $(BUILD)
endif

# The wlroots releases the man page names come from support-matrix.toml.
$(MAN)/%: docs/man/%.scd support-matrix.toml
	@mkdir -p $(MAN)
	sed "s/@WLROOTS_RELEASES@/$$(python3 scripts/support-matrix.py man-releases)/" $< | scdoc > $@.new
	mv $@.new $@

# The config's man page and example config: their prose, and every key of the table filled in
# by the CLI just built (so a key added to the table is documented without another edit).
$(MAN)/wlr-orient.5: docs/man/wlr-orient.5.scd.in build
	@mkdir -p $(MAN) $(DOC)
	$(BUILD)/wlr-orient render-config-docs --format scdoc $< > $(DOC)/wlr-orient.5.scd
	scdoc < $(DOC)/wlr-orient.5.scd > $@.new
	mv $@.new $@

# The example config is also committed, to be read where the repository is browsed (a test keeps
# it equal to what the table renders).
example-config: build
	$(BUILD)/wlr-orient render-config-docs --format toml contrib/config.example.toml.in > contrib/config.example.toml

$(DOC)/config.example.toml: contrib/config.example.toml.in build
	@mkdir -p $(DOC)
	$(BUILD)/wlr-orient render-config-docs --format toml $< > $@.new
	mv $@.new $@

install: install-programs install-plugin install-header
	@mkdir -p $(DESTDIR)$(SYSTEMDUSERDIR)
	sed -e 's|@BINDIR@|$(BINDIR)|' contrib/systemd/wlr-orient.service.in > $(DESTDIR)$(SYSTEMDUSERDIR)/wlr-orient.service
	install -Dm644 contrib/udev/70-wlr-orient.rules $(DESTDIR)$(UDEVRULESDIR)/70-wlr-orient.rules

# The programs and what documents them: nothing here depends on wlroots. (bash sources its
# completions: a #! line in one means nothing.)
install-programs: all
	install -Dm755 $(BUILD)/wlr-orient $(DESTDIR)$(BINDIR)/wlr-orient
	@mkdir -p $(DESTDIR)$(LIBEXECDIR)
	ln -sfr $(DESTDIR)$(BINDIR)/wlr-orient $(DESTDIR)$(LIBEXECDIR)/wlr-orient-daemon
	install -Dm755 $(BUILD)/wlr-orient-sensor-feed $(DESTDIR)$(LIBEXECDIR)/wlr-orient-sensor-feed
	install -Dm644 $(MAN)/wlr-orient.1 $(DESTDIR)$(MANDIR)/man1/wlr-orient.1
	install -Dm644 $(MAN)/wlr-orient.5 $(DESTDIR)$(MANDIR)/man5/wlr-orient.5
	@mkdir -p $(DESTDIR)$(DATADIR)/bash-completion/completions $(DESTDIR)$(ZSHCOMPDIR) \
		$(DESTDIR)$(DATADIR)/fish/vendor_completions.d
	$(BUILD)/wlr-orient --generate-completion-script bash | sed '1{/^#!/d;}' > $(DESTDIR)$(DATADIR)/bash-completion/completions/wlr-orient
	$(BUILD)/wlr-orient --generate-completion-script zsh > $(DESTDIR)$(ZSHCOMPDIR)/_wlr-orient
	$(BUILD)/wlr-orient --generate-completion-script fish > $(DESTDIR)$(DATADIR)/fish/vendor_completions.d/wlr-orient.fish
	install -Dm644 $(DOC)/config.example.toml $(DESTDIR)$(DOCDIR)/config.example.toml

# The plugin and the preload, for the wlroots $(BUILD) was built against (libraries that are
# loaded, not run: 0644).
install-plugin: build
	install -Dm644 $(BUILD)/libwlr-orient.so $(DESTDIR)$(LIBDIR)/libwlr-orient.so
	install -Dm644 $(BUILD)/libwlr-orient-preload.so $(DESTDIR)$(LIBDIR)/libwlr-orient-preload.so
	install -Dm644 $(BUILD)/libwlr-orient-preload.wlroots $(DESTDIR)$(LIBDIR)/libwlr-orient-preload.wlroots

# The header and the pkg-config file alone (what a compositor builds against), for the build in $(BUILD).
install-header:
	install -Dm644 Sources/CWlrGlue/include/wlr-orient.h $(DESTDIR)$(INCLUDEDIR)/wlr-orient.h
	@mkdir -p $(DESTDIR)$(PKGCONFIGDIR)
	read soname release package < $(BUILD)/libwlr-orient-preload.wlroots && \
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@VERSION@|$(VERSION)|' -e "s|@WLROOTS_PACKAGE@|$$package|" -e "s|@WLROOTS_RELEASE@|$$release|" \
		-e "s|@WLROOTS_SONAME@|$$soname|" contrib/pkgconfig/wlr-orient.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/wlr-orient.pc

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	-rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null
