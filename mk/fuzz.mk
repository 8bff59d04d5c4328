# fuzz.mk — libFuzzer targets for the two readers of untrusted input (fuzz/README.md).
#
#   make fuzz [FUZZ_SECONDS=60]   build with clang -fsanitize=fuzzer,address,undefined into
#                                 $(FUZZ_BUILD) and run every target that long on a scratch copy
#                                 of its seed corpus, the targets side by side under make -j;
#                                 fails on any crash, leak, timeout or broken round trip (the
#                                 reproducer is left in $(FUZZ_BUILD)/artifacts)
#   make fuzz-build               only build the fuzz targets
#   make fuzz-corpus              regenerate the nvcc seed cubins (needs nvcc; commit the result)
#
# The host library is rebuilt by a sub-make in its own tree (BUILD=$(FUZZ_BUILD)), so build/ and
# bin/gpuprobe are never touched; it is the host-only library (libgp-host.a: no kernel images,
# which the readers never touch), so fuzzing needs no nvcc and no kernel build.

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_BUILD ?= $(BUILD)/fuzz
FUZZ_TARGETS := cubin csv
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
# Extra compile flags for a hunting session, e.g. FUZZ_CFLAGS=-DGP_FUZZ_SKIP_REFERENCE (README).
FUZZ_CFLAGS ?=
FUZZ_BINS := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)

.PHONY: fuzz fuzz-build fuzz-corpus fuzz-lib

# Everything below is for the top-level make only: the sub-make that builds the instrumented
# library includes this file too and must not see these rules (GP_SUBMAKE).
ifndef GP_SUBMAKE

fuzz-build: $(FUZZ_BINS)

# Always re-entered: the sub-make decides what is out of date in its own tree.
fuzz-lib:
	$(Q)$(MAKE) --no-print-directory GP_SUBMAKE=1 BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) \
		CFLAGS="-O1 -g -fno-omit-frame-pointer -Wno-unknown-warning-option -fsanitize=fuzzer-no-link $(FUZZ_SAN) $(FUZZ_CFLAGS)" \
		$(FUZZ_BUILD)/libgp-host.a

$(FUZZ_BUILD)/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz_walk.c fuzz/fuzz_walk.h fuzz-lib
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(CSTD) -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer $(FUZZ_SAN) $(FUZZ_CFLAGS) \
		$(CPPFLAGS) -I$(FUZZ_BUILD)/gen -Ifuzz $(LDFLAGS) -o $@ fuzz/fuzz_$*.c fuzz/fuzz_walk.c \
		$(FUZZ_BUILD)/libgp-host.a $(LDLIBS)

# Each target runs on a scratch copy of its corpus (new inputs land there, never in fuzz/corpus),
# with the committed regressions as extra seeds so a fixed bug that comes back is found at once.
# -error_exitcode/-timeout_exitcode make every kind of finding a failure of make. One make target
# per fuzz target, so make -j runs them side by side (each is one process on one core).
FUZZ_RUNS := $(FUZZ_TARGETS:%=fuzz-run-%)
.PHONY: $(FUZZ_RUNS)
fuzz: $(FUZZ_RUNS)
$(FUZZ_RUNS): fuzz-run-%: $(FUZZ_BUILD)/fuzz_%
	$(Q)t=$*; work=$(FUZZ_BUILD)/scratch/$$t; art=$(FUZZ_BUILD)/artifacts/$$t/; \
	rm -rf $$work && mkdir -p $$work $$art && cp fuzz/corpus/$$t/* $$work/; \
	[ -d fuzz/regressions/$$t ] && cp fuzz/regressions/$$t/* $$work/ 2>/dev/null; \
	echo "  FUZZ    $$t for $(FUZZ_SECONDS) s ($$(ls $$work | wc -l) seeds)"; \
	if ! ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
	     UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	     $(FUZZ_BUILD)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
		-max_len=65536 -print_final_stats=1 -error_exitcode=77 -timeout_exitcode=78 \
		-artifact_prefix=$$art $$work >$(FUZZ_BUILD)/$$t.log 2>&1; then \
		echo "make fuzz: fuzz_$$t found a problem; log $(FUZZ_BUILD)/$$t.log, reproducer in $$art:"; \
		ls $$art; grep -m5 -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|fuzz_walk)' $(FUZZ_BUILD)/$$t.log; \
		exit 1; \
	fi; \
	echo "  FUZZ    $$t: $$(grep -E '^stat::(number_of_executed_units|new_units_added)' $(FUZZ_BUILD)/$$t.log | tr '\n' ' ')"

# Seeds: real nvcc cubins of fuzz/seed.cu for the oldest sm, sm_90 and the two Blackwell
# instruction sets the codec knows (plain and relocatable), and cut copies of them that stop in
# the header, the middle and the last byte.
fuzz-corpus:
	$(Q)d=fuzz/corpus/cubin; for sm in 75 90 100 120; do \
		$(NVCC) -cubin -O3 -arch=sm_$$sm -o $$d/seed_sm$$sm.cubin fuzz/seed.cu && \
		$(NVCC) -cubin -O3 -rdc=true -arch=sm_$$sm -o $$d/seed_rdc_sm$$sm.cubin fuzz/seed.cu || exit 1; \
	done; \
	head -c 64 $$d/seed_sm90.cubin > $$d/trunc_header_sm90.cubin; \
	head -c 3000 $$d/seed_sm90.cubin > $$d/trunc_half_sm90.cubin; \
	head -c $$(($$(wc -c < $$d/seed_sm75.cubin) - 1)) $$d/seed_sm75.cubin > $$d/trunc_last_sm75.cubin; \
	du -sh fuzz/corpus

endif # GP_SUBMAKE
