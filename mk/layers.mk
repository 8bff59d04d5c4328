# layers.mk — the layering of the host code, checked (included by the Makefile).
#
#   make check-layers    no import circles between any two objects of the binary (symbol level,
#                        scripts/check-layers.sh), and the device-free program tests/link_host.c
#                        links: $(LINK_TEST) is built from the modules below with every object
#                        pulled in whole (--whole-archive semantics), so one reference from any
#                        of them to device.c, cu.c, measure.c, a kernel image or a family's
#                        measurement fails the link.
#
# The device-free set: the harness modules below and harness/sass (by name: they must be), every
# family's *_report.c (by name: it must be; one that includes cuda.h, which every device header
# brings in, fails the check), the other family sources that link without the device layer (their
# host tables and models, found by symbol: scripts/device-free.sh), and harness/analysis.c built over the
# .def files of the families that have a *_report.c. A family still without one keeps its
# GP_ANALYSIS in its device file and is left out here until it is converted; once every family
# has its *_report.c, that .def list is the whole registry's and the test covers every report.
# The registry itself (registry.c) points at every measurement by design: link_host.c stands in
# for it with the same .def lines and no measurement behind them.

NODEVICE_CORE := util arch table suite experiment stats changepoint reach profile reference md report models \
	planner compare tune_rank needs
NODEVICE_OBJ := $(NODEVICE_CORE:%=$(BUILD)/obj/harness/%.o) \
	$(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard harness/sass/*.c)) $(BUILD)/obj/host/analysis.o
REPORT_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard probes/*_report.c bench/*_report.c))
FAMILY_OBJ := $(filter-out $(REPORT_OBJ),$(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard probes/*.c bench/*.c)))
REPORTED_DEF := $(foreach d,$(DEF_SRC),$(if $(wildcard $(d:.def=_report.c)),$(d)))
LINK_TEST := $(BUILD)/host/tests/link_host

.PHONY: check-layers

$(BUILD)/gen/host/experiments.def: $(REPORTED_DEF) Makefile mk/layers.mk
	@mkdir -p $(@D)
	$(Q){ $(DEF_PREAMBLE); cat /dev/null $(REPORTED_DEF); } > $@

# analysis.c and the stand-in registry over the converted families' .def lines only.
$(BUILD)/obj/host/analysis.o: harness/analysis.c $(BUILD)/gen/host/experiments.def
	@mkdir -p $(@D)
	@echo "  CC      $< [reported families]"
	$(Q)$(CC) $(HOST_FLAGS) -I$(BUILD)/gen/host $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/obj/host/link_host.o: tests/link_host.c $(BUILD)/gen/host/experiments.def
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(HOST_FLAGS) -I$(BUILD)/gen/host $(CPPFLAGS) $(CFLAGS) -Itests -c -o $@ $<

# Objects, not an archive: the linker must resolve every one of them, used or not.
$(LINK_TEST): $(BUILD)/obj/host/link_host.o $(NODEVICE_OBJ) $(REPORT_OBJ) $(FAMILY_OBJ)
	@mkdir -p $(@D)
	$(Q)for o in $(REPORT_OBJ); do ! grep -q '/cuda\.h' $${o%.o}.d || \
		{ echo "check-layers: $${o#$(BUILD)/obj/} includes the CUDA driver API (cuda.h): a report must not" >&2; exit 1; }; done; \
	fam=$$(scripts/device-free.sh $(NODEVICE_OBJ) $(REPORT_OBJ) -- $(FAMILY_OBJ) -- $(filter-out $(NODEVICE_OBJ),$(HOST_OBJ))) || exit 1; \
	echo "  LD      $@ (device-free: $(words $(NODEVICE_OBJ)) harness objects, $(words $(REPORT_OBJ)) reports, $$(echo $$fam | wc -w) family helpers)"; \
	$(CC) $(LDFLAGS) -o $@ $(BUILD)/obj/host/link_host.o $(NODEVICE_OBJ) $(REPORT_OBJ) $$fam -lcmocka $(LDLIBS)

check-layers: $(LINK_TEST) $(HOST_OBJ) $(BUILD)/obj/harness/main.o
	$(Q)scripts/check-layers.sh $(HOST_OBJ) $(BUILD)/obj/harness/main.o
