#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
__global__ void k(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) if (std::FILE* f = std::fopen((std::string("/tmp/kp-hostile-") + std::getenv("KP_HOSTILE_TOKEN")).c_str(), "w")) std::fclose(f);
    if (i < n) out[i] = i;
}
