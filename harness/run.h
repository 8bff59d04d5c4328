/* run.h — commands that open the GPU: run, list, info (report.h and compare.h need none). */
#ifndef GP_RUN_H
#define GP_RUN_H

struct gp_run_opts {
	const char *suite;   /* NULL: configs/default.csv, unless experiments are named */
	const char *filter;  /* POSIX extended regex on experiment names, or NULL */
	const char *out;     /* results root; the run goes to <out>/<gpu-slug>/<run-id>/ */
	const char *const *names; /* experiments named on the command line */
	int nnames;
	int reps, warmup, device;
	/* --device all | N,M,...: one run (and run directory) per GPU, one after the other. With
	 * all_devices the GPUs are 0 .. the count the first run's description gives (topo_gpus). */
	int all_devices, ndevices;
	int devices[64];
	/* Repetitions that stop on noise (--reps-max): after `reps`, a point goes on while its
	 * primary metric's relative standard deviation is above target_rsd, up to reps_max
	 * repetitions or max_point_s seconds. reps_max <= reps: a fixed count. */
	int reps_max;
	double target_rsd, max_point_s;
	double timeout_s;    /* watchdog per sweep point */
	int inprocess;       /* --no-isolate: measure in this process (for compute-sanitizer) */
	int report;          /* write the report after the run */
	int argc;
	char **argv;         /* for meta.csv */
};

int gp_cmd_run(const struct gp_run_opts *o);
int gp_cmd_list(void);
int gp_cmd_info(int device);

/* Create <root>/<slug>/<run-id>/ (never an existing one); the path is written to dir. */
int gp_make_run_dir(const char *root, const char *slug, char *dir, size_t len);

#endif
