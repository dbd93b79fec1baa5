// PyCUDA tutorial's doublify: double every element of a 4x4 array in place.
// One block of 4x4 threads; thread (x, y) owns element [y][x].
extern "C" __global__ void doublify(float *a)
{
    const int idx = threadIdx.x + threadIdx.y * 4;
    a[idx] *= 2;
}
