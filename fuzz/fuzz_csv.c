/* fuzz_csv.c — libFuzzer target: the CSV reader and what reads its tables (suites, reference).
 *
 * Pattern: gp_table_parse on arbitrary bytes (not NUL-terminated: the reader must stop at the
 * length), then the table as a suite (gp_suite_parse, every sweep expanded), as the report's
 * reference table (gp_reference), and a write/re-parse round trip that must return the same
 * header and cells. Suites, meta.csv, reference.csv and result CSVs all go through this reader,
 * so a bug here is a bug on every input path; a broken round trip means a result file gpuprobe
 * wrote could not be read back as written. Shared walk: fuzz_walk.c. */
#include "fuzz_walk.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *bad = gp_fuzz_csv(data, size);

	if (bad) {
		fprintf(stderr, "fuzz_walk: %s\n", bad);
		abort();
	}
	return 0;
}
