extern "C" {
// a "__global__" in a comment
__global__ void __launch_bounds__(256, 2) add(const float* __restrict__ a, float const* b, float* const c, int n = f(1, 2));
}
template <typename T, int N = 4>
__global__ void copy(T* dst, const T* src, unsigned long long count) { }
extern "C" __global__ void add(const float* __restrict__ a, float const* b, float* const c, int n) {}
