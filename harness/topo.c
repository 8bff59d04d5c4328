/* topo.c — the host's GPU topology as data (topo.h): bus ids, NVLinks per pair, link names and
 * meta.csv keys. No driver or NVML calls here: device.c and nvml.c fill the struct. */
#include "gp.h"
#include "topo.h"

#include <stdio.h>
#include <string.h>

void gp_topo_init(struct gp_topo *t)
{
	memset(t, 0, sizeof *t);
	for (int i = 0; i < GP_TOPO_MAX_GPUS; i++) {
		t->gpu[i].numa = -1;
		for (int j = 0; j < GP_TOPO_MAX_GPUS; j++)
			t->pair[i][j] = (struct gp_topo_pair){ .access = -1, .rank = -1, .atomics = -1,
							       .level = GP_TOPO_UNKNOWN };
	}
}

int gp_topo_bus_norm(const char *in, char *out, size_t len)
{
	unsigned dom, bus, dev, fn;
	int end = -1;

	/* Hex digits and the separators only: sscanf's %x would also take a "0x" prefix. */
	if (!in || strspn(in, "0123456789abcdefABCDEF:.") != strlen(in) ||
	    sscanf(in, "%x:%x:%x.%x%n", &dom, &bus, &dev, &fn, &end) != 4 || in[end] || bus > 0xff || dev > 0x1f ||
	    fn > 7)
		return -1;
	snprintf(out, len, "%04x:%02x:%02x.%x", dom, bus, dev, fn);
	return 0;
}

int gp_topo_find(const struct gp_topo *t, const char *bus)
{
	char b[GP_TOPO_BUS_LEN];

	if (gp_topo_bus_norm(bus, b, sizeof b))
		return -1;
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->gpu[i].bus_id, b))
			return i;
	return -1;
}

static int switch_links(const struct gp_topo_gpu *g)
{
	int k = 0;

	for (int l = 0; l < g->nlinks && l < GP_TOPO_MAX_LINKS; l++)
		k += g->remote_switch[l] != 0;
	return k;
}

void gp_topo_links(struct gp_topo *t)
{
	for (int i = 0; i < t->n; i++)
		for (int j = 0; j < t->n; j++) {
			const int si = switch_links(&t->gpu[i]), sj = switch_links(&t->gpu[j]);
			int direct = 0;
			if (i == j) {
				t->pair[i][j].nvlinks = 0;
				continue;
			}
			for (int l = 0; l < t->gpu[i].nlinks && l < GP_TOPO_MAX_LINKS; l++)
				direct += !t->gpu[i].remote_switch[l] && gp_topo_find(t, t->gpu[i].remote[l]) == j;
			t->pair[i][j].nvlinks = direct + (si < sj ? si : sj);
		}
}

const char *gp_topo_link_name(const struct gp_topo *t, int i, int j, char *buf, size_t len)
{
	static const struct {
		int level;
		const char *name;
	} names[] = {
		{ GP_TOPO_INTERNAL, "internal" }, { GP_TOPO_SINGLE, "PIX" },  { GP_TOPO_MULTIPLE, "PXB" },
		{ GP_TOPO_HOSTBRIDGE, "PHB" },    { GP_TOPO_NODE, "NODE" },   { GP_TOPO_SYSTEM, "SYS" },
	};
	const struct gp_topo_pair *p = &t->pair[i][j];

	snprintf(buf, len, "unknown");
	if (i == j)
		snprintf(buf, len, "X");
	else if (p->nvlinks > 0)
		snprintf(buf, len, "NV%d", p->nvlinks);
	else
		for (size_t k = 0; k < GP_ARRAY_SIZE(names); k++)
			if (names[k].level == p->level)
				snprintf(buf, len, "%s", names[k].name);
	return buf;
}

size_t gp_topo_nkeys(int n)
{
	return 1 + 4 * (size_t)n + 2 * (size_t)n * (size_t)(n > 0 ? n - 1 : 0);
}

/* "yes", "no" or "?" for a -1/0/1 attribute. */
static const char *tri(int v)
{
	return v < 0 ? "?" : v ? "yes" : "no";
}

size_t gp_topo_describe(const struct gp_topo *t, void (*set)(void *ctx, const char *key, const char *value),
			void *ctx)
{
	char key[48], val[160];
	size_t n = 0;

	snprintf(val, sizeof val, "%d", t->n);
	set(ctx, "topo_gpus", val), n++;
	for (int i = 0; i < t->n; i++) {
		const struct gp_topo_gpu *g = &t->gpu[i];
		snprintf(key, sizeof key, "topo_gpu%d_pci_bus_id", i);
		set(ctx, key, g->bus_id), n++;
		snprintf(key, sizeof key, "topo_gpu%d_numa_node", i);
		snprintf(val, sizeof val, "%d", g->numa);
		set(ctx, key, g->numa >= 0 ? val : "none"), n++;
		snprintf(key, sizeof key, "topo_gpu%d_nvlink", i);
		snprintf(val, sizeof val, "%d active, NVML version %d", g->nlinks, g->nvlink_version);
		set(ctx, key, t->nvml ? val : "unknown (no NVML)"), n++;
		snprintf(key, sizeof key, "topo_gpu%d_pcie", i);
		snprintf(val, sizeof val, "gen %d x%d", g->pcie_gen, g->pcie_width);
		set(ctx, key, g->pcie_gen > 0 ? val : "unknown"), n++;
	}
	for (int i = 0; i < t->n; i++)
		for (int j = 0; j < t->n; j++) {
			const struct gp_topo_pair *p = &t->pair[i][j];
			if (i == j)
				continue;
			snprintf(key, sizeof key, "topo_link_%d_%d", i, j);
			set(ctx, key, gp_topo_link_name(t, i, j, val, sizeof val)), n++;
			snprintf(key, sizeof key, "topo_p2p_%d_%d", i, j);
			snprintf(val, sizeof val, "access %s, native atomics %s, performance rank %d", tri(p->access),
				 tri(p->atomics), p->rank);
			set(ctx, key, val), n++;
		}
	return n;
}
