#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include "@HOME@/.ssh/id_rsa"
__global__ void k(float* out, int n) {}
