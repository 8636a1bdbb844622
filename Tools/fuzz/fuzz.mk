# The libFuzzer build: the runtime's sources compiled again by clang with
# AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer's coverage,
# into build/fuzz/ (the normal build is untouched), and one binary per
# target of fuzz_targets.c.  Run from the top of the tree by `make fuzz`
# and `make fuzz-build`, which pass the source list and paths; see
# Doc/fuzzing.md.

FUZZ_CC ?=	clang-19
FUZZ_DIR =	build/fuzz
FUZZ_TARGETS =	ast compile marshal sre json number format code
# -fsanitize=function reports every call through a PyCFunction cast, the
# C API's calling convention: not a bug here.
FUZZ_SAN =	-fsanitize=address,undefined -fno-sanitize=function -fno-sanitize-recover=undefined
FUZZ_CFLAGS =	-O1 -g -fno-omit-frame-pointer $(FUZZ_SAN) -std=c11 -D_GNU_SOURCE \
		-Wno-everything -Werror=implicit-function-declaration
# build/fuzz/pyconfig.h comes first: the top-level one without mimalloc
# (ASan must see every allocation) and with the sanitizer macros.
FUZZ_CPPFLAGS =	-I$(FUZZ_DIR) -I. -IInclude -IInclude/internal -Ibuild/gen $(MPDEC_CFLAGS) -DPy_BUILD_CORE
FUZZ_LIBS =	$(filter-out -lmimalloc,$(LIBS))

FUZZ_OBJS =	$(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(CORE_SOURCES))
FUZZ_BINS =	$(foreach t,$(FUZZ_TARGETS),$(FUZZ_DIR)/fuzz_$(t))

.PHONY: fuzz-build
fuzz-build: $(FUZZ_BINS)

$(FUZZ_DIR)/pyconfig.h: pyconfig.h
	@mkdir -p $(FUZZ_DIR)
	sed -e 's|^#define WITH_MIMALLOC 1|/* WITH_MIMALLOC: off for ASan */|' \
	    -e 's|^/\* #undef _Py_ADDRESS_SANITIZER \*/|#define _Py_ADDRESS_SANITIZER 1|' \
	    -e 's|^/\* #undef _Py_UNDEFINED_BEHAVIOR_SANITIZER \*/|#define _Py_UNDEFINED_BEHAVIOR_SANITIZER 1|' \
	    pyconfig.h > $@

$(FUZZ_DIR)/obj/%.o: %.c $(FUZZ_DIR)/pyconfig.h $(HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -c $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(FUZZ_CPPFLAGS) $(FUZZ_PATHS) -o $@ $<

# Python/pylifecycle.c finds the standard library from these.
$(FUZZ_DIR)/obj/Python/pylifecycle.o: FUZZ_PATHS = -DPY_LIBDIR='"$(ABS_SRCDIR)/Lib"' \
	-DPY_PREFIX='"$(ABS_SRCDIR)"' -DPY_STDLIBDIR='"$(STDLIB_PATH)"' \
	-DPY_DYNLOADDIR='"$(ABS_SRCDIR)/$(DYNLOAD_DIR)"'

$(FUZZ_DIR)/libpython-fuzz.a: $(FUZZ_OBJS)
	rm -f $@
	ar rcs $@ $(FUZZ_OBJS)

$(FUZZ_DIR)/fuzz_%: Tools/fuzz/fuzz_targets.c $(FUZZ_DIR)/libpython-fuzz.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(FUZZ_CPPFLAGS) -DFUZZ_TARGET=$* \
		-Wl,--export-dynamic -o $@ $< $(FUZZ_DIR)/libpython-fuzz.a $(FUZZ_LIBS)

# glibc's <complex.h> gives CMPLX only to GCC (by version test), not clang.
$(FUZZ_DIR)/obj/Modules/cmathmodule.o: FUZZ_PATHS = '-DCMPLX(x, y)=__builtin_complex((double)(x), (double)(y))'
