#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
__global__ void k(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 7) throw 42;
    if (i < n) out[i] = i;
}
