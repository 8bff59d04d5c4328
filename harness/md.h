/* md.h — the Markdown that REPORT.md is made of: tables whose numbers are rounded to what a
 * reader can use (4 significant digits), "–" for a cell without a value. Report sections write
 * through these and never format a table by hand. */
#ifndef GP_MD_H
#define GP_MD_H

#include <stddef.h>
#include <stdio.h>

/* "| h1 | h2 |\n|---|---|\n" */
void gp_md_head(FILE *md, const char *const *headers, size_t n);
#define gp_md_header(md, ...)                                                                       \
	gp_md_head((md), (const char *const[]){ __VA_ARGS__ }, sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(char *))
/* One cell: text as it is ("|" escaped), NULL or "" as "–". */
void gp_md_str(FILE *md, const char *s);
/* One cell: a number to 4 significant digits (integers in full), NaN as "–". */
void gp_md_num(FILE *md, double v);
/* One cell from a CSV cell: a number is rounded as gp_md_num, anything else is text. */
void gp_md_cell(FILE *md, const char *csv);
/* Ends the row. */
void gp_md_end(FILE *md);
/* Row r's cells of the n columns named in cols, as gp_md_cell writes them (the row not ended). */
struct gp_table;
void gp_md_cells(FILE *md, const struct gp_table *t, size_t r, const char *const *cols, size_t n);
/* Every row of t, each its cells of cols, ended. */
void gp_md_rows(FILE *md, const struct gp_table *t, const char *const *cols, size_t n);
/* The number as gp_md_num writes it. */
const char *gp_md_fmt(char *buf, size_t len, double v);

/* 1 for the CSV writer's spellings of a non-finite value ("nan", "inf", "-inf"): shown as "–". */
int gp_md_no_value(const char *csv);

#endif
