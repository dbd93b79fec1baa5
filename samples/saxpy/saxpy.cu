// SAXPY from BLAS level 1: y = a*x + y in single precision, updated in place.
// One thread per element, with a bounds guard.
extern "C" __global__ void saxpy(float *y, const float *x, float a, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i];
    }
}
