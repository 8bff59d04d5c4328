/* test_mma.c — host tests of the mma.sync probes' host side (probes/mma.h) on fixed inputs: the
 * list's own consistency (register counts follow from shape and types, names unique and in the
 * `variant` choices), the FLOP and peaks per form, the expected result words, the exact-range
 * limit on iters, the verdict (native, emulated, too old) at each of the twelve sms nvcc 13 lists,
 * and the kernels of the sms the build compiled against it. Each test can fail: the numbers are
 * worked out by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp.h"
#include "mma.h"
#include "mma_shape.h"
#include "sass/cubin.h"

/* Registers per thread an operand of rows x cols elements needs: elements over the warp's 32
 * lanes, times their bits, over the register's bits (64 for f64, else 32). */
static int regs(int rows, int cols, int bits, int reg_bits)
{
	return rows * cols / 32 * bits / reg_bits;
}

static void test_list_registers(void **state)
{
	for (size_t i = 0; i < gp_nmmas; i++) {
		const struct gp_mma *d = &gp_mmas[i];
		const int rb = d->in == GP_MMA_IN_F64 ? 64 : 32, bits = gp_mma_in_bits(d);
		const int acc_reg_bits = gp_mma_acc_bits(d) * gp_mma_acc_per_reg(d);

		print_message("%-24s A %d B %d D %d\n", d->name, d->na, d->nb, d->nd);
		/* A holds K/2 columns per row in the sparse forms. */
		assert_int_equal(d->na, regs(d->m, gp_mma_keff(d), bits, rb));
		assert_int_equal(d->nb, regs(d->k, d->n, bits, rb));
		assert_int_equal(d->nd, d->m * d->n / 32 * gp_mma_acc_bits(d) / acc_reg_bits);
		assert_true(d->na <= 8 && d->nb <= 4 && d->nd <= 4); /* the kernels' operand slots */
		assert_true(strstr(d->ptx, d->sparse ? "mma.sp::ordered_metadata.sync.aligned." : "mma.sync.aligned.") == d->ptx);
		assert_true(!strcmp(d->sass, "HMMA") || !strcmp(d->sass, "IMMA") || !strcmp(d->sass, "DMMA") ||
			    !strcmp(d->sass, "QMMA"));
		/* FP8 (QMMA on sm_89) is the one family ptxas emulates on a later target. */
		assert_int_equal(d->emu != 0, !strcmp(d->sass, "QMMA"));
		assert_true(d->cc >= 75 && d->cc <= 90);
		assert_true((d->emu == 0 && d->emu_end == 0) || (d->emu > d->cc && d->emu_end > d->emu));
	}
}

static void test_list_names(void **state)
{
	char shape[32], choices[2048];

	snprintf(choices, sizeof choices, "%s ", gp_mma_names_sp);
	for (size_t i = 0; i < gp_nmmas; i++) {
		const struct gp_mma *d = &gp_mmas[i];
		char sp[96];
		/* The name ends with the shape and the PTX names it. */
		snprintf(shape, sizeof shape, "m%dn%dk%d", d->m, d->n, d->k);
		assert_true(strlen(d->name) > strlen(shape));
		assert_string_equal(d->name + strlen(d->name) - strlen(shape), shape);
		assert_non_null(strstr(d->ptx, shape));
		assert_int_equal(!strncmp(d->name, "sp_", 3), d->sparse);
		assert_ptr_equal(gp_mma_find(d->name), d);
		snprintf(sp, sizeof sp, " %s ", d->name);
		assert_non_null(strstr(choices, sp));
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(gp_mmas[j].name, d->name);
	}
	assert_null(gp_mma_find("f16_m16n8k16"));
	assert_null(gp_mma_find(NULL));
	assert_true(GP_MMA_CHOICES[0] != ' ' && strlen(choices) < sizeof choices - 1);
}

static void test_flops_and_peaks(void **state)
{
	const struct gp_mma *h = gp_mma_find("f16_f32_m16n8k16"), *s = gp_mma_find("sp_f16_f32_m16n8k32");
	const struct gp_mma *dm = gp_mma_find("f64_f64_m8n8k4"), *t = gp_mma_find("tf32_f32_m16n8k4");

	assert_non_null(h);
	assert_non_null(s);
	assert_non_null(dm);
	assert_non_null(t);
	/* 2 x 16 x 8 x 16 = 4096; the sparse m16n8k32 counts its logical K: 8192; 2 x 8 x 8 x 4 = 512. */
	assert_true(gp_mma_flops(h) == 4096 && gp_mma_flops(s) == 8192 && gp_mma_flops(dm) == 512);
	assert_int_equal(gp_mma_keff(h), 16);
	assert_int_equal(gp_mma_keff(s), 16);
	/* H100 (9.0): f16 4096 dense per clock per SM, sparse twice that; tf32 2048; fp64 256. */
	assert_true(gp_mma_peak(h, 9, 0) == 4096 && gp_mma_peak(s, 9, 0) == 8192);
	assert_true(gp_mma_peak(t, 9, 0) == 2048 && gp_mma_peak(dm, 9, 0) == 256);
	/* Ada's rate is card-dependent: no peak, so no ceiling and no percentage. */
	assert_true(gp_mma_peak(h, 8, 9) == 0);
	assert_string_equal(gp_mma_rate_type(gp_mma_find("s8_s32_m16n8k32")), "int8");
	assert_string_equal(gp_mma_rate_type(gp_mma_find("e5m2_f32_m16n8k32")), "fp8");
}

static void test_expect_words(void **state)
{
	uint32_t w[2];

	/* f16 accumulators: 2 x 64 x 16 = 2048 = 0x6800 in binary16, both halves. */
	assert_int_equal(gp_mma_expect(gp_mma_find("f16_f16_m16n8k16"), 64, w), 1);
	assert_int_equal(w[0], 0x68006800u);
	/* f32: 2 x 3 x 8 = 48.0f = 0x42400000. */
	assert_int_equal(gp_mma_expect(gp_mma_find("tf32_f32_m16n8k8"), 3, w), 1);
	assert_int_equal(w[0], 0x42400000u);
	/* s32, sparse k64: K_eff 32, 2 x 10 x 32 = 640. */
	assert_int_equal(gp_mma_expect(gp_mma_find("sp_s8_s32_m16n8k64"), 10, w), 1);
	assert_int_equal(w[0], 640u);
	/* f64: 2 x 1 x 4 = 8.0 = 0x4020000000000000, low word first. */
	assert_int_equal(gp_mma_expect(gp_mma_find("f64_f64_m8n8k4"), 1, w), 2);
	assert_int_equal(w[0], 0u);
	assert_int_equal(w[1], 0x40200000u);
	assert_int_equal(gp_mma_words(gp_mma_find("f64_f64_m8n8k4")), 4);
	assert_int_equal(gp_mma_words(gp_mma_find("f16_f16_m16n8k8")), 2);
}

static void test_exact_range(void **state)
{
	/* f16: 2^11 / (2 x 16) = 64 trips of m16n8k16, 128 of m16n8k8; the default iters (64) fits
	 * every form. */
	assert_int_equal(gp_mma_max_iters(gp_mma_find("f16_f16_m16n8k16")), 64);
	assert_int_equal(gp_mma_max_iters(gp_mma_find("f16_f16_m16n8k8")), 128);
	for (size_t i = 0; i < gp_nmmas; i++)
		assert_true(gp_mma_max_iters(&gp_mmas[i]) >= 64);
	/* f32 (23 bits), sparse tf32 k16: K_eff 8: 2^23 / 16. */
	assert_int_equal(gp_mma_max_iters(gp_mma_find("sp_tf32_f32_m16n8k16")), 524288);
}

static void test_operands_and_cannot(void **state)
{
	uint64_t o[3];
	char why[256];

	gp_mma_operands(gp_mma_find("bf16_f32_m16n8k8"), o);
	assert_true(o[0] == 0x3f803f80ull && o[1] == 0xbf80bf80ull && o[2] == MMA_META);
	gp_mma_operands(gp_mma_find("f64_f64_m16n8k16"), o);
	assert_true(o[0] == 0x3ff0000000000000ull && o[1] == 0xbff0000000000000ull);
	/* m16n8k16 f64 is sm_90's; FP8 is sm_89's, emulated on sm_90 to sm_110, native on sm_120. The
	 * statuses are the runner's ("n/a: needs sm_XX (what); this GPU is sm_YY") after "n/a: ". */
	assert_non_null(gp_mma_cannot(gp_mma_find("f64_f64_m16n8k16"), 8, 0, why, sizeof why));
	assert_string_equal(why, "needs sm_90 (mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64); this GPU is sm_80");
	assert_null(gp_mma_cannot(gp_mma_find("f64_f64_m16n8k16"), 9, 0, why, sizeof why));
	assert_null(gp_mma_cannot(gp_mma_find("e4m3_f32_m16n8k32"), 8, 9, why, sizeof why));
	assert_non_null(gp_mma_cannot(gp_mma_find("e4m3_f32_m16n8k32"), 9, 0, why, sizeof why));
	assert_string_equal(why, "emulated on sm_90 (ptxas emits no QMMA there): no tensor op to time");
	assert_non_null(gp_mma_cannot(gp_mma_find("e5m2_f32_m16n8k32"), 11, 0, why, sizeof why));
	assert_string_equal(why, "emulated on sm_110 (ptxas emits no QMMA there): no tensor op to time");
	assert_null(gp_mma_cannot(gp_mma_find("sp_e4m3_f32_m16n8k64"), 12, 1, why, sizeof why));
	assert_non_null(gp_mma_cannot(gp_mma_find("sp_e4m3_f32_m16n8k64"), 8, 8, why, sizeof why));
	assert_string_equal(why, "needs sm_89 (mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32); "
				 "this GPU is sm_88");
	assert_non_null(gp_mma_cannot(gp_mma_find("f16_f32_m16n8k16"), 7, 5, why, sizeof why));
	assert_null(gp_mma_cannot(gp_mma_find("f16_f32_m16n8k8"), 7, 5, why, sizeof why));
}

/* nvcc 13's --list-gpu-arch, as mk/kernels.mk's SM_ALL. */
static const int twelve[] = { 75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121 };

/* Every form at each of the twelve sms. Expected by hand, by column: the forms sm_75 accepts,
 * those of sm_80 (PTX 7.0), f64 m16n8k* (sm_90), and FP8, which nvdisasm of nvcc 13.0's cubins
 * shows as one QMMA per mma on sm_89, sm_120 and sm_121 and as F2FP conversions and HMMA on
 * sm_90, sm_100, sm_103 and sm_110 (README, "Architectures"; test_kernels_where_native checks
 * the cubins the build holds). T too old, N native, E emulated. */
static void test_verdict_twelve_sms(void **state)
{
	static const char *const col75 = "NNNNNNNNNNNN", *const col80 = "TNNNNNNNNNNN", *const col90 = "TTTTTTNNNNNN",
			  *const fp8 = "TTTTTNEEEENN";
	size_t n[4] = { 0 };

	for (size_t i = 0; i < gp_nmmas; i++) {
		const struct gp_mma *d = &gp_mmas[i];
		const int c = !strcmp(d->sass, "QMMA") ? 3 : d->cc == 75 ? 0 : d->cc == 80 ? 1 : d->cc == 90 ? 2 : -1;
		const char *want = c == 3 ? fp8 : c == 2 ? col90 : c == 1 ? col80 : col75;

		if (c < 0)
			fail_msg("%s: sm_%d is in no column of this test", d->name, d->cc);
		n[c]++;
		for (size_t s = 0; s < GP_ARRAY_SIZE(twelve); s++) {
			const enum gp_mma_code code = gp_mma_code_at(d, twelve[s]);
			const char got = code == GP_MMA_NATIVE ? 'N' : code == GP_MMA_EMULATED ? 'E' : 'T';
			char why[256];
			const char *r = gp_mma_cannot(d, twelve[s] / 10, twelve[s] % 10, why, sizeof why);

			if (got != want[s])
				fail_msg("%s on sm_%d: %c, want %c", d->name, twelve[s], got, want[s]);
			/* gp_mma_cannot (the rows' status) agrees with the verdict. */
			assert_int_equal(r == NULL, code == GP_MMA_NATIVE);
			if (r)
				assert_non_null(strstr(r, code == GP_MMA_EMULATED ? "emulated on sm_" : "needs sm_"));
		}
	}
	/* f16 m16n8k8 x2; 17 of sm_80 (f16 k16 x2, bf16 x2, tf32 x2, s8 x2, f64 m8n8k4, 8 sparse but
	 * FP8); 3 f64 m16n8k*; 3 FP8. */
	assert_true(n[0] == 2 && n[1] == 17 && n[2] == 3 && n[3] == 3);
}

/* The sms whose kernels the build compiled: $BUILD/gen/sm.list, "SM... ptx LEVEL ..." (mk/kernels.mk;
 * a cubin of another sm in the directory may be stale). */
static size_t built_sms(const char *build, int *sms, size_t max)
{
	char path[512], word[32];
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof path, "%s/gen/sm.list", build);
	if (!(f = fopen(path, "r")))
		return 0;
	while (n < max && fscanf(f, "%31s", word) == 1 && strcmp(word, "ptx"))
		sms[n++] = atoi(word);
	fclose(f);
	return n;
}

/* A kernel's instruction count, the one opcode (low 12 bits of each 16-byte instruction, on every
 * sm from 75 to 121) it holds exactly `per` times (-1 none, -2 several), and whether some opcode
 * occurs a whole multiple of `per` times. */
struct kernel_ops {
	size_t ninsn;
	int exact, multiple;
};

static struct kernel_ops count_ops(struct gp_cubin *c, const char *kind, const char *name, size_t per)
{
	static size_t hist[4096];
	struct kernel_ops r = { 0, -1, 0 };
	const struct gp_cubin_kernel *k;
	const unsigned char *t;
	char kname[96];

	snprintf(kname, sizeof kname, "%s_%s", kind, name);
	if (!(k = gp_cubin_kernel(c, kname)))
		fail_msg("sm_%d: %s", c->sm, gp_cubin_error(c));
	t = gp_cubin_text(c, k);
	memset(hist, 0, sizeof hist);
	for (size_t i = 0; i < k->ninsn; i++)
		hist[(t[16 * i] | t[16 * i + 1] << 8) & 0xfff]++;
	r.ninsn = k->ninsn;
	for (int op = 0; op < 4096; op++) {
		if (hist[op] == per)
			r.exact = r.exact == -1 ? op : -2;
		r.multiple |= hist[op] && hist[op] % per == 0;
	}
	return r;
}

/* One sm's cubin against the verdict: a form that is not native there has an empty kernel (under
 * MMA_TRIP_STEPS instructions); a native HMMA, IMMA or QMMA form holds one opcode exactly once per
 * mma of its trip, one opcode per mnemonic, and the three differ, so an FP8 kernel built where the
 * verdict says native runs its own tensor op, not HMMA and FADD. DMMA only a whole number per mma:
 * the f64 m16n8k* forms are 2, 4, 8 m8n8k4 DMMAs each from sm_100 on. */
static void check_sm_cubin(struct gp_cubin *c, int sm)
{
	static const char *const mnem[] = { "HMMA", "IMMA", "QMMA" };
	int op_of[3] = { -1, -1, -1 };

	for (size_t i = 0; i < gp_nmmas; i++) {
		const struct gp_mma *d = &gp_mmas[i];
		const int native = gp_mma_code_at(d, sm) == GP_MMA_NATIVE;
		for (int t = 0; t < 2; t++) {
			const size_t per = t ? (size_t)MMA_TRIP_STEPS * MMA_CHAINS : MMA_TRIP_STEPS;
			const struct kernel_ops o = count_ops(c, t ? "tput" : "lat", d->name, per);
			size_t g = 0;
			if (!native ? o.ninsn >= MMA_TRIP_STEPS : !strcmp(d->sass, "DMMA") ? !o.multiple : o.exact < 0)
				fail_msg("sm_%d %s_%s (%zu instructions, %s there): %s", sm, t ? "tput" : "lat", d->name,
					 o.ninsn, native ? "native" : "not native",
					 native ? "no opcode once per mma" : "not the empty kernel");
			if (!native || !strcmp(d->sass, "DMMA"))
				continue;
			while (strcmp(mnem[g], d->sass))
				g++;
			if (op_of[g] >= 0 && op_of[g] != o.exact)
				fail_msg("sm_%d: %s is opcode %#x in %s, %#x before", sm, d->sass, o.exact, d->name, op_of[g]);
			op_of[g] = o.exact;
		}
	}
	for (int g = 0; g < 3; g++)
		for (int h = 0; h < g; h++)
			if (op_of[g] >= 0 && op_of[g] == op_of[h])
				fail_msg("sm_%d: %s and %s are the same opcode %#x", sm, mnem[g], mnem[h], op_of[g]);
	print_message("sm_%-3d opcode of HMMA %03x IMMA %03x QMMA %03x (fff: not native there)\n", sm,
		      op_of[0] & 0xfff, op_of[1] & 0xfff, op_of[2] & 0xfff);
}

/* The kernels the build compiled (every sm in CI's SM=all; this machine's otherwise). */
static void test_kernels_where_native(void **state)
{
	const char *b = getenv("BUILD"), *build = b && *b ? b : "build";
	int sms[32];
	const size_t n = built_sms(build, sms, GP_ARRAY_SIZE(sms));

	if (!n) {
		print_message("skipped: no %s/gen/sm.list (this build holds no kernels)\n", build);
		skip();
	}
	for (size_t s = 0; s < n; s++) {
		struct gp_cubin c;
		char path[512];
		int io = 0;

		snprintf(path, sizeof path, "%s/kernels/probes/mma.sm_%d.cubin", build, sms[s]);
		if (gp_cubin_load(&c, path, &io))
			fail_msg("%s: %s", path, gp_cubin_error(&c));
		assert_int_equal(c.sm, sms[s]);
		check_sm_cubin(&c, sms[s]);
		gp_cubin_close(&c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_registers), cmocka_unit_test(test_list_names),
		cmocka_unit_test(test_flops_and_peaks), cmocka_unit_test(test_expect_words),
		cmocka_unit_test(test_exact_range),     cmocka_unit_test(test_operands_and_cannot),
		cmocka_unit_test(test_verdict_twelve_sms), cmocka_unit_test(test_kernels_where_native),
	};

	return cmocka_run_group_tests_name("mma", tests, NULL, NULL);
}
