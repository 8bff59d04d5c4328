/* measure_priv.h — what the harness's measurement files (measure.c, meas_api.c, meas_row.c)
 * share about a point in flight; probes see only measure.h. */
#ifndef GP_MEASURE_PRIV_H
#define GP_MEASURE_PRIV_H

#include "measure.h"
#include "nvml.h"
#include "stats.h"

#define MAX_BUFS 24
#define MAX_METRICS 24
#define MAX_CELLS 48
#define MAX_HOST 16

struct buf {
	CUdeviceptr d;
	size_t bytes;
	int poison;
	void *host; /* read-back copy, or NULL */
	size_t host_bytes;
	enum gp_readback when;
};

struct metric {
	const char *name;
	double *v; /* one per timed repetition */
	size_t n;
	struct gp_stats st;
	int have_st;
};

struct cell {
	const char *col;
	char v[256];
};

struct gp_meas_priv {
	struct buf bufs[MAX_BUFS];
	size_t nbufs;
	struct metric metrics[MAX_METRICS];
	size_t nmetrics;
	struct cell cells[MAX_CELLS];
	size_t ncells;
	void *host[MAX_HOST];
	size_t nhost;
	CUmodule modules[4];
	size_t nmodules;
	CUdeviceptr d_clock;
	struct gp_clock_sample *clock; /* host copy */
	double *mhz;                   /* per timed repetition */
	int spin_clock;                /* gp_meas_spin_clock: no own sample, the spin's clock */
	struct gp_power before, after; /* NVML around the repetitions */
	char stop[96];                 /* why the repetitions stopped */
	char status[512];
	int na, failed;
	int skip; /* gp_meas_skip: no row */
	int contexts; /* gp_meas_contexts: repetitions spread over this many contexts */
	int context_at; /* the one in hand */
	int nomem; /* a bookkeeping table overflowed: internal error */
};


struct metric *gp_meas_find_metric(const struct gp_meas *m, const char *name);
void gp_meas_summarise(struct gp_meas *m);
int gp_meas_repetitions(struct gp_meas *m);
/* Read-back memory: large blocks are kept for the next point of this process (meas_api.c). */
void *gp_meas_pool_take(size_t bytes);
void gp_meas_pool_put(void *p, size_t bytes);
void gp_meas_pool_drop(void);
double gp_meas_clock_after(struct gp_device *dev);
int gp_meas_write_row(struct gp_meas *m, struct gp_table *t);
/* A condition column's cell (gp_condition_columns) into buf: 1, or 0 if col is not one. */
int gp_meas_condition_cell(const struct gp_meas *m, const char *col, char *buf, size_t len);

#endif
