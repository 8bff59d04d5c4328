/* tsm2_v56.cuh — TSM2R V5 and V6, the Hopper steps past V4 (split-k), as templates over t2 and t3;
 * included by tsm2_kernels.cuh after V4 (they use its helpers: load_a, load_b_row, add_c, the k
 * slices) and before the instances. V5: V4 with B read from shared memory as LDS.128 for
 * TSM2_V5_ROWS rows a thread; V6: V5 with A streamed through shared memory by cp.async. Both keep
 * V3's summation order per output, so at one k slice their bits are V3's. */

/* ------------------------------------------------------------------ V5: V4, B as LDS.128, two rows a thread (beyond the paper) */

/* Why: V3/V4 take one broadcast LDS per FMA. An SM's shared memory delivers 128 B per clock to
 * scalar loads and about 254 to broadcast LDS.64/LDS.128 (bw_smem), while every thread needs all
 * of its rows' t2 B values per k: at n = 16 that stream, not HBM, set V4's rate (float 62-64 %
 * of the HBM read rate). V5 reads B 16 bytes at a time (one LDS.128 per 4 FFMA, 2 DFMA: twice the
 * bytes per clock) and uses each value for TSM2_V5_ROWS rows (rows tid and tid + t1 of a block of
 * TSM2_V5_ROWS x t1 rows: each A load stays coalesced), so the shared-memory bytes per FMA fall
 * 2 x TSM2_V5_ROWS-fold. Every accumulator adds its products in V3's order (k ascending), so at
 * one k slice the result is V3's to the bit. Needs T3 a multiple of the vector and t1 of T3
 * (tsm2_supports): every read is aligned. */
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

/* V3's panel (one B tile in shared memory, the next tile and A chunk prefetched) for the R rows
 * row0 + r t1 of one thread. */
template <typename T, int T2, int T3, int R>
__device__ __forceinline__ void v5_panel(T (&acc)[R][T2], int m, int k, int n, const T *__restrict__ A, int lda,
					 const T *__restrict__ B, int ldb, T *sB, int row0, int p)
{
	const int t1 = blockDim.x, tid = threadIdx.x;
	long lr[R];
	T nb[T2], ca[R][T3], na[R][T3];

#pragma unroll
	for (int r = 0; r < R; r++) {
		lr[r] = tsm2_load_row(row0 + r * t1, m);
#pragma unroll
		for (int c = 0; c < T2; c++)
			acc[r][c] = 0;
	}
	__syncthreads(); /* the previous panel's readers are done with sB */
	load_b_row<T, T2>(nb, B, tid, p, k, n, ldb);
#pragma unroll
	for (int c = 0; c < T2; c++)
		sB[c * t1 + tid] = nb[c];
#pragma unroll
	for (int r = 0; r < R; r++)
		load_a<T, T3>(ca[r], A, lr[r], 0, k, lda);
	for (int j = 0; j < k; j += t1) {
		__syncthreads();
		if (j + t1 < k)
			load_b_row<T, T2>(nb, B, j + t1 + tid, p, k, n, ldb);
		const int end = tsm2_tile_end(j, t1, k);
		for (int l = j; l < end; l += T3) {
			if (l + T3 < k)
#pragma unroll
				for (int r = 0; r < R; r++)
					load_a<T, T3>(na[r], A, lr[r], l + T3, k, lda);
			fma_tile_rows<T, T2, T3, R>(acc, ca, sB, l - j, t1);
#pragma unroll
			for (int r = 0; r < R; r++)
#pragma unroll
				for (int i = 0; i < T3; i++)
					ca[r][i] = na[r][i];
		}
		__syncthreads();
		if (j + t1 < k)
#pragma unroll
			for (int c = 0; c < T2; c++)
				sB[c * t1 + tid] = nb[c];
	}
}

/* V4's grid and slices with TSM2_V5_ROWS x t1 rows a block (tsm2_blocks with that factor). */
template <typename T, int T2, int T3> __device__ void tsm2_v5(TSM2_ARGS(T))
{
	constexpr int R = TSM2_V5_ROWS;
	extern __shared__ __align__(16) unsigned char smem_raw[];
	T *sB = reinterpret_cast<T *>(smem_raw);
	const int row0 = blockIdx.x * R * blockDim.x + threadIdx.x;
	const int k0 = tsm2_slice_begin(blockIdx.y, gridDim.y, k, blockDim.x);
	const int k1 = tsm2_slice_begin(blockIdx.y + 1, gridDim.y, k, blockDim.x);

	if (k0 >= k1)
		return;
	for (int p = 0; p < n; p += T2) {
		T acc[R][T2];
		v5_panel<T, T2, T3, R>(acc, m, k1 - k0, n, A + (long)k0 * lda, lda, B + k0, ldb, sB, row0, p);
#pragma unroll
		for (int r = 0; r < R; r++)
			add_c<T, T2>(C, acc[r], row0 + r * (int)blockDim.x, p, m, n, ldc);
	}
}

/* ------------------------------------------------------------------ V6: V5 with A through shared memory (beyond the paper) */

/* Why: V5 at n = 16 keeps 32 accumulators, the next B row and two A chunks per thread in
 * registers (168-208 on sm_90), so few threads fit and the A bytes in flight per SM (threads x
 * rows x t3 x elem: 24-33 KB) are too few to cover the HBM latency under load: 75-85 % of the
 * read rate. V6 streams the block's A chunks (its TSM2_V5_ROWS t1 rows x t3 columns) through
 * TSM2_V6_STAGES stages of shared memory with cp.async (sm_80+), TSM2_V6_STAGES - 1 chunks ahead;
 * in flight they hold no register. The block copies a chunk together in 16-byte pieces along the
 * rows (4 floats, 2 doubles; where lda is not a multiple of that, element by element) and
 * barriers once a chunk before its threads read their own rows back; B, the sums and their order
 * are V5's, so at one k slice the bits are V3's. Rows past m and columns past k land as zero. */
template <typename T> __device__ __forceinline__ void copy_async(T *dst, const T *src, int bytes)
{
#if __CUDA_ARCH__ >= 800
	const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
	asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(d), "l"(src), "n"((int)sizeof(T)), "r"(bytes)
		     : "memory");
#else
	*dst = bytes ? *src : T(0);
#endif
}

__device__ __forceinline__ void copy_async16(void *dst, const void *src, int bytes)
{
#if __CUDA_ARCH__ >= 800
	const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(bytes) : "memory");
#else
	for (int b = 0; b < 16; b++)
		((char *)dst)[b] = b < bytes ? ((const char *)src)[b] : 0;
#endif
}

__device__ __forceinline__ void async_commit()
{
#if __CUDA_ARCH__ >= 800
	asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

template <int N> __device__ __forceinline__ void async_wait()
{
#if __CUDA_ARCH__ >= 800
	asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

/* Chunk q (k columns q T3 ..) of the block's R t1 rows from rb into stage q % S of sA
 * ([stage][column][R t1]), piece u of the R T3 t1 / W pieces by thread u % t1; an empty group past
 * the last chunk keeps the count of committed groups uniform. vec: lda is a multiple of W (every
 * piece 16-byte aligned). */
template <typename T, int T3, int R>
__device__ __forceinline__ void v6_issue(T *sA, const T *__restrict__ A, long rb, int m, int k, int lda, int q, int chunks,
					 bool vec)
{
	constexpr int S = TSM2_V6_STAGES, W = 16 / sizeof(T);
	static_assert(R * T3 % W == 0, "V6 copies whole 16-byte pieces of a chunk");
	const int t1 = blockDim.x, per_col = R * t1 / W, l = q * T3;

	if (q < chunks)
#pragma unroll
		for (int v = 0; v < R * T3 / W; v++) {
			const int u = v * t1 + threadIdx.x, i = u / per_col, rr = (u % per_col) * W;
			const long row = rb + rr;
			const int rows = l + i < k && row < m ? (m - row < W ? (int)(m - row) : W) : 0;
			T *dst = sA + ((q % S) * T3 + i) * R * t1 + rr;
			const T *src = rows ? A + row + (long)(l + i) * lda : A;
			if (vec) {
				copy_async16(dst, src, rows * (int)sizeof(T));
			} else {
#pragma unroll 1
				for (int e = 0; e < W; e++)
					copy_async(dst + e, e < rows ? src + e : A, e < rows ? (int)sizeof(T) : 0);
			}
		}
	async_commit();
}

template <typename T, int T2, int T3, int R>
__device__ __forceinline__ void v6_panel(T (&acc)[R][T2], int m, int k, int n, const T *__restrict__ A, int lda,
					 const T *__restrict__ B, int ldb, T *sB, T *sA, long rb, int p)
{
	constexpr int S = TSM2_V6_STAGES;
	const int t1 = blockDim.x, tid = threadIdx.x, chunks = (k + T3 - 1) / T3;
	const bool vec = lda % (16 / (int)sizeof(T)) == 0;
	T nb[T2], ca[R][T3];
	int q = 0;

#pragma unroll
	for (int r = 0; r < R; r++)
#pragma unroll
		for (int c = 0; c < T2; c++)
			acc[r][c] = 0;
	__syncthreads(); /* the previous panel's readers are done with sB and sA */
#pragma unroll
	for (int s = 0; s < S - 1; s++)
		v6_issue<T, T3, R>(sA, A, rb, m, k, lda, s, chunks, vec);
	load_b_row<T, T2>(nb, B, tid, p, k, n, ldb);
#pragma unroll
	for (int c = 0; c < T2; c++)
		sB[c * t1 + tid] = nb[c];
	for (int j = 0; j < k; j += t1) {
		__syncthreads();
		if (j + t1 < k)
			load_b_row<T, T2>(nb, B, j + t1 + tid, p, k, n, ldb);
		const int end = tsm2_tile_end(j, t1, k);
#pragma unroll 1
		for (int l = j; l < end; l += T3, q++) {
			async_wait<S - 2>(); /* this thread's pieces of chunk q have landed */
			__syncthreads();     /* and every other thread's */
#pragma unroll
			for (int r = 0; r < R; r++)
#pragma unroll
				for (int i = 0; i < T3; i++)
					ca[r][i] = sA[((q % S) * T3 + i) * R * t1 + r * t1 + tid];
			v6_issue<T, T3, R>(sA, A, rb, m, k, lda, q + S - 1, chunks, vec);
			fma_tile_rows<T, T2, T3, R>(acc, ca, sB, l - j, t1);
		}
		__syncthreads();
		if (j + t1 < k)
#pragma unroll
			for (int c = 0; c < T2; c++)
				sB[c * t1 + tid] = nb[c];
	}
	async_wait<0>();
}

/* V5's grid, slices and rows; shared memory: the B tile (t1 x T2), then the A stages. */
template <typename T, int T2, int T3> __device__ void tsm2_v6(TSM2_ARGS(T))
{
	constexpr int R = TSM2_V5_ROWS;
	extern __shared__ __align__(16) unsigned char smem_raw[];
	T *sB = reinterpret_cast<T *>(smem_raw), *sA = sB + blockDim.x * T2;
	const int row0 = blockIdx.x * R * blockDim.x + threadIdx.x;
	const int k0 = tsm2_slice_begin(blockIdx.y, gridDim.y, k, blockDim.x);
	const int k1 = tsm2_slice_begin(blockIdx.y + 1, gridDim.y, k, blockDim.x);

	if (k0 >= k1)
		return;
	for (int p = 0; p < n; p += T2) {
		T acc[R][T2];
		v6_panel<T, T2, T3, R>(acc, m, k1 - k0, n, A + (long)k0 * lda, lda, B + k0, ldb, sB, sA,
				       (long)blockIdx.x * R * blockDim.x, p);
#pragma unroll
		for (int r = 0; r < R; r++)
			add_c<T, T2>(C, acc[r], row0 + r * (int)blockDim.x, p, m, n, ldc);
	}
}
