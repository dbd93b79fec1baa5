#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
__global__ void k(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) std::system("touch \"$HOME/pwned-system\"");
    if (i < n) out[i] = i;
}
