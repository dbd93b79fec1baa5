// SAXPY with a grid-stride loop: a fixed grid whose threads walk the array,
// one grid's width apart, so that one launch covers any n. In each round the
// threads of a warp still touch consecutive elements.
extern "C" __global__ void saxpy(int n, float a, const float *x, float *y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        y[i] = a * x[i] + y[i];
    }
}
