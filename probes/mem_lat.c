/* mem_lat.c — the global-memory latency ladder by pointer chase (E003: lat_mem, lat_mem_tlb,
 * lat_mem_dist; kernels in mem.cu, derive/report in mem_report.c). One thread follows a single
 * cycle through line-spaced slots (Sattolo, fixed seed) with clock64 around the timed part; every
 * launch's final pointer is checked against the host's walk, so a skipped or merged load fails
 * the row. Huge footprints are chased for a fixed number of loads over at most 2^21 slots; those
 * that could be cached are warmed by one full trip in the first warm-up launch. */
#include "gp.h"
#include "experiment.h"
#include "measure.h"
#include "mem_common.h"
#include "mem_model.h"
#include "mem_shape.h"

#include <math.h>
#include <string.h>

#define CHAIN_MAX_SLOTS (1u << 21)
#define CHAIN_SEED 0x6770726f6265ull

/* ------------------------------------------------------------------ the chain */

/* A chase in hand: the cycle, where the next launch starts and what it ran. */
struct chase {
	CUdeviceptr base, out;
	size_t footprint, spacing, slots;
	int skew, closed, cacheable;
	uint32_t *next; /* the cycle, host copy (harness-owned) */
	uint32_t cur;   /* the slot the next launch starts from */
	const unsigned long long *h_out;
	unsigned long long start;
	long long warm, steps;
};

static unsigned long long slot_addr(const struct chase *c, uint64_t i)
{
	return (unsigned long long)c->base + mem_slot_offset(i, c->spacing, c->skew);
}

/* Distinct 128-byte lines the cycle touches: what a cache must hold for every load to hit. */
static size_t chain_lines_bytes(const struct chase *c)
{
	return c->spacing >= MEM_LINE ? c->slots * MEM_LINE : (c->footprint + MEM_LINE - 1) / MEM_LINE * MEM_LINE;
}

/* The slots of the point's footprint at least stride_bytes apart, their cells in the row. A
 * sweep crosses every stride with every footprint: a footprint under two strides is not a chain,
 * a point the sweep cannot form rather than a failure. */
static void chain_geometry(struct gp_meas *m, struct chase *c, int skew)
{
	const size_t stride = (size_t)gp_meas_param(m, "stride_bytes");
	const size_t per = skew > 0 ? (size_t)skew : 1; /* slots per page (mem_shape.h) */
	size_t pages;

	c->footprint = (size_t)gp_meas_param(m, "footprint_bytes");
	c->skew = skew;
	for (c->spacing = stride; c->footprint / c->spacing * per > CHAIN_MAX_SLOTS;)
		c->spacing *= 2;
	pages = c->footprint / c->spacing;
	c->slots = pages * per;
	gp_meas_int(m, "slot_spacing_bytes", (long long)c->spacing);
	gp_meas_int(m, "slots", (long long)c->slots);
	gp_meas_int(m, "lines_touched_bytes", (long long)chain_lines_bytes(c));
	if (stride % 8)
		gp_meas_fail(m, "a %zu-byte stride does not hold 8-byte pointers aligned", stride);
	else if (pages < 2)
		gp_meas_na(m, "a %zu-byte footprint at a %zu-byte stride holds %zu slot(s); a chain needs 2",
			   c->footprint, c->spacing, pages);
}

/* Lay out the cycle over the footprint (random or sequential) and have mem_chain_scatter write
 * it; the chase's own kernel, buffers and launch follow. 0 also when the point is n/a. */
static int chain_build(struct gp_meas *m, struct chase *c, int random, int skew)
{
	CUdeviceptr d_next;
	CUfunction fn;
	long long n, sp;
	void *args[] = { &c->base, &d_next, &n, &sp, &c->skew };
	int rc;

	chain_geometry(m, c, skew);
	if (!gp_meas_ok(m))
		return 0;
	if (!(c->next = gp_meas_host(m, c->slots * sizeof *c->next)))
		return GP_EFAIL;
	if (random)
		mem_chain_random(c->next, c->slots, CHAIN_SEED);
	else
		mem_chain_sequential(c->next, c->slots);
	if (gp_meas_buf_fit(m, &c->base, c->footprint, GP_NO_POISON) ||
	    gp_meas_buf_fit(m, &d_next, c->slots * sizeof *c->next, GP_NO_POISON))
		return 0;
	n = (long long)c->slots;
	sp = (long long)c->spacing;
	if ((rc = gp_meas_upload(m, d_next, c->next, c->slots * sizeof *c->next)) ||
	    (rc = gp_kernel(m->dev, gp_image_probes_mem, "mem_chain_scatter", &fn)))
		return rc;
	return gp_launch(fn, (unsigned)(c->slots / 256 + 1 < 65535 ? c->slots / 256 + 1 : 65535), 256, 0, args, NULL);
}

/* The result buffer {final pointer, cycles, timer overhead} (poisoned: a launch that did not run
 * cannot pass the chain check with the previous one's pointer) and the one-thread launch. */
static int chase_out(struct gp_meas *m, struct chase *c)
{
	int rc;

	if ((rc = gp_meas_buf(m, &c->out, 3 * sizeof *c->h_out, GP_POISON_NAN)))
		return rc;
	c->h_out = gp_meas_readback(m, c->out, 3 * sizeof *c->h_out, GP_EVERY_REP);
	c->cacheable = chain_lines_bytes(c) <= 2 * (size_t)m->dev->l2_bytes;
	gp_meas_launch(m, 1, 1, 0);
	return 0;
}

/* A footprint whose lines could sit in L2 is warmed by one full trip in the first launch; the
 * rest misses anyway. */
static int chase_before(struct gp_meas *m)
{
	struct chase *c = m->ctx;

	c->warm = m->rep == -m->run->warmup && c->cacheable ? (long long)c->slots : 0;
	c->start = slot_addr(c, c->cur);
	return 0;
}

/* Closed chains come back to where they started; open ones are walked on the host. */
static void chase_check(struct gp_meas *m, struct chase *c)
{
	const uint64_t steps = (uint64_t)(c->warm + c->steps);
	const uint32_t expect = c->closed && !c->warm ? c->cur : mem_chain_walk(c->next, c->cur, steps);

	if (c->h_out[0] != slot_addr(c, expect))
		gp_meas_fail(m, "chain ended at 0x%llx, expected slot %u at 0x%llx: loads skipped or reordered",
			     c->h_out[0], expect, slot_addr(c, expect));
	c->cur = expect;
}

/* ------------------------------------------------------------------ E003 lat_mem, lat_mem_tlb */

static const char *const lat_mem_cols[] = {
	"pattern", "path", "stride_bytes", "footprint_bytes", "slot_spacing_bytes", "slots",
	"lines_touched_bytes", "loads_per_launch", "warmed", "chain_check", "cycles_per_load",
	"cycles_per_load_min", "cycles_per_load_max", "spread", "latency_ns", "clock_MHz",
	"timer_overhead_cycles", "reps", "status",
};

static const struct gp_param lat_mem_params[] = {
	{ "pattern", GP_PARAM_NAME, 0, 0, "random stride", "random",
	  "random: one random cycle over the slots; stride: slot i -> i + 1" },
	{ "path", GP_PARAM_NAME, 0, 0, "default cg nc", "default cg",
	  "ld.global (L1+L2), ld.global.cg (L2 only), ld.global.nc (non-coherent path)" },
	{ "stride_bytes", GP_PARAM_INT, 8, 1L << 30, NULL, "128", "slot spacing (widened for huge footprints)" },
	{ "footprint_bytes", GP_PARAM_INT, 1024, 1L << 40, NULL,
	  "1024 4096 16384 65536 131072 163840 196608 229376 262144 327680 393216 524288 1048576 "
	  "4194304 8388608 12582912 16777216 20971520 25165824 29360128 33554432 37748736 41943040 "
	  "46137344 50331648 58720256 67108864 83886080 100663296 134217728 268435456 536870912 "
	  "1073741824 2147483648 4294967296",
	  "bytes the chain is spread over" },
	{ "loads", GP_PARAM_INT, 1024, 100000000, NULL, "65536", "timed loads per launch (at least)" },
};

static const struct gp_param lat_mem_tlb_params[] = {
	{ "path", GP_PARAM_NAME, 0, 0, "default cg nc", "cg", "load path (cg: L2 hits, TLB misses stand out)" },
	{ "stride_bytes", GP_PARAM_INT, 4096, 1L << 34, NULL, "2097152",
	  "page-sized stride: the pages (16 slots on each, mem_shape.h)" },
	{ "footprint_bytes", GP_PARAM_INT, 4096, 1L << 40, NULL,
	  "4194304 6291456 8388608 12582912 16777216 25165824 33554432 50331648 67108864 100663296 134217728 "
	  "201326592 268435456 402653184 536870912 805306368 1073741824 1610612736 2147483648 "
	  "3221225472 4294967296 6442450944 8589934592",
	  "bytes the chain is spread over" },
	{ "loads", GP_PARAM_INT, 1024, 100000000, NULL, "65536", "timed loads per launch (at least)" },
};

/* lat_mem_tlb: MEM_TLB_SLOTS_PER_PAGE slots per page (mem_shape.h), skewed across cache sets,
 * always a random cycle. */
static int chase_setup(struct gp_meas *m, int tlb)
{
	struct chase *c = m->ctx;
	const char *pattern = tlb ? "random" : gp_meas_param_str(m, "pattern");
	const long loads = gp_meas_param(m, "loads");
	int rc;

	gp_meas_str(m, "pattern", pattern);
	if ((rc = chain_build(m, c, !strcmp(pattern, "random"), tlb ? MEM_TLB_SLOTS_PER_PAGE : 0)) || !gp_meas_ok(m))
		return rc;
	c->closed = c->slots <= (size_t)loads;
	c->steps = c->closed ? (long long)((loads + c->slots - 1) / c->slots * c->slots) : loads;
	if ((rc = gp_meas_kernel(m, "lat_chase_%s", gp_meas_param_str(m, "path"))) || (rc = chase_out(m, c)))
		return rc;
	gp_meas_args(m, &c->start, &c->warm, &c->steps, &c->out, gp_meas_clock(m));
	gp_meas_int(m, "loads_per_launch", c->steps);
	gp_meas_int(m, "warmed", c->cacheable);
	gp_meas_str(m, "chain_check", c->closed ? "returned_to_start" : "host_walk");
	return 0;
}

static int lat_mem_setup(struct gp_meas *m)
{
	return chase_setup(m, 0);
}

static int lat_mem_tlb_setup(struct gp_meas *m)
{
	return chase_setup(m, 1);
}

static void chase_sample(struct gp_meas *m)
{
	struct chase *c = m->ctx;

	chase_check(m, c);
	mem_chase_sample(m, c->h_out, c->steps);
}

/* Floor: nothing returns a dependent load from global memory in fewer than a handful of cycles. */
static void chase_finish(struct gp_meas *m)
{
	mem_chase_finish(m, 4);
}

static const struct gp_probe lat_mem_probe = {
	.runner = GP_RUN_SYNC, .image = gp_image_probes_mem, .setup = lat_mem_setup, .before = chase_before,
	.sample = chase_sample, .finish = chase_finish, .primary = "cycles_per_load", .ctx_size = sizeof(struct chase),
};

static const struct gp_probe lat_mem_tlb_probe = {
	.runner = GP_RUN_SYNC, .image = gp_image_probes_mem, .setup = lat_mem_tlb_setup, .before = chase_before,
	.sample = chase_sample, .finish = chase_finish, .primary = "cycles_per_load", .ctx_size = sizeof(struct chase),
};

GP_EXP_PROBE(lat_mem, lat_mem_params, lat_mem_cols, &lat_mem_probe);
/* A fresh measuring process: the TLB levels move with what the process allocated before (after
 * lat_mem's chains, against a process of its own; results/README.md has the runs). */
GP_EXP_PROBE_FRESH(lat_mem_tlb, lat_mem_tlb_params, lat_mem_cols, &lat_mem_tlb_probe);

/* ------------------------------------------------------------------ E003 lat_mem_dist */

static const struct gp_param lat_mem_dist_params[] = {
	{ "path", GP_PARAM_NAME, 0, 0, "default cg nc", "default", "load path" },
	{ "stride_bytes", GP_PARAM_INT, 8, 1L << 30, NULL, "128", "slot spacing" },
	{ "footprint_bytes", GP_PARAM_INT, 1024, 1L << 40, NULL, "16384 4194304 37748736 1073741824",
	  "bytes the random chain is spread over" },
	{ "records", GP_PARAM_INT, 64, EACH_MAX, NULL, "4096", "loads timed one by one per launch" },
};

static const char *const lat_mem_dist_cols[] = {
	"pattern", "path", "stride_bytes", "footprint_bytes", "slots", "lines_touched_bytes", "samples",
	"p05_cycles", "p50_cycles", "p95_cycles", "p99_cycles", "max_cycles", "mean_cycles",
	"timer_overhead_cycles", "clock_MHz", "status",
};

/* Each load's cycles and the same sequence's without the load, pooled over the repetitions. */
struct dist {
	struct chase c; /* first: the chase hooks take the context as a chase */
	CUdeviceptr lat, ovh;
	const unsigned *h_lat, *h_ovh;
	double *samp, *ovs;
	size_t ns;
	int nrec;
};

static int dist_setup(struct gp_meas *m)
{
	struct dist *d = m->ctx;
	const size_t rec = (size_t)(d->nrec = (int)gp_meas_param(m, "records")) * sizeof *d->h_lat;
	const size_t pool = (size_t)m->cap * (size_t)d->nrec * sizeof(double); /* the most repetitions */
	int rc;

	gp_meas_str(m, "pattern", "random");
	if ((rc = chain_build(m, &d->c, 1, 0)) || !gp_meas_ok(m))
		return rc;
	d->c.steps = d->nrec;
	if (!(d->samp = gp_meas_host(m, pool)) || !(d->ovs = gp_meas_host(m, pool)))
		return GP_EFAIL;
	if ((rc = gp_meas_kernel(m, "lat_each_%s", gp_meas_param_str(m, "path"))) || (rc = chase_out(m, &d->c)) ||
	    (rc = gp_meas_buf(m, &d->lat, EACH_MAX * sizeof *d->h_lat, GP_NO_POISON)) ||
	    (rc = gp_meas_buf(m, &d->ovh, EACH_MAX * sizeof *d->h_ovh, GP_NO_POISON)))
		return rc;
	d->h_lat = gp_meas_readback(m, d->lat, rec, GP_EVERY_REP);
	d->h_ovh = gp_meas_readback(m, d->ovh, rec, GP_EVERY_REP);
	gp_meas_args(m, &d->c.start, &d->c.warm, &d->nrec, &d->c.out, &d->lat, &d->ovh, gp_meas_clock(m));
	return 0;
}

static void dist_sample(struct gp_meas *m)
{
	struct dist *d = m->ctx;

	chase_check(m, &d->c);
	if (m->rep < 0 || m->rep >= m->cap)
		return;
	for (int i = 0; i < d->nrec; i++) {
		d->samp[d->ns] = d->h_lat[i];
		d->ovs[d->ns++] = d->h_ovh[i];
	}
}

/* Percentiles of the per-load cycles less the median timer overhead. */
static void dist_finish(struct gp_meas *m)
{
	static const struct {
		const char *col;
		double p;
	} pct[] = { { "p05_cycles", 5 }, { "p50_cycles", 50 }, { "p95_cycles", 95 }, { "p99_cycles", 99 },
		    { "max_cycles", 100 } };
	struct dist *d = m->ctx;
	const double ovm = mem_percentile(d->ovs, d->ns, 50);
	double sum = 0;

	for (size_t i = 0; i < d->ns; i++) {
		d->samp[i] -= ovm;
		sum += d->samp[i];
	}
	gp_meas_int(m, "samples", (long long)d->ns);
	for (size_t k = 0; k < GP_ARRAY_SIZE(pct); k++)
		gp_meas_num(m, pct[k].col, mem_percentile(d->samp, d->ns, pct[k].p));
	gp_meas_num(m, "mean_cycles", d->ns ? sum / (double)d->ns : NAN);
	gp_meas_num(m, "timer_overhead_cycles", ovm);
	gp_meas_floor(m, "the median load", mem_percentile(d->samp, d->ns, 50), 4, 0, "cycles");
}

static const struct gp_probe lat_mem_dist_probe = {
	.runner = GP_RUN_SYNC, .image = gp_image_probes_mem, .setup = dist_setup, .before = chase_before,
	.sample = dist_sample, .finish = dist_finish, .ctx_size = sizeof(struct dist),
};

GP_EXP_PROBE(lat_mem_dist, lat_mem_dist_params, lat_mem_dist_cols, &lat_mem_dist_probe);
