/* mma.cu — warp-level mma.sync kernels (H001 lat_mma / H002 tput_mma), generated from
 * probes/mma.list: lat_<v> runs one warp's dependent chain D = A*B + D, MMA_TRIP_STEPS per loop
 * trip, clock64 around the loop; tput_<v> runs MMA_CHAINS independent chains per warp on every
 * SM, the grid's cycles and ns from the clock sample. A trip is one asm statement (as in the
 * other probes): one statement per mma cost cicc about a second per kernel, 26 s a target. Operands come from memory (opnd: the +1
 * word, the -1 word, the sparse metadata) and are loop-invariant: ptxas hoists whatever it
 * emits to prepare them (FP8 -> f16 conversion on sm_90), so the loop holds the tensor op alone.
 * Forms newer than a target sm, or emulated there (mma.list's emu..emu_end), compile to empty
 * kernels there (the host makes them n/a). */
#include "probe.cuh"
#include "mma_shape.h"

static_assert(MMA_TRIP_STEPS == 64 && MMA_TRIP_NET == 2 && MMA_CHAINS == 4,
	      "MMA_TRIP below is 31 (+,-) pairs and two +; the tput kernels run four chains");

/* Operand numbering. lat_ (one chain): D %0..%3, A %4..%11, B+ %12..%15, B- %16..%19, metadata
 * %20. tput_ (MMA_CHAINS = 4 chains in one statement): chain c's D %4c..%4c+3, A %16..%23,
 * B+ %24..%27, B- %28..%31, metadata %32. Unused slots are passed but never named, so they cost
 * nothing. */
#define DL_2 "{%0,%1}"
#define DL_4 "{%0,%1,%2,%3}"
#define AL_1 "{%4}"
#define AL_2 "{%4,%5}"
#define AL_4 "{%4,%5,%6,%7}"
#define AL_8 "{%4,%5,%6,%7,%8,%9,%10,%11}"
#define BP_1 "{%12}"
#define BP_2 "{%12,%13}"
#define BP_4 "{%12,%13,%14,%15}"
#define BM_1 "{%16}"
#define BM_2 "{%16,%17}"
#define BM_4 "{%16,%17,%18,%19}"
#define SP_DENSE ""
#define SP_SPARSE ", %20, 0"
#define MMA_TEXT(ptx, nd, na, B, sp) ptx " " DL_##nd ", " AL_##na ", " B ", " DL_##nd SP_##sp ";\n\t"
#define TD0_2 "{%0,%1}"
#define TD0_4 "{%0,%1,%2,%3}"
#define TD1_2 "{%4,%5}"
#define TD1_4 "{%4,%5,%6,%7}"
#define TD2_2 "{%8,%9}"
#define TD2_4 "{%8,%9,%10,%11}"
#define TD3_2 "{%12,%13}"
#define TD3_4 "{%12,%13,%14,%15}"
#define TA_1 "{%16}"
#define TA_2 "{%16,%17}"
#define TA_4 "{%16,%17,%18,%19}"
#define TA_8 "{%16,%17,%18,%19,%20,%21,%22,%23}"
#define TBP_1 "{%24}"
#define TBP_2 "{%24,%25}"
#define TBP_4 "{%24,%25,%26,%27}"
#define TBM_1 "{%28}"
#define TBM_2 "{%28,%29}"
#define TBM_4 "{%28,%29,%30,%31}"
#define TSP_DENSE ""
#define TSP_SPARSE ", %32, 0"
#define TEXT_CHAIN(ptx, nd, na, B, sp, c) ptx " " TD##c##_##nd ", " TA_##na ", " B ", " TD##c##_##nd TSP_##sp ";\n\t"
/* One step of the MMA_CHAINS chains, interleaved. */
#define MMA_TEXT4(ptx, nd, na, B, sp)                                                              \
	TEXT_CHAIN(ptx, nd, na, B, sp, 0) TEXT_CHAIN(ptx, nd, na, B, sp, 1)                         \
	TEXT_CHAIN(ptx, nd, na, B, sp, 2) TEXT_CHAIN(ptx, nd, na, B, sp, 3)

/* Register types and constraints of the classes. */
#define DT_F16 unsigned
#define DT_F32 float
#define DT_F8 float
#define DT_S32 unsigned
#define DT_F64 double
#define DC_F16 "r"
#define DC_F32 "f"
#define DC_F8 "f"
#define DC_S32 "r"
#define DC_F64 "d"
#define AT_F64 double
#define AC_F64 "d"
#define AT_F16 unsigned
#define AT_BF16 unsigned
#define AT_TF32 unsigned
#define AT_S8 unsigned
#define AT_E4M3 unsigned
#define AT_E5M2 unsigned
#define AC_F16 "r"
#define AC_BF16 "r"
#define AC_TF32 "r"
#define AC_S8 "r"
#define AC_E4M3 "r"
#define AC_E5M2 "r"

/* A trip: 31 (+, -) pairs, then + + (net +2, never above its end value on the way). */
#define MMA_PAIRS31(x) GP_REP16(x) GP_REP8(x) GP_REP4(x) GP_REP2(x) x
#define MMA_TRIP(P, M) MMA_PAIRS31(P M) P P
#define MMA_INPUTS_OF(AC)                                                                          \
	AC(a[0]), AC(a[1]), AC(a[2]), AC(a[3]), AC(a[4]), AC(a[5]), AC(a[6]), AC(a[7]), AC(bp[0]),   \
		AC(bp[1]), AC(bp[2]), AC(bp[3]), AC(bm[0]), AC(bm[1]), AC(bm[2]), AC(bm[3]), "r"(e)
#define MMA_D4(DC, d) "+" DC(d[0]), "+" DC(d[1]), "+" DC(d[2]), "+" DC(d[3])

/* Register bits to result words (an f64 is two, low first); a chain's D is MMA_WORDS words. */
#define MMA_WORDS(DT, nd) ((unsigned)(nd * sizeof(DT) / 4))
__device__ __forceinline__ unsigned mma_put(unsigned *o, unsigned v) { o[0] = v; return 1; }
__device__ __forceinline__ unsigned mma_put(unsigned *o, float v) { o[0] = __float_as_uint(v); return 1; }
__device__ __forceinline__ unsigned mma_put(unsigned *o, double v)
{
	const unsigned long long w = (unsigned long long)__double_as_longlong(v);
	o[0] = (unsigned)w;
	o[1] = (unsigned)(w >> 32);
	return 2;
}
/* One chain's nd D registers as words at o. */
template <typename T> __device__ __forceinline__ void mma_store(unsigned *o, const T *d, int nd)
{
	for (int r = 0, w = 0; r < nd; r++)
		w += mma_put(o + w, d[r]);
}
__device__ __forceinline__ void mma_get(unsigned *v, unsigned long long w) { *v = (unsigned)w; }
__device__ __forceinline__ void mma_get(double *v, unsigned long long w) { *v = __longlong_as_double((long long)w); }

/* Every kernel's start: the operands (every A and B+ register +1, every B- register -1: opnd[0],
 * opnd[1]; the metadata opnd[2]) and the clock sample's start. */
#define MMA_BEGIN(AT)                                                                              \
	AT a[8], bp[4], bm[4];                                                                     \
	const unsigned e = (unsigned)opnd[2];                                                      \
	for (int r = 0; r < 8; r++)                                                                \
		mma_get(&a[r], opnd[0]);                                                           \
	for (int r = 0; r < 4; r++) {                                                              \
		mma_get(&bp[r], opnd[0]);                                                          \
		mma_get(&bm[r], opnd[1]);                                                          \
	}                                                                                          \
	gp_clock_begin(cs);

/* Forms a target is too old for compile to empty kernels there. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define MMA_SM_80(...)
#else
#define MMA_SM_80(...) __VA_ARGS__
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 890
#define MMA_SM_89(...)
#else
#define MMA_SM_89(...) __VA_ARGS__
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define MMA_SM_90(...)
#else
#define MMA_SM_90(...) __VA_ARGS__
#endif
#define MMA_SM_75(...) __VA_ARGS__
/* Nor is a kernel built for the targets where ptxas emulates the form: MMA_EMU_<emu>_<emu_end>
 * for each range mma.list names (FP8: sm_90 up to sm_120, which has QMMA again). The guard's
 * 1200 also gives sm_120 and sm_121 a PTX level of their own (scripts/ptx-levels.sh). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && __CUDA_ARCH__ < 1200
#define MMA_EMU_90_120(...)
#else
#define MMA_EMU_90_120(...) __VA_ARGS__
#endif
#define MMA_EMU_0_0(...) __VA_ARGS__

/* One warp, one chain: cyc gets each lane's loop cycles and its timer overhead, out the D words. */
#define LAT_KERNEL(name, TP, TM, DT, DC, AT, AC, nd, cc, emu, end)                                      \
	extern "C" __global__ void lat_##name(unsigned *out, unsigned long long *cyc,             \
					      const unsigned long long *opnd, int iters,            \
					      gp_clock_sample *cs)                                  \
	{                                                                                          \
		MMA_SM_##cc(MMA_EMU_##emu##_##end(                                                      \
		const unsigned tid = threadIdx.x;                                                  \
		DT d[4] = {};                                                                      \
		unsigned long long o0, o1, t0, t1;                                                 \
		MMA_BEGIN(AT)                                                                      \
		o0 = gp_clock();                                                                   \
		o1 = gp_clock();                                                                   \
		t0 = gp_clock();                                                                   \
		_Pragma("unroll 1") for (int i = 0; i < iters; i++)                                \
			asm volatile(MMA_TRIP(TP, TM) : MMA_D4(DC, d) : MMA_INPUTS_OF(AC));        \
		t1 = gp_clock();                                                                   \
		gp_clock_end_grid(cs);                                                             \
		cyc[2 * tid] = t1 - t0;                                                            \
		cyc[2 * tid + 1] = o1 - o0;                                                        \
		mma_store(out + tid * MMA_WORDS(DT, nd), d, nd);))                                 \
	}

/* MMA_CHAINS chains per warp, interleaved step by step; the grid's window in cs. */
#define TPUT_KERNEL(name, TP, TM, DT, DC, AT, AC, nd, cc, emu, end)                                     \
	extern "C" __global__ void tput_##name(unsigned *out, const unsigned long long *opnd,      \
					       int iters, gp_clock_sample *cs)                      \
	{                                                                                          \
		MMA_SM_##cc(MMA_EMU_##emu##_##end(                                                      \
		const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;                        \
		DT d[MMA_CHAINS][4] = {};                                                          \
		MMA_BEGIN(AT)                                                                      \
		_Pragma("unroll 1") for (int i = 0; i < iters; i++)                                \
			asm volatile(MMA_TRIP(TP, TM)                                              \
				     : MMA_D4(DC, d[0]), MMA_D4(DC, d[1]), MMA_D4(DC, d[2]),       \
				       MMA_D4(DC, d[3])                                            \
				     : MMA_INPUTS_OF(AC));                                         \
		gp_clock_end_grid(cs);                                                             \
		for (int c = 0; c < MMA_CHAINS; c++)                                               \
			mma_store(out + ((size_t)tid * MMA_CHAINS + c) * MMA_WORDS(DT, nd), d[c], nd);)) \
	}

#define MMA(name, ptx, m, n, k, in, acc, na, nb, nd, sp, cc, emu, emu_end, sass)                  \
	LAT_KERNEL(name, MMA_TEXT(ptx, nd, na, BP_##nb, sp), MMA_TEXT(ptx, nd, na, BM_##nb, sp),   \
		   DT_##acc, DC_##acc, AT_##in, AC_##in, nd, cc, emu, emu_end)                      \
	TPUT_KERNEL(name, MMA_TEXT4(ptx, nd, na, TBP_##nb, sp), MMA_TEXT4(ptx, nd, na, TBM_##nb, sp), \
		    DT_##acc, DC_##acc, AT_##in, AC_##in, nd, cc, emu, emu_end)
#include "mma.list"
#undef MMA
