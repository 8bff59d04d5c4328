/* atomic.h — the host side of the atomics probes, apart from the GPU code so the host tests
 * (tests/test_sync.c) can hold it to fixed inputs: the table of probes/atomic.list, the replay of
 * a latency chain, and what every address and every group's results must be after a throughput
 * run (atomic_replay.c). Values travel as raw bits in 64-bit words; a 32-bit register's bits are
 * the low word. */
#ifndef GP_ATOMIC_H
#define GP_ATOMIC_H

#include <stddef.h>
#include <stdint.h>

enum gp_atomic_reg { GP_AREG_R32, GP_AREG_R64, GP_AREG_F32, GP_AREG_F64 };
enum gp_atomic_kind { GP_AKIND_ADD, GP_AKIND_MIN, GP_AKIND_MAX, GP_AKIND_EXCH, GP_AKIND_CAS };

struct gp_atomic {
	const char *name, *ptx, *sass_global, *sass_shared, *sass_red, *what;
	enum gp_atomic_reg reg;
	enum gp_atomic_kind kind;
	int has_red;                 /* a red form exists */
	uint64_t s0, x0, y;          /* the latency chain's slot, chain and CAS swap bits */
	uint64_t (*step)(uint64_t s, uint64_t x, uint64_t y); /* the slot's next bits */
};

extern const struct gp_atomic gp_atomics[];
extern const size_t gp_natomics;
/* The `op` choices in list order, each after a space (GP_ATOMIC_CHOICES skips the first). */
extern const char gp_atomic_names_sp[];
#define GP_ATOMIC_CHOICES (gp_atomic_names_sp + 1)

const struct gp_atomic *gp_atomic_find(const char *name);
/* Bytes of the operand (4 or 8). */
int gp_atomic_bytes(const struct gp_atomic *a);
/* The operation's bits in a word as wide as its register (the low word of a 32-bit one). */
uint64_t gp_atomic_mask(const struct gp_atomic *a, uint64_t bits);
/* The latency chain after `steps` steps from (s0, x0): the slot's and the chain's last bits. */
void gp_atomic_chain(const struct gp_atomic *a, long steps, uint64_t *slot, uint64_t *x);

/* Loop trips of a throughput point (atomic_shape.h): at least 1. */
int gp_atomic_trips(int iters, int shared, unsigned k);

/* A throughput run: the threads t0 … t0 + k - 1 (t: the index within the address domain: the
 * grid for global, the block for shared) each update one address n times with their operands
 * (atomic.list's tv, tw). Whether the address's last bits are what the operation must leave
 * there: the count of updates (ADD), the extreme operand (MIN/MAX), one of the group's own values
 * (EXCH/CAS). 1 if so. */
int gp_atomic_final_ok(const struct gp_atomic *a, uint64_t got, unsigned t0, unsigned k, long n);
/* What the XOR of the group's returned values must be, given the address's last bits: computed
 * by gp_atomic_add_xor for ADD (call once per count), from the last value for EXCH and CAS.
 * *checked = 0 where the results depend on the order of the updates (MIN/MAX). */
uint64_t gp_atomic_returns_xor(const struct gp_atomic *a, uint64_t final, unsigned t0, unsigned k, long n,
			       uint64_t add_xor, int *checked);
/* ADD: the XOR of the values count updates by 1 return (0, 1, 2 … count - 1 in the operation's
 * type; an f32 sum of ones stops at 2^24). */
uint64_t gp_atomic_add_xor(const struct gp_atomic *a, uint64_t count);

#endif
