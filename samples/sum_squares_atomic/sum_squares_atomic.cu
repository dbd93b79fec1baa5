// Sum of squares with one atomicAdd per thread: every thread adds a[y][x]^2 to the same
// float, *total. Correct, but all the additions to one address happen one after another.
extern "C" __global__ void sum_squares(const float *a, float *total, int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        const float v = a[y * width + x];
        atomicAdd(total, v * v);
    }
}
