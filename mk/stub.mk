# stub.mk — a stand-in libcuda.so.1 (tests/stub/cuda_stub.c) for machines without a GPU: with
# LD_LIBRARY_PATH=$(BUILD)/stub the harness loads it instead of the driver, reports a fake GPU
# named "stub" and runs no kernel, so CI exercises the run path end to end (tests/test_stub.c).
STUB_LIB := $(BUILD)/stub/libcuda.so.1

$(STUB_LIB): tests/stub/cuda_stub.c
	@mkdir -p $(@D)
	@echo "  CC      $< [stub libcuda]"
	$(Q)$(CC) -std=gnu11 -O1 -g -shared -fPIC -Wall -I$(CUDA_HOME)/include -o $@ $<

all: $(STUB_LIB)
