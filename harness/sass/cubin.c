/* cubin.c — CUDA cubin reader and writer (ELF64 little-endian, e_machine 190).
 *
 * Method: copy the image, validate the header and section table, then every structure the rest
 * of gpuprobe touches (section names, symbols, relocations, .nv.info records, kernel text), and
 * keep small tables that point into the copy. Every offset from the file is checked with
 * overflow-safe arithmetic before it is used, so a truncated or hostile file gives an error,
 * never an out-of-bounds read. Fields are read byte by byte (little-endian), never by casting
 * the buffer, because the image may sit at any alignment.
 *
 * Pitfalls: the SM number's place in e_flags changed with the ELF ABI version: CUDA 13 writes
 * ABI 8 with the SM in bits 8–15 (sm_90 = 0x6005a04, sm_75 = 0x6004b04); earlier toolkits wrote
 * ABI 7 with the SM in bits 0–7 and the virtual SM in bits 16–23. sm_90a is not visible in
 * e_flags (only in .nv.compat). Relocations in cubins point at whole 16-byte instructions; we
 * treat one as covering the instruction(s) under its first 8 bytes, which is conservative. */
#include "sass/cubin.h"
#include "gp.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
	EHDR_SIZE = 64,
	SHDR_SIZE = 64,
	SYM_SIZE = 24,
	REL_SIZE = 16,
	RELA_SIZE = 24,
	SHT_SYMTAB = 2,
	SHT_STRTAB = 3,
	SHT_RELA = 4,
	SHT_NOBITS = 8,
	SHT_REL = 9,
	SHT_LOPROC = 0x70000000,
	SHF_EXECINSTR = 0x4,
	STT_FUNC = 2,
	STO_CUDA_ENTRY = 0x10,
	INSN_BYTES = 16,
};

static const struct {
	unsigned attr;
	const char *name;
} eiattr_names[] = {
	{ GP_EIATTR_PARAM_CBANK, "PARAM_CBANK" },
	{ GP_EIATTR_FRAME_SIZE, "FRAME_SIZE" },
	{ GP_EIATTR_MIN_STACK_SIZE, "MIN_STACK_SIZE" },
	{ GP_EIATTR_KPARAM_INFO, "KPARAM_INFO" },
	{ GP_EIATTR_CBANK_PARAM_SIZE, "CBANK_PARAM_SIZE" },
	{ GP_EIATTR_MAXREG_COUNT, "MAXREG_COUNT" },
	{ GP_EIATTR_EXIT_INSTR_OFFSETS, "EXIT_INSTR_OFFSETS" },
	{ GP_EIATTR_S2RCTAID_INSTR_OFFSETS, "S2RCTAID_INSTR_OFFSETS" },
	{ GP_EIATTR_MAX_STACK_SIZE, "MAX_STACK_SIZE" },
	{ GP_EIATTR_REGCOUNT, "REGCOUNT" },
	{ GP_EIATTR_SW_WAR, "SW_WAR" },
	{ GP_EIATTR_CUDA_API_VERSION, "CUDA_API_VERSION" },
};

const char *gp_eiattr_name(unsigned attr)
{
	for (size_t i = 0; i < GP_ARRAY_SIZE(eiattr_names); i++)
		if (eiattr_names[i].attr == attr)
			return eiattr_names[i].name;
	return NULL;
}

static uint16_t rd16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const unsigned char *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

int gp_cubin_fail(struct gp_cubin *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, sizeof c->err, fmt, ap);
	va_end(ap);
	return -1;
}

/* [off, off + len) lies inside a buffer of size bytes, without overflowing. */
static int in_bounds(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

const char *gp_cubin_error(const struct gp_cubin *c)
{
	return c->err[0] ? c->err : "no error";
}

/* A NUL-terminated string at off inside string-table section strtab, or NULL. */
static const char *str_at(const struct gp_cubin *c, size_t strtab, uint64_t off)
{
	const struct gp_cubin_section *s = &c->sec[strtab];

	if (off >= s->size)
		return NULL;
	const char *p = (const char *)c->image + s->offset + off;
	if (!memchr(p, '\0', s->size - off))
		return NULL;
	return p;
}

static int parse_header(struct gp_cubin *c, uint64_t *shoff, size_t *shnum, size_t *shstrndx)
{
	const unsigned char *e = c->image;

	if (c->size < EHDR_SIZE)
		return gp_cubin_fail(c, "not a cubin: %zu bytes, shorter than an ELF header", c->size);
	if (memcmp(e, "\177ELF", 4) != 0)
		return gp_cubin_fail(c, "not a cubin: no ELF magic");
	if (e[4] != 2)
		return gp_cubin_fail(c, "not a cubin: ELF class %u, want 2 (64-bit)", e[4]);
	if (e[5] != 1)
		return gp_cubin_fail(c, "not a cubin: ELF data encoding %u, want 1 (little-endian)", e[5]);
	uint16_t machine = rd16(e + 18);
	if (machine != GP_EM_CUDA)
		return gp_cubin_fail(c, "not a cubin: e_machine %u, want %d (EM_CUDA)", machine, GP_EM_CUDA);
	c->abi = e[8];
	c->eflags = rd32(e + 48);
	/* ABI 8 (CUDA 13) moved the SM from bits 0-7 to bits 8-15. */
	c->sm = c->abi >= 8 ? (int)(c->eflags >> 8 & 0xff) : (int)(c->eflags & 0xff);

	uint64_t phoff = rd64(e + 32);
	uint16_t phentsize = rd16(e + 54), phnum = rd16(e + 56);
	if (phnum && !in_bounds(phoff, (uint64_t)phentsize * phnum, c->size))
		return gp_cubin_fail(c, "malformed cubin: program headers at %#llx past the end (%zu bytes)",
			             (unsigned long long)phoff, c->size);

	*shoff = rd64(e + 40);
	uint16_t shentsize = rd16(e + 58);
	*shnum = rd16(e + 60);
	*shstrndx = rd16(e + 62);
	if (*shnum == 0)
		return gp_cubin_fail(c, "malformed cubin: no section table");
	if (shentsize != SHDR_SIZE)
		return gp_cubin_fail(c, "malformed cubin: section header size %u, want %d", shentsize, SHDR_SIZE);
	if (!in_bounds(*shoff, (uint64_t)*shnum * SHDR_SIZE, c->size))
		return gp_cubin_fail(c, "malformed cubin: section table (%zu entries at %#llx) past the end (%zu bytes)",
			             *shnum, (unsigned long long)*shoff, c->size);
	if (*shstrndx >= *shnum)
		return gp_cubin_fail(c, "malformed cubin: section name table index %zu >= %zu sections",
			             *shstrndx, *shnum);
	return 0;
}

static int parse_sections(struct gp_cubin *c, uint64_t shoff, size_t shnum, size_t shstrndx)
{
	c->sec = calloc(shnum, sizeof *c->sec);
	if (!c->sec)
		return gp_cubin_fail(c, "out of memory");
	c->nsec = shnum;
	for (size_t i = 0; i < shnum; i++) {
		const unsigned char *h = c->image + shoff + i * SHDR_SIZE;
		struct gp_cubin_section *s = &c->sec[i];

		s->type = rd32(h + 4);
		s->flags = rd64(h + 8);
		s->offset = rd64(h + 24);
		s->size = rd64(h + 32);
		s->link = rd32(h + 40);
		s->info = rd32(h + 44);
		s->entsize = rd64(h + 56);
		if (s->type != SHT_NOBITS && !in_bounds(s->offset, s->size, c->size))
			return gp_cubin_fail(c, "malformed cubin: section %zu (%#llx + %#llx bytes) past the end (%zu bytes)",
				             i, (unsigned long long)s->offset, (unsigned long long)s->size, c->size);
	}
	if (c->sec[shstrndx].type != SHT_STRTAB)
		return gp_cubin_fail(c, "malformed cubin: section name table %zu is not a string table", shstrndx);
	for (size_t i = 0; i < shnum; i++) {
		uint32_t name = rd32(c->image + shoff + i * SHDR_SIZE);
		c->sec[i].name = str_at(c, shstrndx, name);
		if (!c->sec[i].name)
			return gp_cubin_fail(c, "malformed cubin: section %zu name offset %u outside the name table", i, name);
	}
	return 0;
}

static int parse_symbols(struct gp_cubin *c)
{
	size_t symtab = c->nsec;

	for (size_t i = 0; i < c->nsec; i++)
		if (c->sec[i].type == SHT_SYMTAB)
			symtab = i;
	if (symtab == c->nsec)
		return 0;       /* legal, if useless: no kernels can be named */
	const struct gp_cubin_section *s = &c->sec[symtab];
	if (s->entsize != SYM_SIZE || s->size % SYM_SIZE)
		return gp_cubin_fail(c, "malformed cubin: symbol table entry size %llu, size %llu",
			             (unsigned long long)s->entsize, (unsigned long long)s->size);
	if (s->link >= c->nsec || c->sec[s->link].type != SHT_STRTAB)
		return gp_cubin_fail(c, "malformed cubin: symbol table links to section %u, not a string table", s->link);
	c->nsym = s->size / SYM_SIZE;
	c->sym = calloc(c->nsym ? c->nsym : 1, sizeof *c->sym);
	if (!c->sym)
		return gp_cubin_fail(c, "out of memory");
	for (size_t i = 0; i < c->nsym; i++) {
		const unsigned char *e = c->image + s->offset + i * SYM_SIZE;
		struct gp_cubin_symbol *y = &c->sym[i];

		y->name = str_at(c, s->link, rd32(e));
		if (!y->name)
			return gp_cubin_fail(c, "malformed cubin: symbol %zu name outside the string table", i);
		y->type = e[4] & 0xf;
		y->bind = e[4] >> 4;
		y->other = e[5];
		y->shndx = rd16(e + 6);
		y->value = rd64(e + 8);
		y->size = rd64(e + 16);
	}
	return 0;
}

static int parse_relocs(struct gp_cubin *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nsec; i++) {
		const struct gp_cubin_section *s = &c->sec[i];
		size_t ent = s->type == SHT_REL ? REL_SIZE : s->type == SHT_RELA ? RELA_SIZE : 0;

		if (!ent)
			continue;
		if (s->size % ent)
			return gp_cubin_fail(c, "malformed cubin: relocation section %s size %llu not a multiple of %zu",
				             s->name, (unsigned long long)s->size, ent);
		if (s->info >= c->nsec)
			return gp_cubin_fail(c, "malformed cubin: relocation section %s targets section %u of %zu",
				             s->name, s->info, c->nsec);
		n += s->size / ent;
	}
	c->rel = calloc(n ? n : 1, sizeof *c->rel);
	if (!c->rel)
		return gp_cubin_fail(c, "out of memory");
	for (size_t i = 0; i < c->nsec; i++) {
		const struct gp_cubin_section *s = &c->sec[i];
		size_t ent = s->type == SHT_REL ? REL_SIZE : s->type == SHT_RELA ? RELA_SIZE : 0;

		for (uint64_t o = 0; ent && o < s->size; o += ent) {
			const unsigned char *e = c->image + s->offset + o;
			struct gp_cubin_reloc *r = &c->rel[c->nrel++];
			uint64_t info = rd64(e + 8);

			r->target = s->info;
			r->offset = rd64(e);
			r->type = (uint32_t)info;
			r->sym = (uint32_t)(info >> 32);
			r->addend = ent == RELA_SIZE ? (int64_t)rd64(e + 16) : 0;
			if (r->offset >= c->sec[r->target].size)
				return gp_cubin_fail(c, "malformed cubin: relocation at %#llx past the end of section %s",
					             (unsigned long long)r->offset, c->sec[r->target].name);
			if (r->sym >= c->nsym)
				return gp_cubin_fail(c, "malformed cubin: relocation names symbol %u of %zu", r->sym, c->nsym);
		}
	}
	return 0;
}

int gp_cubin_nvinfo_next(const struct gp_cubin *c, size_t sec, size_t *pos, struct gp_nvinfo *rec)
{
	const struct gp_cubin_section *s;

	if (sec >= c->nsec)
		return -1;
	s = &c->sec[sec];
	/* A NOBITS section has no bytes in the file (its offset and size were not bounds-checked):
	 * an attribute table of that type is malformed, never something to read. */
	if (s->type == SHT_NOBITS)
		return -1;
	if (*pos >= s->size)
		return 0;
	if (s->size - *pos < 4)
		return -1;
	const unsigned char *p = c->image + s->offset + *pos;
	rec->format = p[0];
	rec->attr = p[1];
	rec->value = rd16(p + 2);
	rec->payload = NULL;
	rec->len = 0;
	switch (rec->format) {
	case GP_EIFMT_NVAL:
	case GP_EIFMT_BVAL:
	case GP_EIFMT_HVAL:
		*pos += 4;
		return 1;
	case GP_EIFMT_SVAL:
		if (s->size - *pos - 4 < rec->value)
			return -1;
		rec->payload = p + 4;
		rec->len = rec->value;
		*pos += 4 + (size_t)rec->value;
		return 1;
	default:
		return -1;
	}
}

/* The global .nv.info keys REGCOUNT, FRAME_SIZE … by symbol index: {u32 symbol, u32 value}. */
static int apply_global_info(struct gp_cubin *c)
{
	struct gp_nvinfo r;
	size_t pos = 0;
	int got;

	while ((got = gp_cubin_nvinfo_next(c, (size_t)c->nvinfo, &pos, &r)) == 1) {
		if (r.attr != GP_EIATTR_REGCOUNT && r.attr != GP_EIATTR_FRAME_SIZE)
			continue;
		if (r.format != GP_EIFMT_SVAL || r.len != 8)
			return gp_cubin_fail(c, "malformed cubin: .nv.info %s record of %zu bytes, want 8",
				             gp_eiattr_name(r.attr), r.len);
		uint32_t symi = rd32(r.payload), v = rd32(r.payload + 4);
		for (size_t k = 0; k < c->nkern; k++) {
			if (c->kern[k].symbol != (long)symi)
				continue;
			if (r.attr == GP_EIATTR_REGCOUNT)
				c->kern[k].regcount = v > 255 ? 255 : (int)v;
			else
				c->kern[k].frame_size = v;
		}
	}
	return got < 0 ? gp_cubin_fail(c, "malformed cubin: truncated or unknown record in .nv.info") : 0;
}

static long find_section(const struct gp_cubin *c, const char *prefix, const char *name)
{
	size_t pl = strlen(prefix);

	for (size_t i = 0; i < c->nsec; i++)
		if (!strncmp(c->sec[i].name, prefix, pl) && !strcmp(c->sec[i].name + pl, name))
			return (long)i;
	return -1;
}

static int add_kernel(struct gp_cubin *c, size_t sec)
{
	const struct gp_cubin_section *s = &c->sec[sec];
	struct gp_cubin_kernel *k = &c->kern[c->nkern++];

	k->name = s->name + strlen(".text.");
	k->text = sec;
	k->info = find_section(c, ".nv.info.", k->name);
	k->symbol = -1;
	k->regcount = -1;
	k->frame_size = -1;
	for (size_t i = 0; i < c->nsym; i++) {
		const struct gp_cubin_symbol *y = &c->sym[i];
		if (y->type == STT_FUNC && y->shndx == sec && !strcmp(y->name, k->name)) {
			k->symbol = (long)i;
			k->entry = !!(y->other & STO_CUDA_ENTRY);
		}
	}
	/* Volta and later: 16-byte instructions; older code (8-byte words) is never patched. */
	if (c->sm >= 70 && s->size % INSN_BYTES)
		return gp_cubin_fail(c, "malformed cubin: .text.%s is %llu bytes, not a multiple of %d",
			             k->name, (unsigned long long)s->size, INSN_BYTES);
	k->ninsn = c->sm >= 70 ? s->size / INSN_BYTES : 0;
	if (k->info >= 0) {
		struct gp_nvinfo r;
		size_t pos = 0;
		int got;

		while ((got = gp_cubin_nvinfo_next(c, (size_t)k->info, &pos, &r)) == 1)
			;
		if (got < 0)
			return gp_cubin_fail(c, "malformed cubin: truncated or unknown record in .nv.info.%s", k->name);
	}
	return 0;
}

static int parse_kernels(struct gp_cubin *c)
{
	c->kern = calloc(c->nsec, sizeof *c->kern);
	if (!c->kern)
		return gp_cubin_fail(c, "out of memory");
	for (size_t i = 0; i < c->nsec; i++) {
		const struct gp_cubin_section *s = &c->sec[i];
		if (strncmp(s->name, ".text.", 6) || !(s->flags & SHF_EXECINSTR) || s->type == SHT_NOBITS)
			continue;
		if (add_kernel(c, i) < 0)
			return -1;
	}
	c->nvinfo = find_section(c, ".nv.info", "");
	if (c->nvinfo >= 0 && c->sec[c->nvinfo].type < SHT_LOPROC)
		return gp_cubin_fail(c, "malformed cubin: .nv.info has section type %#x", c->sec[c->nvinfo].type);
	return c->nvinfo >= 0 ? apply_global_info(c) : 0;
}

int gp_cubin_open(struct gp_cubin *c, const void *data, size_t size)
{
	uint64_t shoff = 0;
	size_t shnum = 0, shstrndx = 0;

	memset(c, 0, sizeof *c);
	c->nvinfo = -1;
	c->image = malloc(size ? size : 1);
	if (!c->image)
		return gp_cubin_fail(c, "out of memory (%zu bytes)", size);
	memcpy(c->image, data, size);
	c->size = size;
	if (parse_header(c, &shoff, &shnum, &shstrndx) < 0 ||
	    parse_sections(c, shoff, shnum, shstrndx) < 0 ||
	    parse_symbols(c) < 0 || parse_relocs(c) < 0 || parse_kernels(c) < 0)
		return -1;
	return 0;
}

/* No cubin comes near this; a larger file (or a device, a pipe, /dev/zero) is refused before a
 * byte of it is read, instead of being read whole into memory. */
#define GP_CUBIN_MAX_BYTES (256ul << 20)

int gp_cubin_load(struct gp_cubin *c, const char *path, int *io_error)
{
	struct stat st;
	size_t n;
	char *buf;
	int rc;

	*io_error = 0;
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		memset(c, 0, sizeof *c);
		*io_error = 1;
		return gp_cubin_fail(c, "%s: not a regular file", path);
	}
	if (!stat(path, &st) && (unsigned long)st.st_size > GP_CUBIN_MAX_BYTES) {
		memset(c, 0, sizeof *c);
		return gp_cubin_fail(c, "%s: %lld bytes, larger than any cubin (%lu MiB at most)", path,
				     (long long)st.st_size, GP_CUBIN_MAX_BYTES >> 20);
	}
	buf = gp_read_file(path, &n);
	if (!buf) {
		memset(c, 0, sizeof *c);
		*io_error = 1;
		return gp_cubin_fail(c, "%s: %s", path, strerror(errno));
	}
	rc = gp_cubin_open(c, buf, n);
	free(buf);
	if (rc < 0) {
		char msg[sizeof c->err];
		snprintf(msg, sizeof msg, "%s", c->err);
		gp_cubin_fail(c, "%s: %s", path, msg);
	}
	return rc;
}

int gp_cubin_load_cmd(struct gp_cubin *c, const char *path, const char *cmd)
{
	int io_error;

	if (gp_cubin_load(c, path, &io_error) >= 0)
		return GP_OK;
	gp_err("%s: %s", cmd, gp_cubin_error(c));
	gp_cubin_close(c);
	return io_error ? GP_EIO : GP_EINPUT;
}

void gp_cubin_close(struct gp_cubin *c)
{
	free(c->image);
	free(c->sec);
	free(c->sym);
	free(c->rel);
	free(c->kern);
	c->image = NULL;
	c->sec = NULL;
	c->sym = NULL;
	c->rel = NULL;
	c->kern = NULL;
	c->size = c->nsec = c->nsym = c->nrel = c->nkern = 0;
}

const struct gp_cubin_kernel *gp_cubin_kernel(struct gp_cubin *c, const char *name)
{
	for (size_t i = 0; i < c->nkern; i++)
		if (!strcmp(c->kern[i].name, name))
			return &c->kern[i];
	gp_cubin_fail(c, "no kernel '%s' in the cubin (%zu kernels)", name, c->nkern);
	return NULL;
}

unsigned char *gp_cubin_text(const struct gp_cubin *c, const struct gp_cubin_kernel *k)
{
	return c->image + c->sec[k->text].offset;
}

int gp_cubin_kernel_attr(const struct gp_cubin *c, const struct gp_cubin_kernel *k, unsigned attr,
			 struct gp_nvinfo *rec)
{
	size_t pos = 0;

	if (k->info < 0)
		return -1;
	while (gp_cubin_nvinfo_next(c, (size_t)k->info, &pos, rec) == 1)
		if (rec->attr == attr)
			return 0;
	return -1;
}

size_t gp_cubin_exit_offsets(const struct gp_cubin *c, const struct gp_cubin_kernel *k,
			     uint32_t *out, size_t max)
{
	struct gp_nvinfo r;
	size_t n;

	if (gp_cubin_kernel_attr(c, k, GP_EIATTR_EXIT_INSTR_OFFSETS, &r) < 0 || !r.payload)
		return 0;
	n = r.len / 4;
	for (size_t i = 0; i < n && i < max; i++)
		out[i] = rd32(r.payload + 4 * i);
	return n;
}

const struct gp_cubin_reloc *gp_cubin_reloc_in(const struct gp_cubin *c, size_t sec, uint64_t off,
					      uint64_t len)
{
	for (size_t i = 0; i < c->nrel; i++) {
		const struct gp_cubin_reloc *r = &c->rel[i];
		/* Widen to whole instructions: the field a relocation fills is type-specific. */
		uint64_t lo = r->offset & ~(uint64_t)(INSN_BYTES - 1);
		uint64_t hi = (r->offset + 8 + INSN_BYTES - 1) & ~(uint64_t)(INSN_BYTES - 1);

		if (r->target == sec && lo < off + len && off < hi)
			return r;
	}
	return NULL;
}

int gp_cubin_save(struct gp_cubin *c, const char *path)
{
	size_t n = strlen(path) + sizeof ".tmpXXXXXX";
	char *tmp = malloc(n * sizeof *tmp);
	mode_t mask;
	int fd = -1, created = 0;

	if (!tmp)
		return gp_cubin_fail(c, "out of memory");
	snprintf(tmp, n, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		gp_cubin_fail(c, "%s: %s", tmp, strerror(errno));
		goto error;
	}
	created = 1;
	/* mkstemp creates 0600; give the file the mode an ordinary create would. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0 || gp_write_fd(fd, c->image, c->size) < 0 || fsync(fd) < 0) {
		gp_cubin_fail(c, "%s: %s", tmp, strerror(errno));
		goto error;
	}
	if (close(fd) < 0) {
		fd = -1;
		gp_cubin_fail(c, "%s: %s", tmp, strerror(errno));
		goto error;
	}
	fd = -1;
	if (rename(tmp, path) < 0) {
		gp_cubin_fail(c, "%s: %s", path, strerror(errno));
		goto error;
	}
	free(tmp);
	return 0;
error:
	if (fd >= 0)
		close(fd);
	if (created)
		unlink(tmp);
	free(tmp);
	return -1;
}
