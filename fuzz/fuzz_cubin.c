/* fuzz_cubin.c — libFuzzer target: the cubin reader and everything `gpuprobe sass` does after it.
 *
 * Pattern: gp_cubin_open on arbitrary bytes; when it accepts them, walk what the reader promised
 * is safe to touch (every kernel's text word by word through the field codec, every .nv.info*
 * record, the attributes and EXIT offsets, the relocation lookup, a patch check and a patch on
 * instruction 0), then write the `sass dump` CSV of every kernel to /dev/null. A read the reader
 * did not validate shows up as an ASan report; the pitfall is walking less than the CLI does, so
 * this mirrors sass_cli.c's dump and patch paths rather than stopping at open(). The same walk is
 * what tests/test_fuzz_regressions.c replays over fuzz/regressions/cubin/. */
#include "fuzz_walk.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *bad = gp_fuzz_cubin(data, size);

	if (bad) {
		fprintf(stderr, "fuzz_walk: %s\n", bad);
		abort();
	}
	return 0;
}
