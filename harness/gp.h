/* gp.h — what every part of gpuprobe shares: exit codes, diagnostics, small helpers.
 *
 * Exit codes are part of the interface (README "Errors"): each class of failure has its own,
 * so scripts can tell a bad suite file from a missing GPU from a probe whose result failed
 * validation. Diagnostics go to stderr as one line "gpuprobe: <what>"; data never does. */
#ifndef GP_H
#define GP_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

enum gp_exit {
	GP_OK = 0,
	GP_EFAIL = 1,     /* internal error, out of memory */
	GP_EUSAGE = 2,    /* bad command line: unknown command/option/experiment, bad number, bad regex */
	GP_ECONFIG = 3,   /* malformed or invalid suite / config / CSV input */
	GP_ENOGPU = 4,    /* no CUDA driver or no GPU */
	GP_EVALID = 5,    /* a probe ran but its result failed validation or passed its ceiling */
	GP_EIO = 6,       /* result directory or file could not be created or written */
	GP_ECUDA = 7,     /* a CUDA call failed while running */
	GP_EINPUT = 8,    /* a malformed binary input (cubin) */
	GP_EINTR = 9,     /* interrupted by a signal; the run is marked incomplete */
};

/* One-line diagnostic on stderr, prefixed "gpuprobe: ". */
void gp_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The text of the last gp_err() of this process (for a failed row's status). */
const char *gp_last_error(void);
/* Forget it (a process that measures one experiment after another starts each with none). */
void gp_clear_error(void);
/* Progress / information on stderr (silenced by gp_quiet). */
void gp_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern int gp_quiet;

#define GP_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* SIGINT/SIGTERM received (the signal number), once gp_catch_signals() is in force: long
 * commands check it between units of work, finish the file in hand and stop cleanly. */
extern volatile sig_atomic_t gp_signal;
void gp_catch_signals(void);

/* Parse a whole string as a number; 0 on success, -1 if empty, trailing junk or out of range. */
int gp_parse_long(const char *s, long min, long max, long *out);
int gp_parse_double(const char *s, double *out);

char *gp_strdup(const char *s);
/* The entry of a const table (n entries of `size` bytes) whose `const char *` member at byte
 * `off` is name; NULL for none, or for a NULL name. GP_FIND_NAME takes the table's .name. */
const void *gp_find_name(const void *table, size_t n, size_t size, size_t off, const char *name);
#define GP_FIND_NAME(table, n, key)                                                                 \
	gp_find_name((table), (n), sizeof *(table), (size_t)((const char *)&(table)->name - (const char *)(table)), (key))
/* A const table's length, n, and its lookup by name, find (GP_FIND_NAME), defined together. */
#define GP_TABLE_LOOKUP(type, table, n, find)                                                       \
	const size_t n = GP_ARRAY_SIZE(table);                                                      \
	const type *find(const char *name)                                                          \
	{                                                                                           \
		return GP_FIND_NAME(table, n, name);                                                \
	}
/* Write all n bytes to fd, again after a short write or EINTR (a pipe or a slow disk writes in
 * pieces); 0, or -1 with errno set. */
int gp_write_fd(int fd, const void *buf, size_t n);
/* One read()/write()/send() of a loop that moves all of a buffer returned w: *done advanced by
 * the bytes moved; 0 to call again (bytes moved, or EINTR: none), -1 on an error or end of file. */
int gp_io_moved(ssize_t w, size_t *done);
/* Read a whole file into a NUL-terminated buffer; NULL (errno set) on failure. */
char *gp_read_file(const char *path, size_t *len);

/* Monotonic seconds (CLOCK_MONOTONIC), for deadlines and elapsed times. */
double gp_now(void);

/* The installation's top directory (holds configs/ and plots/): $GPUPROBE_HOME, else the
 * parent of the directory holding the executable. */
const char *gp_home(void);

#endif
