/* warp.h — the host side of the warp probes, apart from the GPU code so the host tests
 * (tests/test_sync.c) can hold it to fixed inputs: the table of probes/warp.list and the replay
 * of a warp's chains (warp_replay.c). The replay runs all 32 lanes step by step, so a skipped or
 * repeated step, or a lane that read the wrong neighbour, shows in some lane's last value. */
#ifndef GP_WARP_H
#define GP_WARP_H

#include <stddef.h>
#include <stdint.h>

enum gp_warp_frame { GP_WFRAME_PLAIN, GP_WFRAME_QTMP, GP_WFRAME_PRED };

struct gp_warp_op {
	const char *name, *sass, *ptx, *what;
	int cc; /* the compute capability it needs, cc_major * 10 + cc_minor */
	enum gp_warp_frame frame;
	uint32_t (*start)(unsigned lane, unsigned chain);
	uint32_t (*step)(const uint32_t *w, unsigned lane);
};

extern const struct gp_warp_op gp_warp_ops[];
extern const size_t gp_nwarp_ops;
/* The `op` choices in list order, each after a space (GP_WARP_CHOICES skips the first). */
extern const char gp_warp_names_sp[];
#define GP_WARP_CHOICES (gp_warp_names_sp + 1)

const struct gp_warp_op *gp_warp_find(const char *name);
/* Every lane's value of chain `chain` after `trips` loop trips of `steps` steps (a PRED frame
 * opens and closes each trip as the kernel's asm does). */
void gp_warp_chain(const struct gp_warp_op *d, unsigned chain, long trips, long steps, uint32_t v[32]);
/* What lane l of a throughput run writes: the XOR of its 8 chains after `trips` trips. */
void gp_warp_tput_expect(const struct gp_warp_op *d, long trips, uint32_t want[32]);

#endif
