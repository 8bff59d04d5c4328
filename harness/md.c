/* md.c — Markdown tables (md.h). */
#include "gp.h"
#include "md.h"
#include "table.h"

#include <math.h>
#include <string.h>

void gp_md_head(FILE *md, const char *const *headers, size_t n)
{
	for (size_t i = 0; i < n; i++)
		gp_md_str(md, headers[i]);
	gp_md_end(md);
	for (size_t i = 0; i < n; i++)
		fputs("|---", md);
	fputs("|\n", md);
}

void gp_md_str(FILE *md, const char *s)
{
	fputs("| ", md);
	if (!s || !*s)
		s = "–";
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', md);
		fputc(*s == '\n' ? ' ' : *s, md);
	}
	fputc(' ', md);
}

const char *gp_md_fmt(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "–");
	else if (isinf(v))
		snprintf(buf, len, "%s", v > 0 ? "inf" : "-inf");
	else if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else if (fabs(v) >= 1e-3 && fabs(v) < 1e6) {
		/* 4 significant digits in positional notation: 1234, 123.4, 0.01234 */
		const int digits = 4 - 1 - (int)floor(log10(fabs(v)));
		char *end;
		snprintf(buf, len, "%.*f", digits > 0 ? digits : 0, v);
		if (strchr(buf, '.')) { /* no trailing zeros: 0.5, not 0.5000 */
			for (end = buf + strlen(buf) - 1; *end == '0'; end--)
				*end = 0;
			if (*end == '.')
				*end = 0;
		}
	} else
		snprintf(buf, len, "%.4g", v);
	return buf;
}

void gp_md_num(FILE *md, double v)
{
	char buf[64];

	gp_md_str(md, gp_md_fmt(buf, sizeof buf, v));
}

/* The writer's spellings of a value that is not a number (table.c's gp_format_num): a dash. */
int gp_md_no_value(const char *csv)
{
	return !strcmp(csv, "nan") || !strcmp(csv, "-nan") || !strcmp(csv, "inf") || !strcmp(csv, "-inf");
}

void gp_md_cell(FILE *md, const char *csv)
{
	double v;

	char buf[64];

	/* Rounded only where that shortens it: a paper's "31.5" stays as the paper printed it. */
	if (csv && *csv && !gp_parse_double(csv, &v) && strlen(gp_md_fmt(buf, sizeof buf, v)) < strlen(csv))
		gp_md_str(md, buf);
	else
		gp_md_str(md, csv && !gp_md_no_value(csv) ? csv : NULL);
}

void gp_md_end(FILE *md)
{
	fputs("|\n", md);
}

void gp_md_cells(FILE *md, const struct gp_table *t, size_t r, const char *const *cols, size_t n)
{
	for (size_t c = 0; c < n; c++)
		gp_md_cell(md, gp_table_get(t, r, cols[c]));
}

void gp_md_rows(FILE *md, const struct gp_table *t, const char *const *cols, size_t n)
{
	for (size_t r = 0; r < t->nrows; r++) {
		gp_md_cells(md, t, r, cols, n);
		gp_md_end(md);
	}
}
