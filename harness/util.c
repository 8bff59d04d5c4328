/* util.c — what every layer may use, with no device and no command behind it: diagnostics,
 * signals, number parsing, files, the monotonic clock and the installation's home. Nothing here
 * calls another harness module, so util sits at the bottom of every dependency chain. */
#include "gp.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int gp_quiet;
volatile sig_atomic_t gp_signal;
static char last_error[512];

static void on_signal(int sig)
{
	gp_signal = sig;
}

void gp_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void gp_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof last_error, fmt, ap);
	va_end(ap);
	fprintf(stderr, "gpuprobe: %s\n", last_error);
}

const char *gp_last_error(void)
{
	return last_error;
}

void gp_clear_error(void)
{
	last_error[0] = '\0';
}

void gp_info(const char *fmt, ...)
{
	va_list ap;

	if (gp_quiet)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

int gp_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int gp_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || end == s || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

char *gp_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	if (p)
		memcpy(p, s, n);
	return p;
}

const void *gp_find_name(const void *table, size_t n, size_t size, size_t off, const char *name)
{
	for (size_t i = 0; name && i < n; i++) {
		const char *e = (const char *)table + i * size;
		if (!strcmp(*(const char *const *)(e + off), name))
			return e;
	}
	return NULL;
}

int gp_io_moved(ssize_t w, size_t *done)
{
	if (w < 0 && errno == EINTR)
		return 0;
	if (w <= 0)
		return -1;
	*done += (size_t)w;
	return 0;
}

int gp_write_fd(int fd, const void *buf, size_t n)
{
	for (size_t done = 0; done < n;)
		if (gp_io_moved(write(fd, (const char *)buf + done, n - done), &done))
			return -1;
	return 0;
}

char *gp_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			size_t ncap = cap ? cap * 2 : 8192;
			char *nb = realloc(buf, ncap);
			if (!nb)
				goto error;
			buf = nb;
			cap = ncap;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0) {
			if (ferror(f))
				goto error;
			break;
		}
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
error:
	free(buf);
	fclose(f);
	return NULL;
}

double gp_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

const char *gp_home(void)
{
	static char home[PATH_MAX];
	char exe[PATH_MAX];
	const char *env = getenv("GPUPROBE_HOME");
	ssize_t n;

	if (env && *env)
		return env;
	if (home[0])
		return home;
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return ".";
	exe[n] = '\0';
	/* In the tree: bin/gpuprobe beside configs/. Installed (make install): PREFIX/bin/gpuprobe
	 * with its data under PREFIX/share/gpuprobe. */
	snprintf(home, sizeof home, "%s", dirname(dirname(exe)));
	{
		char probe[PATH_MAX + 32];
		snprintf(probe, sizeof probe, "%s/configs/default.csv", home);
		if (access(probe, R_OK)) {
			snprintf(probe, sizeof probe, "%s/share/gpuprobe/configs/default.csv", home);
			if (!access(probe, R_OK) && strlen(home) + sizeof "/share/gpuprobe" <= sizeof home)
				strcat(home, "/share/gpuprobe");
		}
	}
	return home;
}
