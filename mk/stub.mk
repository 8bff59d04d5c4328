# stub.mk — a stand-in libcuda.so.1 (tests/stub/cuda_stub.c) for machines without a GPU: with
# LD_LIBRARY_PATH=$(BUILD)/stub the binary loads it instead of the driver, reports a fake GPU named
# "gpuprobe stub driver (no GPU)" and runs no kernel, so the tests exercise the run path end to end
# (tests/test_stub_run.c, tests/slurm/run.sh). -z defs: every entry point of harness/cu.h must be
# defined by the stub (it references them all), so one added there without a stub fails here.
STUB_DIR := $(BUILD)/stub
STUB_LIB := $(STUB_DIR)/libcuda.so.1

$(STUB_LIB): tests/stub/cuda_stub.c harness/cu.h probes/selftest_modes.h
	@mkdir -p $(@D)
	@echo "  CC      $< [stub libcuda]"
	$(Q)$(CC) $(CSTD) $(WARN) -Wno-missing-prototypes -O1 -g -shared -fPIC -Wl,-z,defs \
		-Wl,-soname,libcuda.so.1 -Iharness -Iprobes -I$(CUDA_HOME)/include -o $@ $<

all: $(STUB_LIB)

# make test's programs find it here (tests/stub_test.h); test-host and asan run a binary without
# kernels, so their stub tests say they are skipped.
test: TEST_ENV += GP_STUB_DIR=$(STUB_DIR)
