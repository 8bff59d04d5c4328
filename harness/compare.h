/* compare.h — `gpuprobe compare A B`: the same experiments' rows of two runs side by side, each
 * difference against the spread both runs measured. Reads CSVs only: no GPU, no device layer. */
#ifndef GP_COMPARE_H
#define GP_COMPARE_H

int gp_cmd_compare(const char *dir_a, const char *dir_b);

#endif
