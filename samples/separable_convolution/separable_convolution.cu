// A Gaussian blur done as two one-dimensional filters: a 2-D filter of radius R reads (2R+1)^2 pixels per
// output, a separable one 2 * (2R+1), rows first into a scratch image, then columns from it. The taps
// live in __constant__ memory, written by the host before the launches (cudaMemcpyToSymbol): every thread
// of a warp reads the same tap at the same time, which constant memory broadcasts in one access.
#define RADIUS 8
#define TAPS (2 * RADIUS + 1)

__constant__ float c_taps[TAPS];

__global__ void filter_rows(const float* in, float* out, int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    float sum = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) {
        const int sx = min(max(x + k, 0), width - 1); // the edge pixel repeats past the border
        sum += in[y * width + sx] * c_taps[RADIUS + k];
    }
    out[y * width + x] = sum;
}

__global__ void filter_columns(const float* in, float* out, int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    float sum = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) {
        const int sy = min(max(y + k, 0), height - 1);
        sum += in[sy * width + x] * c_taps[RADIUS + k];
    }
    out[y * width + x] = sum;
}
