#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include </dev/zero>
__global__ void k(float* out, int n) {}
