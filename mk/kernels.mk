# kernels.mk — every kernel, compiled once per sm and combined (included by the Makefile first).
#
# Which sms: SM, by default the compute capabilities of this machine's GPUs (scripts/detect-sm.sh:
# nvidia-smi or nvcc's __nvcc_device_query, no GPU library needed), else every supported one
# (SM_ALL); SM=all always builds every one (CI does).
#
# How: each .cu is compiled by cicc into PTX once per PTX level it needs, and every sm's cubin is
# assembled by ptxas from its level's PTX (native code for that sm: ptxas schedules and allocates
# for it), as nvcc's `-gencode arch=compute_75,code=sm_86` does. A source's levels
# (scripts/ptx-levels.sh) are 75, the oldest sm, plus every sm its __CUDA_ARCH__ guards name, in
# the .cu or a project header it includes (mma.cu: 80, 89, 90, 120), plus a `ptx-level: NN` tag's
# (bench/sgemm_volkov.cu: 80, where cicc's compute_80 output differs unasked); an sm takes the
# highest level at or below it. make check-ptx-levels proves that the sm of the committed runs
# (sm_90: H100, H200) loses nothing by it: wherever sm_90 takes a lower level, that level's PTX
# is cicc's compute_90 PTX but for .version/.target, or ptxas's sm_90 code from the two is the
# same (bench/sgemm_warp.cu, whose PTX differs between two cicc runs at any level), so its kernels
# are exactly nvcc -arch=sm_90's. cicc is most of nvcc's time, so this is what makes building every sm
# affordable. The newest sm's level's PTX is also embedded for GPUs newer than any sm built.
# fatbinary combines the cubins and the PTX into the fatbin the binary embeds, the same bytes
# nvcc -fatbin writes for the same -gencode list (make check-fatbin proves it). Each (source,
# level) and (source, sm) is its own make job, so -j spreads a large .cu over the cores, and the
# per-sm cubins serve wherever one sm's machine code is wanted (the SGEMM ladder the planner
# reads, the SASS templates): nothing is compiled twice. The cubins come from ptxas itself, with
# the flags nvcc -cubin would give it (read once from nvcc -dryrun), and the dependency files from
# the preprocessor pass that feeds cicc: nvcc around ~200 ptxas runs and nvcc -MD's second
# preprocessor pass cost about 8 CPU-seconds of a clean five-sm build.
#
# cicc's output depends on the target even for the same source (bench/sgemm.cu's PTX for
# compute_80 and compute_86 differ in instruction order and registers): an sm_86 kernel is the
# PTX of its source's level, as nvcc builds it for that -gencode, not the compute_86 PTX's. The
# sms measured so far (sm_90: H100, H200) run compute_90's PTX or one proven equal to it, so
# nothing measured changed.

# Every architecture nvcc 13 lists (nvcc --list-gpu-arch). The arch-specific targets (sm_90a) are
# built only for the kernels that need them (CU_90A_SRC below).
SM_ALL := 75 80 86 87 88 89 90 100 103 110 120 121
ifeq ($(origin SM),undefined)
  SM := $(shell scripts/detect-sm.sh '$(NVCC)' $(SM_ALL))
endif
ifeq ($(strip $(SM)),all)
  override SM := $(SM_ALL)
endif
# Sub-makes (fuzz, asan) inherit the choice instead of detecting again.
export SM
PTX_SM ?= $(lastword $(shell printf '%s\n' $(SM) | sort -n))

NVCCFLAGS ?= -O3 -lineinfo -std=c++17
NVCCFLAGS += -Iprobes -Ibench -Iharness --threads 0
# What nvcc -fatbin itself tells fatbinary for these NVCCFLAGS (nvcc -dryrun shows it): recorded
# in the fatbin for the driver's JIT of the PTX. make check-fatbin fails if they drift apart.
FATBIN_FLAGS ?= -64 --cmdline=" --generate-line-info " \
	--cicc-cmdline="-generate-line-info -ftz=0 -prec_div=1 -prec_sqrt=1 -fmad=1 "
FATBINARY ?= $(dir $(NVCC))fatbinary
# The per-sm cubins by ptxas itself, with the flags nvcc -cubin gives it for a .ptx and these
# NVCCFLAGS (read from nvcc -dryrun; nvcc -cubin where they cannot be read): the same cubin
# without nvcc's process around each of the ~200 ptxas runs. And the dependencies written by the
# preprocessor pass that feeds cicc (gcc -MD) instead of the second pass nvcc -MD adds.
PTXAS ?= $(dir $(NVCC))ptxas
PTXAS_FLAGS := $(shell $(NVCC) $(NVCCFLAGS) -cubin -arch=sm_75 -dryrun -o OUT IN.ptx 2>&1 | \
	sed -n 's/^\#\$$ ptxas -arch=sm_75 \(.*\) "IN.ptx" *-o "OUT".*/\1/p')
cubin_cmd = $(if $(PTXAS_FLAGS),$(PTXAS) -arch=sm_$(1) $(PTXAS_FLAGS),$(NVCC) $(NVCCFLAGS) -cubin -arch=sm_$(1))
DEPFLAGS = -Xcompiler -MD,-MP,-MF,$(1).d,-MT,$(1)

CU_SRC := $(wildcard harness/*.cu probes/*.cu bench/*.cu)
# Hopper-only PTX (wgmma, setmaxnreg, TMA multicast) needs the arch-specific target sm_90a, whose
# code runs on compute capability 9.0 parts only. Such kernels live in files named *_90a.cu: they
# are compiled for sm_90a alone, whatever SM says (no GPU is needed to compile them), and their
# image fails to load on any other GPU, which the probe reports as an n/a row.
CU_90A_SRC := $(filter %_90a.cu,$(CU_SRC))
TEMPLATE_SRC := $(wildcard probes/patch/*.cu)

# FILE:SM:LEVEL for every kernel source and sm: the PTX level ptxas assembles that sm's cubin
# from (scripts/ptx-levels.sh: 75, the sms the source's __CUDA_ARCH__ guards name, its tags').
KERNEL_CU := $(filter-out $(CU_90A_SRC),$(CU_SRC)) $(TEMPLATE_SRC)
PTX_MAP := $(shell scripts/ptx-levels.sh '$(SM)' $(KERNEL_CU))
level_of = $(word 3,$(subst :, ,$(filter $(1):$(2):%,$(PTX_MAP))))
uniq = $(if $(1),$(firstword $(1)) $(call uniq,$(filter-out $(firstword $(1)),$(1))))
reverse = $(if $(1),$(call reverse,$(wordlist 2,$(words $(1)),$(1))) $(firstword $(1)))

# The sm list and levels the kernels were built for, rewritten only when they change: a fatbin or
# the template table built for other sms is rebuilt, never reused.
SM_STAMP := $(BUILD)/gen/sm.list
$(SM_STAMP): FORCE
	@mkdir -p $(@D)
	@echo '$(SM) ptx $(PTX_SM) $(PTX_MAP)' > $@.$$$$; cmp -s $@.$$$$ $@ && rm -f $@.$$$$ || mv $@.$$$$ $@

# .cu -> PTX of one level (preprocessor, cicc).
define PTX_RULE
$(BUILD)/kernels/%.compute_$(1).ptx: %.cu
	@mkdir -p $$(@D)
	@echo "  NVCC    $$< [compute_$(1)]"
	$$(Q)$$(NVCC) $$(NVCCFLAGS) -ptx -arch=compute_$(1) $$(call DEPFLAGS,$$@) -o $$@ $$<
endef
# sm_90's levels (make check-ptx-levels reads them whatever SM is).
PTX_MAP_90 := $(if $(filter 90,$(SM)),$(foreach t,$(PTX_MAP),$(if $(filter 90,$(word 2,$(subst :, ,$(t)))),$(t))),$(shell scripts/ptx-levels.sh 90 $(KERNEL_CU)))
$(foreach l,$(sort $(foreach t,$(PTX_MAP) $(PTX_MAP_90),$(word 3,$(subst :, ,$(t))))),$(eval $(call PTX_RULE,$(l))))

# PTX of its level -> one sm's cubin (ptxas): $(1) the source's stem, $(2) the sm, $(3) the level.
define CUBIN_RULE
$(BUILD)/kernels/$(1).sm_$(2).cubin: $(BUILD)/kernels/$(1).compute_$(3).ptx
	@echo "  PTXAS   $(1) [sm_$(2) from compute_$(3)]"
	$$(Q)$$(call cubin_cmd,$(2)) -o $$@ $$<
endef
$(foreach t,$(PTX_MAP),$(eval $(call CUBIN_RULE,$(basename $(word 1,$(subst :, ,$(t)))),$(word 2,$(subst :, ,$(t))),$(word 3,$(subst :, ,$(t))))))

# One fatbin per .cu: the cubin of every sm in SM plus the PTX of PTX_SM's level, in nvcc's order
# for the -gencode list arch=compute_<level>,code=sm_<sm> (sm by sm) + the PTX: level by level
# as they first appear, in a level its PTX if embedded, then its sms' cubins in reverse.
comma := ,
fatbin_images = $(foreach l,$(call uniq,$(foreach s,$(SM),$(call level_of,$(1).cu,$(s)))),$\
	$(if $(filter $(l),$(call level_of,$(1).cu,$(PTX_SM))),"--image3=kind=ptx$(comma)sm=$(l)$(comma)file=$(BUILD)/kernels/$(1).compute_$(l).ptx") $\
	$(foreach s,$(call reverse,$(foreach s,$(SM),$(if $(filter $(l),$(call level_of,$(1).cu,$(s))),$(s)))),$\
		"--image3=kind=elf$(comma)sm=$(s)$(comma)file=$(BUILD)/kernels/$(1).sm_$(s).cubin"))
define FATBIN_RULE
$(BUILD)/kernels/$(1).fatbin: $(foreach s,$(SM),$(BUILD)/kernels/$(1).sm_$(s).cubin) \
		$(BUILD)/kernels/$(1).compute_$(call level_of,$(1).cu,$(PTX_SM)).ptx $(SM_STAMP)
	@echo "  FATBIN  $(1) [sm $(SM)]"
	$$(Q)$$(FATBINARY) --create=$$@ $$(FATBIN_FLAGS) --ident=$(1).cu $(call fatbin_images,$(1))
endef
$(foreach f,$(filter-out $(CU_90A_SRC),$(CU_SRC)),$(eval $(call FATBIN_RULE,$(basename $(f)))))

# sm_90a sources: one cubin and a fatbin of it alone (the shorter stem makes make prefer these rules).
$(BUILD)/kernels/%_90a.sm_90a.cubin: %_90a.cu
	@mkdir -p $(@D)
	@echo "  NVCC    $< [sm_90a]"
	$(Q)$(NVCC) $(NVCCFLAGS) -cubin -gencode arch=compute_90a,code=sm_90a $(call DEPFLAGS,$@) -o $@ $<

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

# The SGEMM warp-tiling kernels as one sm's cubin, for every sm built, also embedded as template
# "sgemm" (bench/sgemm_patch.c patches a kernel of it at run time): the report reads the
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
# The TMA-fed FFMA kernels' sm_90a cubin, template "sgemm_tmaffma" for sm 90 (whatever SM says:
# their image is built for sm_90a alone), for the patched variants of their lines (bench/
# sgemm_patch.c) and the SASS columns of their rows.
SGEMM_TF_CUBIN := $(BUILD)/cubins/sgemm_tmaffma.sm_90.cubin
$(SGEMM_TF_CUBIN): $(BUILD)/kernels/bench/sgemm_tmaffma_90a.sm_90a.cubin
	@mkdir -p $(@D)
	$(Q)cp $< $@

# Patchable templates: one cubin per sm (the SASS patcher edits one sm's machine code), embedded
# with a lookup table (harness/templates.h) under their historic names build/cubins/NAME.sm_XX.
CUBINS := $(foreach t,$(TEMPLATE_SRC:%.cu=%),$(foreach s,$(SM),$(BUILD)/cubins/$(notdir $(t)).sm_$(s).cubin))
$(CUBINS): $(BUILD)/cubins/%: $(BUILD)/kernels/probes/patch/%
	@mkdir -p $(@D)
	$(Q)cp $< $@

$(BUILD)/gen/cubins.S $(BUILD)/gen/cubins.c &: $(CUBINS) $(SGEMM_CUBINS) $(SGEMM_TF_CUBIN) $(SM_STAMP) scripts/embed-cubins.sh
	@mkdir -p $(BUILD)/gen
	$(Q)scripts/embed-cubins.sh $(BUILD)/gen/cubins.S $(BUILD)/gen/cubins.c $(CUBINS) $(SGEMM_CUBINS) $(SGEMM_TF_CUBIN)

$(BUILD)/obj/gen/cubins.o: $(BUILD)/gen/cubins.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(HOST_FLAGS) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/obj/gen/cubins_data.o: $(BUILD)/gen/cubins.S
	@mkdir -p $(@D)
	@echo "  EMBED   template cubins"
	$(Q)$(CC) -c -o $@ $<

# The kernels without the binary: what `make kernels` builds.
KERNELS := $(IMAGE_OBJ) $(BUILD)/obj/gen/cubins.o $(BUILD)/obj/gen/cubins_data.o $(SGEMM_CUBINS)

.PHONY: kernels check-fatbin
kernels: $(KERNELS)

# The combined fatbin is nvcc's own: harness/clock.cu through both paths, compared byte for byte.
CHECK_DIR := $(BUILD)/check
check-fatbin: $(BUILD)/kernels/harness/clock.fatbin
	@mkdir -p $(CHECK_DIR)
	$(Q)$(NVCC) $(NVCCFLAGS) $(foreach s,$(SM),-gencode arch=compute_$(call level_of,harness/clock.cu,$(s)),code=sm_$(s)) \
		-gencode arch=compute_$(call level_of,harness/clock.cu,$(PTX_SM)),code=compute_$(call level_of,harness/clock.cu,$(PTX_SM)) \
		-fatbin -o $(CHECK_DIR)/clock.nvcc.fatbin harness/clock.cu
	$(Q)cmp $< $(CHECK_DIR)/clock.nvcc.fatbin && echo "  CHECK   fatbinary output equals nvcc -fatbin's (harness/clock.cu, sm $(SM))"

# Wherever sm_90 (the committed runs' H100 and H200) takes a PTX level below 90, cicc's compute_90
# PTX must be that level's but for its .version and .target lines, or else ptxas's sm_90 cubins of
# the two must hold the same bytes outside their debug sections (scripts/ptx-same.sh): then the
# sm_90 kernels are exactly what nvcc -arch=sm_90 builds. A source that fails needs a
# `ptx-level: 90` tag (scripts/ptx-levels.sh). Until the commit after 9e9fff0 this checked no
# source at all ($(filter %:90:%,...) matches only the first %: PTX_MAP_90 was empty whenever SM
# held 90), so it now refuses to pass having checked none.
.PHONY: check-ptx-levels
PTX_BELOW_90 := $(foreach t,$(PTX_MAP_90),$(if $(filter-out 90,$(word 3,$(subst :, ,$(t)))),$(t)))
$(CHECK_DIR)/ptx90/%.compute_90.ptx: %.cu
	@mkdir -p $(@D)
	@echo "  NVCC    $< [compute_90, check]"
	$(Q)$(NVCC) $(NVCCFLAGS) -ptx -arch=compute_90 $(call DEPFLAGS,$@) -o $@ $<
define PTX_SAME_RULE
$(CHECK_DIR)/ptx90/$(1).same: $(CHECK_DIR)/ptx90/$(1).compute_90.ptx $(BUILD)/kernels/$(1).compute_$(2).ptx scripts/ptx-same.sh
	$$(Q)PTXAS=$(PTXAS) scripts/ptx-same.sh $$(word 1,$$^) $$(word 2,$$^) || { echo "check-ptx-levels: $(1).cu: its compute_90 PTX differs from its compute_$(2) PTX, which sm_90 takes, and so does ptxas's sm_90 code from them: give it a 'ptx-level: 90' tag (scripts/ptx-levels.sh)" >&2; exit 1; }
	@touch $$@
endef
$(foreach t,$(PTX_BELOW_90),$(eval $(call PTX_SAME_RULE,$(basename $(word 1,$(subst :, ,$(t)))),$(word 3,$(subst :, ,$(t))))))
check-ptx-levels: $(foreach t,$(PTX_BELOW_90),$(CHECK_DIR)/ptx90/$(basename $(word 1,$(subst :, ,$(t)))).same)
	@[ -n "$(PTX_BELOW_90)" ] || { echo "check-ptx-levels: no source takes a PTX level below 90 for sm_90 (PTX_MAP_90: $(words $(PTX_MAP_90)) entries): nothing was checked" >&2; exit 1; }
	@echo "  CHECK   sm_90's kernels are compute_90's for the $(words $(PTX_BELOW_90)) sources it takes from a lower level"
