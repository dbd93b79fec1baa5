#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <alloca.h>
__global__ void k(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    volatile char* big = (volatile char*)alloca(64 << 20);
    for (int j = 0; j < (64 << 20); j += 4096) big[j] = 1;
    if (i < n) out[i] = big[i];
}
