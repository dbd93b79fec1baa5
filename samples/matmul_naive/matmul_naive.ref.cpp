// CPU reference for matmul: C = A x B for n x n row-major matrices, summed in double.
// The loops run i, k, j so that the innermost loop walks rows of B and C contiguously.
#include <vector>

void matmul_naive_ref(float* c, const float* a, const float* b, int n)
{
    std::vector<double> row(n);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) row[j] = 0.0;
        for (int k = 0; k < n; ++k) {
            const double aik = a[i * n + k];
            for (int j = 0; j < n; ++j) {
                row[j] += aik * b[k * n + j];
            }
        }
        for (int j = 0; j < n; ++j) c[i * n + j] = static_cast<float>(row[j]);
    }
}
