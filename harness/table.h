/* table.h — a tidy table of strings with named columns: what every result CSV, suite file and
 * meta file is in memory. Written and read only through libcsv (csvio in table.c). */
#ifndef GP_TABLE_H
#define GP_TABLE_H

#include <stddef.h>
#include <stdio.h>

struct gp_table {
	char **cols;
	size_t ncols;
	char **cells; /* row-major, nrows * ncols; NULL cell = empty field */
	size_t nrows, cap;
	size_t cur;   /* row being built by gp_row_*; (size_t)-1 when none */
	size_t *lines; /* parsed tables: the physical line each row ends on (for error messages) */
	size_t lines_cap;
};

struct gp_table *gp_table_new(const char *const *cols, size_t ncols);
void gp_table_free(struct gp_table *t);
/* Index of a column, or -1. */
int gp_table_col(const struct gp_table *t, const char *name);
const char *gp_table_get(const struct gp_table *t, size_t row, const char *col);
int gp_table_get_double(const struct gp_table *t, size_t row, const char *col, double *out);
/* The cell as a number; NaN when the column is absent or the cell is empty or not a number. */
double gp_table_num(const struct gp_table *t, size_t row, const char *col);
/* The row's status is "ok". */
int gp_table_row_ok(const struct gp_table *t, size_t row);

/* The largest number of a column over the ok rows; 0 when there is none. */
double gp_table_max_ok(const struct gp_table *t, const char *col);
/* The distinct non-empty cells of a column, in the order they first appear (at most max, into
 * out; the strings are the table's); how many. */
size_t gp_table_distinct(const struct gp_table *t, const char *col, const char **out, size_t max);
/* The first row at or after `from` whose cells equal the given column, value pairs (a NULL
 * column ends the list); -1 if none. */
long gp_table_find(const struct gp_table *t, size_t from, ...) __attribute__((sentinel));
/* The first ok row whose cells equal the pairs, or -1. */
long gp_table_find_ok(const struct gp_table *t, ...) __attribute__((sentinel));

/* Building a row: begin, set each column by name, end. gp_row_end fails (-1, message in err)
 * if a column was left unset, so no row is ever published with a hole the writer did not mean. */
int gp_row_begin(struct gp_table *t);
int gp_row_str(struct gp_table *t, const char *col, const char *v);
int gp_row_num(struct gp_table *t, const char *col, double v); /* %.6g; NaN/inf as "nan"/"inf" */
/* A number as result files write it: %.6g, "nan", "inf", "-inf"; returns buf. */
char *gp_format_num(char *buf, size_t len, double v);
int gp_row_int(struct gp_table *t, const char *col, long long v);
int gp_row_end(struct gp_table *t, char *err, size_t errlen);
/* The file line a parsed row ended on (row + 2 for tables not read from a file). */
size_t gp_table_line(const struct gp_table *t, size_t row);
int gp_table_set_line(struct gp_table *t, size_t row, size_t line);
/* Append a full row of strings (used by the reader). */
int gp_table_append(struct gp_table *t, char *const *fields);

/* Write as CSV (header + rows) to a stream; fields are quoted by libcsv only when needed. */
int gp_table_write(const struct gp_table *t, FILE *f);
/* Write to path atomically: path.tmp.<pid>, fsync, rename. 0 or -1 (errno set). */
int gp_table_save(const struct gp_table *t, const char *path);
/* gp_table_save to dir/name; 0, or -1 with "path: why" in err (a run directory's derived tables). */
int gp_table_save_in(const struct gp_table *t, const char *dir, const char *name, char *err, size_t errlen);

/* Parse CSV text (first line = header). Rejects ragged rows, empty header names, duplicate
 * columns, unterminated quotes. On failure returns NULL with "line N: reason" in err. */
struct gp_table *gp_table_parse(const char *text, size_t len, char *err, size_t errlen);
struct gp_table *gp_table_load(const char *path, char *err, size_t errlen);
/* Read-back validation of a result table's numbers: a column is numeric when at least half of
 * its non-empty cells (n/a rows aside) are finite numbers; then every cell of it must be empty,
 * a finite number, the writer's "nan"/"inf"/"-inf", or "n/a…" (a row the probe could not form).
 * "abc", "1,5", "Infinity" or a 400-digit number in a numeric column is an error "line L, column
 * C (name): …" in err, -1. Columns in text_cols (NULL-terminated) and the harness's own text
 * columns (status, conditions, throttle, reps_stop) are not checked. */
int gp_table_check_numbers(const struct gp_table *t, const char *const *text_cols, char *err, size_t errlen);

#endif
