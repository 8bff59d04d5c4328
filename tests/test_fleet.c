/* test_fleet.c — the fleet comparison: the robust outlier rule, and `fleet` over synthetic runs
 * (a slow card among four is named; two runs give spreads but no outlier; bad input fails). */
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

static void test_stats_and_rule(void **state)
{
	const double x[] = { 3000, 3010, 2995, 3005, 2400 };
	double med, mad;

	assert_int_equal(gp_fleet_stats(x, 5, &med, &mad), 0);
	assert_true(med == 3000);
	assert_true(mad == 5);
	assert_true(gp_fleet_outlier(2400, med, mad, 5));
	assert_false(gp_fleet_outlier(3010, med, mad, 5));
	/* beyond 3.5 robust sigma but under the 3 % floor: cards that agree to the last digit */
	assert_false(gp_fleet_outlier(3060, med, mad, 5));
	/* no fleet of two */
	assert_false(gp_fleet_outlier(2400, 2700, 300, 2));
	assert_int_equal(gp_fleet_stats(x, 0, &med, &mad), -1);
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

/* Run gp_cmd_fleet with stdout in a file; returns its text (caller frees) and the exit code. */
static char *fleet(int n, char **dirs, int *rc)
{
	char path[] = "/tmp/gp_fleet_out.XXXXXX";
	const int fd = mkstemp(path), saved = dup(STDOUT_FILENO);
	char *text;

	assert_true(fd >= 0);
	fflush(stdout);
	dup2(fd, STDOUT_FILENO);
	*rc = gp_cmd_fleet(n, dirs, NULL);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(fd);
	text = gp_read_file(path, NULL);
	unlink(path);
	return text;
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
	assert_non_null(strstr(out, "key,unit,run,device,value,median,rel_dev_pct,outlier"));
	/* run2's bandwidth is the one outlier; the latency (equal everywhere) flags nothing */
	for (line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		const int outlier = line[strlen(line) - 1] == '1';
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_and_rule),
		cmocka_unit_test(test_fleet_names_the_slow_card),
	};

	return cmocka_run_group_tests_name("fleet", tests, NULL, NULL);
}
