# gpuprobe — plain Makefile, out-of-tree build in $(BUILD).
#
#   make                 everything, kernels for every supported sm (SM=...)
#   make SM=90           kernels for one sm
#   make DEPS=.deps/root  use libcsv and cmocka unpacked outside the system paths (make deps)
#   make run | quick     default / quick suite on GPU 0 into results/, then the report
#   make test            host unit tests; GPU tests run where a GPU is present, else report skipped
#   make plots report    charts / REPORT.md for RUN=<run dir> (default: newest run under results/)
#   make sass            SASS of every kernel into $(BUILD)/sass (needs cuobjdump)
#   make deps            download libcsv + cmocka .debs and unpack them into .deps/root (for the
#                        GPU machine, which has neither and no network: carry .deps there)

Q ?= @
BUILD ?= build
CUDA_HOME ?= /usr/local/cuda
NVCC ?= $(CUDA_HOME)/bin/nvcc
CC ?= cc
SM ?= 75 80 86 89 90
PTX_SM ?= $(lastword $(sort $(SM)))
DEPS ?=
GNUPLOT ?= gnuplot

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

NVCC_GENCODE := $(foreach s,$(SM),-gencode arch=compute_$(s),code=sm_$(s)) \
	-gencode arch=compute_$(PTX_SM),code=compute_$(PTX_SM)
NVCCFLAGS ?= -O3 -lineinfo -std=c++17
NVCCFLAGS += -Iprobes -Ibench -Iharness

HOST_SRC := $(filter-out harness/main.c,$(wildcard harness/*.c harness/sass/*.c probes/*.c bench/*.c))
CU_SRC := $(wildcard harness/*.cu probes/*.cu bench/*.cu)
TEST_SRC := $(wildcard tests/test_*.c)
DEF_SRC := $(sort $(wildcard probes/*.def)) $(sort $(wildcard bench/*.def))

TEMPLATE_SRC := $(wildcard probes/patch/*.cu)
CUBINS := $(foreach t,$(TEMPLATE_SRC),$(foreach s,$(SM),$(BUILD)/cubins/$(basename $(notdir $(t))).sm_$(s).cubin))

HOST_OBJ := $(HOST_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/cubins.o $(BUILD)/obj/gen/cubins_data.o
FATBIN := $(CU_SRC:%.cu=$(BUILD)/kernels/%.fatbin)
IMAGE_OBJ := $(CU_SRC:%.cu=$(BUILD)/kernels/%.image.o)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
LIBGP := $(BUILD)/libgp.a
BIN := bin/gpuprobe

RESULTS ?= results
RUN ?= $(lastword $(sort $(wildcard $(RESULTS)/*/2*)))

.PHONY: all run quick paper test plots report sass clean deps
.DELETE_ON_ERROR:
.SECONDARY:

# The SGEMM warp-tiling kernels as a cubin for the newest sm: the report reads the load-to-use
# distances our best FFMA kernel (sgemm_29_warptile) achieves from its SASS (seed 001 Table 5
# beside the planner), no GPU needed.
SGEMM_CUBIN := $(BUILD)/cubins/sgemm.sm_$(PTX_SM).cubin

all: $(BIN) $(TEST_BIN) $(SGEMM_CUBIN)

$(SGEMM_CUBIN): bench/sgemm_warp.cu
	@mkdir -p $(@D)
	@echo "  CUBIN   $< [sm_$(PTX_SM)]"
	$(Q)$(NVCC) $(NVCCFLAGS) -cubin -arch=sm_$(PTX_SM) -MD -MF $@.d -o $@ $<

$(BIN): $(BUILD)/obj/harness/main.o $(LIBGP)
	@mkdir -p $(@D)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(LIBGP): $(HOST_OBJ) $(IMAGE_OBJ)
	@echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

# Version and git revision as a generated header, rewritten only when they change, so objects
# that print them are rebuilt exactly then (a reused build tree never reports a stale revision).
$(BUILD)/gen/version.h: FORCE
	@mkdir -p $(@D)
	@printf '#define GP_VERSION "%s"\n#define GP_GIT_REV "%s"\n' '$(VERSION)' '$(GIT_REV)' > $@.new
	@cmp -s $@.new $@ && rm -f $@.new || mv $@.new $@

$(BUILD)/obj/harness/main.o $(BUILD)/obj/harness/run.o $(BUILD)/tests/test_cli: $(BUILD)/gen/version.h

.PHONY: FORCE
FORCE:

# The registry: every family's .def file, concatenated in name order.
$(BUILD)/gen/experiments.def: $(DEF_SRC) Makefile
	@mkdir -p $(@D)
	$(Q)cat $(DEF_SRC) > $@

$(BUILD)/obj/harness/registry.o $(BUILD)/obj/harness/analysis.o: $(BUILD)/gen/experiments.def

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(HOST_FLAGS) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# One fatbin per .cu: SASS for every sm in SM plus PTX for the newest, loaded with cuModuleLoadData.
$(BUILD)/kernels/%.fatbin: %.cu
	@mkdir -p $(@D)
	@echo "  NVCC    $< [sm $(SM)]"
	$(Q)$(NVCC) $(NVCCFLAGS) $(NVCC_GENCODE) -fatbin -MD -MF $@.d -o $@ $<

# Embed each fatbin as a symbol gp_image_<dir>_<name> (e.g. gp_image_probes_arith).
$(BUILD)/kernels/%.image.S: $(BUILD)/kernels/%.fatbin
	@printf '\t.section .rodata\n\t.balign 64\n\t.globl gp_image_%s\ngp_image_%s:\n\t.incbin "%s"\n\t.byte 0\n\t.section .note.GNU-stack,"",@progbits\n' \
		'$(subst /,_,$*)' '$(subst /,_,$*)' '$<' > $@

$(BUILD)/kernels/%.image.o: $(BUILD)/kernels/%.image.S
	@echo "  EMBED   $*"
	$(Q)$(CC) -c -o $@ $<

# Patchable templates: one cubin per sm (the SASS patcher edits one sm's machine code), embedded
# with a lookup table (harness/templates.h).
define CUBIN_RULE
$(BUILD)/cubins/%.sm_$(1).cubin: probes/patch/%.cu
	@mkdir -p $$(@D)
	@echo "  CUBIN   $$< [sm_$(1)]"
	$$(Q)$$(NVCC) $$(NVCCFLAGS) -cubin -arch=sm_$(1) -MD -MF $$@.d -o $$@ $$<
endef
$(foreach s,$(SM),$(eval $(call CUBIN_RULE,$(s))))

$(BUILD)/gen/cubins.S $(BUILD)/gen/cubins.c &: $(CUBINS) scripts/embed-cubins.sh Makefile
	@mkdir -p $(BUILD)/gen
	$(Q)scripts/embed-cubins.sh $(BUILD)/gen/cubins.S $(BUILD)/gen/cubins.c $(CUBINS)

$(BUILD)/obj/gen/cubins.o: $(BUILD)/gen/cubins.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(HOST_FLAGS) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/obj/gen/cubins_data.o: $(BUILD)/gen/cubins.S
	@mkdir -p $(@D)
	@echo "  EMBED   template cubins"
	$(Q)$(CC) -c -o $@ $<

$(BUILD)/tests/%: tests/%.c $(LIBGP)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(HOST_FLAGS) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -Itests -o $@ $< $(LIBGP) -lcmocka $(LDLIBS)

test: all
	$(Q)BUILD=$(BUILD) NVCC=$(NVCC) tests/run.sh $(TEST_BIN)

run: $(BIN)
	$(Q)$(BIN) run --suite configs/default.csv --out $(RESULTS) --report

quick: $(BIN)
	$(Q)$(BIN) run --suite configs/quick.csv --out $(RESULTS) --report

paper: $(BIN)
	$(Q)$(BIN) run --suite configs/paper.csv --out $(RESULTS) --report

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

deps:
	$(Q)scripts/fetch-deps.sh .deps/root

clean:
	rm -rf $(BUILD) bin

# Feature fragments (fuzzing, sanitizers, …) add their own targets here.
-include $(sort $(wildcard mk/*.mk))

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
