#include </dev/zero>
__global__ void k(float* out, const float* in, int n) {}
