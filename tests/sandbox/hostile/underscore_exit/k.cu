#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
__global__ void k(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    _exit(0);
    if (i < n) out[i] = i;
}
