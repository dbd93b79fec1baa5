// PyCUDA's first example: multiply two vectors element by element.
extern "C" __global__ void multiply_them(float *dest, const float *a, const float *b)
{
    const int i = threadIdx.x;
    dest[i] = a[i] * b[i];
}
