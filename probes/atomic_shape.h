/* atomic_shape.h — the shape of the atomics probes' loops, read by atomic.cu (nvcc) and the host
 * code that replays and checks them (gcc): the host must know exactly how many updates each
 * address received, so these numbers live here once. */
#ifndef GP_ATOMIC_SHAPE_H
#define GP_ATOMIC_SHAPE_H

#define ATOM_LAT_UNROLL 64   /* dependent atomics per loop trip of lat_* (GP_REP64) */
#define ATOM_TPUT_UNROLL 8   /* independent atomics per thread per loop trip of tput_* */
#define ATOM_LINE_BYTES 128  /* layout=lines: one address per 128-byte line */
#define ATOM_SMEM_SLOTS 1024 /* shared slots of a tput block: threads / k of them, k >= 1 */
/* Words of a latency kernel's result: the chain's last value, the slot's last value, cycles,
 * timer overhead. */
#define ATOM_LAT_OUT 4
/* The latency chain's inputs: the slot's first value, the chain's first value, the CAS swap value. */
#define ATOM_LAT_IN 3

#endif
