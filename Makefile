# quizdeck: `make` installs what is missing, builds, and renders the
# default site into out/; `make test` runs every suite.

PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
DESTDIR  ?=
CC       ?= cc
PKGS     := libcmark-gfm libxml-2.0 cairo pango pangocairo fontconfig libmicrohttpd sqlite3 libzip librsvg-2.0 gdk-pixbuf-2.0

# pkg-config runs lazily (=), after the deps target may have installed it all.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lcmark-gfm-extensions -lhyphen -lpthread -lm

CFLAGS   ?= -O2 -g
WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
ALL_CFLAGS = -std=c11 -D_DEFAULT_SOURCE $(WARN) $(CFLAGS) $(PKG_CFLAGS) -Igen
SAN      := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

SRCS     := $(sort $(wildcard gen/*.c))
LIB_SRCS := $(filter-out gen/main.c,$(SRCS))
OBJS     := $(SRCS:gen/%.c=build/obj/%.o)
LIB_OBJS := $(LIB_SRCS:gen/%.c=build/obj/%.o)
ASAN_OBJS := $(LIB_SRCS:gen/%.c=build/asan/obj/%.o)
UNIT_SRCS := $(sort $(wildcard tests/unit/*_test.c))
UNITS    := $(UNIT_SRCS:tests/unit/%.c=build/unit/%)
ASAN_UNITS := $(UNIT_SRCS:tests/unit/%.c=build/asan/unit/%)
HDRS     := $(wildcard gen/*.h) tests/unit/check.h
FUZZ_CC  ?= clang
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_OBJS := $(LIB_SRCS:gen/%.c=build/fuzz/obj/%.o)
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,build/fuzz/%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))

.PHONY: all deps test-deps site test unit bench fuzz fuzz-targets install uninstall clean

all: deps quizdeck site

deps:
	@sh tools/deps.sh build

# tests/browser's npm ci runs again when its lock file is newer than what
# node_modules holds (a package was added), unless node_modules is a link.
test-deps:
	@sh tools/deps.sh test
	@if [ -f tests/browser/package.json ] && { [ ! -d tests/browser/node_modules ] || \
	    { [ ! -L tests/browser/node_modules ] && \
	      [ tests/browser/package-lock.json -nt tests/browser/node_modules/.package-lock.json ]; }; }; then \
		echo "quizdeck: npm ci in tests/browser" >&2; \
		(cd tests/browser && npm ci --no-audit --no-fund --loglevel=error); \
	fi
	@if [ -f tests/html/package.json ] && [ ! -d tests/html/node_modules ]; then \
		echo "quizdeck: npm ci in tests/html" >&2; \
		(cd tests/html && npm ci --no-audit --no-fund --loglevel=error); \
	fi

quizdeck: $(OBJS)
	$(CC) $(ALL_CFLAGS) -o $@ $(OBJS) $(PKG_LIBS)

build/obj/%.o: gen/%.c $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

build/asan/obj/%.o: gen/%.c $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -O1 $(SAN) -c $< -o $@

build/unit/%: tests/unit/%.c $(LIB_OBJS) $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJS) $(PKG_LIBS)

# The sanitizer's unit tests sit a folder deeper: quizdeck's strings are found beside them (install_dirs).
build/asan/unit/%: tests/unit/%.c $(ASAN_OBJS) $(HDRS)
	@mkdir -p $(@D)
	@ln -sfn ../../i18n build/asan/i18n
	$(CC) $(ALL_CFLAGS) -O1 $(SAN) -o $@ $< $(ASAN_OBJS) $(PKG_LIBS)

build/asan/quizdeck: $(ASAN_OBJS) gen/main.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -O1 $(SAN) -o $@ gen/main.c $(ASAN_OBJS) $(PKG_LIBS)

# libFuzzer targets: the library once with clang's sanitizers, each target linked against it.
build/fuzz/obj/%.o: gen/%.c $(HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(ALL_CFLAGS) -O1 $(FUZZ_SAN) -fsanitize=fuzzer-no-link -c $< -o $@

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJS) tests/fuzz/fuzz_util.h
	$(FUZZ_CC) $(ALL_CFLAGS) -Itests/fuzz -O1 $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(PKG_LIBS)

fuzz-targets: $(FUZZ_TARGETS)

# Keep the sanitised objects between runs: they are only ever prerequisites.
.SECONDARY: $(FUZZ_OBJS)

tests/toml-decode: tests/toml-decode.c $(LIB_OBJS)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJS) $(PKG_LIBS)

# The default site. A failed build leaves the previous out/ as it was.
site: quizdeck
	./quizdeck build

unit: $(UNITS) $(ASAN_UNITS)

test: deps test-deps quizdeck build/asan/quizdeck tests/toml-decode unit fuzz-targets
	@sh tests/run

bench: deps quizdeck
	@sh tools/deps.sh bench || true
	@sh tests/bench/run.sh

fuzz: deps fuzz-targets tests/toml-decode
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS)
	@mkdir -p build/fuzz
	@python3 tests/toml/tomlcheck.py diff $${TOML_DIFF_COUNT:-20000} $${TOML_DIFF_SEED:-$$(date +%s)} \
		tests/toml-decode >build/fuzz/toml-diff.log
	@if grep '^not ok' build/fuzz/toml-diff.log; then exit 1; fi
	@echo "ok toml differential: $$(grep -c '^ok' build/fuzz/toml-diff.log) documents agree with tomllib"

install: quizdeck
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 quizdeck $(DESTDIR)$(BINDIR)/quizdeck
	install -d $(DESTDIR)$(PREFIX)/share/quizdeck/themes
	cp -R themes/default $(DESTDIR)$(PREFIX)/share/quizdeck/themes/
	cp -R i18n $(DESTDIR)$(PREFIX)/share/quizdeck/
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5
	install -m 644 man/quizdeck.1 $(DESTDIR)$(MANDIR)/man1/quizdeck.1
	install -m 644 man/quizdeck.5 $(DESTDIR)$(MANDIR)/man5/quizdeck.5

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/quizdeck
	rm -rf $(DESTDIR)$(PREFIX)/share/quizdeck
	rm -f $(DESTDIR)$(MANDIR)/man1/quizdeck.1 $(DESTDIR)$(MANDIR)/man5/quizdeck.5

clean:
	rm -rf build out quizdeck tests/toml-decode
