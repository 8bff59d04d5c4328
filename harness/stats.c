/* stats.c — min / median / max / mean / sample stddev / relative spread. */
#include "gp.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int gp_stats(const double *x, size_t n, struct gp_stats *s)
{
	double *v, sum = 0, ss = 0;

	if (n == 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (isnan(x[i]))
			return -1;
	v = malloc(n * sizeof *v);
	if (!v)
		return -1;
	memcpy(v, x, n * sizeof *v);
	qsort(v, n, sizeof *v, cmp_double);
	s->n = n;
	s->min = v[0];
	s->max = v[n - 1];
	s->median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	s->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - s->mean) * (v[i] - s->mean);
	s->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0;
	s->spread = s->median != 0 ? (s->max - s->min) / fabs(s->median) : 0.0;
	free(v);
	return 0;
}
