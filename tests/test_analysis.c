/* test_analysis.c — what derive() publishes from a table, without a GPU: no level where the data
 * show none (a 4-point latency curve; a flat TLB curve says "none detected"), and the H100's real
 * TLB step is published with its evidence. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp.h"
#include "analysis.h"

static struct gp_table *table(const char *csv)
{
	char err[128];
	struct gp_table *t = gp_table_parse(csv, strlen(csv), err, sizeof err);

	if (!t)
		fail_msg("parse: %s", err);
	return t;
}

static const struct gp_profile_entry *entry(const struct gp_profile *p, const char *k)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->e[i].key, k))
			return &p->e[i];
	return NULL;
}

static const char *key(const struct gp_profile *p, const char *k)
{
	return entry(p, k) ? entry(p, k)->value : NULL;
}

static const char *method(const struct gp_profile *p, const char *k)
{
	return entry(p, k) ? entry(p, k)->method : NULL;
}

static void derive(const char *exp, const char *csv, struct gp_profile *p)
{
	struct gp_table *t = table(csv);
	const struct gp_analysis *a = gp_analysis_find(exp);

	assert_non_null(a);
	assert_non_null(a->derive);
	a->derive(p, t);
	gp_table_free(t);
}

/* The quick suite's four footprints (16 KiB, 4 MiB, 32 MiB, 1 GiB): no plateau of three points,
 * so no cache level may be named (it used to publish the HBM latency as L1's). */
static void test_short_curve_names_no_level(void **state)
{
	struct gp_profile p = { .l2_bytes = 50331648 };

	derive("lat_mem",
	       "pattern,path,footprint_bytes,cycles_per_load,status\n"
	       "random,default,16384,32.1,ok\nrandom,default,4194304,276,ok\n"
	       "random,default,33554432,280,ok\nrandom,default,1073741824,516,ok\n",
	       &p);
	assert_null(key(&p, "l1_latency_cycles"));
	assert_null(key(&p, "hbm_latency_cycles"));
	gp_profile_free(&p);
}

static void tlb_csv(char *buf, size_t len, const double *lat, size_t n)
{
	size_t used = (size_t)snprintf(buf, len, "path,stride_bytes,footprint_bytes,cycles_per_load,status\n");

	for (size_t i = 0; i < n; i++)
		used += (size_t)snprintf(buf + used, len - used, "cg,2097152,%zu,%g,ok\n", /* 8, 12, 16, 24 … MiB */
					 ((size_t)(i % 2 ? 12 : 8) << 20) << i / 2, lat[i]);
}

static void test_tlb_evidence(void **state)
{
	static const double step[] = { 279.1, 279.1, 278.1, 278.1, 281.6, 283.1, 283.0, 281.8, 282.6, 285.2, 282.5,
				       288.0, 289.1, 290.9, 291.1, 292.1, 292.6, 293.2, 293.1, 293.4, 293.4 };
	static const double flat[] = { 276.1, 279.3, 274.8, 281.0, 277.7, 275.2, 280.4, 278.9, 276.6, 282.0, 277.1,
				       275.9, 280.8, 279.0, 276.3, 281.5, 277.8, 275.4, 280.1, 278.2, 276.9 };
	struct gp_profile p = { 0 };
	char csv[4096];

	tlb_csv(csv, sizeof csv, step, GP_ARRAY_SIZE(step));
	derive("lat_mem_tlb", csv, &p);
	assert_non_null(key(&p, "tlb1_reach_bytes"));
	assert_string_not_equal(key(&p, "tlb1_reach_bytes"), "none detected");
	assert_non_null(key(&p, "tlb1_step_t"));
	assert_true(atof(key(&p, "tlb1_miss_cycles")) > 8);
	gp_profile_free(&p);

	tlb_csv(csv, sizeof csv, flat, GP_ARRAY_SIZE(flat));
	derive("lat_mem_tlb", csv, &p);
	assert_non_null(key(&p, "tlb1_reach_bytes"));
	assert_string_equal(key(&p, "tlb1_reach_bytes"), "none detected");
	assert_null(key(&p, "tlb1_miss_cycles"));
	gp_profile_free(&p);
}

/* lat_atomic and lat_warp: one key per ok row with a latency, named by its cells; a failed row or
 * one without a number publishes nothing. */
static void test_latency_keys_per_row(void **state)
{
	struct gp_profile p = { 0 };

	(void)state;
	derive("lat_atomic",
	       "op,space,cycles_per_op,status\n"
	       "add_u32,global,612.5,ok\nadd_u32,shared,44,ok\ncas_u32,global,700,failed: x\nmax_u32,global,,ok\n",
	       &p);
	assert_int_equal(p.n, 2);
	assert_string_equal(key(&p, "atomic_global_add_u32_latency_cycles"), "612.5");
	assert_string_equal(key(&p, "atomic_shared_add_u32_latency_cycles"), "44");
	gp_profile_free(&p);
	memset(&p, 0, sizeof p);
	derive("lat_warp", "op,cycles_per_step,status\nshfl_bfly,23,ok\nvote_any,,ok\n", &p);
	assert_string_equal(key(&p, "warp_shfl_bfly_latency_cycles"), "23");
	assert_null(key(&p, "warp_vote_any_latency_cycles"));
	gp_profile_free(&p);
}

/* The host-timed launch keys are flagged where their row's repetitions spread; the GPU's gap is
 * not judged by the host's spread. */
static void test_launch_noisy_flagged(void **state)
{
	struct gp_profile p = { 0 };

	(void)state;
	derive("lat_launch",
	       "mode,grid,host_us_per_launch,spread,issue_us_per_launch,gpu_gap_us,status\n"
	       "sync,one,9.49,0.07,3.6,9.2,ok\nasync,one,9.22,1.18,9.22,6.65,ok\nqueued,one,6.09,0.07,4.0,2.02,ok\n",
	       &p);
	assert_string_equal(key(&p, "launch_issue_us"), "9.22");
	assert_non_null(strstr(method(&p, "launch_issue_us"), "flagged: a noisy spread"));
	assert_non_null(strstr(method(&p, "launch_overhead_us"), "flagged"));
	assert_null(strstr(method(&p, "launch_gpu_gap_us"), "flagged"));
	gp_profile_free(&p);
	memset(&p, 0, sizeof p);
	derive("lat_launch", "mode,grid,host_us_per_launch,spread,issue_us_per_launch,status\nsync,one,9.77,0.03,4.1,ok\n", &p);
	assert_null(strstr(method(&p, "launch_overhead_us"), "flagged"));
	gp_profile_free(&p);
}

/* Since 6a5c782 the queued gap is the lowest repetition over the contexts (gpu_gap_us_min); a
 * table from before it has only the median, which the key then keeps. */
static void test_launch_gap_lowest(void **state)
{
	struct gp_profile p = { 0 };

	(void)state;
	derive("lat_launch", "mode,grid,host_us_per_launch,gpu_gap_us,gpu_gap_us_min,status\nqueued,one,5.8,1.80,1.64,ok\n",
	       &p);
	assert_string_equal(key(&p, "launch_gpu_gap_us"), "1.64");
	assert_non_null(strstr(method(&p, "launch_gpu_gap_us"), "the lowest repetition"));
	gp_profile_free(&p);
	memset(&p, 0, sizeof p);
	derive("lat_launch", "mode,grid,host_us_per_launch,gpu_gap_us,status\nqueued,one,5.8,1.80,ok\n", &p);
	assert_string_equal(key(&p, "launch_gpu_gap_us"), "1.8");
	assert_null(strstr(method(&p, "launch_gpu_gap_us"), "lowest"));
	gp_profile_free(&p);
}

/* Over several processes: the gap is the lowest process's, the host times the median process's
 * (not the first row's), each method naming the processes and their range; a failed process's
 * row counts for nothing; the noisy flag follows the processes' median spread, and a host-timed key
 * whose processes disagree by more than GP_NOISY_SPREAD of its median is flagged for that. */
static void test_launch_over_processes(void **state)
{
	struct gp_profile p = { 0 };

	(void)state;
	derive("lat_launch",
	       "process,mode,grid,host_us_per_launch,spread,issue_us_per_launch,gpu_us_per_launch,gpu_gap_us,"
	       "gpu_gap_us_min,status\n"
	       "1,sync,one,9.9,0.01,3.9,9.8,9.4,9.4,ok\n1,async,one,4.9,0.06,4.9,4.9,4.6,4.3,ok\n"
	       "1,graph,one,1.0,0.01,0.02,1.05,1.0,1.0,ok\n1,queued,one,6.4,1.0,4.5,1.85,1.77,1.62,ok\n"
	       "1,queued,full,6.4,1.0,4.5,1.85,1.77,1.50,ok\n"
	       "2,sync,one,9.7,0.01,3.7,9.4,9.2,9.0,ok\n2,async,one,3.8,0.30,3.8,3.8,3.5,3.5,ok\n"
	       "2,graph,one,0.98,0.01,0.01,0.90,1.0,1.0,ok\n2,queued,one,6.0,1.0,4.2,1.79,1.72,1.605,ok\n"
	       "3,sync,one,10.1,0.01,4.3,10.0,9.7,9.4,ok\n3,async,one,4.2,0.14,4.2,4.2,3.8,3.6,ok\n"
	       "3,graph,one,0.99,0.01,0.01,0.98,1.0,1.0,ok\n3,queued,one,6.5,1.0,4.6,1.81,1.74,1.59,failed: x\n",
	       &p);
	assert_string_equal(key(&p, "launch_overhead_us"), "9.9");
	assert_non_null(strstr(method(&p, "launch_overhead_us"), "the median of 3 processes (9.7-10.1)"));
	assert_null(strstr(method(&p, "launch_overhead_us"), "flagged")); /* 0.4 of 9.9: within 5 % */
	assert_string_equal(key(&p, "launch_issue_us"), "4.2");
	assert_non_null(strstr(method(&p, "launch_issue_us"), "flagged: a noisy spread")); /* median spread 0.14 */
	assert_non_null(strstr(method(&p, "launch_issue_us"), "flagged: the processes disagree")); /* 3.8-4.9 */
	assert_string_equal(key(&p, "graph_kernel_us"), "0.98");
	assert_null(strstr(method(&p, "graph_kernel_us"), "flagged")); /* GPU-timed: never the host's flag */
	assert_string_equal(key(&p, "launch_gpu_gap_us"), "1.605"); /* not the failed 1.59, not grid full's */
	assert_non_null(strstr(method(&p, "launch_gpu_gap_us"), "the lowest of 2 processes (1.605-1.62)"));
	gp_profile_free(&p);
}

/* A method as long as the queued gap's over processes (about 250 characters) is kept whole; one
 * longer than the field is cut, but said (-1), never silently: six committed keys' methods were
 * cut at 159 characters before. */
static void test_profile_method_whole(void **state)
{
	struct gp_profile p = { 0 };
	char m[700];

	(void)state;
	memset(m, 'x', sizeof m);
	m[300] = '\0';
	assert_int_equal(gp_profile_add(&p, "k", 1.0, "us", m, "e"), 0);
	assert_int_equal(strlen(method(&p, "k")), 300);
	m[300] = 'x';
	m[sizeof m - 1] = '\0';
	assert_int_equal(gp_profile_add(&p, "k2", 1.0, "us", m, "e"), -1);
	assert_string_equal(key(&p, "k2"), "1");
	assert_int_equal(gp_profile_add_text(&p, "k3", "none detected", "us", m, "e"), -1); /* its word stays */
	assert_string_equal(key(&p, "k3"), "none detected");
	gp_profile_free(&p);
}

/* A latency in ns divides by the experiment's median clock, not by its own point's sample: the
 * one-warp point read 2065 MHz here (a transient step above the card's maximum, as in the H100
 * run 20261125-041210), the other points 1980; 4.0274 cycles are 2.034 ns at 1980 MHz (1.950 at
 * 2065). A failed row's clock does not count. */
static void test_latency_ns_median_clock(void **state)
{
	struct gp_profile p = { 0 };

	(void)state;
	derive("lat_ffma", "operand,threads,cycles_per_ffma_min,cycles_per_warp,latency_ns,clock_MHz,status\n"
			   "reg,1,4.0274,4.03,1.9501,2065,ok\n"
			   "reg,32,4.0274,4.03,2.034,1980,ok\n"
			   "reg,64,4.0274,2.02,2.034,1980,ok\n"
			   "reg,128,4.0274,1.01,2.034,2300,failed: check\n",
	       &p);
	assert_string_equal(key(&p, "ffma_latency"), "4.0274");
	assert_true(fabs(atof(key(&p, "ffma_latency_ns")) - 4.0274 / 1980 * 1e3) < 1e-4);
	assert_non_null(strstr(method(&p, "ffma_latency_ns"), "median SM clock"));
	gp_profile_free(&p);
}

/* tput_atomic quotes the median over the placements where the table has them (the best repetition
 * only for runs from before them), flagged as the placements' spread, whole in its 160 bytes. */
static void test_atomic_placements_median(void **state)
{
	static const char *const head = "op,space,ret,k,layout,%swarps_per_sm,threads_per_block,spread,"
					"ops_per_clk_per_sm,best_ops_per_clk_per_sm,status\n";
	char csv[1024];
	struct gp_profile p = { 0 };

	(void)state;
	snprintf(csv, sizeof csv, head, "placements,");
	strcat(csv, "add_u32,global,atom,1,packed,16,64,256,0.14,1.456,1.573,ok\n"
		    "add_u32,global,red,1,packed,16,64,256,0.10,1.820,1.889,ok\n");
	derive("tput_atomic", csv, &p);
	assert_string_equal(key(&p, "atomic_global_add_u32_ops_per_clk"), "1.456");
	assert_non_null(strstr(method(&p, "atomic_global_add_u32_ops_per_clk"), "median over 16 placements"));
	assert_non_null(strstr(method(&p, "atomic_global_add_u32_ops_per_clk"), "(tput_atomic.csv spread)"));
	assert_true(atof(key(&p, "red_vs_atom_ratio")) > 1.24 && atof(key(&p, "red_vs_atom_ratio")) < 1.26);
	gp_profile_free(&p);
	memset(&p, 0, sizeof p);
	snprintf(csv, sizeof csv, head, "");
	strcat(csv, "add_u32,global,atom,1,packed,64,256,0.04,1.456,1.573,ok\n");
	derive("tput_atomic", csv, &p);
	assert_string_equal(key(&p, "atomic_global_add_u32_ops_per_clk"), "1.573");
	assert_null(strstr(method(&p, "atomic_global_add_u32_ops_per_clk"), "flagged"));
	gp_profile_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_curve_names_no_level),
		cmocka_unit_test(test_tlb_evidence),
		cmocka_unit_test(test_latency_keys_per_row),
		cmocka_unit_test(test_launch_noisy_flagged),
		cmocka_unit_test(test_launch_gap_lowest),
		cmocka_unit_test(test_launch_over_processes),
		cmocka_unit_test(test_profile_method_whole),
		cmocka_unit_test(test_latency_ns_median_clock),
		cmocka_unit_test(test_atomic_placements_median),
	};

	return cmocka_run_group_tests_name("analysis", tests, NULL, NULL);
}
