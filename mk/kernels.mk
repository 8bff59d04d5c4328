# kernels.mk — every kernel, compiled once per sm and combined (included by the Makefile first).
#
# Which sms: SM, by default the compute capabilities of this machine's GPUs (scripts/detect-sm.sh:
# nvidia-smi or nvcc's __nvcc_device_query, no GPU library needed), else every supported one
# (SM_ALL); SM=all always builds every one (CI does).
#
# How: each .cu is compiled by cicc into PTX once per PTX level, and every sm's cubin is assembled
# by ptxas from its level's PTX (native code for that sm: ptxas schedules and allocates for it).
# The levels are the first sm of each feature family: compute_75 (Turing), compute_80 (Ampere
# and Ada: sm_80, sm_86, sm_89), compute_90 (Hopper). cicc is most of nvcc's time, so this is
# what makes building every sm affordable; it is the same split as nvcc's
# `-gencode arch=compute_80,code=sm_86`. A source that tests __CUDA_ARCH__ against an sm of its
# own (probes/mma.cu: 890, the FP8 mma forms) gets that sm's PTX for it: make finds such guards
# in the .cu itself (a header may not hold one: checked below). The newest level's PTX is also
# embedded for GPUs newer than any sm built. fatbinary combines the cubins and the PTX into the
# fatbin the binary embeds, the same bytes nvcc -fatbin writes for the same -gencode list (make
# check-fatbin proves it). Each (source, level) and (source, sm) is its own make job, so -j
# spreads a large .cu over the cores, and the per-sm cubins serve wherever one sm's machine code
# is wanted (the SGEMM ladder the planner reads, the SASS templates): nothing is compiled twice.
#
# cicc's output depends on the target even for the same source (bench/sgemm.cu's PTX for
# compute_80 and compute_86 differ in instruction order and registers): the sm_86 and sm_89
# kernels are the compute_80 PTX's, as nvcc builds them for that -gencode, not the compute_86
# PTX's. The sms measured so far (sm_90: H100, H200) are their own level, so nothing measured
# changed with this split.

SM_ALL := 75 80 86 89 90
ifeq ($(origin SM),undefined)
  SM := $(shell scripts/detect-sm.sh '$(NVCC)' $(SM_ALL))
endif
ifeq ($(strip $(SM)),all)
  override SM := $(SM_ALL)
endif
# Sub-makes (fuzz, asan) inherit the choice instead of detecting again.
export SM
PTX_SM ?= $(lastword $(shell printf '%s\n' $(SM) | sort -n))
# The PTX level of each sm (the first sm of its family), and of the embedded PTX.
ptx_level = $(if $(filter 75,$(1)),75,$(if $(filter 80 86 87 88 89,$(1)),80,$(1)))
PTX_LEVEL := $(call ptx_level,$(PTX_SM))

NVCCFLAGS ?= -O3 -lineinfo -std=c++17
NVCCFLAGS += -Iprobes -Ibench -Iharness --threads 0
# What nvcc -fatbin itself tells fatbinary for these NVCCFLAGS (nvcc -dryrun shows it): recorded
# in the fatbin for the driver's JIT of the PTX. make check-fatbin fails if they drift apart.
FATBIN_FLAGS ?= -64 --cmdline=" --generate-line-info " \
	--cicc-cmdline="-generate-line-info -ftz=0 -prec_div=1 -prec_sqrt=1 -fmad=1 "
FATBINARY ?= $(dir $(NVCC))fatbinary

CU_SRC := $(wildcard harness/*.cu probes/*.cu bench/*.cu)
# Hopper-only PTX (wgmma, setmaxnreg, TMA multicast) needs the arch-specific target sm_90a, whose
# code runs on compute capability 9.0 parts only. Such kernels live in files named *_90a.cu: they
# are compiled for sm_90a alone, whatever SM says (no GPU is needed to compile them), and their
# image fails to load on any other GPU, which the probe reports as an n/a row.
CU_90A_SRC := $(filter %_90a.cu,$(CU_SRC))
TEMPLATE_SRC := $(wildcard probes/patch/*.cu)

# The sm list the kernels were built for, rewritten only when it changes: a fatbin or the
# template table built for other sms is rebuilt, never reused.
SM_STAMP := $(BUILD)/gen/sm.list
$(SM_STAMP): FORCE
	@mkdir -p $(@D)
	@echo '$(SM) ptx $(PTX_LEVEL) levels $(foreach s,$(SM),$(s):$(call ptx_level,$(s)))' > $@.$$$$; \
		cmp -s $@.$$$$ $@ && rm -f $@.$$$$ || mv $@.$$$$ $@

# .cu -> PTX of one level (preprocessor, cicc).
define PTX_RULE
$(BUILD)/kernels/%.compute_$(1).ptx: %.cu
	@mkdir -p $$(@D)
	@echo "  NVCC    $$< [compute_$(1)]"
	$$(Q)$$(NVCC) $$(NVCCFLAGS) -ptx -arch=compute_$(1) -MD -MP -MF $$@.d -o $$@ $$<
endef
# PTX of its level -> one sm's cubin (ptxas).
define CUBIN_RULE
$(BUILD)/kernels/%.sm_$(1).cubin: $(BUILD)/kernels/%.compute_$(2).ptx
	@echo "  PTXAS   $$* [sm_$(1) from compute_$(2)]"
	$$(Q)$$(NVCC) $$(NVCCFLAGS) -cubin -arch=sm_$(1) -o $$@ $$<
endef
# A source whose guards name sm s itself (__CUDA_ARCH__ compared with s0) has a level of its own.
own_level = $(shell grep -lE '__CUDA_ARCH__ *[<>=!]+ *$(1)0\b' $(filter-out $(CU_90A_SRC),$(CU_SRC)) $(TEMPLATE_SRC))
define OWN_RULE
$(BUILD)/kernels/$(2:%.cu=%).sm_$(1).cubin: $(BUILD)/kernels/$(2:%.cu=%).compute_$(1).ptx
	@echo "  PTXAS   $(2:%.cu=%) [sm_$(1), its own level]"
	$$(Q)$$(NVCC) $$(NVCCFLAGS) -cubin -arch=sm_$(1) -o $$@ $$<
endef
PTX_LEVELS := $(sort $(foreach s,$(SM),$(call ptx_level,$(s))))
$(foreach l,$(PTX_LEVELS),$(eval $(call PTX_RULE,$(l))))
$(foreach s,$(SM),$(eval $(call CUBIN_RULE,$(s),$(call ptx_level,$(s)))))
$(foreach s,$(SM),$(if $(filter-out $(s),$(call ptx_level,$(s))),$(foreach f,$(call own_level,$(s)),\
	$(eval $(call PTX_RULE,$(s)))$(eval $(call OWN_RULE,$(s),$(f))))))
# A guard on a minor sm inside a header would be invisible to the rule above.
ifneq ($(shell grep -lE '__CUDA_ARCH__ *[<>=!]+ *(86|87|88|89)0\b' harness/*.cuh probes/*.cuh bench/*.cuh harness/*.h probes/*.h bench/*.h 2>/dev/null),)
  $(error kernels.mk: a header compares __CUDA_ARCH__ with a minor sm (86x..89x): move the guard into the .cu so the build gives that source its own PTX level)
endif

# One fatbin per .cu: the cubin of every sm in SM plus the newest level's PTX, in nvcc's order
# (level by level; in a level its PTX if embedded, then its sms' cubins in reverse).
reverse = $(if $(1),$(call reverse,$(wordlist 2,$(words $(1)),$(1))) $(firstword $(1)))
sms_of_level = $(foreach s,$(SM),$(if $(filter $(1),$(call ptx_level,$(s))),$(s)))
FATBIN_ORDER := $(foreach l,$(PTX_LEVELS),$(if $(filter $(l),$(PTX_LEVEL)),ptx:$(l)) \
	$(foreach s,$(call reverse,$(call sms_of_level,$(l))),elf:$(s)))
comma := ,
image_arg = $(if $(filter ptx:%,$(1)),"--image3=kind=ptx$(comma)sm=$(PTX_LEVEL)$(comma)file=$(BUILD)/kernels/$(2).compute_$(PTX_LEVEL).ptx",$\
	"--image3=kind=elf$(comma)sm=$(patsubst elf:%,%,$(1))$(comma)file=$(BUILD)/kernels/$(2).sm_$(patsubst elf:%,%,$(1)).cubin")
$(BUILD)/kernels/%.fatbin: $(foreach s,$(SM),$(BUILD)/kernels/%.sm_$(s).cubin) \
		$(BUILD)/kernels/%.compute_$(PTX_LEVEL).ptx $(SM_STAMP)
	@echo "  FATBIN  $* [sm $(SM)]"
	$(Q)$(FATBINARY) --create=$@ $(FATBIN_FLAGS) --ident=$*.cu $(foreach i,$(FATBIN_ORDER),$(call image_arg,$(i),$*))

# sm_90a sources: one cubin and a fatbin of it alone (the shorter stem makes make prefer these rules).
$(BUILD)/kernels/%_90a.sm_90a.cubin: %_90a.cu
	@mkdir -p $(@D)
	@echo "  NVCC    $< [sm_90a]"
	$(Q)$(NVCC) $(NVCCFLAGS) -cubin -gencode arch=compute_90a,code=sm_90a -MD -MP -MF $@.d -o $@ $<

$(BUILD)/kernels/%_90a.fatbin: $(BUILD)/kernels/%_90a.sm_90a.cubin
	@echo "  FATBIN  $*_90a [sm_90a]"
	$(Q)$(FATBINARY) --create=$@ $(FATBIN_FLAGS) --ident=$*_90a.cu "--image3=kind=elf,sm=90a,file=$<"

FATBIN := $(CU_SRC:%.cu=$(BUILD)/kernels/%.fatbin)
IMAGE_OBJ := $(CU_SRC:%.cu=$(BUILD)/kernels/%.image.o)

# Embed each fatbin as a symbol gp_image_<dir>_<name> (e.g. gp_image_probes_arith).
$(BUILD)/kernels/%.image.S: $(BUILD)/kernels/%.fatbin
	@printf '\t.section .rodata\n\t.balign 64\n\t.globl gp_image_%s\ngp_image_%s:\n\t.incbin "%s"\n\t.byte 0\n\t.section .note.GNU-stack,"",@progbits\n' \
		'$(subst /,_,$*)' '$(subst /,_,$*)' '$<' > $@

$(BUILD)/kernels/%.image.o: $(BUILD)/kernels/%.image.S
	@echo "  EMBED   $*"
	$(Q)$(CC) -c -o $@ $<

# Patchable templates: one cubin per sm (the SASS patcher edits one sm's machine code), embedded
# with a lookup table (harness/templates.h) under their historic names build/cubins/NAME.sm_XX.
CUBINS := $(foreach t,$(TEMPLATE_SRC:%.cu=%),$(foreach s,$(SM),$(BUILD)/cubins/$(notdir $(t)).sm_$(s).cubin))
$(CUBINS): $(BUILD)/cubins/%: $(BUILD)/kernels/probes/patch/%
	@mkdir -p $(@D)
	$(Q)cp $< $@

$(BUILD)/gen/cubins.S $(BUILD)/gen/cubins.c &: $(CUBINS) $(SM_STAMP) scripts/embed-cubins.sh
	@mkdir -p $(BUILD)/gen
	$(Q)scripts/embed-cubins.sh $(BUILD)/gen/cubins.S $(BUILD)/gen/cubins.c $(CUBINS)

$(BUILD)/obj/gen/cubins.o: $(BUILD)/gen/cubins.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(HOST_FLAGS) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/obj/gen/cubins_data.o: $(BUILD)/gen/cubins.S
	@mkdir -p $(@D)
	@echo "  EMBED   template cubins"
	$(Q)$(CC) -c -o $@ $<

# The SGEMM warp-tiling kernels as one sm's cubin, for every sm built: the report reads the
# load-to-use distances our best FFMA kernel (sgemm_29_warptile) achieves from its SASS (seed 001
# Table 5 beside the planner), no GPU needed (harness/report.c looks for
# build/cubins/sgemm.sm_<run's cc>.cubin). A copy of the cubin the fatbin is made of, not a second
# compile. SGEMM_SRC: the source (stem) holding those kernels.
SGEMM_SRC ?= bench/sgemm_warp
SGEMM_CUBINS := $(SM:%=$(BUILD)/cubins/sgemm.sm_%.cubin)
SGEMM_CUBIN := $(BUILD)/cubins/sgemm.sm_$(PTX_SM).cubin
$(SGEMM_CUBINS): $(BUILD)/cubins/sgemm.sm_%.cubin: $(BUILD)/kernels/$(SGEMM_SRC).sm_%.cubin
	@mkdir -p $(@D)
	$(Q)cp $< $@

# The kernels without the binary: what `make kernels` builds.
KERNELS := $(IMAGE_OBJ) $(BUILD)/obj/gen/cubins.o $(BUILD)/obj/gen/cubins_data.o $(SGEMM_CUBINS)

.PHONY: kernels check-fatbin
kernels: $(KERNELS)

# The combined fatbin is nvcc's own: harness/clock.cu through both paths, compared byte for byte.
CHECK_DIR := $(BUILD)/check
check-fatbin: $(BUILD)/kernels/harness/clock.fatbin
	@mkdir -p $(CHECK_DIR)
	$(Q)$(NVCC) $(NVCCFLAGS) $(foreach s,$(SM),-gencode arch=compute_$(call ptx_level,$(s)),code=sm_$(s)) \
		-gencode arch=compute_$(PTX_LEVEL),code=compute_$(PTX_LEVEL) \
		-fatbin -o $(CHECK_DIR)/clock.nvcc.fatbin harness/clock.cu
	$(Q)cmp $< $(CHECK_DIR)/clock.nvcc.fatbin && echo "  CHECK   fatbinary output equals nvcc -fatbin's (harness/clock.cu, sm $(SM))"
