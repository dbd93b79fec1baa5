#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
__global__ void k(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) for (;;) { char* p = new char[256 << 20]; std::memset(p, 1, 256 << 20); }
    if (i < n) out[i] = i;
}
