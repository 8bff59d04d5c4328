/* test_p2p.c — the multi-GPU logic without a GPU: the topology (bus ids, NVLinks per pair from
 * each link's far end, nvidia-smi's link names, the meta.csv keys), the pairs a run measures, the
 * link's datasheet rate, and bw_p2p / lat_p2p's matrices, profile keys and report on synthetic
 * hosts and tables, one GPU (n/a rows) included. */
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
#include "p2p.h"
#include "topo.h"

static struct gp_table *table(const char *csv)
{
	char err[128];
	struct gp_table *t = gp_table_parse(csv, strlen(csv), err, sizeof err);

	if (!t)
		fail_msg("parse: %s", err);
	return t;
}

/* n Hopper GPUs at buses 0x18, 0x2a, ... with PCIe gen 5 x16, nothing else known. */
static void host(struct gp_topo *t, int n)
{
	gp_topo_init(t);
	t->n = n;
	t->nvml = 1;
	for (int i = 0; i < n; i++) {
		snprintf(t->gpu[i].bus_id, sizeof t->gpu[i].bus_id, "0000:%02x:00.0", 0x18 + 0x12 * i);
		t->gpu[i].cc_major = 9;
		t->gpu[i].pcie_gen = 5;
		t->gpu[i].pcie_width = 16;
	}
}

static void link_to(struct gp_topo *t, int i, const char *bus, int is_switch, int count)
{
	for (int k = 0; k < count; k++) {
		struct gp_topo_gpu *g = &t->gpu[i];
		snprintf(g->remote[g->nlinks], sizeof g->remote[0], "%s", bus);
		g->remote_switch[g->nlinks++] = is_switch;
	}
}

static void test_bus_ids(void **state)
{
	char b[GP_TOPO_BUS_LEN] = "";
	struct gp_topo t;

	assert_int_equal(gp_topo_bus_norm("00000000:1B:00.0", b, sizeof b), 0);
	assert_string_equal(b, "0000:1b:00.0");
	assert_int_equal(gp_topo_bus_norm("0000:1b:00.0", b, sizeof b), 0);
	assert_string_equal(b, "0000:1b:00.0");
	assert_int_equal(gp_topo_bus_norm("1b:00.0", b, sizeof b), -1);
	assert_int_equal(gp_topo_bus_norm("0000:1b:00.0x", b, sizeof b), -1);
	assert_int_equal(gp_topo_bus_norm("0000:1b:20.0", b, sizeof b), -1);
	host(&t, 2);
	assert_int_equal(gp_topo_find(&t, "00000000:2A:00.0"), 1);
	assert_int_equal(gp_topo_find(&t, "0000:99:00.0"), -1);
}

/* An HGX board: every GPU's 18 links go into NVSwitches, so every pair is NV18. */
static void test_switch_host(void **state)
{
	struct gp_topo t;
	char name[16];

	host(&t, 4);
	for (int i = 0; i < 4; i++)
		link_to(&t, i, "0000:c0:00.0", 1, 18);
	gp_topo_links(&t);
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			assert_string_equal(gp_topo_link_name(&t, i, j, name, sizeof name), i == j ? "X" : "NV18");
}

/* Direct links: 4 from GPU 0 to 1, 2 from 0 to 2, none between 1 and 2 (across sockets). */
static void test_direct_links_and_pcie(void **state)
{
	struct gp_topo t;
	char name[16];

	host(&t, 3);
	link_to(&t, 0, t.gpu[1].bus_id, 0, 4);
	link_to(&t, 0, "00000000:3C:00.0", 0, 2); /* NVML's spelling of GPU 2's bus */
	link_to(&t, 1, t.gpu[0].bus_id, 0, 4);
	link_to(&t, 2, t.gpu[0].bus_id, 0, 2);
	t.pair[1][2].level = t.pair[2][1].level = GP_TOPO_SYSTEM;
	gp_topo_links(&t);
	assert_string_equal(gp_topo_link_name(&t, 0, 1, name, sizeof name), "NV4");
	assert_string_equal(gp_topo_link_name(&t, 1, 0, name, sizeof name), "NV4");
	assert_string_equal(gp_topo_link_name(&t, 0, 2, name, sizeof name), "NV2");
	assert_string_equal(gp_topo_link_name(&t, 1, 2, name, sizeof name), "SYS");
	t.pair[1][2].level = GP_TOPO_SINGLE;
	assert_string_equal(gp_topo_link_name(&t, 1, 2, name, sizeof name), "PIX");
	t.pair[1][2].level = GP_TOPO_NODE;
	assert_string_equal(gp_topo_link_name(&t, 1, 2, name, sizeof name), "NODE");
	t.pair[1][2].level = GP_TOPO_UNKNOWN;
	assert_string_equal(gp_topo_link_name(&t, 1, 2, name, sizeof name), "unknown");
}

struct keys {
	char k[256][48], v[256][160];
	int n;
};

static void keep(void *ctx, const char *key, const char *value)
{
	struct keys *s = ctx;

	assert_true(s->n < 256);
	snprintf(s->k[s->n], sizeof s->k[0], "%s", key);
	snprintf(s->v[s->n++], sizeof s->v[0], "%s", value);
}

static const char *kv(const struct keys *s, const char *key)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->k[i], key))
			return s->v[i];
	return NULL;
}

static void test_meta_keys(void **state)
{
	static struct keys s;
	struct gp_topo t;

	host(&t, 2);
	t.gpu[1].numa = 1;
	link_to(&t, 0, t.gpu[1].bus_id, 0, 18);
	link_to(&t, 1, t.gpu[0].bus_id, 0, 18);
	t.pair[0][1] = (struct gp_topo_pair){ .access = 1, .rank = 0, .atomics = 1, .level = GP_TOPO_SYSTEM };
	gp_topo_links(&t);
	s.n = 0;
	assert_int_equal(gp_topo_describe(&t, keep, &s), gp_topo_nkeys(2));
	assert_int_equal(s.n, (int)gp_topo_nkeys(2));
	assert_string_equal(kv(&s, "topo_gpus"), "2");
	assert_string_equal(kv(&s, "topo_gpu1_pci_bus_id"), "0000:2a:00.0");
	assert_string_equal(kv(&s, "topo_gpu0_numa_node"), "none");
	assert_string_equal(kv(&s, "topo_gpu1_numa_node"), "1");
	assert_string_equal(kv(&s, "topo_gpu0_pcie"), "gen 5 x16");
	assert_string_equal(kv(&s, "topo_link_0_1"), "NV18");
	assert_string_equal(kv(&s, "topo_p2p_0_1"), "access yes, native atomics yes, performance rank 0");
	assert_string_equal(kv(&s, "topo_p2p_1_0"), "access ?, native atomics ?, performance rank -1");
	/* One GPU: its own keys, no pair. */
	host(&t, 1);
	s.n = 0;
	assert_int_equal(gp_topo_describe(&t, keep, &s), 5);
	assert_null(kv(&s, "topo_link_0_1"));
}

static void test_pairs(void **state)
{
	int p[64][2];

	assert_int_equal(p2p_pairs(1, 0, 0, p, 64), 0);
	assert_int_equal(p2p_pairs(3, 0, 0, p, 64), 6);
	assert_int_equal(p[0][0], 0);
	assert_int_equal(p[0][1], 1);
	assert_int_equal(p[2][0], 1);
	assert_int_equal(p[2][1], 0);
	assert_int_equal(p[5][0], 2);
	assert_int_equal(p[5][1], 1);
	assert_int_equal(p2p_pairs(3, 2, 1, p, 64), 4);
	for (int k = 0; k < 4; k++)
		assert_true(p[k][0] == 2 || p[k][1] == 2);
	assert_int_equal(p2p_pairs(8, 0, 0, p, 10), 10);
}

static const char ref_csv[] = "experiment,key,value,unit,gpu,source\n"
			      "bw_p2p,nvlink_GBps_per_link_cc9.0,25,GB/s,H100,datasheet\n"
			      "bw_p2p,nvlink_GBps_per_link_cc8.0,25,GB/s,A100,datasheet\n"
			      "bw_p2p,pcie_gen5_GBps_per_lane,3.938,GB/s,any,PCI-SIG\n"
			      "bw_p2p,pcie_gen4_GBps_per_lane,1.969,GB/s,any,PCI-SIG\n";

static void test_link_rate(void **state)
{
	struct gp_table *ref = table(ref_csv);
	struct gp_topo t;
	char basis[128];

	host(&t, 3);
	link_to(&t, 0, t.gpu[1].bus_id, 0, 18);
	link_to(&t, 1, t.gpu[0].bus_id, 0, 18);
	t.gpu[2].pcie_gen = 4;
	gp_topo_links(&t);
	assert_float_equal(p2p_link_rate(&t, 0, 1, ref, basis, sizeof basis), 450, 1e-9);
	assert_non_null(strstr(basis, "NV18 x 25 GB/s"));
	/* PCIe: the narrower of the two GPUs' links (gen 4 x16 against gen 5 x16). */
	assert_float_equal(p2p_link_rate(&t, 0, 2, ref, basis, sizeof basis), 16 * 1.969, 1e-9);
	assert_non_null(strstr(basis, "gen 4 x16"));
	/* No datasheet rate for the GPU's cc: unknown, and the basis says why. */
	t.gpu[1].cc_major = 7;
	t.gpu[1].cc_minor = 5;
	assert_float_equal(p2p_link_rate(&t, 0, 1, ref, basis, sizeof basis), 0, 0);
	assert_non_null(strstr(basis, "cc 7.5"));
	t.gpu[2].pcie_gen = 0;
	assert_float_equal(p2p_link_rate(&t, 0, 2, ref, basis, sizeof basis), 0, 0);
	assert_float_equal(p2p_link_rate(&t, 1, 1, ref, basis, sizeof basis), 0, 0);
	assert_float_equal(p2p_link_rate(&t, 0, 1, NULL, basis, sizeof basis), 0, 0);
	gp_table_free(ref);
}

static const char bw_two[] =
	"mode,src,dst,link,p2p_access,GBps,pct_of_link,link_GBps,link_basis,status\n"
	"memcpy,0,1,NV18,yes,381.5,84.8,450,NV18 x 25 GB/s,ok\n"
	"memcpy,1,0,NV18,yes,377.25,83.8,450,NV18 x 25 GB/s,ok\n"
	"memcpy_bidir,0,1,NV18,yes,741,82.3,450,NV18 x 25 GB/s,ok\n"
	"memcpy_bidir,1,0,NV18,yes,739,82.1,450,NV18 x 25 GB/s,ok\n"
	"read,0,1,NV18,yes,nan,nan,450,NV18 x 25 GB/s,1 of 2 words arrived wrong\n"
	"read,1,0,NV18,yes,350,77.8,450,NV18 x 25 GB/s,ok\n"
	"write,0,1,NV18,no,nan,nan,450,NV18 x 25 GB/s,n/a: no peer access between GPU 0 and GPU 1\n";

static const char bw_one[] = "mode,src,dst,link,p2p_access,GBps,pct_of_link,link_GBps,link_basis,status\n"
			     "memcpy,0,,none,,nan,nan,nan,,n/a: one GPU\n"
			     "read,0,,none,,nan,nan,nan,,n/a: one GPU\n";

static void test_matrix(void **state)
{
	struct gp_table *t = table(bw_two);
	double m[4 * 4], lo = 0, hi = 0;

	assert_int_equal(p2p_matrix(t, "memcpy", "GBps", m, 4), 2);
	assert_float_equal(m[0 * 4 + 1], 381.5, 1e-9);
	assert_float_equal(m[1 * 4 + 0], 377.25, 1e-9);
	assert_true(isnan(m[0]) && isnan(m[5]));
	assert_int_equal(p2p_matrix_range(m, 2, 4, &lo, &hi), 1);
	assert_float_equal(lo, 377.25, 1e-9);
	assert_float_equal(hi, 381.5, 1e-9);
	/* The failed read row is not a cell; the ok one is. */
	assert_int_equal(p2p_matrix(t, "read", "GBps", m, 4), 2);
	assert_true(isnan(m[0 * 4 + 1]));
	assert_float_equal(m[1 * 4 + 0], 350, 1e-9);
	assert_int_equal(p2p_matrix(t, "write", "GBps", m, 4), 0);
	assert_int_equal(p2p_matrix_range(m, 0, 4, &lo, &hi), 0);
	gp_table_free(t);
	t = table(bw_one);
	assert_int_equal(p2p_matrix(t, "memcpy", "GBps", m, 4), 0);
	gp_table_free(t);
}

static const char *key(const struct gp_profile *p, const char *k)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->e[i].key, k))
			return p->e[i].value;
	return NULL;
}

static char *render(const char *exp, const char *csv, struct gp_profile *p)
{
	const struct gp_analysis *a = gp_analysis_find(exp);
	struct gp_table *t = table(csv), *ref = table(ref_csv);
	char *md = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&md, &len);

	assert_non_null(a);
	assert_non_null(f);
	a->derive(p, t);
	a->report(f, t, ref);
	fclose(f);
	gp_table_free(t);
	gp_table_free(ref);
	return md;
}

static void test_bw_report(void **state)
{
	struct gp_profile p = { 0 };
	char *md = render("bw_p2p", bw_two, &p);

	assert_string_equal(key(&p, "p2p_bw_min_GBps"), "377.25");
	assert_string_equal(key(&p, "p2p_bw_max_GBps"), "381.5");
	assert_string_equal(key(&p, "p2p_bw_bidir_max_GBps"), "741");
	assert_string_equal(key(&p, "p2p_read_bw_max_GBps"), "350");
	assert_null(key(&p, "p2p_write_bw_max_GBps"));
	assert_non_null(strstr(md, "| src \\ dst | GPU 0 | GPU 1 |"));
	assert_non_null(strstr(md, "| GPU 0 | – | 381.5 |"));
	assert_non_null(strstr(md, "`memcpy_bidir`"));
	assert_null(strstr(md, "`write`:"));
	assert_non_null(strstr(md, "NV18 x 25 GB/s"));
	free(md);
	gp_profile_free(&p);
	memset(&p, 0, sizeof p);
	md = render("bw_p2p", bw_one, &p);
	assert_int_equal(p.n, 0);
	assert_non_null(strstr(md, "No pair measured: n/a: one GPU."));
	assert_null(strstr(md, "src \\ dst"));
	free(md);
	gp_profile_free(&p);
}

static void test_lat_report(void **state)
{
	static const char lat[] = "src,dst,link,p2p_access,latency_ns,cycles,link_GBps,link_basis,status\n"
				  "0,1,NV18,yes,812.5,1600,450,b,ok\n1,0,NV18,yes,820,1615,450,b,ok\n"
				  "0,2,SYS,yes,1210,2400,63,b,ok\n";
	struct gp_profile p = { 0 };
	char *md = render("lat_p2p", lat, &p);

	assert_string_equal(key(&p, "p2p_lat_min_ns"), "812.5");
	assert_string_equal(key(&p, "p2p_lat_max_ns"), "1210");
	assert_non_null(strstr(md, "| GPU 0 | – | 812.5 | 1210 |"));
	assert_non_null(strstr(md, "| GPU 2 | – | – | – |"));
	free(md);
	gp_profile_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bus_ids),	    cmocka_unit_test(test_switch_host),
		cmocka_unit_test(test_direct_links_and_pcie), cmocka_unit_test(test_meta_keys),
		cmocka_unit_test(test_pairs),	    cmocka_unit_test(test_link_rate),
		cmocka_unit_test(test_matrix),	    cmocka_unit_test(test_bw_report),
		cmocka_unit_test(test_lat_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
