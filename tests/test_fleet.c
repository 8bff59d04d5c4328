/* test_fleet.c — the fleet comparison: the robust outlier rule, and `fleet` over synthetic runs
 * (a slow card among four is named; two runs give spreads but no outlier; bad input fails; a
 * results root stands for the runs below it, as a Slurm job leaves them, and the stub driver's
 * runs are labelled wherever a device is named; runs of one GPU get the repeatability check:
 * latency keys within 1 %, bandwidth keys within 3 %, the others named). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gp.h"
#include "fleet.h"
#include "stats.h"

#include <ftw.h>

static void test_stats_and_rule(void **state)
{
	const double x[] = { 3000, 3010, 2995, 3005, 2400 };
	struct gp_stats st;
	double med, mad;

	assert_int_equal(gp_fleet_stats(x, 5, &st, &mad), 0);
	med = st.median;
	assert_true(med == 3000);
	assert_true(mad == 5);
	assert_true(st.spread == 610.0 / 3000); /* the key's range */
	assert_true(gp_fleet_outlier(2400, med, mad, 5));
	assert_false(gp_fleet_outlier(3010, med, mad, 5));
	/* beyond 3.5 robust sigma but under the 3 % floor: cards that agree to the last digit */
	assert_false(gp_fleet_outlier(3060, med, mad, 5));
	/* no fleet of two */
	assert_false(gp_fleet_outlier(2400, 2700, 300, 2));
	assert_int_equal(gp_fleet_stats(x, 0, &st, &mad), -1);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void make_run(const char *root, int i, double bw)
{
	char dir[512], prof[512], meta[256];

	snprintf(dir, sizeof dir, "%s/run%d", root, i);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(meta, sizeof meta, "key,value\ndevice_name,NVIDIA H100 80GB HBM3\ndevice_uuid,GPU-%d\n", i);
	write_file(dir, "meta.csv", meta);
	snprintf(prof, sizeof prof,
		 "key,value,unit,method,source\nffma_latency,4.03,cycles,m,lat_ffma\nhbm_read_GBps,%g,GB/s,m,bw_hbm\n", bw);
	write_file(dir, "profile.csv", prof);
}

/* Run gp_cmd_fleet (md: its --md page, or NULL) with stdout in a file; returns its text (caller
 * frees) and the exit code. */
static char *fleet_md(int n, char **dirs, const char *md, int *rc)
{
	char path[] = "/tmp/gp_fleet_out.XXXXXX";
	const int fd = mkstemp(path), saved = dup(STDOUT_FILENO);
	char *text;

	assert_true(fd >= 0);
	fflush(stdout);
	dup2(fd, STDOUT_FILENO);
	*rc = gp_cmd_fleet(n, dirs, md);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(fd);
	text = gp_read_file(path, NULL);
	unlink(path);
	return text;
}

static char *fleet(int n, char **dirs, int *rc)
{
	return fleet_md(n, dirs, NULL, rc);
}

static void test_fleet_names_the_slow_card(void **state)
{
	char root[] = "/tmp/gp_fleet.XXXXXX", d[4][600], *dirs[4], *out, *line;
	const double bw[] = { 3000, 3010, 2400, 3005 };
	int rc;

	assert_non_null(mkdtemp(root));
	for (int i = 0; i < 4; i++) {
		make_run(root, i, bw[i]);
		snprintf(d[i], sizeof d[i], "%s/run%d", root, i);
		dirs[i] = d[i];
	}
	out = fleet(4, dirs, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(out);
	assert_non_null(strstr(out, "key,unit,run,device,value,median,rel_dev_pct,range_pct,outlier"));
	/* run2's bandwidth is the one outlier; the latency (equal everywhere) flags nothing. The
	 * bandwidth's range on every one of its rows: (3010 - 2400) / 3002.5 (the median of four). */
	for (line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		const int outlier = line[strlen(line) - 1] == '1';
		if (strstr(line, "hbm_read_GBps"))
			assert_non_null(strstr(line, ",20.3164,"));
		if (strstr(line, "hbm_read_GBps") && strstr(line, "/run2,"))
			assert_true(outlier);
		else if (strncmp(line, "key,", 4))
			assert_false(outlier);
	}
	free(out);
	out = fleet(2, dirs, &rc); /* two runs: a spread, no outlier */
	assert_int_equal(rc, 0);
	assert_null(strstr(out, ",1\n"));
	free(out);
	dirs[1] = "/nonexistent/run";
	free(fleet(2, dirs, &rc));
	assert_int_equal(rc, GP_EUSAGE);
	free(fleet(1, dirs, &rc));
	assert_int_equal(rc, GP_EUSAGE);
	for (int i = 0; i < 4; i++) {
		char p[700];
		snprintf(p, sizeof p, "%s/meta.csv", d[i]);
		unlink(p);
		snprintf(p, sizeof p, "%s/profile.csv", d[i]);
		unlink(p);
		rmdir(d[i]);
	}
	rmdir(root);
}

static void mkdirs(const char *path)
{
	char buf[600];

	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(buf, 0700);
			*p = '/';
		}
	assert_true(mkdir(buf, 0700) == 0 || access(buf, F_OK) == 0);
}

/* root/<job>/<host>/gpu<N>/<gpu>/<stamp>, as scripts/slurm/gpuprobe.sbatch writes it. */
static void make_slurm_run(const char *root, const char *host, int gpu, int stub, const char *status, double bw)
{
	char dir[512], meta[512], prof[256];

	snprintf(dir, sizeof dir, "%s/17/%s/gpu%d/%s/20261124-100000", root, host, gpu, stub ? "stub" : "h100");
	mkdirs(dir);
	snprintf(meta, sizeof meta, "key,value\ndevice_name,%s\ndevice_uuid,GPU-%s-%d\n%shostname,%s\nstatus,%s\n",
		 stub ? "gpuprobe stub driver (no GPU)" : "NVIDIA H100 80GB HBM3", host, gpu,
		 stub ? "stub_driver,\"gpuprobe test stub: no value is a measurement\"\n" : "", host, status);
	write_file(dir, "meta.csv", meta);
	snprintf(prof, sizeof prof, "key,value,unit,method,source\nhbm_read_GBps,%g,GB/s,m,bw_hbm\n", bw);
	write_file(dir, "profile.csv", prof);
}

static int rm_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	return remove(path);
}

static void test_fleet_of_a_results_root(void **state)
{
	char root[] = "/tmp/gp_fleet_root.XXXXXX", md_path[600], empty[600], *args[2], *out, *md;
	int rc;

	assert_non_null(mkdtemp(root));
	make_slurm_run(root, "node1", 0, 0, "complete", 3000);
	make_slurm_run(root, "node1", 1, 0, "complete", 3010);
	make_slurm_run(root, "node2", 0, 0, "faults", 2400);
	make_slurm_run(root, "node3", 0, 1, "invalid-results", 3005);
	snprintf(empty, sizeof empty, "%s/empty/a/b", root);
	mkdirs(empty);
	/* The root: its four runs, in name order; the stub's labelled; the Markdown page lists them. */
	args[0] = root;
	snprintf(md_path, sizeof md_path, "%s/FLEET.md", root);
	out = fleet_md(1, args, md_path, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(out);
	assert_non_null(strstr(out, "/17/node1/gpu0/h100/20261124-100000,NVIDIA H100 80GB HBM3 GPU-node1-0,3000,"));
	assert_non_null(strstr(out, "/17/node3/gpu0/stub/20261124-100000,gpuprobe stub driver (no GPU) GPU-node3-0 "
				    "[stub driver: not a measurement],3005,"));
	assert_non_null(strstr(out, "/17/node2/gpu0/h100/20261124-100000,NVIDIA H100 80GB HBM3 GPU-node2-0,2400,"
				    "3002.5,-20.0666,20.3164,1\n"));
	free(out);
	md = gp_read_file(md_path, NULL);
	assert_non_null(md);
	assert_non_null(strstr(md, "> **Not measurements.** 1 of these 4 runs went through gpuprobe's stub driver"));
	assert_non_null(strstr(md, "| 3 | "));
	assert_non_null(strstr(md, "/17/node2/gpu0/h100/20261124-100000 | node2 | NVIDIA H100 80GB HBM3 GPU-node2-0 | "
				   "faults | 1 |"));
	assert_null(strstr(md, "| 5 | "));
	assert_null(strstr(md, "## Repeatability")); /* many GPUs */
	free(md);
	/* A directory with no run in it or below it is refused, as one with a single run is. */
	args[0] = empty;
	free(fleet(1, args, &rc));
	assert_int_equal(rc, GP_EUSAGE);
	snprintf(empty, sizeof empty, "%s/17/node1/gpu0", root);
	free(fleet(1, args, &rc));
	assert_int_equal(rc, GP_EUSAGE);
	nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Three runs of one GPU: a latency key that moved 2 % (flagged noisy by one run) and one that held,
 * a bandwidth key that moved 2.5 % (within its 3 %) and one that moved 5 %, a key of neither class
 * that moved 10 %. */
static void test_fleet_repeatability(void **state)
{
	static const double lat[] = { 10.0, 10.2, 10.1 }, bw[] = { 3000, 3075, 3040 }, bw2[] = { 100, 105, 102 },
			    tf[] = { 900, 990, 950 };
	char root[] = "/tmp/gp_fleet_rep.XXXXXX", d[3][600], *dirs[3], md_path[600], *md;
	int rc;

	assert_non_null(mkdtemp(root));
	for (int i = 0; i < 3; i++) {
		char prof[512];
		snprintf(d[i], sizeof d[i], "%s/run%d", root, i);
		dirs[i] = d[i];
		assert_int_equal(mkdir(d[i], 0700), 0);
		write_file(d[i], "meta.csv", "key,value\ndevice_name,NVIDIA H100 80GB HBM3\ndevice_uuid,GPU-same\n");
		snprintf(prof, sizeof prof,
			 "key,value,unit,method,source\nffma_latency,4.03,cycles,m,a\nlaunch_us,%g,us,%s,b\n"
			 "hbm_GBps,%g,GB/s,m,c\nlds_bw,%g,B/clk/SM,m,d\nrate,%g,TFLOP/s,m,e\n",
			 lat[i], i == 1 ? "m; flagged: a noisy spread" : "m", bw[i], bw2[i], tf[i]);
		write_file(d[i], "profile.csv", prof);
	}
	snprintf(md_path, sizeof md_path, "%s/REP.md", root);
	free(fleet_md(3, dirs, md_path, &rc));
	assert_int_equal(rc, 0);
	md = gp_read_file(md_path, NULL);
	assert_non_null(md);
	assert_non_null(strstr(md, "## Repeatability"));
	assert_non_null(strstr(md, "\n## Keys"));
	*strstr(md, "\n## Keys") = '\0'; /* the check's section alone */
	assert_non_null(strstr(md, "within 1 % over the runs: 1 of 2;"));
	assert_non_null(strstr(md, "within 3 %: 1 of 2 "));
	assert_non_null(strstr(md, "| launch_us | us | 10 | 10.2 | 1.98 | 1 | 1 of 3 |")); /* the second run flagged it */
	assert_non_null(strstr(md, "| lds_bw | B/clk/SM | 100 | 105 | 4.902 | 3 | 0 of 3 |"));
	assert_null(strstr(md, "| hbm_GBps | GB/s | 3000 |"));  /* within 3 % */
	assert_null(strstr(md, "| ffma_latency | cycles | 4.03 |")); /* held */
	assert_null(strstr(md, "| rate | TFLOP/s | 900 |"));    /* neither class */
	free(md);
	nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_and_rule),
		cmocka_unit_test(test_fleet_names_the_slow_card),
		cmocka_unit_test(test_fleet_of_a_results_root),
		cmocka_unit_test(test_fleet_repeatability),
	};

	return cmocka_run_group_tests_name("fleet", tests, NULL, NULL);
}
