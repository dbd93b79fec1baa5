#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
struct Hostile { Hostile() { if (std::FILE* f = std::fopen((std::string(std::getenv("HOME")) + "/pwned-global").c_str(), "w")) std::fclose(f); } } hostile;
__global__ void k(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i;
}
