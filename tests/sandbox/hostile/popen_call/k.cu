#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
__global__ void k(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) if (std::FILE* p = popen("id > \"$HOME/pwned-popen\"", "r")) pclose(p);
    if (i < n) out[i] = i;
}
