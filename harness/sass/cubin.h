/* cubin.h — read a CUDA cubin (ELF64, EM_CUDA) from memory, edit it in place, write it back.
 *
 * The reader validates everything it later dereferences: header, section table, every section's
 * bytes, string tables, symbols, relocations and .nv.info records, so the accessors below never
 * read outside the image. Names returned point into the image. Patches change bytes in place and
 * never move anything, so writing the image back is writing the same buffer: a round trip without
 * edits is byte-identical. Errors are one line in c->err (gp_cubin_error). */
#ifndef GP_SASS_CUBIN_H
#define GP_SASS_CUBIN_H

#include <stddef.h>
#include <stdint.h>

#define GP_EM_CUDA 190

/* .nv.info record formats and the attributes gpuprobe uses (values as nvcc writes them). */
enum gp_eifmt { GP_EIFMT_NVAL = 1, GP_EIFMT_BVAL = 2, GP_EIFMT_HVAL = 3, GP_EIFMT_SVAL = 4 };
enum gp_eiattr {
	GP_EIATTR_PARAM_CBANK = 0x0a,
	GP_EIATTR_FRAME_SIZE = 0x11,
	GP_EIATTR_MIN_STACK_SIZE = 0x12,
	GP_EIATTR_KPARAM_INFO = 0x17,
	GP_EIATTR_CBANK_PARAM_SIZE = 0x19,
	GP_EIATTR_MAXREG_COUNT = 0x1b,
	GP_EIATTR_EXIT_INSTR_OFFSETS = 0x1c,
	GP_EIATTR_S2RCTAID_INSTR_OFFSETS = 0x1d,
	GP_EIATTR_MAX_STACK_SIZE = 0x23,
	GP_EIATTR_REGCOUNT = 0x2f,
	GP_EIATTR_SW_WAR = 0x36,
	GP_EIATTR_CUDA_API_VERSION = 0x37,
};

struct gp_cubin_section {
	const char *name;
	uint32_t type, link, info;
	uint64_t flags, offset, size, entsize;
};

struct gp_cubin_symbol {
	const char *name;
	uint64_t value, size;
	uint8_t type, bind, other;
	uint16_t shndx;
};

struct gp_cubin_reloc {
	size_t target;          /* section the relocation edits */
	uint64_t offset;        /* byte offset inside that section */
	uint32_t type, sym;
	int64_t addend;         /* 0 for SHT_REL */
};

struct gp_cubin_kernel {
	const char *name;       /* .text.<name> without the prefix */
	size_t text;            /* section index of .text.<name> */
	long info;              /* section index of .nv.info.<name>, -1 if none */
	long symbol;            /* STT_FUNC symbol of the text section, -1 if none */
	int entry;              /* symbol marked as a kernel entry (st_other STO_CUDA_ENTRY) */
	int regcount;           /* REGCOUNT from the global .nv.info, -1 if absent */
	long frame_size;        /* FRAME_SIZE from the global .nv.info, -1 if absent */
	size_t ninsn;           /* 16-byte instructions in the text section (sm >= 70) */
};

struct gp_nvinfo {
	uint8_t format, attr;
	uint16_t value;         /* HVAL/BVAL value, or the payload size of an SVAL */
	const unsigned char *payload;   /* SVAL payload, NULL otherwise */
	size_t len;
};

struct gp_cubin {
	unsigned char *image;
	size_t size;
	uint32_t eflags;
	unsigned abi;           /* e_ident[EI_ABIVERSION] */
	int sm;                 /* 75, 80, 86, 89, 90 … from e_flags */
	struct gp_cubin_section *sec;
	size_t nsec;
	struct gp_cubin_symbol *sym;
	size_t nsym;
	struct gp_cubin_reloc *rel;
	size_t nrel;
	struct gp_cubin_kernel *kern;
	size_t nkern;
	long nvinfo;            /* section index of the global .nv.info, -1 if none */
	char err[256];
};

/* Copy and parse an image. 0 on success; -1 with c->err set (c is still safe to close). */
int gp_cubin_open(struct gp_cubin *c, const void *data, size_t size);
/* Read a file and parse it. -1 with c->err; *io_error is set when the file itself failed. */
int gp_cubin_load(struct gp_cubin *c, const char *path, int *io_error);
/* gp_cubin_load for a command (`gpuprobe sass ...`): GP_OK, or (the error printed as "cmd: why", c
 * closed) GP_EIO when the file could not be read, GP_EINPUT when it is not a cubin this reads. */
int gp_cubin_load_cmd(struct gp_cubin *c, const char *path, const char *cmd);
void gp_cubin_close(struct gp_cubin *c);
const char *gp_cubin_error(const struct gp_cubin *c);
/* Set c->err to one formatted line and return -1: the one way every cubin reader, patcher and
 * plan reports why it stopped, so callers only ever read gp_cubin_error. */
__attribute__((format(printf, 2, 3))) int gp_cubin_fail(struct gp_cubin *c, const char *fmt, ...);

/* Write the image (with any in-place edits) to path through a temporary name and a rename. */
int gp_cubin_save(struct gp_cubin *c, const char *path);

/* Kernel by name, NULL (and c->err) if the cubin has no .text.<name>. */
const struct gp_cubin_kernel *gp_cubin_kernel(struct gp_cubin *c, const char *name);
/* First byte of a kernel's code; the code is k->ninsn * 16 bytes long. */
unsigned char *gp_cubin_text(const struct gp_cubin *c, const struct gp_cubin_kernel *k);

/* Iterate over an .nv.info* section: 1 with *rec filled, 0 at the end, -1 if malformed. */
int gp_cubin_nvinfo_next(const struct gp_cubin *c, size_t sec, size_t *pos, struct gp_nvinfo *rec);
/* First record of attribute attr in a kernel's .nv.info.<name>; 0 if found, -1 if not. */
int gp_cubin_kernel_attr(const struct gp_cubin *c, const struct gp_cubin_kernel *k, unsigned attr,
			 struct gp_nvinfo *rec);
/* EXIT_INSTR_OFFSETS of a kernel into out[0..max); returns how many there are (may exceed max). */
size_t gp_cubin_exit_offsets(const struct gp_cubin *c, const struct gp_cubin_kernel *k,
			     uint32_t *out, size_t max);
/* A relocation that edits any byte of [off, off + len) of section sec, or NULL. */
const struct gp_cubin_reloc *gp_cubin_reloc_in(const struct gp_cubin *c, size_t sec, uint64_t off,
					      uint64_t len);

const char *gp_eiattr_name(unsigned attr);

#endif
