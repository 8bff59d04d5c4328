/* tsm2_v5.cuh — TSM2R V5, the Hopper step past V4 (split-k), as a template over t2 and t3; included
 * by the V5 and V6 sources after tsm2_kernels.cuh (it uses its helpers: load_b_row, store_b,
 * put_c, the k slices) and before tsm2_instances.cuh. V5: V4 with B read from shared memory as LDS.128 for TSM2_V5_ROWS
 * rows a thread, and A streamed by cp.async through a per-warp ring of TSM2_V5_STAGES chunks in
 * shared memory, in V3's summation order per output, so at one k slice its bits are V3's.
 * Pitfall: the ring's scalar layout is deliberate (an LDS.128 layout costs 4-way bank conflicts
 * on every 4-byte copy), and the 16-byte copies need the warp's rows whole and A aligned. */

/* ------------------------------------------------------------------ V5: V4, B as LDS.128, two rows a thread (beyond the paper) */

/* Why (B): V3/V4 take one broadcast LDS per FMA. An SM's shared memory delivers 128 B per clock to
 * scalar loads and about 254 to broadcast LDS.64/LDS.128 (bw_smem), while every thread needs all
 * of its rows' t2 B values per k: at n = 16 that stream, not HBM, set V4's rate (float 62-64 %
 * of the HBM read rate). V5 reads B 16 bytes at a time (one LDS.128 per 4 FFMA, 2 DFMA: twice the
 * bytes per clock) and uses each value for TSM2_V5_ROWS rows (rows tid and tid + t1 of a block of
 * TSM2_V5_ROWS x t1 rows: each A load stays coalesced), so the shared-memory bytes per FMA fall
 * 2 x TSM2_V5_ROWS-fold. Every accumulator adds its products in V3's order (k ascending), so at
 * one k slice the result is V3's to the bit. Needs T3 a multiple of the vector and t1 of T3
 * (tsm2_supports): every read is aligned.
 * Why (A): V3's prefetch holds the next chunk in registers, so the A bytes a SM has in flight are
 * bounded by what the accumulators leave (float n = 16: 208 registers, 256 threads, 32 KB a SM;
 * 78-81 % of the HBM read rate on the H100). The ring keeps TSM2_V5_STAGES - 1 chunks a thread
 * in flight in shared memory instead (smem: tsm2_smem_bytes); each thread reads back only its own
 * rows (a warp barrier for the 16-byte copies, no block barrier). */
template <typename T> struct tsm2_vec;
template <> struct tsm2_vec<float> {
	typedef float4 type;
	static __device__ __forceinline__ void fma(float &acc, const float *a, const float4 &b)
	{
		acc = ::fma(a[0], b.x, acc);
		acc = ::fma(a[1], b.y, acc);
		acc = ::fma(a[2], b.z, acc);
		acc = ::fma(a[3], b.w, acc);
	}
};
template <> struct tsm2_vec<double> {
	typedef double2 type;
	static __device__ __forceinline__ void fma(double &acc, const double *a, const double2 &b)
	{
		acc = ::fma(a[0], b.x, acc);
		acc = ::fma(a[1], b.y, acc);
	}
};

/* acc[r][c] += sum_i a[r][i] * sB[c][l0 + i] for the R rows. */
template <typename T, int T2, int T3, int R>
__device__ __forceinline__ void fma_tile_rows(T (&acc)[R][T2], const T (&a)[R][T3], const T *sB, int l0, int t1)
{
	typedef typename tsm2_vec<T>::type V;
	constexpr int W = sizeof(V) / sizeof(T);
	static_assert(T3 % W == 0, "V5 needs t3 a multiple of 16 bytes of B");
#pragma unroll
	for (int i = 0; i < T3; i += W)
#pragma unroll
		for (int c = 0; c < T2; c++) {
			const V b = *reinterpret_cast<const V *>(sB + c * t1 + l0 + i);
#pragma unroll
			for (int r = 0; r < R; r++)
				tsm2_vec<T>::fma(acc[r][c], a[r] + i, b);
		}
}

/* A through shared memory (the ring): one cp.async (LDGSTS, sm_80+) per element, so the loads in
 * flight hold no register. Each warp has R T3 x 32 words of a slot (v5_at): the element for row r
 * and k step i of a chunk is word (r T3 + i) 32 + lane of them, an offset the compiler knows, and
 * a warp's copies and its scalar reads back are one wavefront each (an
 * LDS.128 layout, 16 bytes of a thread together, makes every 4-byte copy a 4-way bank conflict:
 * measured, 42.9 M conflicts of 124 M shared wavefronts). Each thread reads only its own words:
 * no barrier. Before sm_80: a plain copy. */
template <typename T> __device__ __forceinline__ void v5_cp(T *dst, const T *src)
{
#if __CUDA_ARCH__ >= 800
	asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"((unsigned)__cvta_generic_to_shared(dst)),
		     "l"(src), "n"(sizeof(T)));
#else
	*dst = *src;
#endif
}
/* 16 bytes of consecutive rows of one column, the warp-cooperative copy (one LDGSTS.128 does
 * four of the element copies' work: the address arithmetic of 32 4-byte copies was a fifth of
 * the float n = 16 loop's instructions). L2 only (.cg): A is read once. */
template <typename T> __device__ __forceinline__ void v5_cp16(T *dst, const T *src)
{
#if __CUDA_ARCH__ >= 800
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"((unsigned)__cvta_generic_to_shared(dst)),
		     "l"(src));
#else
	*reinterpret_cast<int4 *>(dst) = *reinterpret_cast<const int4 *>(src);
#endif
}
/* This thread's first word in slot l / T3 of the ring. */
template <typename T, int T3, int R> __device__ __forceinline__ T *v5_at(T *sA, int l, int t1, int tid)
{
	return sA + (long)(l / T3 % TSM2_V5_STAGES) * R * T3 * t1 + (tid & ~31) * R * T3 + (tid & 31);
}
template <int N> __device__ __forceinline__ void v5_wait()
{
#if __CUDA_ARCH__ >= 800
	asm volatile("cp.async.commit_group;\ncp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

/* The chunk at l into its slot of the TSM2_V5_STAGES-chunk ring; none past k (an empty group), the
 * chunk crossing k with zeros past it (plain stores: that chunk's slot is not in flight). vec (the
 * same for a whole warp): every row of the warp is below m and A's columns are 16-byte aligned,
 * so the warp copies its 32 rows x R T3 columns in 16-byte pieces, lane % G the piece of a column
 * (G = 32 x elem / 16) and lane / G the column among 32 / G; else one copy per element. */
template <typename T, int T3, int R>
__device__ __forceinline__ void v5_issue(T *sA, const T *__restrict__ A, const long (&lr)[R], int l, int k, int lda,
					 int t1, int tid, bool vec)
{
	constexpr int W = 16 / sizeof(T), G = 32 / W, C = 32 / G;
	static_assert((R * T3) % C == 0, "V5's 16-byte copies need R t3 a multiple of the columns a warp pass covers");
	T *s = v5_at<T, T3, R>(sA, l, t1, tid);

	if (l + T3 <= k && vec) {
		const int lane = tid & 31, p = lane % G, c0 = lane / G;
#pragma unroll
		for (int j = 0; j < R * T3 / C; j++) {
			const int ci = c0 + C * j, r = ci / T3, i = ci % T3;
			v5_cp16<T>(s - lane + ci * 32 + p * W, A + (lr[0] - lane) + (long)r * t1 + p * W + (long)(l + i) * lda);
		}
	} else if (l + T3 <= k) {
#pragma unroll
		for (int r = 0; r < R; r++) {
			const T *q = A + lr[r] + (long)l * lda;
#pragma unroll
			for (int i = 0; i < T3; i++)
				v5_cp<T>(s + (r * T3 + i) * 32, q + (long)i * lda);
		}
	} else if (l < k) {
#pragma unroll
		for (int r = 0; r < R; r++)
#pragma unroll
			for (int i = 0; i < T3; i++)
				s[(r * T3 + i) * 32] =
					l + i < k ? A[lr[r] + (long)(l + i) * lda] : T(0);
	}
}

/* The chunk at l from the ring into registers, once its group (TSM2_V5_STAGES - 1 behind the
 * newest) has landed. */
template <typename T, int T3, int R>
__device__ __forceinline__ void v5_take(T (&a)[R][T3], const T *sA, int l, int t1, int tid)
{
	const T *s = v5_at<T, T3, R>(const_cast<T *>(sA), l, t1, tid);

	v5_wait<TSM2_V5_STAGES - 1>();
	__syncwarp(); /* the 16-byte copies: other lanes' words */
#pragma unroll
	for (int r = 0; r < R; r++)
#pragma unroll
		for (int i = 0; i < T3; i++)
			a[r][i] = s[(r * T3 + i) * 32];
}

/* V3's panel (one B tile in shared memory, the next tile prefetched in registers) for the R rows
 * row0 + r t1 of one thread, A chunks TSM2_V5_STAGES - 1 ahead through the ring in sA. */
template <typename T, int T2, int T3, int R>
__device__ __forceinline__ void v5_panel(T (&acc)[R][T2], int m, int k, int n, const T *__restrict__ A, int lda,
					 const T *__restrict__ B, int ldb, T *sB, T *sA, int row0, int p)
{
	const int t1 = blockDim.x, tid = threadIdx.x;
	long lr[R];
	T nb[T2];

#pragma unroll
	for (int r = 0; r < R; r++) {
		lr[r] = tsm2_load_row(row0 + r * t1, m);
#pragma unroll
		for (int c = 0; c < T2; c++)
			acc[r][c] = 0;
	}
	const bool vec = (row0 | 31) + (R - 1) * t1 < m && lda % (16 / (int)sizeof(T)) == 0 &&
			 (size_t)A % 16 == 0;

	__syncthreads(); /* the previous panel's readers are done with sB */
	load_b_row<T, T2>(nb, B, tid, p, k, n, ldb);
	store_b<T, T2>(sB, nb, t1, tid);
#pragma unroll 1
	for (int s = 0; s < TSM2_V5_STAGES - 1; s++) {
		v5_issue<T, T3, R>(sA, A, lr, s * T3, k, lda, t1, tid, vec);
		v5_wait<TSM2_V5_STAGES>(); /* commits the group, waits for nothing */
	}
	for (int j = 0; j < k; j += t1) {
		next_b_load<T, T2>(nb, B, j, t1, tid, p, k, n, ldb);
		const int end = tsm2_tile_end(j, t1, k);
#pragma unroll 1
		for (int l = j; l < end; l += T3) {
			T a[R][T3];
			/* into the slot chunk l - T3 left (this thread read it in the step before) */
			v5_issue<T, T3, R>(sA, A, lr, l + (TSM2_V5_STAGES - 1) * T3, k, lda, t1, tid, vec);
			v5_take<T, T3, R>(a, sA, l, t1, tid);
			fma_tile_rows<T, T2, T3, R>(acc, a, sB, l - j, t1);
		}
		next_b_store<T, T2>(sB, nb, j, t1, tid, k);
	}
	v5_wait<0>(); /* only empty groups are left: the next panel starts on a clean count */
}

/* V4's grid and slices with TSM2_V5_ROWS x t1 rows a block (tsm2_blocks with that factor). */
template <typename T, int T2, int T3> __device__ void tsm2_v5(TSM2_ARGS(T))
{
	constexpr int R = TSM2_V5_ROWS;
	extern __shared__ __align__(16) unsigned char smem_raw[];
	T *sB = reinterpret_cast<T *>(smem_raw), *sA = sB + T2 * blockDim.x; /* t1 x T2 x elem: 16-byte aligned */
	const int row0 = blockIdx.x * R * blockDim.x + threadIdx.x;
	const int k0 = tsm2_slice_begin(blockIdx.y, gridDim.y, k, blockDim.x);
	const int k1 = tsm2_slice_begin(blockIdx.y + 1, gridDim.y, k, blockDim.x);

	if (k0 >= k1)
		return;
	for (int p = 0; p < n; p += T2) {
		T acc[R][T2];
		v5_panel<T, T2, T3, R>(acc, m, k1 - k0, n, A + (long)k0 * lda, lda, B + k0, ldb, sB, sA, row0, p);
#pragma unroll
		for (int r = 0; r < R; r++)
			put_c<T, T2, TSM2_ADD>(C, acc[r], row0 + r * (int)blockDim.x, p, m, n, ldc);
	}
}
