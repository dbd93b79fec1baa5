// convolutionSeparable's layout: the taps in constant memory (cudaMemcpyToSymbol), a row pass into a
// scratch image, then a column pass from it; edges clamp.
#define KERNEL_RADIUS 4
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)
__constant__ float c_Kernel[KERNEL_LENGTH];

__global__ void convolutionRows(float* d_Dst, const float* d_Src, int imageW, int imageH)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= imageW || y >= imageH) return;
    float sum = 0;
    for (int k = -KERNEL_RADIUS; k <= KERNEL_RADIUS; k++) {
        int sx = min(max(x + k, 0), imageW - 1);
        sum += d_Src[y * imageW + sx] * c_Kernel[KERNEL_RADIUS - k];
    }
    d_Dst[y * imageW + x] = sum;
}

__global__ void convolutionColumns(float* d_Dst, const float* d_Src, int imageW, int imageH)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= imageW || y >= imageH) return;
    float sum = 0;
    for (int k = -KERNEL_RADIUS; k <= KERNEL_RADIUS; k++) {
        int sy = min(max(y + k, 0), imageH - 1);
        sum += d_Src[sy * imageW + x] * c_Kernel[KERNEL_RADIUS - k];
    }
    d_Dst[y * imageW + x] = sum;
}
