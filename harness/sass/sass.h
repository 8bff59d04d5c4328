/* sass.h — entry point of `gpuprobe sass …` (argv[0] is "sass"); returns a gp_exit code. */
#ifndef GP_SASS_H
#define GP_SASS_H

int gp_sass_main(int argc, char **argv);

#endif
