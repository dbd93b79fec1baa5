// A for (;;) left by returning, a grid-stride loop whose pass ends in its last region, and a guarded
// elementwise kernel whose rows are omp simd.
__global__ void forever(int* a, int n) {
    __shared__ int s[64];
    int step = 0;
    for (;;) {
        s[threadIdx.x] = step;
        __syncthreads();
        const int seen = s[(threadIdx.x + 1) % 64];
        if (seen == 3) { a[threadIdx.x] = seen + step; return; }
        __syncthreads();
        ++step;
    }
}
__global__ void histogram(unsigned* bins, const unsigned char* data, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        const unsigned active = __activemask();
        const unsigned v = data[i];
        const unsigned peers = __match_any_sync(active, v);
        if (threadIdx.x % 32 == __ffs(peers) - 1) atomicAdd(&bins[v], __popc(peers));
    }
}
__global__ void axpy(float* y, const float* x, float a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
