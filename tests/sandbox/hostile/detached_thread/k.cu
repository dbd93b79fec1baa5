#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
__global__ void k(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) std::thread([] { for (;;) {} }).detach();
    if (i < n) out[i] = i;
}
