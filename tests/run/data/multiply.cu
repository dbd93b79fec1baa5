// Guarded element-wise product: one thread per element, any grid that covers n.
extern "C" __global__ void multiply(float* dest, const float* a, const float* b, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dest[i] = a[i] * b[i];
}
