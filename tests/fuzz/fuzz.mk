# The libFuzzer build, run by `make fuzz` (Makefile.am) with GNU make:
#
#	make -f tests/fuzz/fuzz.mk FUZZ_CC=clang srcdir=... targets...
#
# Every library source is compiled again with FUZZ_CC for coverage,
# AddressSanitizer and UndefinedBehaviorSanitizer into tests/fuzz/build/,
# apart from the normal build's objects, and each target is linked with
# libFuzzer into tests/fuzz/build/fuzz-NAME. Makefile.am passes the source
# lists, flags and libraries, so nothing here needs editing for a new
# target or library file.

O := tests/fuzz/build
# AM_CPPFLAGS and the test programs' defines, for these sources.
FUZZ_CPPFLAGS := -DHAVE_CONFIG_H -I. -D_GNU_SOURCE -I$(srcdir)/src -I$(srcdir) \
	-I$(srcdir)/tests -DPKGDATADIR='"$(pkgdatadir)"' -DTOP_SRCDIR='"$(srcdir)"' $(LIB_CFLAGS)
SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS := -std=c11 -g -O1 -fno-omit-frame-pointer $(SAN)

LIB_OBJS := $(patsubst %.c,$(O)/%.o,$(filter %.c,$(LIB_SOURCES)))
HARNESS_OBJS := $(O)/tests/fuzz/fuzz.o
TARGET_NAMES := $(basename $(notdir $(TARGETS)))
FUZZERS := $(TARGET_NAMES:%=$(O)/fuzz-%)

all: $(FUZZERS)

# The harness is built with libFuzzer's entry points; the rest only
# instrumented (fuzzer-no-link), libFuzzer's main comes at the link.
$(O)/tests/fuzz/%.o: $(srcdir)/tests/fuzz/%.c
	@mkdir -p $(@D)
	@echo "  FUZZCC   $@"
	@$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -DFUZZ_LIBFUZZER \
		-MMD -MP -c -o $@ $<

$(O)/%.o: $(srcdir)/%.c
	@mkdir -p $(@D)
	@echo "  FUZZCC   $@"
	@$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(O)/libpagetop-fuzz.a: $(LIB_OBJS)
	@rm -f $@
	@echo "  AR       $@"
	@$(AR) cr $@ $^

$(O)/fuzz-%: $(O)/tests/fuzz/%.o $(HARNESS_OBJS) $(O)/libpagetop-fuzz.a
	@echo "  FUZZLD   $@"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(FUZZ_LIBS)

.PHONY: all
.SECONDARY:
.DELETE_ON_ERROR:

-include $(LIB_OBJS:.o=.d) $(TARGET_NAMES:%=$(O)/tests/fuzz/%.d) $(HARNESS_OBJS:.o=.d)
