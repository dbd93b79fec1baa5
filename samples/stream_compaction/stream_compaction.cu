// Stream compaction with one atomic counter: every thread whose element is above the threshold takes
// the next free slot of `kept` with atomicAdd and writes its element there. `count` ends as the number
// of elements kept. Which thread gets which slot depends on the order the atomics happen in, so the
// kept values are the same on every run but their order is not.
__global__ void stream_compaction(const float* in, float* kept, unsigned int* count, float threshold, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > threshold) {
        unsigned int slot = atomicAdd(count, 1u);
        kept[slot] = in[i];
    }
}
