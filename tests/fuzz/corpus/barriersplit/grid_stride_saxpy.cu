extern "C" __global__ void saxpy(int n, float a, const float *x, float *y)
{
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    for (int i = index; i < n; i += stride)
        y[i] = a * x[i] + y[i];
}
