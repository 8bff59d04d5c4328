/* table.c — tidy tables and their CSV form, through libcsv.
 *
 * Reading is strict: libcsv runs in CSV_STRICT mode, every row must have the header's number of
 * fields, and the error names the line. Writing quotes a field (csv_fwrite) only when it holds a
 * comma, quote, CR or LF, so numbers stay bare and gnuplot reads them as numbers. */
#include "gp.h"
#include "table.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NO_ROW ((size_t)-1)

struct gp_table *gp_table_new(const char *const *cols, size_t ncols)
{
	struct gp_table *t = calloc(1, sizeof *t);

	if (!t)
		return NULL;
	t->cur = NO_ROW;
	t->cols = calloc(ncols ? ncols : 1, sizeof *t->cols);
	if (!t->cols)
		goto error;
	t->ncols = ncols;
	for (size_t i = 0; i < ncols; i++)
		if (!(t->cols[i] = gp_strdup(cols[i])))
			goto error;
	return t;
error:
	gp_table_free(t);
	return NULL;
}

void gp_table_free(struct gp_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->ncols; i++)
		free(t->cols[i]);
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	if (t->cur != NO_ROW)
		for (size_t i = 0; i < t->ncols; i++)
			free(t->cells[t->cur * t->ncols + i]);
	free(t->cols);
	free(t->cells);
	free(t->lines);
	free(t);
}

int gp_table_set_line(struct gp_table *t, size_t row, size_t line)
{
	if (!t->lines || t->lines_cap < t->cap) {
		size_t *nl = realloc(t->lines, t->cap * sizeof *nl);
		if (!nl)
			return -1;
		memset(nl + t->lines_cap, 0, (t->cap - t->lines_cap) * sizeof *nl);
		t->lines = nl;
		t->lines_cap = t->cap;
	}
	t->lines[row] = line;
	return 0;
}

size_t gp_table_line(const struct gp_table *t, size_t row)
{
	return t->lines && row < t->lines_cap && t->lines[row] ? t->lines[row] : row + 2;
}

int gp_table_col(const struct gp_table *t, const char *name)
{
	for (size_t i = 0; i < t->ncols; i++)
		if (!strcmp(t->cols[i], name))
			return (int)i;
	return -1;
}

const char *gp_table_get(const struct gp_table *t, size_t row, const char *col)
{
	int c = gp_table_col(t, col);

	if (c < 0 || row >= t->nrows)
		return NULL;
	return t->cells[row * t->ncols + (size_t)c];
}

int gp_table_get_double(const struct gp_table *t, size_t row, const char *col, double *out)
{
	return gp_parse_double(gp_table_get(t, row, col), out);
}

double gp_table_num(const struct gp_table *t, size_t row, const char *col)
{
	double v;

	return gp_table_get_double(t, row, col, &v) ? NAN : v;
}

int gp_table_row_ok(const struct gp_table *t, size_t row)
{
	const char *s = gp_table_get(t, row, "status");

	return s && !strcmp(s, "ok");
}

double gp_table_max_ok(const struct gp_table *t, const char *col)
{
	double m = 0;

	for (size_t r = 0; r < t->nrows; r++)
		if (gp_table_row_ok(t, r))
			m = fmax(m, gp_table_num(t, r, col));
	return m;
}

size_t gp_table_distinct(const struct gp_table *t, const char *col, const char **out, size_t max)
{
	size_t n = 0;

	for (size_t r = 0; r < t->nrows && n < max; r++) {
		const char *v = gp_table_get(t, r, col);
		size_t i = 0;
		while (i < n && strcmp(out[i], v ? v : ""))
			i++;
		if (v && *v && i == n)
			out[n++] = v;
	}
	return n;
}

/* Row r's cells equal the column, value pairs of ap (up to a NULL column). */
static int row_matches(const struct gp_table *t, size_t r, va_list ap)
{
	const char *col, *v;

	while ((col = va_arg(ap, const char *))) {
		v = gp_table_get(t, r, col);
		if (!v || strcmp(v, va_arg(ap, const char *)))
			return 0;
	}
	return 1;
}

/* The first row at or after `from` (an ok one if ok_only) matching ap's pairs; -1 if none. */
static long find_row(const struct gp_table *t, size_t from, int ok_only, va_list pairs)
{
	for (size_t r = from; r < t->nrows; r++) {
		va_list ap;
		int match;

		if (ok_only && !gp_table_row_ok(t, r))
			continue;
		va_copy(ap, pairs);
		match = row_matches(t, r, ap);
		va_end(ap);
		if (match)
			return (long)r;
	}
	return -1;
}

long gp_table_find(const struct gp_table *t, size_t from, ...)
{
	va_list ap;
	long r;

	va_start(ap, from);
	r = find_row(t, from, 0, ap);
	va_end(ap);
	return r;
}

long gp_table_find_ok(const struct gp_table *t, ...)
{
	va_list ap;
	long r;

	va_start(ap, t);
	r = find_row(t, 0, 1, ap);
	va_end(ap);
	return r;
}

/* Room for one more row at index nrows. */
static int grow(struct gp_table *t)
{
	if (t->nrows + 1 <= t->cap)
		return 0;
	size_t ncap = t->cap ? t->cap * 2 : 16;
	if (ncap > SIZE_MAX / (t->ncols ? t->ncols : 1) / sizeof *t->cells)
		return -1;
	char **nc = realloc(t->cells, ncap * (t->ncols ? t->ncols : 1) * sizeof *nc);
	if (!nc)
		return -1;
	t->cells = nc;
	t->cap = ncap;
	return 0;
}

int gp_row_begin(struct gp_table *t)
{
	if (t->cur != NO_ROW || grow(t))
		return -1;
	t->cur = t->nrows;
	memset(&t->cells[t->cur * t->ncols], 0, t->ncols * sizeof *t->cells);
	return 0;
}

int gp_row_str(struct gp_table *t, const char *col, const char *v)
{
	int c = gp_table_col(t, col);
	char **cell;

	if (t->cur == NO_ROW || c < 0) {
		gp_err("internal: no column '%s' in this table (or no row begun)", col);
		return -1;
	}
	cell = &t->cells[t->cur * t->ncols + (size_t)c];
	free(*cell);
	*cell = gp_strdup(v ? v : "");
	return *cell ? 0 : -1;
}

char *gp_format_num(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "%s", isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf"));
	else
		snprintf(buf, len, "%.6g", v);
	return buf;
}

int gp_row_num(struct gp_table *t, const char *col, double v)
{
	char buf[64];

	return gp_row_str(t, col, gp_format_num(buf, sizeof buf, v));
}

int gp_row_int(struct gp_table *t, const char *col, long long v)
{
	char buf[32];

	snprintf(buf, sizeof buf, "%lld", v);
	return gp_row_str(t, col, buf);
}

int gp_row_end(struct gp_table *t, char *err, size_t errlen)
{
	if (t->cur == NO_ROW) {
		snprintf(err, errlen, "no row begun");
		return -1;
	}
	for (size_t i = 0; i < t->ncols; i++) {
		if (!t->cells[t->cur * t->ncols + i]) {
			snprintf(err, errlen, "column '%s' left unset", t->cols[i]);
			for (size_t j = 0; j < t->ncols; j++) {
				free(t->cells[t->cur * t->ncols + j]);
				t->cells[t->cur * t->ncols + j] = NULL;
			}
			t->cur = NO_ROW;
			return -1;
		}
	}
	t->nrows++;
	t->cur = NO_ROW;
	return 0;
}

int gp_table_append(struct gp_table *t, char *const *fields)
{
	if (t->cur != NO_ROW || grow(t))
		return -1;
	for (size_t i = 0; i < t->ncols; i++) {
		char *s = gp_strdup(fields[i] ? fields[i] : "");
		if (!s) {
			while (i--)
				free(t->cells[t->nrows * t->ncols + i]);
			return -1;
		}
		t->cells[t->nrows * t->ncols + i] = s;
	}
	t->nrows++;
	return 0;
}

/* libcsv trims unquoted leading/trailing spaces and tabs and skips empty lines: such fields are
 * quoted, and so is a lone empty field (a one-column row), which would otherwise be a blank line. */
static int write_field(FILE *f, const char *s, int alone)
{
	size_t n = strlen(s);

	if (strpbrk(s, ",\"\r\n") || (n && strchr(" \t", s[0])) || (n && strchr(" \t", s[n - 1])) ||
	    (!n && alone))
		return csv_fwrite(f, s, n);
	return fwrite(s, 1, n, f) == n ? 0 : EOF;
}

static int write_row(FILE *f, char *const *fields, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i && fputc(',', f) == EOF)
			return -1;
		if (write_field(f, fields[i] ? fields[i] : "", n == 1))
			return -1;
	}
	return fputc('\n', f) == EOF ? -1 : 0;
}

int gp_table_write(const struct gp_table *t, FILE *f)
{
	if (write_row(f, t->cols, t->ncols))
		return -1;
	for (size_t r = 0; r < t->nrows; r++)
		if (write_row(f, &t->cells[r * t->ncols], t->ncols))
			return -1;
	return fflush(f) ? -1 : 0;
}

int gp_table_save(const struct gp_table *t, const char *path)
{
	char tmp[4096];
	FILE *f;
	int saved;

	if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= sizeof tmp) {
		errno = ENAMETOOLONG;
		return -1;
	}
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	if (gp_table_write(t, f) || fsync(fileno(f))) {
		saved = errno;
		fclose(f);
		unlink(tmp);
		errno = saved;
		return -1;
	}
	if (fclose(f) || rename(tmp, path)) {
		saved = errno;
		unlink(tmp);
		errno = saved;
		return -1;
	}
	return 0;
}

int gp_table_save_in(const struct gp_table *t, const char *dir, const char *name, char *err, size_t errlen)
{
	char path[4096];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (gp_table_save(t, path) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Parser state for libcsv's callbacks. */
struct reader {
	struct gp_table *t;
	char **fields;
	size_t nf, cap;
	size_t line;   /* physical lines fed to the parser so far (the current record ends here) */
	int failed;
	char *err;
	size_t errlen;
};

static void on_field(void *s, size_t len, void *data)
{
	struct reader *r = data;
	char *v;

	if (r->failed)
		return;
	if (r->nf == r->cap) {
		size_t ncap = r->cap ? r->cap * 2 : 16;
		char **nf = realloc(r->fields, ncap * sizeof *nf);
		if (!nf)
			goto oom;
		r->fields = nf;
		r->cap = ncap;
	}
	v = malloc(len + 1);
	if (!v)
		goto oom;
	if (len)
		memcpy(v, s, len);
	v[len] = '\0';
	if (memchr(v, '\0', len)) {
		free(v);
		snprintf(r->err, r->errlen, "line %zu: NUL byte in a field", r->line);
		r->failed = 1;
		return;
	}
	r->fields[r->nf++] = v;
	return;
oom:
	snprintf(r->err, r->errlen, "out of memory");
	r->failed = 1;
}

static void clear_fields(struct reader *r)
{
	for (size_t i = 0; i < r->nf; i++)
		free(r->fields[i]);
	r->nf = 0;
}

static void on_row(int term, void *data)
{
	struct reader *r = data;

	if (r->failed)
		goto done;
	if (!r->t) {
		for (size_t i = 0; i < r->nf; i++) {
			if (!r->fields[i][0]) {
				snprintf(r->err, r->errlen, "line 1: empty column name (column %zu)", i + 1);
				r->failed = 1;
				goto done;
			}
			for (size_t j = 0; j < i; j++)
				if (!strcmp(r->fields[i], r->fields[j])) {
					snprintf(r->err, r->errlen, "line 1: duplicate column '%s'", r->fields[i]);
					r->failed = 1;
					goto done;
				}
		}
		r->t = gp_table_new((const char *const *)r->fields, r->nf);
		if (!r->t) {
			snprintf(r->err, r->errlen, "out of memory");
			r->failed = 1;
		}
		goto done;
	}
	if (r->nf != r->t->ncols) {
		snprintf(r->err, r->errlen, "line %zu: %zu fields where the header has %zu", r->line, r->nf,
			 r->t->ncols);
		r->failed = 1;
		goto done;
	}
	if (gp_table_append(r->t, r->fields) || gp_table_set_line(r->t, r->t->nrows - 1, r->line)) {
		snprintf(r->err, r->errlen, "out of memory");
		r->failed = 1;
	}
done:
	clear_fields(r);
}

struct gp_table *gp_table_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct csv_parser p;
	struct reader r = { .err = err, .errlen = errlen };

	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI) != 0) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	/* Feed one physical line at a time so every callback knows the line it is on: a record is
	 * reported when its terminating newline is fed, i.e. on the line where it ends. */
	for (size_t off = 0; off < len && !r.failed;) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t n = nl ? (size_t)(nl - (text + off)) + 1 : len - off;
		r.line++;
		if (csv_parse(&p, text + off, n, on_field, on_row, &r) != n && !r.failed) {
			snprintf(err, errlen, "line %zu: %s", r.line, csv_strerror(csv_error(&p)));
			r.failed = 1;
		}
		off += n;
	}
	if (!r.failed && csv_fini(&p, on_field, on_row, &r) != 0 && !r.failed) {
		snprintf(err, errlen, "line %zu: %s (unterminated quoted field?)", r.line,
			 csv_strerror(csv_error(&p)));
		r.failed = 1;
	}
	csv_free(&p);
	clear_fields(&r);
	free(r.fields);
	if (!r.failed && !r.t) {
		snprintf(err, errlen, "empty file (no header line)");
		r.failed = 1;
	}
	if (r.failed) {
		gp_table_free(r.t);
		return NULL;
	}
	return r.t;
}

struct gp_table *gp_table_load(const char *path, char *err, size_t errlen)
{
	size_t len;
	char *text = gp_read_file(path, &len);
	struct gp_table *t;

	if (!text) {
		snprintf(err, errlen, "cannot read: %s", strerror(errno));
		return NULL;
	}
	t = gp_table_parse(text, len, err, errlen);
	free(text);
	return t;
}

static int is_text_col(const char *name, const char *const *text_cols)
{
	static const char *const harness_text[] = { "status", "conditions", "throttle", "reps_stop", NULL };

	for (const char *const *c = harness_text; *c; c++)
		if (!strcmp(name, *c))
			return 1;
	for (const char *const *c = text_cols; c && *c; c++)
		if (!strcmp(name, *c))
			return 1;
	return 0;
}

/* A cell the numeric column may hold: nothing, a row's "n/a: …", the writer's spellings of a
 * value that is not a number (gp_format_num: "nan", "inf", "-inf"; the report shows a dash), or
 * a finite number of a sane length (%g never needs 40 characters). */
static int numeric_cell_ok(const char *s)
{
	double v;

	return !*s || !strncmp(s, "n/a", 3) || !strcmp(s, "nan") || !strcmp(s, "-nan") || !strcmp(s, "inf") ||
	       !strcmp(s, "-inf") || (strlen(s) <= 40 && !gp_parse_double(s, &v));
}

int gp_table_check_numbers(const struct gp_table *t, const char *const *text_cols, char *err, size_t errlen)
{
	for (size_t c = 0; c < t->ncols; c++) {
		size_t r;
		double v;

		if (is_text_col(t->cols[c], text_cols))
			continue;
		size_t nums = 0, cells = 0;
		for (r = 0; r < t->nrows; r++) {
			const char *s = t->cells[r * t->ncols + c] ? t->cells[r * t->ncols + c] : "";
			if (!*s || !strncmp(s, "n/a", 3))
				continue;
			cells++;
			nums += !gp_parse_double(s, &v);
		}
		/* a label column may hold a few number-like labels (a TMA box "256" beside "32x8"): a
		 * column is numeric when at least half of its cells are numbers */
		if (!nums || 2 * nums < cells)
			continue;
		for (r = 0; r < t->nrows; r++) {
			const char *s = t->cells[r * t->ncols + c] ? t->cells[r * t->ncols + c] : "";
			if (!numeric_cell_ok(s)) {
				snprintf(err, errlen, "line %zu, column %zu (%s): '%.40s%s' is not a finite number",
					 gp_table_line(t, r), c + 1, t->cols[c], s, strlen(s) > 40 ? "…" : "");
				return -1;
			}
		}
	}
	return 0;
}
