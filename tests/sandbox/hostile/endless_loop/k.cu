#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
__global__ void k(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (volatile int spin = 0; ; spin = spin + 1) {}
    if (i < n) out[i] = i;
}
