// Vector addition, the "hello world" of CUDA: c[i] = a[i] + b[i].
// One thread per element; the guard keeps the last block inside the arrays.
extern "C" __global__ void vector_add(float *c, const float *a, const float *b, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
