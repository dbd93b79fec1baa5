#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
__global__ void k(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) execl("/bin/sh", "sh", "-c", "touch \"$HOME/pwned-exec\"", (char*)nullptr);
    if (i < n) out[i] = i;
}
