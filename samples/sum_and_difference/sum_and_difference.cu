// One kernel, two outputs: sum = x + y and diff = x - y over n floats.
// Each thread reads its x[i] and y[i] once and writes both results.
extern "C" __global__ void sum_and_difference(float *sum, float *diff, const float *x, const float *y, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float xi = x[i];
        const float yi = y[i];
        sum[i] = xi + yi;
        diff[i] = xi - yi;
    }
}
