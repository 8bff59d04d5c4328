# sanitize.mk — the host code under ASan/UBSan and valgrind, the kernels under compute-sanitizer.
#
#   make asan        host code and every host test program built with -fsanitize=address,undefined
#                    -fno-sanitize-recover=all in $(ASAN_BUILD) (its own host-only gpuprobe binary
#                    too, which the CLI tests run) and run through tests/run.sh
#   make valgrind    the normal host test programs under valgrind memcheck (--error-exitcode=1,
#                    --leak-check=full); children are not traced, so the gpuprobe binary that
#                    test_cli spawns and the nvcc that test_planner runs execute natively (the
#                    programs that test only that binary are left out: VALGRIND_SKIP)
#   Neither runs the GPU test programs (test_gpu*): without a GPU they only skip, and with one the
#   driver under ASan or valgrind is not what they test. Both run JOBS programs at once.
#   make sanitize    GPU machine: every experiment of $(SANITIZE_SUITE) (default configs/sanitize.csv,
#                    sized for racecheck) run by bin/gpuprobe under compute-sanitizer memcheck and
#                    racecheck, with --no-isolate: compute-sanitizer
#                    does not instrument a child made by fork() without exec (seen on the H100:
#                    one ERROR SUMMARY per run and kernels at full speed), so the runner must
#                    measure in its own process; fails on any reported error; logs and a
#                    summary under $(SANITIZE_OUT). Without compute-sanitizer it fails saying so.
#
# The ASan tree is a separate sub-make (BUILD=$(ASAN_BUILD)), so build/ and bin/ are never
# touched. It links the host-only library (no kernel images, no nvcc): only the programs that
# read an embedded image (TEST_NEEDS_KERNELS) take the normal build's kernel objects (data).

ASAN_CC ?= $(CC)
ASAN_BUILD ?= $(BUILD)/asan
ASAN_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
# test_charts is left out: it renders every chart of three committed runs through the binary and
# gnuplot (a minute under ASan), and the report code it runs is the one test_cli and
# test_reliability already run under ASan on smaller runs.
ASAN_SKIP := tests/test_charts.c
ASAN_TEST_BIN := $(filter-out $(ASAN_SKIP:tests/%.c=$(ASAN_BUILD)/host/tests/%),$(TEST_HOST_SRC:tests/%.c=$(ASAN_BUILD)/host/tests/%)) \
	$(TEST_NEEDS_KERNELS:tests/%.c=$(ASAN_BUILD)/tests/%) $(ASAN_BUILD)/host/tests/link_host

VALGRIND ?= valgrind
# VALGRIND_ORIGINS=no (CI) finds the same errors in half the time; only the report of an
# uninitialised value then lacks where the value came from (rerun with yes to see it).
VALGRIND_ORIGINS ?= yes
VALGRIND_FLAGS ?= -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect \
	--track-origins=$(VALGRIND_ORIGINS) --trace-children=no --child-silent-after-fork=yes
VALGRIND_DIR := $(BUILD)/valgrind

SANITIZER ?= $(firstword $(wildcard $(CUDA_HOME)/bin/compute-sanitizer \
	$(CUDA_HOME)/compute-sanitizer/compute-sanitizer) $(shell command -v compute-sanitizer 2>/dev/null))
SANITIZE_SUITE ?= configs/sanitize.csv
SANITIZE_TOOLS ?= memcheck racecheck
# Which experiments of the suite (default: every one), so a session can split the work over
# several calls, e.g. SANITIZE_EXPERIMENTS="lat_ffma tput_fp32" SANITIZE_TOOLS=memcheck.
SANITIZE_EXPERIMENTS ?=
SANITIZE_OUT ?= $(BUILD)/sanitize
# Correctness, not timing: one repetition, no warm-up; the watchdog and the outer limit leave
# room for the 10-100x slowdown of instrumented kernels.
SANITIZE_ARGS ?= --reps 1 --warmup 0 --timeout 1200 --no-isolate
SANITIZE_LIMIT_S ?= 1800

.PHONY: asan valgrind sanitize

ifndef GP_SUBMAKE

.PHONY: asan-build
asan-build: $(if $(TEST_NEEDS_KERNELS),$(KERNEL_OBJ))
	$(Q)$(MAKE) --no-print-directory GP_SUBMAKE=1 BUILD=$(ASAN_BUILD) CC=$(ASAN_CC) KERNEL_OBJ="$(KERNEL_OBJ)" \
		CFLAGS="-O1 -g -fno-omit-frame-pointer $(ASAN_SAN)" LDFLAGS="$(LDFLAGS) $(ASAN_SAN)" \
		host-programs $(filter-out $(ASAN_BUILD)/host/%,$(ASAN_TEST_BIN))

# The solver's test reads the normal build's regbank template where one was built.
asan: asan-build $(TEST_FIXTURES)
	$(Q)GPUPROBE=$(ASAN_BUILD)/host/bin/gpuprobe GPUPROBE_HOME=$(CURDIR) \
		$(if $(wildcard $(BUILD)/cubins/regbank.sm_90.cubin),GP_TEMPLATE_DIR=$(BUILD)/cubins) \
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		BUILD=$(ASAN_BUILD)/host $(TEST_ENV) tests/run.sh $(ASAN_TEST_BIN)

# One wrapper per test program, so tests/run.sh keeps its per-program summary and counts a
# valgrind error (exit 1 after every test passed) as a failure of that program.
# Left out: the programs whose subject is the gpuprobe binary they spawn (children are not traced,
# so valgrind would check only the test driver; the ASan pass runs that binary instrumented).
VALGRIND_SKIP ?= test_cli test_cli_report test_charts test_badinput test_reliability
# VALGRIND_ONLY (CI): just these programs (the readers of files and input, where an uninitialised
# value would come from data), so the whole check fits CI's time.
VALGRIND_ONLY ?=
ifneq ($(strip $(VALGRIND_ONLY)),)
VALGRIND_TEST_BIN := $(VALGRIND_ONLY:%=$(BUILD)/tests/%)
else
VALGRIND_TEST_BIN := $(filter-out $(BUILD)/tests/test_gpu% $(VALGRIND_SKIP:%=$(BUILD)/tests/%),$(TEST_BIN)) $(LINK_TEST)
endif
valgrind: all $(VALGRIND_TEST_BIN) $(TEST_FIXTURES)
	$(Q)command -v $(VALGRIND) >/dev/null || { echo "make valgrind: $(VALGRIND) not found (Debian package valgrind)" >&2; exit 2; }
	$(Q)mkdir -p $(VALGRIND_DIR) && for t in $(VALGRIND_TEST_BIN); do \
		w=$(VALGRIND_DIR)/$$(basename $$t); \
		printf '#!/bin/sh\nexec %s %s %s "$$@"\n' '$(VALGRIND)' '$(VALGRIND_FLAGS)' "$$t" > $$w && chmod +x $$w; \
	done
	$(Q)BUILD=$(BUILD) $(TEST_ENV) tests/run.sh $(addprefix $(VALGRIND_DIR)/,$(notdir $(VALGRIND_TEST_BIN)))

# Per tool and experiment: one gpuprobe run of that experiment's rows of the suite. A finding is
# compute-sanitizer's own exit code (--error-exitcode), or any non-zero ERROR SUMMARY / racecheck
# error count in the log (children print their own summaries), or gpuprobe failing for another
# reason than a validation flag (exit 5: instrumented timing may trip a check; it is reported).
sanitize: $(BIN)
	$(Q)test -n "$(SANITIZER)" && test -x "$(SANITIZER)" || { \
		echo "make sanitize: compute-sanitizer not found (it ships with the CUDA toolkit on the GPU machine; set SANITIZER=/path/to/compute-sanitizer)" >&2; exit 2; }
	$(Q)test -r "$(SANITIZE_SUITE)" || { echo "make sanitize: no suite $(SANITIZE_SUITE)" >&2; exit 2; }
	$(Q)mkdir -p $(SANITIZE_OUT) && : > $(SANITIZE_OUT)/summary.txt; \
	exps="$(SANITIZE_EXPERIMENTS)"; [ -n "$$exps" ] || exps=$$(sed 1d $(SANITIZE_SUITE) | cut -d, -f1 | sort -u); \
	fail=0; \
	for tool in $(SANITIZE_TOOLS); do for e in $$exps; do \
		log=$(SANITIZE_OUT)/$$tool-$$e.log; t0=$$(date +%s); \
		timeout $(SANITIZE_LIMIT_S) $(SANITIZER) --tool $$tool --target-processes all --error-exitcode 86 \
			$(BIN) run --suite $(SANITIZE_SUITE) --out $(SANITIZE_OUT)/results $(SANITIZE_ARGS) $$e \
			> $$log 2>&1; rc=$$?; \
		errs=$$(grep -cE 'ERROR SUMMARY: [1-9]|RACECHECK SUMMARY: .*\([1-9][0-9]* error' $$log); \
		sums=$$(grep -hoE '(ERROR|RACECHECK) SUMMARY: .*' $$log | sort | uniq -c | tr -s ' ' | tr '\n' ';'); \
		if [ $$rc -eq 86 ] || [ $$errs -gt 0 ] || { [ $$rc -ne 0 ] && [ $$rc -ne 5 ]; }; then \
			verdict="FAIL (exit $$rc)"; fail=$$((fail + 1)); \
		elif [ $$rc -eq 5 ]; then verdict="clean (gpuprobe exit 5: a validation flag under instrumentation)"; \
		else verdict=clean; fi; \
		line="$$tool $$e: $$verdict in $$(($$(date +%s) - t0)) s;$$sums log $$log"; \
		echo "  SANITIZE $$line"; echo "$$line" >> $(SANITIZE_OUT)/summary.txt; \
		case $$verdict in FAIL*) grep -m20 -E '^========= (Invalid|Error|Race|  )|Program hit|hazard' $$log;; esac; \
	done; done; \
	if [ $$fail -gt 0 ]; then echo "make sanitize: $$fail run(s) with findings (summary $(SANITIZE_OUT)/summary.txt)" >&2; exit 1; fi; \
	echo "make sanitize: clean: $(SANITIZE_TOOLS) over $$(echo $$exps | wc -w) experiments of $(SANITIZE_SUITE)"

endif # GP_SUBMAKE
