/* fuzz_walk.h — what the fuzz targets do with one input, shared with the regression replay
 * (tests/test_fuzz_regressions.c includes fuzz_walk.c), so a crash found by the fuzzer is
 * replayed through exactly the code path that found it. Each walk returns NULL when every
 * invariant held, else a one-line description of the one that did not; a memory error is not
 * returned but caught by the sanitizer (or, with a far enough offset, a segfault). */
#ifndef GP_FUZZ_WALK_H
#define GP_FUZZ_WALK_H

#include <stddef.h>
#include <stdint.h>

/* gp_cubin_open, then the sass dump/patch paths over everything the reader accepted. */
const char *gp_fuzz_cubin(const uint8_t *data, size_t size);
/* gp_table_parse, gp_suite_parse and sweeps on the result, then a write/re-parse round trip that
 * must give the same header and cells. */
const char *gp_fuzz_csv(const uint8_t *data, size_t size);

#endif
