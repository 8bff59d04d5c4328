/* selftest_modes.h — the modes of selftest_fault in the order of their numbers, one list read by
 * selftest.cu (the kernel's switch) and selftest.c (the parameter's names), and the sentinel an
 * `ok` kernel writes. */
#ifndef GP_SELFTEST_MODES_H
#define GP_SELFTEST_MODES_H

#define SELFTEST_MODES(X) X(ok) X(trap) X(oob) X(hang)

enum selftest_mode {
#define SELFTEST_ENUM(name) SELFTEST_##name,
	SELFTEST_MODES(SELFTEST_ENUM)
#undef SELFTEST_ENUM
	SELFTEST_NMODES
};

#define SELFTEST_SENTINEL 0x600d

#endif
