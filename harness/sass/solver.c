/* solver.c — ISA encoding solver (E101): from disassembled single-bit flips to the field map
 * (see solver.h); the `sass solve` command that makes the flips and runs nvdisasm is
 * solve_cli.c.
 *
 * The classification is by text, as the seed's Algorithms 2 and 3 do: a flip that changes the
 * mnemonic is an opcode bit; one that changes the modifiers a modifier bit; one that changes one
 * operand's value by exactly one bit places that value bit (so the field's lowest bit is the flip
 * position minus the value bit, and every flip of the field must agree). */
#include "sass/solver.h"
#include "sass/cubin.h"
#include "gp.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>


/* ---------------------------------------------------------------- text */

static char *trim(char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && (isspace((unsigned char)s[n - 1]) || s[n - 1] == ';'))
		s[--n] = '\0';
	return s;
}

int gp_sass_parse_text(const char *text, struct gp_sass_syntax *s)
{
	char buf[GP_SOLVE_TEXT], *p, *name, *dot;
	int depth = 0;

	memset(s, 0, sizeof *s);
	snprintf(buf, sizeof buf, "%s", text);
	p = trim(buf);
	if (*p == '@') {
		size_t n = strcspn(p, " \t");
		snprintf(s->pred, sizeof s->pred, "%.*s", (int)n, p);
		p = trim(p + n);
	}
	if (!isupper((unsigned char)*p))
		return -1;
	name = p;
	p += strcspn(p, " \t");
	if (*p)
		*p++ = '\0';
	dot = strchr(name, '.');
	snprintf(s->mods, sizeof s->mods, "%s", dot ? dot : "");
	if (dot)
		*dot = '\0';
	snprintf(s->base, sizeof s->base, "%s", name);
	p = trim(p);
	/* Operands split on top-level commas: "[R2.64+0x10]" and "{R4, R5}" stay whole. */
	for (char *start = p; *p || start != p; p++) {
		if (*p == '[' || *p == '{' || *p == '(')
			depth++;
		else if (*p == ']' || *p == '}' || *p == ')')
			depth--;
		if ((*p == ',' && depth == 0) || !*p) {
			int end = !*p;
			*p = '\0';
			if (s->nops < 8 && *trim(start))
				snprintf(s->ops[s->nops++], sizeof s->ops[0], "%s", trim(start));
			if (end)
				break;
			start = p + 1;
		}
	}
	return 0;
}

size_t gp_solver_parse_listing(const char *listing, char (*lines)[GP_SOLVE_TEXT], size_t n)
{
	size_t set = 0;

	for (size_t i = 0; i < n; i++)
		lines[i][0] = '\0';
	for (const char *l = listing; l && *l;) {
		const char *eol = strchr(l, '\n'), *open = strstr(l, "/*"), *semi;
		size_t len = eol ? (size_t)(eol - l) : strlen(l);
		unsigned long off;
		char *end;

		if (open && open < l + len) {
			errno = 0;
			off = strtoul(open + 2, &end, 16);
			semi = memchr(end, ';', (size_t)(l + len - end));
			if (!errno && end > open + 2 && !strncmp(end, "*/", 2) && semi && off % 16 == 0 && off / 16 < n) {
				int tl = (int)(semi - (end + 2));
				char tmp[GP_SOLVE_TEXT];
				snprintf(tmp, sizeof tmp, "%.*s", tl, end + 2);
				snprintf(lines[off / 16], GP_SOLVE_TEXT, "%s", trim(tmp));
				set += lines[off / 16][0] != '\0';
			}
		}
		l = eol ? eol + 1 : NULL;
	}
	return set;
}

/* Operand kind for the class name: R, UR, P, C (constant bank), M (memory), SR, I (immediate). */
static const char *op_kind(const char *op)
{
	while (*op == '-' || *op == '|' || *op == '!' || *op == '~')
		op++;
	if (!strncmp(op, "UR", 2) || !strncmp(op, "UP", 2))
		return op[1] == 'R' ? "UR" : "UP";
	if (!strncmp(op, "SR_", 3))
		return "SR";
	if (op[0] == 'R' && (op[1] == 'Z' || isdigit((unsigned char)op[1])))
		return "R";
	if (op[0] == 'P' && (op[1] == 'T' || isdigit((unsigned char)op[1])))
		return "P";
	if (!strncmp(op, "c[", 2))
		return "C";
	if (op[0] == '[' || strstr(op, "["))
		return "M";
	if (isdigit((unsigned char)op[0]) || op[0] == '+' || op[0] == '.')
		return "I";
	return "?";
}

/* Numeric value of a register, predicate or immediate operand (modifiers stripped); -1 if none. */
static int op_value(const char *op, uint64_t *v)
{
	char *end;

	while (*op == '-' || *op == '|' || *op == '!' || *op == '~')
		op++;
	if (!strncmp(op, "RZ", 2) || !strncmp(op, "PT", 2)) {
		*v = op[0] == 'R' ? GP_REG_RZ : GP_PRED_PT;
		return 0;
	}
	if ((op[0] == 'R' || op[0] == 'P') && isdigit((unsigned char)op[1]))
		op++;
	else if (!strncmp(op, "UR", 2) && isdigit((unsigned char)op[2]))
		op += 2;
	else if (!isdigit((unsigned char)op[0]))
		return -1;
	errno = 0;
	*v = strtoull(op, &end, 0);
	return errno || end == op || (*end && *end != '.' && *end != '|') ? -1 : 0;
}

static int pred_value(const char *pred, uint64_t *v, int *neg)
{
	const char *p = pred;

	*neg = 0;
	*v = GP_PRED_PT;
	if (!*p)
		return 0;
	p++;            /* '@' */
	if (*p == '!') {
		*neg = 1;
		p++;
	}
	return op_value(p, v);
}

static int single_bit(uint64_t d)
{
	return d && !(d & (d - 1)) ? __builtin_ctzll(d) : -1;
}

/* ---------------------------------------------------------------- classification */

enum flip_kind { F_INVALID, F_NONE, F_OPCODE, F_PRED, F_PNEG, F_MOD, F_OPVAL, F_OPOTHER, F_REUSE, F_MULTI };

struct flip {
	enum flip_kind kind;
	int op, vbit;           /* operand index; value bit for F_OPVAL / F_PRED */
};

static int strip_reuse_equal(const char *a, const char *b)
{
	char t[48];
	const char *r = strstr(b, ".reuse");

	if (strstr(a, ".reuse") || !r)
		return 0;
	snprintf(t, sizeof t, "%.*s%s", (int)(r - b), b, r + strlen(".reuse"));
	return !strcmp(a, t);
}

static struct flip classify(const struct gp_sass_syntax *o, const char *vtext)
{
	struct gp_sass_syntax v;
	struct flip f = { F_INVALID, -1, -1 };
	int diff = -1, ndiff = 0;

	if (!vtext[0] || gp_sass_parse_text(vtext, &v) < 0)
		return f;
	if (strcmp(o->base, v.base))
		return f.kind = F_OPCODE, f;
	if (strcmp(o->pred, v.pred)) {
		uint64_t a, b;
		int na, nb;
		if (pred_value(o->pred, &a, &na) < 0 || pred_value(v.pred, &b, &nb) < 0)
			return f.kind = F_MULTI, f;
		if (a == b && na != nb)
			return f.kind = F_PNEG, f;
		f.kind = F_PRED;
		f.vbit = na == nb ? single_bit(a ^ b) : -1;
		return f;
	}
	if (strcmp(o->mods, v.mods))
		return f.kind = F_MOD, f;
	if (o->nops != v.nops)
		return f.kind = F_MULTI, f;
	for (int i = 0; i < o->nops; i++)
		if (strcmp(o->ops[i], v.ops[i])) {
			diff = i;
			ndiff++;
		}
	if (!ndiff)
		return f.kind = F_NONE, f;
	if (ndiff > 1)
		return f.kind = F_MULTI, f;
	f.op = diff;
	if (strip_reuse_equal(o->ops[diff], v.ops[diff]))
		return f.kind = F_REUSE, f;
	{
		uint64_t a, b;
		if (!strcmp(op_kind(o->ops[diff]), op_kind(v.ops[diff])) && !op_value(o->ops[diff], &a) &&
		    !op_value(v.ops[diff], &b) && (f.vbit = single_bit(a ^ b)) >= 0)
			return f.kind = F_OPVAL, f;
	}
	return f.kind = F_OPOTHER, f;
}

static void op_name(const struct gp_sass_syntax *o, int i, char *buf, size_t n)
{
	static const char *const regs[] = { "rd", "ra", "rb", "rc" };
	int all_r = i < 4;

	for (int k = 0; k <= i && all_r; k++)
		all_r = !strcmp(op_kind(o->ops[k]), "R");
	if (all_r)
		snprintf(buf, n, "%s", regs[i]);
	else
		snprintf(buf, n, "op%d", i);
}

static size_t add_row(struct gp_field_row *rows, size_t n, size_t max, const char *cls, const char *field,
		      unsigned lo, unsigned width, const char *evidence)
{
	if (n < max) {
		snprintf(rows[n].cls, sizeof rows[n].cls, "%s", cls);
		snprintf(rows[n].field, sizeof rows[n].field, "%s", field);
		rows[n].lo = lo;
		rows[n].width = width;
		snprintf(rows[n].evidence, sizeof rows[n].evidence, "%s", evidence);
	}
	return n + 1;
}

/* Fields located by value bits: every flip j that moved value bit m of the field puts the
 * field's bit 0 at j - m; one row per distinct origin. */
static size_t value_rows(const struct flip *fl, const char (*text)[GP_SOLVE_TEXT], enum flip_kind kind, int op,
			 const char *cls, const char *name, struct gp_field_row *rows, size_t n, size_t max)
{
	int done[128] = { 0 };

	for (int j = 0; j < 128; j++) {
		int origin, top = 0, count = 0, first = -1;
		char ev[160];

		if (done[j] || fl[j].kind != kind || fl[j].op != op || fl[j].vbit < 0)
			continue;
		origin = j - fl[j].vbit;
		for (int k = j; k < 128; k++)
			if (fl[k].kind == kind && fl[k].op == op && fl[k].vbit >= 0 && k - fl[k].vbit == origin) {
				done[k] = 1;
				top = fl[k].vbit > top ? fl[k].vbit : top;
				count++;
				first = first < 0 ? k : first;
			}
		snprintf(ev, sizeof ev, "%d flips move value bits 0-%d (bit %d: '%.30s' -> '%.40s')", count, top, first,
			 text[0], text[1 + first]);
		n = add_row(rows, n, max, cls, name, origin < 0 ? 0 : (unsigned)origin, (unsigned)top + 1, ev);
	}
	return n;
}

static const char *kind_field(enum flip_kind k)
{
	switch (k) {
	case F_INVALID: return "invalid";
	case F_NONE: return "hidden";
	case F_OPCODE: return "opcode";
	case F_PNEG: return "pneg";
	case F_MOD: return "modifier";
	case F_MULTI: return "operand_kinds";
	default: return NULL;
	}
}

size_t gp_solver_derive(const char (*text)[GP_SOLVE_TEXT], struct gp_field_row *rows, size_t max)
{
	struct gp_sass_syntax o;
	struct flip fl[128];
	char cls[64], name[40];
	size_t n = 0;
	int len;

	if (gp_sass_parse_text(text[0], &o) < 0)
		return 0;
	len = snprintf(cls, sizeof cls, "%s", o.base);
	for (int i = 0; i < o.nops && len > 0 && (size_t)len < sizeof cls; i++)
		len += snprintf(cls + len, sizeof cls - len, "%s%s", i ? "," : " ", op_kind(o.ops[i]));
	for (int j = 0; j < 128; j++)
		fl[j] = classify(&o, text[1 + j]);
	/* Runs of bits with one plain meaning. */
	for (int j = 0; j < 128;) {
		const char *field = kind_field(fl[j].kind);
		int k = j;
		char ev[160];

		while (k + 1 < 128 && fl[k + 1].kind == fl[j].kind &&
		       (fl[j].kind != F_OPOTHER || fl[k + 1].op == fl[j].op))
			k++;
		if (fl[j].kind == F_OPOTHER) {
			op_name(&o, fl[j].op, name, sizeof name);
			snprintf(name + strlen(name), sizeof name - strlen(name), ".form");
			field = name;
		}
		if (field) {
			if (fl[j].kind == F_INVALID || fl[j].kind == F_NONE)
				snprintf(ev, sizeof ev, "%s", fl[j].kind == F_NONE ? "text unchanged (control or unused bits)"
										 : "disassembler rejected or printed nothing");
			else
				snprintf(ev, sizeof ev, "bit %d: '%.50s' -> '%.60s'", j, text[0], text[1 + j]);
			n = add_row(rows, n, max, cls, field, (unsigned)j, (unsigned)(k - j + 1), ev);
		}
		j = k + 1;
	}
	n = value_rows(fl, text, F_PRED, -1, cls, "pred", rows, n, max);
	for (int i = 0; i < o.nops; i++) {
		op_name(&o, i, name, sizeof name);
		n = value_rows(fl, text, F_OPVAL, i, cls, name, rows, n, max);
		for (int j = 0; j < 128; j++)
			if (fl[j].kind == F_REUSE && fl[j].op == i) {
				char f[48], ev[160];
				snprintf(f, sizeof f, "reuse.%s", name);
				snprintf(ev, sizeof ev, "bit %d: '%.40s' -> '%.60s'", j, o.ops[i], text[1 + j]);
				n = add_row(rows, n, max, cls, f, (unsigned)j, 1, ev);
			}
	}
	return n < max ? n : max;
}

/* The codec form a solved class is on this instruction set ("FFMA R,R,I,R": mnemonic, then one
 * operand kind per operand of the form's syntax, R exactly where the form has a register field),
 * GP_I_UNKNOWN if none. */
static enum gp_insn_class form_of(const struct gp_insn_isa *isa, const char *cls)
{
	char base[32], kinds[64];

	if (sscanf(cls, "%31s %63s", base, kinds) < 1)
		return GP_I_UNKNOWN;
	if (!strchr(cls, ' '))
		kinds[0] = '\0';
	for (int k = 1; k < GP_I_COUNT; k++) {
		const char *name = gp_insn_classes[k].name, *p = kinds;
		int i = 0, ok = strlen(base) == strcspn(name, ".") && !strncmp(base, name, strlen(base));
		for (; ok && *p; i++) {
			size_t len = strcspn(p, ",");
			int role = gp_insn_form_operand(isa, (enum gp_insn_class)k, i);
			ok = role != -2 && (role >= 0) == (len == 1 && *p == 'R');
			p += len;
			p += *p == ',';
		}
		if (ok && gp_insn_form_operand(isa, (enum gp_insn_class)k, i) == -2)
			return (enum gp_insn_class)k;
	}
	return GP_I_UNKNOWN;
}

/* Where the codec puts a solved row's field on this instruction set: 1 with *lo and *width set, 0 if
 * the codec makes no claim about it (an operand of a form it does not know, or without a field). */
static int codec_place(const struct gp_insn_isa *isa, const struct gp_field_row *r, unsigned *lo, unsigned *width)
{
	static const char *const regs[] = { "rd", "ra", "rb", "rc" };
	const enum gp_insn_class k = form_of(isa, r->cls);
	const struct gp_insn_field_desc *op = &gp_insn_fields[GP_F_OPCODE];
	const char *f = r->field;
	int reuse = !strncmp(f, "reuse.", 6), i = -1, role;

	if (!strcmp(f, "opcode")) {
		/* Opcode bits lie in the opcode field, or for a known form in the bits its ISA adds. */
		uint64_t ext = k ? isa->forms[k].ext : 0, want = 0;
		if (r->lo >= op->lo && r->lo + r->width <= op->lo + op->width) {
			*lo = r->lo, *width = r->width;
			return 1;
		}
		for (unsigned b = r->lo; b < r->lo + r->width && b < 128; b++)
			want |= b >= 64 ? (uint64_t)1 << (b - 64) : 0;
		*lo = r->lo;
		*width = want && (want & ext) == want && r->lo >= 64 ? r->width : 0;
		return k != GP_I_UNKNOWN;
	}
	if (!strcmp(f, "pred") || !strcmp(f, "pneg")) {
		*lo = gp_insn_fields[f[1] == 'r' ? GP_F_PRED : GP_F_PNEG].lo;
		*width = gp_insn_fields[f[1] == 'r' ? GP_F_PRED : GP_F_PNEG].width;
		return 1;
	}
	f += reuse ? 6 : 0;
	for (int n = 0; n < 4; n++)
		i = !strcmp(f, regs[n]) ? n : i;
	if (i < 0 && !strncmp(f, "op", 2) && isdigit((unsigned char)f[2]) && !f[3])
		i = f[2] - '0';
	if (i < 0)
		return 0;
	if (i == 0 && !reuse && !strcmp(f, "rd")) { /* the destination register: every form */
		*lo = gp_insn_fields[GP_F_RD].lo, *width = gp_insn_fields[GP_F_RD].width;
		return 1;
	}
	if (k == GP_I_UNKNOWN || (role = gp_insn_form_operand(isa, k, i)) < 0)
		return 0;
	if (reuse) {
		if (role == GP_F_RD)
			return 0;
		*lo = gp_insn_fields[GP_F_REUSE].lo + (unsigned)(role - GP_F_RA);
		*width = 1;
	} else {
		*lo = gp_insn_fields[role].lo;
		*width = gp_insn_fields[role].width;
	}
	return 1;
}

int gp_solver_crosscheck(int sm, const struct gp_field_row *rows, size_t n, size_t *checked, char *msg, size_t len)
{
	const struct gp_insn_isa *isa = gp_insn_isa(sm);
	int bad = 0;
	size_t used = 0;

	*checked = 0;
	if (len)
		msg[0] = '\0';
	for (size_t i = 0; isa && i < n; i++) {
		const struct gp_field_row *r = &rows[i];
		unsigned lo = 0, width = 0;

		if (!codec_place(isa, r, &lo, &width))
			continue;
		(*checked)++;
		if (r->lo == lo && r->width == width)
			continue;
		bad++;
		if (used < len)
			used += (size_t)snprintf(msg + used, len - used, "%s %s: solved bits %u+%u, codec %u+%u\n", r->cls,
						 r->field, r->lo, r->width, lo, width);
	}
	return bad;
}

int gp_solver_write_csv(FILE *f, int sm, const struct gp_field_row *rows, size_t n)
{
	fputs("sm,class,field,lo,width,evidence\n", f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%d,\"%s\",%s,%u,%u,\"", sm, rows[i].cls, rows[i].field, rows[i].lo, rows[i].width);
		for (const char *p = rows[i].evidence; *p; p++)
			fputs(*p == '"' ? "\"\"" : (char[2]){ *p, 0 }, f);
		fputs("\"\n", f);
	}
	return ferror(f) ? -1 : 0;
}
