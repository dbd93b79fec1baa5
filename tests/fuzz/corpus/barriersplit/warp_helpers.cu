#define FULL 0xffffffffu
__device__ int warpSum(int v) {
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(FULL, v, offset);
    return v;
}
__device__ void note(int* out, int v) { out[threadIdx.x] = __shfl_sync(FULL, v, 0); }
__global__ void k(int* a, int n) {
    __shared__ int sums[32];
    int v = a[threadIdx.x];
    v = warpSum(v);
    if (threadIdx.x % 32 == 0) sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        const int total = warpSum(threadIdx.x < blockDim.x / 32 ? sums[threadIdx.x] : 0);
        note(a, total);
    }
    for (int j = threadIdx.x; j < n; j += blockDim.x) {
        const unsigned active = __activemask();
        const unsigned peers = __match_any_sync(active, a[j] % 4);
        if (threadIdx.x % 32 == __ffs(peers) - 1) atomicAdd(&a[0], __popc(peers));
    }
}
