# gpuprobe — plain Makefile, out-of-tree build in $(BUILD).
#
#   make                 bin/gpuprobe with its kernels for this machine's GPU, one job a core (for every supported
#                        sm where there is none); make tests: the test programs as well
#   make SM=all | SM=90  kernels for every supported sm / the sms named (mk/kernels.mk)
#   make DEPS=.deps/root  use libcsv and cmocka unpacked outside the system paths (make deps)
#   make run | quick     default / quick suite on GPU 0 into results/, then the report
#                        (DEVICE=all, DEVICE=N or DEVICE=0,2: those GPUs, one run each)
#   make test            the full test command: every test program; GPU tests run where a GPU is
#                        present, else report themselves skipped
#   make test-host       the host tests (units, CLI, report, layering) against a host-only
#                        binary: no kernel or fatbin is built (the binary's measuring commands say
#                        so); nvcc only compiles the tests' own small cubins, where it exists
#   make check-layers    no import circles between the objects, and the device-free modules link
#                        without the device layer (tests/link_host.c)
#   make kernels         the kernels alone; make check-fatbin: fatbinary's output equals nvcc's;
#                        make check-ptx-levels: sm_90's kernels are compute_90's (mk/kernels.mk)
#   make asan | valgrind | fuzz | sanitize   see mk/sanitize.mk and mk/fuzz.mk
#   make plots report    charts / REPORT.md for RUN=<run dir> (default: newest run under results/)
#   make sass            SASS of every kernel into $(BUILD)/sass (needs cuobjdump)
#   make install         PREFIX=/usr/local: bin/gpuprobe and its data under PREFIX/share/gpuprobe
#   make deps            download libcsv + cmocka .debs and unpack them into .deps/root (for the
#                        GPU machine, which has neither and no network: carry .deps there)

Q ?= @
# Plain `make` uses every core: make 4.3 takes a -j added here. A -j on the command line wins
# (make -j1 stays serial) and a sub-make shares its parent's jobs. Goals that must not overlap
# stay serial: `clean` with anything (it must not race the build), and a goal that runs the
# binary or the tests beside another goal (`make tests run` builds first, then measures alone).
GP_RUN_GOALS := run quick paper test test-host plots report install
ifeq ($(MAKELEVEL)$(filter -j%,$(MAKEFLAGS))$(filter clean,$(MAKECMDGOALS))$(if $(word 2,$(MAKECMDGOALS)),$(filter $(GP_RUN_GOALS),$(MAKECMDGOALS))),0)
  MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif
BUILD ?= build
CUDA_HOME ?= /usr/local/cuda
NVCC ?= $(CUDA_HOME)/bin/nvcc
CC ?= cc
DEPS ?=
GNUPLOT ?= gnuplot
# Test programs run at once by tests/run.sh: one per core, but one at a time on a machine with a
# GPU, where more programs than the GPU tests use it and time it (GPU tests always run alone).
TEST_JOBS ?= $(shell nvidia-smi -L >/dev/null 2>&1 && echo 1 || nproc 2>/dev/null || echo 1)

GIT_REV ?= $(shell git describe --always --dirty 2>/dev/null || echo unknown)
VERSION := 0.1.0

CSTD := -std=gnu11
WARN := -Wall -Wextra -Werror=implicit-function-declaration -Werror=int-conversion -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter -Wno-format-truncation
CFLAGS ?= -O2 -g
CPPFLAGS += -Iharness -Iprobes -Ibench -I$(BUILD)/gen -I$(CUDA_HOME)/include -D_GNU_SOURCE \
	-DGP_CUDA_LIB_DIR='"$(CUDA_HOME)/lib64"'
# Host arithmetic that validates GPU results must not be contracted into FMAs behind our back.
HOST_FLAGS := $(CSTD) $(WARN) -ffp-contract=off -MMD -MP
LDLIBS += -ldl -lm -lpthread

LDLIBS := -lcsv $(LDLIBS)
ifneq ($(DEPS),)
  DEPS_LIB := $(firstword $(wildcard $(DEPS)/usr/lib/*-linux-gnu))
  ifeq ($(wildcard $(DEPS)/usr/include/csv.h),)
    $(error DEPS=$(DEPS) holds no usr/include/csv.h: run make deps)
  endif
  CPPFLAGS += -I$(DEPS)/usr/include
  LDFLAGS += -L$(DEPS_LIB) -Wl,-rpath,$(abspath $(DEPS_LIB))
endif

.PHONY: all run quick paper test test-host plots report sass clean deps install FORCE
.DELETE_ON_ERROR:
.SECONDARY:

all:

# Kernels: SM, the per-sm pipeline, the embedded images and template cubins, SGEMM_CUBIN.
include mk/kernels.mk

HOST_SRC := $(filter-out harness/main.c,$(wildcard harness/*.c harness/sass/*.c probes/*.c bench/*.c))
HOST_OBJ := $(HOST_SRC:%.c=$(BUILD)/obj/%.o)
TEST_SRC := $(wildcard tests/test_*.c)
# Host tests: every program but the GPU ones and those that read an embedded kernel image
# (test_tsm2's test_instances_in_image and test_sgemm's test_images_hold_their_kernels look for
# kernel names in the fatbins: once such a test skips on GP_NO_IMAGE, its program can leave
# this list).
TEST_NEEDS_KERNELS := tests/test_tsm2.c tests/test_sgemm.c
# And the programs whose subject is a run of bin/gpuprobe through the stub driver (mk/stub.mk):
# the host-only binary has no kernels to run.
TEST_NEEDS_BINARY := tests/test_stub_run.c tests/test_stub_needs.c
TEST_HOST_SRC := $(filter-out tests/test_gpu% $(TEST_NEEDS_KERNELS) $(TEST_NEEDS_BINARY),$(TEST_SRC))
DEF_SRC := $(sort $(wildcard probes/*.def)) $(sort $(wildcard bench/*.def))

# The host code is one library, linked either with the kernels (libgp.a: the binary, the tests)
# or with stand-ins that hold no image (libgp-host.a: make test-host, the sanitizer builds).
KERNEL_OBJ := $(IMAGE_OBJ) $(BUILD)/obj/gen/cubins.o $(BUILD)/obj/gen/cubins_data.o
NOKERNEL_OBJ := $(BUILD)/obj/gen/nokernels.o
LIBGP := $(BUILD)/libgp.a
LIBGP_HOST := $(BUILD)/libgp-host.a
BIN := bin/gpuprobe
HOST_BIN := $(BUILD)/host/bin/gpuprobe
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
# The programs that run a kernel in process: linked with the kernels. Every other one (the host
# tests) is linked with libgp-host.a, also in $(BUILD)/tests: it never opens an embedded image,
# and the kernels would make each program as large as the binary (about 130 MB at five sms:
# linking 57 such programs took 34 of a clean build's 266 CPU-seconds).
KERNEL_TEST_BIN := $(filter-out $(TEST_HOST_SRC:tests/%.c=$(BUILD)/tests/%),$(TEST_BIN))
HOST_TEST_BIN := $(TEST_HOST_SRC:tests/%.c=$(BUILD)/host/tests/%)

RESULTS ?= results
DEVICE ?= 0
RUN ?= $(lastword $(sort $(wildcard $(RESULTS)/*/2*)))

all: $(BIN) $(SGEMM_CUBINS)

# The test programs (make test builds them; make all does not).
.PHONY: tests
tests: $(TEST_BIN)

$(BIN) $(HOST_BIN): $(BUILD)/obj/harness/main.o
	@mkdir -p $(@D)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $(filter %.o %.a,$^) $(LDLIBS)
$(BIN): $(LIBGP)
$(HOST_BIN): $(LIBGP_HOST)

$(LIBGP): $(HOST_OBJ) $(KERNEL_OBJ)
$(LIBGP_HOST): $(HOST_OBJ) $(NOKERNEL_OBJ)
$(LIBGP) $(LIBGP_HOST):
	@echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $(filter %.o,$^)

# Version and git revision as a generated header, rewritten only when they change, so objects
# that print them are rebuilt exactly then (a reused build tree never reports a stale revision).
# The temporary name is per process: CI runs several makes on one tree at once.
$(BUILD)/gen/version.h: FORCE
	@mkdir -p $(@D)
	@printf '#define GP_VERSION "%s"\n#define GP_GIT_REV "%s"\n' '$(VERSION)' '$(GIT_REV)' > $@.$$$$; \
	cmp -s $@.$$$$ $@ && rm -f $@.$$$$ || mv $@.$$$$ $@

$(BUILD)/obj/harness/main.o $(BUILD)/obj/harness/run.o $(BUILD)/obj/tests/test_cli.o: $(BUILD)/gen/version.h

FORCE:

# The registry: every family's .def file, concatenated in name order, after a default that makes
# the GP_NEEDS lines (harness/needs.h) vanish where only GP_EXPERIMENT is wanted.
DEF_PREAMBLE := printf '/* Generated by the Makefile from the .def files. */\n\#ifndef GP_NEEDS\n\#define GP_NEEDS(...)\n\#endif\n'
$(BUILD)/gen/experiments.def: $(DEF_SRC) Makefile
	@mkdir -p $(@D)
	$(Q){ $(DEF_PREAMBLE); cat $(DEF_SRC); } > $@

$(BUILD)/obj/harness/registry.o $(BUILD)/obj/harness/analysis.o $(BUILD)/obj/harness/needs.o: $(BUILD)/gen/experiments.def

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(HOST_FLAGS) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# Stand-ins for the kernel images: every gp_image_* symbol a .cu would give holds the GP_NO_IMAGE
# marker (gp_kernel refuses it with a message), and the template table is empty. Rewritten only
# when it changes (a .cu added or removed changes it without touching the Makefile).
$(BUILD)/gen/nokernels.c: FORCE
	@mkdir -p $(@D)
	$(Q){ printf '/* Generated by the Makefile: a build without kernels (make test-host). */\n'; \
	  printf '#include "device.h"\n#include "templates.h"\n'; \
	  for s in $(subst /,_,$(CU_SRC:%.cu=%)); do printf 'const unsigned char gp_image_%s[] = GP_NO_IMAGE;\n' $$s; done; \
	  printf 'const struct gp_template_cubin gp_template_cubins[] = { { 0 } };\nconst size_t gp_ntemplate_cubins = 0;\n'; \
	} > $@.$$$$; cmp -s $@.$$$$ $@ && rm -f $@.$$$$ || mv $@.$$$$ $@

$(BUILD)/obj/gen/nokernels.o: $(BUILD)/gen/nokernels.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(HOST_FLAGS) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# Test programs: compiled once, linked with the kernels ($(BUILD)/tests) or without them
# ($(BUILD)/host/tests).
$(BUILD)/obj/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(HOST_FLAGS) $(CPPFLAGS) $(CFLAGS) -Itests -c -o $@ $<

$(KERNEL_TEST_BIN): $(LIBGP)
$(filter-out $(KERNEL_TEST_BIN),$(TEST_BIN)): $(LIBGP_HOST)
$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o
	@mkdir -p $(@D)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(filter %.o %.a,$^) -lcmocka $(LDLIBS)

$(BUILD)/host/tests/%: $(BUILD)/obj/tests/%.o $(LIBGP_HOST)
	@mkdir -p $(@D)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(filter %.o %.a,$^) -lcmocka $(LDLIBS)

# The SASS codec tests' cubins (tests/sass_test.h): tests/sass/*.cu for every sm those tests
# cover, each with its ptxas -v log, compiled once for every pass over the tests (test,
# test-host, asan, valgrind) instead of by each program; without nvcc those tests skip.
# The sms: one of each instruction-set generation the codec knows (tests/sass_test.h's list).
SASS_FIXTURE_DIR := $(BUILD)/tests/sass
SASS_FIXTURE_SM := 75 80 86 89 90 100 120
SASS_FIXTURES := $(if $(wildcard $(NVCC)),$(foreach s,$(SASS_FIXTURE_SM),$(SASS_FIXTURE_DIR)/chains_sm$(s).cubin \
	$(SASS_FIXTURE_DIR)/reloc_sm$(s).cubin))
$(SASS_FIXTURE_DIR)/chains_sm%.cubin: tests/sass/chains.cu
	@mkdir -p $(@D)
	@echo "  NVCC    $< [sm_$*, test fixture]"
	$(Q)$(NVCC) -cubin -O3 -Xptxas -v -arch=sm_$* -o $@ $< 2> $@.log || { cat $@.log; exit 1; }
$(SASS_FIXTURE_DIR)/reloc_sm%.cubin: tests/sass/reloc.cu
	@mkdir -p $(@D)
	@echo "  NVCC    $< [sm_$*, test fixture]"
	$(Q)$(NVCC) -cubin -O3 -rdc=true -Xptxas -v -arch=sm_$* -o $@ $< 2> $@.log || { cat $@.log; exit 1; }

# The SGEMM kernels as test_planner reads them: every bench/sgemm_*.cu in one translation unit,
# one sm_90 cubin, compiled once here for every pass over the tests (the test compiles the same
# itself when run alone).
PLANNER_FIXTURE_DIR := $(BUILD)/tests/planner
PLANNER_FIXTURE := $(if $(wildcard $(NVCC)),$(PLANNER_FIXTURE_DIR)/sgemm_all.sm_90.cubin)
$(PLANNER_FIXTURE_DIR)/sgemm_all.cu: $(filter-out %_90a.cu,$(wildcard bench/sgemm_*.cu))
	@mkdir -p $(@D)
	$(Q)for f in $^; do printf '#include "%s"\n' "$$f"; done > $@
$(PLANNER_FIXTURE_DIR)/sgemm_all.sm_90.cubin: $(PLANNER_FIXTURE_DIR)/sgemm_all.cu
	@echo "  NVCC    bench/sgemm_*.cu [sm_90, test fixture]"
	$(Q)$(NVCC) -cubin -O3 -std=c++17 -I. -Iprobes -Ibench -Iharness -arch=sm_90 -MD -MP -MF $@.d -o $@ $<

TEST_FIXTURES := $(SASS_FIXTURES) $(PLANNER_FIXTURE)
.PHONY: test-fixtures
test-fixtures: $(TEST_FIXTURES)

# What every pass over the tests hands them.
TEST_ENV = NVCC=$(NVCC) JOBS=$(TEST_JOBS) GP_SM_ALL="$(SM_ALL)" $(if $(SASS_FIXTURES),GP_SASS_FIXTURES=$(SASS_FIXTURE_DIR)) \
	$(if $(PLANNER_FIXTURE),GP_TEST_SGEMM_CUBIN=$(PLANNER_FIXTURE))

# The layering: include before the test targets, which run its checks.
include mk/layers.mk

test: all $(TEST_BIN) check-layers $(TEST_FIXTURES)
	$(Q)BUILD=$(BUILD) $(TEST_ENV) tests/run.sh $(TEST_BIN) $(LINK_TEST)

# The host binary finds configs/ and plots/ through GPUPROBE_HOME (it lives in $(BUILD)/host), and
# the tests see BUILD=$(BUILD)/host, which holds no kernels: a test that reads a built cubin or
# fatbin skips, rather than reading one a full build left behind for other sources.
# Everything test-host runs, built (also what the ASan tree builds).
.PHONY: host-programs
host-programs: $(HOST_BIN) $(HOST_TEST_BIN) $(LINK_TEST)

test-host: host-programs check-layers $(TEST_FIXTURES)
	$(Q)GPUPROBE=$(HOST_BIN) GPUPROBE_HOME=$(CURDIR) BUILD=$(BUILD)/host $(TEST_ENV) \
		tests/run.sh $(HOST_TEST_BIN) $(LINK_TEST)

run: $(BIN)
	$(Q)$(BIN) run --suite configs/default.csv --device $(DEVICE) --out $(RESULTS) --report

quick: $(BIN)
	$(Q)$(BIN) run --suite configs/quick.csv --device $(DEVICE) --out $(RESULTS) --report

paper: $(BIN)
	$(Q)$(BIN) run --suite configs/paper.csv --device $(DEVICE) --out $(RESULTS) --report

plots: $(BIN)
	$(Q)test -n "$(RUN)" || { echo "make plots: no run directory (RUN=...)" >&2; exit 2; }
	$(Q)$(BIN) report --plots-only $(RUN)

report: $(BIN)
	$(Q)test -n "$(RUN)" || { echo "make report: no run directory (RUN=...)" >&2; exit 2; }
	$(Q)$(BIN) report $(RUN)

sass: $(FATBIN)
	$(Q)command -v cuobjdump >/dev/null || { echo "make sass: cuobjdump not found (it ships with the CUDA toolkit on the GPU machine)" >&2; exit 2; }
	$(Q)mkdir -p $(BUILD)/sass
	$(Q)for f in $(FATBIN); do n=$$(basename $$f .fatbin); cuobjdump -sass $$f > $(BUILD)/sass/$$n.sass && echo "  SASS    $(BUILD)/sass/$$n.sass"; done

# The binary and what it reads at run time: configs/ (suites, reference.csv), plots/ and the
# SGEMM cubins the report's planner section reads, under PREFIX/share/gpuprobe (gp_home finds
# them there from PREFIX/bin/gpuprobe; GPUPROBE_HOME overrides).
PREFIX ?= /usr/local
SHARE := $(DESTDIR)$(PREFIX)/share/gpuprobe
install: $(BIN) $(SGEMM_CUBINS)
	install -d $(DESTDIR)$(PREFIX)/bin $(SHARE)/configs $(SHARE)/plots $(SHARE)/build/cubins
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/gpuprobe
	install -m 644 configs/*.csv $(SHARE)/configs/
	install -m 644 plots/*.gp $(SHARE)/plots/
	install -m 644 $(SGEMM_CUBINS) $(SHARE)/build/cubins/

deps:
	$(Q)scripts/fetch-deps.sh .deps/root

clean:
	rm -rf $(BUILD) bin

# Feature fragments (fuzzing, sanitizers, …) add their own targets here.
-include $(filter-out mk/kernels.mk mk/layers.mk,$(sort $(wildcard mk/*.mk)))

# Dependencies: gcc's for the host objects, nvcc's for the cubins and PTX (both with phony targets
# for headers, so a deleted header does not stop the build); not other .d files an older
# Makefile left in a reused build tree.
-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null) \
	$(shell find $(BUILD)/kernels $(BUILD)/check $(PLANNER_FIXTURE_DIR) -name '*.cubin.d' -o -name '*.ptx.d' 2>/dev/null)
