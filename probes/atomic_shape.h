/* atomic_shape.h — the shape of the atomics probes' loops, read by atomic.cu (nvcc) and the host
 * code that replays and checks them (gcc): the host must know exactly how many updates each
 * address received, so these numbers live here once. */
#ifndef GP_ATOMIC_SHAPE_H
#define GP_ATOMIC_SHAPE_H

#define ATOM_LAT_UNROLL 64   /* dependent atomics per loop trip of lat_* (GP_REP64) */
#define ATOM_TPUT_UNROLL 8   /* independent atomics per thread per loop trip of tput_* */
#define ATOM_LINE_BYTES 128  /* layout=lines: one address per 128-byte line */
#define ATOM_SMEM_SLOTS 1024 /* shared slots of a tput block: threads / k of them, k >= 1 */
/* A tput point's work (gp_atomic_trips): `iters` trips at k = 1, times ATOM_SHARED_WORK in shared
 * memory (its atomics are an order of magnitude faster than global ones), divided by k, which
 * serialises an address's updates: fully for global (one address, one L2 slice, whatever the
 * grid), by at most ATOM_SHARED_KCAP for shared (past a warp's lanes its rate stops falling).
 * Contended points then take about as long as uncontended ones. */
#define ATOM_SHARED_WORK 8
#define ATOM_SHARED_KCAP 32
/* tput global points: the addresses' rate depends on the L2 slices their lines hash to, which
 * the physical pages under them decide (steady levels by offset into one allocation, the same in
 * every process: docs/DESIGN.md, "Repetitions that stop on noise"). So each repetition takes the
 * next of ATOM_PLACEMENTS copies of the addresses, ATOM_PLACE_ALIGN-aligned and that far apart at
 * least, in one allocation, and the row's median is over them all; where the addresses span more
 * than ATOM_PLACE_MAX_BYTES (layout=lines) they cover the slices evenly anyway and one copy
 * serves. */
#define ATOM_PLACEMENTS 16
#define ATOM_PLACE_ALIGN (2u << 20)
#define ATOM_PLACE_MAX_BYTES (4u << 20)
/* ... and those repetitions spread over this many contexts (gp_meas_contexts), each with copies
 * of its own: the median over one context's 16 moved up to 5 % between three default runs on
 * an H100 (8657808), over four contexts' 32 within 0.8 % (6a5c782, 186de7b; docs/DESIGN.md,
 * "Points over several contexts"). */
#define ATOM_CONTEXTS 4

/* Words of a latency kernel's result: the chain's last value, the slot's last value, cycles,
 * timer overhead. */
#define ATOM_LAT_OUT 4
/* The latency chain's inputs: the slot's first value, the chain's first value, the CAS swap value,
 * and a zero the kernel adds to the slot's index. */
#define ATOM_LAT_IN 4

#endif
