// PyCUDA's first example: multiply two vectors element by element.
// PyCUDA's version uses i = threadIdx.x alone, which can never outgrow one block of 1024 threads;
// this one adds the block's offset and a bound, so that a sweep can take it to millions of elements.
extern "C" __global__ void multiply_them(float *dest, const float *a, const float *b, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dest[i] = a[i] * b[i];
}
