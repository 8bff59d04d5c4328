/* p2p_report.c — profile keys and REPORT.md sections of bw_p2p and lat_p2p from their tables (no
 * device code): a src x dst matrix per mode, each pair's link and its datasheet rate beside. */
#include "gp.h"
#include "analysis.h"
#include "p2p.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define P2P_MD_MAX 16

/* Keys from the ok rows only: a host of one GPU (every row n/a) gives none. */
static void key_range(struct gp_profile *prof, const struct gp_table *t, const char *mode, const char *col,
		      const char *lo_key, const char *hi_key, const char *unit, const char *method, const char *src)
{
	double m[P2P_MD_MAX * P2P_MD_MAX], lo, hi;
	const int n = p2p_matrix(t, mode, col, m, P2P_MD_MAX);

	if (!n || !p2p_matrix_range(m, n, P2P_MD_MAX, &lo, &hi))
		return;
	if (lo_key)
		gp_profile_add(prof, lo_key, lo, unit, method, src);
	gp_profile_add(prof, hi_key, hi, unit, method, src);
}

static void bw_p2p_derive(struct gp_profile *prof, const struct gp_table *t)
{
	key_range(prof, t, "memcpy", "GBps", "p2p_bw_min_GBps", "p2p_bw_max_GBps", "GB/s",
		  "cuMemcpyPeerAsync one way, slowest / fastest ordered GPU pair (median of repetitions)", "bw_p2p");
	key_range(prof, t, "memcpy_bidir", "GBps", NULL, "p2p_bw_bidir_max_GBps", "GB/s",
		  "cuMemcpyPeerAsync both ways at once, both directions' bytes, fastest pair", "bw_p2p");
	key_range(prof, t, "read", "GBps", NULL, "p2p_read_bw_max_GBps", "GB/s",
		  "kernel reading the peer's memory through a peer mapping, fastest pair", "bw_p2p");
	key_range(prof, t, "write", "GBps", NULL, "p2p_write_bw_max_GBps", "GB/s",
		  "kernel writing the peer's memory through a peer mapping, fastest pair", "bw_p2p");
}

static void lat_p2p_derive(struct gp_profile *prof, const struct gp_table *t)
{
	key_range(prof, t, NULL, "latency_ns", "p2p_lat_min_ns", "p2p_lat_max_ns", "ns",
		  "dependent pointer chase (ld.global.cg) through the peer's memory, fastest / slowest pair", "lat_p2p");
}

/* "n/a: one GPU" (or another reason) when no row is ok: the section says so and stops. */
static int none_ok(FILE *md, const struct gp_table *t)
{
	for (size_t r = 0; r < t->nrows; r++)
		if (gp_table_row_ok(t, r))
			return 0;
	fprintf(md, "No pair measured: %s.\n\n",
		t->nrows ? gp_table_get(t, 0, "status") : "the table has no rows");
	return 1;
}

/* The src x dst matrix of `col` (rows of `mode`), "–" on the diagonal and where no row is ok. */
static void matrix_md(FILE *md, const struct gp_table *t, const char *mode, const char *col)
{
	static char heads[P2P_MD_MAX + 1][16];
	const char *h[P2P_MD_MAX + 1];
	double m[P2P_MD_MAX * P2P_MD_MAX];
	const int n = p2p_matrix(t, mode, col, m, P2P_MD_MAX);

	if (!n)
		return;
	snprintf(heads[0], sizeof heads[0], "src \\ dst");
	h[0] = heads[0];
	for (int j = 0; j < n; j++) {
		snprintf(heads[j + 1], sizeof heads[j + 1], "GPU %d", j);
		h[j + 1] = heads[j + 1];
	}
	gp_md_head(md, h, (size_t)n + 1);
	for (int i = 0; i < n; i++) {
		char c[16];
		snprintf(c, sizeof c, "GPU %d", i);
		gp_md_str(md, c);
		for (int j = 0; j < n; j++)
			gp_md_num(md, i == j ? NAN : m[i * P2P_MD_MAX + j]);
		gp_md_end(md);
	}
	fputc('\n', md);
}

/* Each pair's link once (the first row of it), with the datasheet rate the rows are held to. */
static void links_md(FILE *md, const struct gp_table *t)
{
	static const char *const cols[] = { "src", "dst", "link", "p2p_access", "link_GBps", "link_basis" };
	double seen[P2P_MD_MAX * P2P_MD_MAX] = { 0 };

	gp_md_header(md, "src", "dst", "link", "peer access", "datasheet GB/s one way", "basis");
	for (size_t r = 0; r < t->nrows; r++) {
		const double s = gp_table_num(t, r, "src"), d = gp_table_num(t, r, "dst");
		if (!(s >= 0 && s < P2P_MD_MAX && d >= 0 && d < P2P_MD_MAX) || seen[(int)s * P2P_MD_MAX + (int)d])
			continue;
		seen[(int)s * P2P_MD_MAX + (int)d] = 1;
		gp_md_cells(md, t, r, cols, GP_ARRAY_SIZE(cols));
		gp_md_end(md);
	}
	fputc('\n', md);
}

static void bw_p2p_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	static const char *const modes[] = { "memcpy", "memcpy_bidir", "read", "write" };
	static const char *const what[] = {
		"cuMemcpyPeerAsync from src's memory into dst's, issued on src",
		"both ways at once (src -> dst and dst -> src on two streams of src), both directions' bytes",
		"a kernel on dst reading src's memory through the peer mapping",
		"a kernel on src writing into dst's memory through the peer mapping",
	};

	fprintf(md, "GB/s for every ordered pair of the host's GPUs (row: the GPU whose memory is read, column: "
		    "the one written), median of the repetitions; every word that lands is checked. Each row is "
		    "held to its link's datasheet rate in each direction (configs/reference.csv; twice it both "
		    "ways), or to the slower GPU's HBM rate where the link's is not known.\n\n");
	if (none_ok(md, t))
		return;
	for (size_t k = 0; k < GP_ARRAY_SIZE(modes); k++) {
		double m[P2P_MD_MAX * P2P_MD_MAX];
		if (!p2p_matrix(t, modes[k], "GBps", m, P2P_MD_MAX))
			continue;
		fprintf(md, "`%s`: %s, GB/s:\n\n", modes[k], what[k]);
		matrix_md(md, t, modes[k], "GBps");
		fprintf(md, "`%s`, %% of the link's datasheet rate:\n\n", modes[k]);
		matrix_md(md, t, modes[k], "pct_of_link");
	}
	links_md(md, t);
}

static void lat_p2p_report(FILE *md, const struct gp_table *t, const struct gp_table *ref)
{
	fprintf(md, "Nanoseconds per dependent load for every ordered pair (row: the GPU whose memory holds the "
		    "chain, column: the GPU whose thread chases it through the peer mapping), median of the "
		    "repetitions, at the clock the chasing kernel measured.\n\n");
	if (none_ok(md, t))
		return;
	matrix_md(md, t, NULL, "latency_ns");
	fprintf(md, "Cycles per load:\n\n");
	matrix_md(md, t, NULL, "cycles");
	links_md(md, t);
}

GP_ANALYSIS(bw_p2p, bw_p2p_derive, bw_p2p_report);
GP_ANALYSIS(lat_p2p, lat_p2p_derive, lat_p2p_report);
