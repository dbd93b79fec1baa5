#include <cuda_fp16.h>
#define KERNEL extern "C" __global__
#define LONG_MACRO(x) \
    do { x; } while (0)
#if 0
__global__ void disabled(int);
#else
KERNEL void half_kernel(__half* h, size_t n, int2 p, float4* q) {}
#endif
static const char* s = R"raw(__global__ void nope())raw";
__global__ int bad(float** pp, float (*fn)(int), int& r, MyStruct s, unsigned, void*);
__global__ void broken(int a, float* b
