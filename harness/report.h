/* report.h — `gpuprobe report DIR`: REPORT.md, the charts and profile.csv of a finished run.
 * Needs no GPU and links without the device layer (the link test in tests/link_host.c proves it),
 * so `run` calls it at the end and the command also works on a machine without CUDA. */
#ifndef GP_REPORT_H
#define GP_REPORT_H

int gp_cmd_report(const char *dir, int plots_only);

#endif
