/* test_fuzz_regressions.c — every input in fuzz/regressions/ replayed through the fuzz walks.
 *
 * A crash the fuzzer found stays found: each file of fuzz/regressions/cubin and .../csv goes
 * through the same walk as the fuzz target (fuzz_walk.c, included here), each in a child process
 * so one crash neither hides the others nor takes the test program down; a child killed by a
 * signal, an invariant the walk reports, or (under make asan) a sanitizer report fails the test
 * and names the file. The seed corpus is replayed too: real cubins and configs must walk clean.
 * The inputs that crash in a normal build are made to (offsets far past the image); the ones
 * that only read a few bytes too far need make asan or make valgrind to be seen. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../fuzz/fuzz_walk.c"

typedef const char *(*walk_fn)(const uint8_t *, size_t);

/* Replay one file in a child: 0 if it walked clean, else prints why and returns -1. */
static int replay(const char *path, walk_fn walk)
{
	size_t len;
	char *data;
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* cmocka's handlers would turn a crash into a failed test inside the child */
		static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
		for (size_t i = 0; i < GP_ARRAY_SIZE(sigs); i++)
			signal(sigs[i], SIG_DFL);
		data = gp_read_file(path, &len);
		if (!data)
			_exit(3);
		/* an exact-size copy: the walk must not rely on gp_read_file's NUL */
		uint8_t *exact = malloc(len ? len : 1);
		if (!exact)
			_exit(3);
		memcpy(exact, data, len);
		free(data);
		const char *bad = walk(exact, len);
		if (bad)
			fprintf(stderr, "%s: %s\n", path, bad);
		free(exact);
		_exit(bad ? 2 : 0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (WIFSIGNALED(st)) {
		print_error("%s: the walk was killed by signal %d (%s)\n", path, WTERMSIG(st),
			    strsignal(WTERMSIG(st)));
		return -1;
	}
	if (WEXITSTATUS(st) == 3) {
		print_error("%s: cannot read\n", path);
		return -1;
	}
	if (WEXITSTATUS(st)) {
		print_error("%s: the walk failed (exit %d; a sanitizer report or the reason is above)\n",
			    path, WEXITSTATUS(st));
		return -1;
	}
	return 0;
}

/* Replay every regular file in dir; returns how many failed, *n how many there were. */
static int replay_dir(const char *dir, walk_fn walk, int *n)
{
	struct dirent **ents;
	int count = scandir(dir, &ents, NULL, alphasort), failed = 0;

	*n = 0;
	if (count < 0) {
		print_message("no %s (run from the repository root)\n", dir);
		return 0;
	}
	for (int i = 0; i < count; i++) {
		char path[1024];

		if (ents[i]->d_name[0] != '.') {
			snprintf(path, sizeof path, "%s/%s", dir, ents[i]->d_name);
			failed += replay(path, walk) < 0;
			++*n;
		}
		free(ents[i]);
	}
	free(ents);
	return failed;
}

static void check_dir(const char *dir, walk_fn walk, int need_files)
{
	int n, failed = replay_dir(dir, walk, &n);

	if (need_files && n == 0)
		fail_msg("%s holds no inputs", dir);
	if (failed)
		fail_msg("%d of %d inputs in %s failed (each named above)", failed, n, dir);
	print_message("%s: %d inputs walked clean\n", dir, n);
}

static void test_cubin_regressions(void **state)
{
	check_dir("fuzz/regressions/cubin", gp_fuzz_cubin, 0);
}

static void test_csv_regressions(void **state)
{
	check_dir("fuzz/regressions/csv", gp_fuzz_csv, 0);
}

static void test_cubin_corpus(void **state)
{
	check_dir("fuzz/corpus/cubin", gp_fuzz_cubin, 1);
}

static void test_csv_corpus(void **state)
{
	check_dir("fuzz/corpus/csv", gp_fuzz_csv, 1);
}

/* The walks must be able to fail: a table the reader cannot get back (no columns: written as an
 * empty line, read as an empty file) is reported, a sound one is not. */
static void test_walk_can_fail(void **state)
{
	static const char text[] = "a,b\n\" 1\",2\n";
	struct gp_table *none = gp_table_new(NULL, 0), *t;
	char err[128];

	assert_non_null(none);
	assert_non_null(round_trip(none));
	gp_table_free(none);
	t = gp_table_parse(text, sizeof text - 1, err, sizeof err);
	assert_non_null(t);
	assert_null(round_trip(t));
	gp_table_free(t);
	assert_null(gp_fuzz_csv((const uint8_t *)"", 0));
	assert_null(gp_fuzz_cubin((const uint8_t *)"\177ELF", 4));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cubin_regressions),
		cmocka_unit_test(test_csv_regressions),
		cmocka_unit_test(test_cubin_corpus),
		cmocka_unit_test(test_csv_corpus),
		cmocka_unit_test(test_walk_can_fail),
	};

	return cmocka_run_group_tests_name("fuzz_regressions", tests, NULL, NULL);
}
