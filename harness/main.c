/* main.c — the gpuprobe command line. Data goes to stdout or files; progress and diagnostics
 * to stderr; the exit status says what went wrong (gp.h, README "Errors"). */
#include "gp.h"
#include "version.h"
#include "compare.h"
#include "fleet.h"
#include "report.h"
#include "run.h"
#include "models.h"
#include "planner.h"
#include "tune.h"
#include "sass/sass.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"usage: gpuprobe [-q] COMMAND [options]\n"
	"\n"
	"commands:\n"
	"  list                      experiments, the paper table/figure each reproduces, parameters\n"
	"  info [--device N]         the GPU's attributes as the driver reports them\n"
	"  run [options] [EXPERIMENT...]\n"
	"      --suite FILE|NAME     suite CSV, or a suite by name (quick, default, paper …:\n"
	"                            configs/NAME.csv where gpuprobe is installed; default:\n"
	"                            default; with EXPERIMENTs: none)\n"
	"      --filter REGEX        only experiments whose name matches (POSIX extended)\n"
	"      --out DIR             results root (default results); the run goes to\n"
	"                            DIR/<gpu>/<yyyymmdd-hhmmss>/\n"
	"      --reps N              timed repetitions per point (default 5, 1..1000)\n"
	"      --warmup N            untimed launches before them (default 1, 0..100)\n"
	"      --reps-max N          repetitions that stop on noise: after --reps, a point goes on\n"
	"                            while its spread (relative standard deviation) is above\n"
	"                            --target-rsd, up to N repetitions (reps..10000; default: off)\n"
	"      --target-rsd PCT      the spread that is enough (default 0.5 %, 0.01..50)\n"
	"      --max-point-s S       and at most S seconds of repetitions per point (default 10)\n"
	"      --device N|LIST|all   GPU ordinal (default 0); a list N,M,... or all: one run\n"
	"                            directory per GPU, one after the other (exit: the worst)\n"
	"      --report              write REPORT.md and charts after the run\n"
	"      --timeout S           watchdog per sweep point: a point silent for S seconds is\n"
	"                            recorded as hung and the run goes on (default 300)\n"
	"      --no-isolate          measure in this process, not in child processes (for tools\n"
	"                            such as compute-sanitizer; a fault then ends the run, and a\n"
	"                            process parameter's values share the one process)\n"
	"  report [--plots-only] DIR charts (gnuplot) and REPORT.md for a run directory; no GPU needed\n"
	"  fleet [--md FILE] RUN...  many runs (GPUs of a fleet) key by key as CSV: each profile key's\n"
	"                            median and every run's deviation; outlier GPUs, runs that did not\n"
	"                            complete and stub-driver runs on stderr; FILE: the runs and the\n"
	"                            keys (outliers in bold) in Markdown; runs of one GPU also get\n"
	"                            the repeatability check (latency keys within 1 %, bandwidth\n"
	"                            keys within 3 %, those beyond named). A RUN without meta.csv is\n"
	"                            a results root: every run directory below it (a Slurm job's)\n"
	"  compare RUN_A RUN_B       two runs side by side as CSV: B / A for every measured value,\n"
	"                            flagged where it moved more than its spread and 2 %\n"
	"  plan RUN_DIR [--rx N --ry N --bk N --every N --lds-bytes N] [--cubin FILE --kernel K]\n"
	"                            seed 001 Table 5 schedule planner from a run's latencies, and the\n"
	"                            load-to-use distances a compiled SGEMM kernel achieves\n"
	"  tune sgemm RUN_DIR [--top N] [--size M] [--device D] [--no-measure]\n"
	"                            rank the SGEMM kernels by GFLOP/s predicted from the run, measure\n"
	"                            the top N (default 4) that run at M^3 (default 4096) and cuBLAS\n"
	"                            on this GPU, pick the fastest correct one (CSV; no GPU: ranking)\n"
	"  sass dump|patch|solve ... cubin tools: decode, patch one field, solve the field map\n"
	"                            from nvdisasm (gpuprobe sass --help)\n"
	"\n"
	"  help [COMMAND]            this text, or one command's part of it (also: COMMAND --help)\n"
	"\n"
	"  -q, --quiet               no progress on stderr\n"
	"  -h, --help                this text\n"
	"  -V, --version             version and git revision\n";

/* The usage text's block for one command: its line ("  CMD ...") and the indented lines after
 * it. 0 if found. `gpuprobe help CMD` and `gpuprobe CMD --help` print it. */
static int command_help(const char *cmd)
{
	const size_t n = strlen(cmd);
	const char *p = usage;
	int in = 0, found = 0;

	while (*p) {
		const char *e = strchr(p, '\n');
		const size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len > 2 && p[0] == ' ' && p[1] == ' ' && p[2] != ' ')
			in = !strncmp(p + 2, cmd, n) && (p[2 + n] == ' ' || p[2 + n] == '\n');
		if (in) {
			printf("%.*s\n", (int)len, p);
			found = 1;
		}
		p += len + (e != NULL);
	}
	return found ? 0 : -1;
}

static int wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	return 0;
}

/* getopt's own complaints are off (opterr = 0): name the offending option in one line. A long
 * option with optopt set is a known one missing its value; anything else is unknown. */
static int bad_option(const char *cmd, char **argv)
{
	const char *arg = optind > 0 ? argv[optind - 1] : NULL;

	if (arg && !strncmp(arg, "--", 2) && optopt)
		gp_err("%s: option '%s' needs a value (gpuprobe --help)", cmd, arg);
	else if (arg && !strncmp(arg, "--", 2))
		gp_err("%s: option '%s' is not known (gpuprobe --help)", cmd, arg);
	else
		gp_err("%s: option '-%c' is not known (gpuprobe --help)", cmd, optopt ? optopt : '?');
	return GP_EUSAGE;
}

/* The current option's value (optarg) as an integer in min..max: 0, or GP_EUSAGE after one line. */
static int opt_int(const char *opt, long min, long max, int *out)
{
	long v;

	if (gp_parse_long(optarg, min, max, &v)) {
		gp_err("%s: '%s' is not an integer in %ld..%ld", opt, optarg, min, max);
		return GP_EUSAGE;
	}
	*out = (int)v;
	return 0;
}

/* --device all, N, or N,M,...: distinct ordinals 0..63. */
static int opt_devices(struct gp_run_opts *o)
{
	char buf[256], *save = NULL;

	o->all_devices = !strcmp(optarg, "all");
	o->ndevices = 0;
	if (o->all_devices)
		return 0;
	snprintf(buf, sizeof buf, "%s", optarg);
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		long v;
		if (gp_parse_long(tok, 0, 63, &v)) {
			gp_err("--device: '%s' is not all, or GPU ordinals in 0..63 separated by commas", optarg);
			return GP_EUSAGE;
		}
		for (int k = 0; k < o->ndevices; k++)
			if (o->devices[k] == v) {
				gp_err("--device: GPU %ld named twice in '%s'", v, optarg);
				return GP_EUSAGE;
			}
		o->devices[o->ndevices++] = (int)v;
	}
	if (!o->ndevices || optarg[strlen(optarg) - 1] == ',' || optarg[0] == ',' || strstr(optarg, ",,")) {
		gp_err("--device: '%s' is not all, or GPU ordinals in 0..63 separated by commas", optarg);
		return GP_EUSAGE;
	}
	o->device = o->devices[0];
	return 0;
}

static int cmd_run(int argc, char **argv, char **full_argv, int full_argc)
{
	static const struct option opts[] = {
		{ "suite", required_argument, NULL, 's' },  { "filter", required_argument, NULL, 'f' },
		{ "out", required_argument, NULL, 'o' },    { "reps", required_argument, NULL, 'r' },
		{ "warmup", required_argument, NULL, 'w' }, { "device", required_argument, NULL, 'd' },
		{ "report", no_argument, NULL, 'R' },       { "timeout", required_argument, NULL, 't' },
		{ "no-isolate", no_argument, NULL, 'I' },  { "reps-max", required_argument, NULL, 'M' },
		{ "target-rsd", required_argument, NULL, 'S' }, { "max-point-s", required_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 },
	};
	struct gp_run_opts o = { .out = "results", .reps = 5, .warmup = 1, .timeout_s = 300,
				 .target_rsd = 0.005, .max_point_s = 10, .argc = full_argc, .argv = full_argv };
	double d;
	int c, secs = 0, rc = 0;

	while (!rc && (c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's': o.suite = optarg; break;
		case 'f': o.filter = optarg; break;
		case 'o': o.out = optarg; break;
		case 'R': o.report = 1; break;
		case 'I': o.inprocess = 1; break;
		case 'r': rc = opt_int("--reps", 1, 1000, &o.reps); break;
		case 'w': rc = opt_int("--warmup", 0, 100, &o.warmup); break;
		case 'd': rc = opt_devices(&o); break;
		case 't': rc = opt_int("--timeout", 1, 86400, &secs), o.timeout_s = secs; break;
		case 'M': rc = opt_int("--reps-max", 1, 10000, &o.reps_max); break;
		case 'P': rc = opt_int("--max-point-s", 1, 3600, &secs), o.max_point_s = secs; break;
		case 'S':
			if (gp_parse_double(optarg, &d) || !(d >= 0.01 && d <= 50)) {
				gp_err("--target-rsd: '%s' is not a percentage in 0.01..50", optarg);
				return GP_EUSAGE;
			}
			o.target_rsd = d / 100;
			break;
		default:
			return bad_option("run", argv);
		}
	}
	if (rc)
		return rc;
	if (o.reps_max && o.reps_max < o.reps) {
		gp_err("--reps-max: %d is below --reps %d", o.reps_max, o.reps);
		return GP_EUSAGE;
	}
	if (o.reps_max && o.max_point_s >= o.timeout_s) {
		gp_err("--max-point-s: %.0f s is not below the watchdog's --timeout %.0f s", o.max_point_s, o.timeout_s);
		return GP_EUSAGE;
	}
	if (!*o.out) {
		gp_err("--out: empty directory name");
		return GP_EUSAGE;
	}
	o.names = (const char *const *)&argv[optind];
	o.nnames = argc - optind;
	return gp_cmd_run(&o);
}

static int cmd_info(int argc, char **argv)
{
	static const struct option opts[] = { { "device", required_argument, NULL, 'd' }, { NULL, 0, NULL, 0 } };
	int c, rc, dev = 0;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c != 'd')
			return bad_option("info", argv);
		if ((rc = opt_int("--device", 0, 63, &dev)))
			return rc;
	}
	if (optind != argc) {
		gp_err("info: unexpected argument '%s'", argv[optind]);
		return GP_EUSAGE;
	}
	return gp_cmd_info(dev);
}

static int cmd_fleet(int argc, char **argv)
{
	static const struct option opts[] = { { "md", required_argument, NULL, 'm' }, { NULL, 0, NULL, 0 } };
	const char *md = NULL;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c != 'm')
			return bad_option("fleet", argv);
		md = optarg;
	}
	return gp_cmd_fleet(argc - optind, argv + optind, md);
}

static int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = { { "plots-only", no_argument, NULL, 'p' }, { NULL, 0, NULL, 0 } };
	int c, plots_only = 0;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c != 'p')
			return bad_option("report", argv);
		plots_only = 1;
	}
	if (argc - optind != 1) {
		gp_err("report: expected one run directory");
		return GP_EUSAGE;
	}
	return gp_cmd_report(argv[optind], plots_only);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	char **full_argv = argv;
	const int full_argc = argc;
	const char *cmd;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+hVq", opts, NULL)) != -1) {
		switch (c) {
		case 'h': fputs(usage, stdout); return 0;
		case 'V': printf("gpuprobe %s (git %s)\n", GP_VERSION, GP_GIT_REV); return 0;
		case 'q': gp_quiet = 1; break;
		default:
			gp_err("option '%s' is not known (gpuprobe --help)", argv[optind - 1]);
			return GP_EUSAGE;
		}
	}
	if (optind >= argc) {
		gp_err("no command (gpuprobe --help lists them)");
		return GP_EUSAGE;
	}
	cmd = argv[optind];
	argc -= optind;
	argv += optind;
	optind = 0; /* re-initialise getopt for the sub-command's options (argv[1] on) */
	opterr = 0; /* our own one-line messages instead of getopt's */
	if (!strcmp(cmd, "help")) {
		if (argc == 1) {
			fputs(usage, stdout);
			return 0;
		}
		if (argc == 2 && !command_help(argv[1]))
			return 0;
		gp_err("help: no command '%s' (gpuprobe --help lists them)", argc > 1 ? argv[1] : "");
		return GP_EUSAGE;
	}
	/* CMD --help: that command's part of the usage (sass has its own, with its sub-commands) */
	if (strcmp(cmd, "sass") && wants_help(argc, argv)) {
		if (!command_help(cmd))
			return 0;
		gp_err("unknown command '%s' (gpuprobe --help lists them)", cmd);
		return GP_EUSAGE;
	}
	if (!strcmp(cmd, "list"))
		return argc == 1 ? gp_cmd_list() : (gp_err("list: takes no arguments"), GP_EUSAGE);
	if (!strcmp(cmd, "info"))
		return cmd_info(argc, argv);
	if (!strcmp(cmd, "run"))
		return cmd_run(argc, argv, full_argv, full_argc);
	if (!strcmp(cmd, "report"))
		return cmd_report(argc, argv);
	if (!strcmp(cmd, "compare")) {
		if (argc != 3) {
			gp_err("compare: expected two run directories");
			return GP_EUSAGE;
		}
		return gp_cmd_compare(argv[1], argv[2]);
	}
	if (!strcmp(cmd, "fleet"))
		return cmd_fleet(argc, argv);
	if (!strcmp(cmd, "plan"))
		return gp_planner_main(argc, argv);
	if (!strcmp(cmd, "tune"))
		return gp_tune_main(argc, argv);
	if (!strcmp(cmd, "sass"))
		return gp_sass_main(argc, argv);
	gp_err("unknown command '%s' (gpuprobe --help lists them)", cmd);
	return GP_EUSAGE;
}
