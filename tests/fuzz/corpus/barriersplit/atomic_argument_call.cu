__device__ int take(int* credits) { return atomicSub(credits, 1) > 0; }
__global__ void k(int* count, int* credits, int* out)
{
    const int i = threadIdx.x;
    const int slot = atomicAdd(count, take(credits));
    out[i] = slot;
}
