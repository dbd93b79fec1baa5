// CPU reference: the same time steps, one after the other, over two grids that swap.
#include <cstring>
#include <vector>

void heat_ref(float* u, int width, int height, int steps, float alpha)
{
    const std::size_t n = static_cast<std::size_t>(width) * height;
    std::vector<float> a(u, u + n), b(n);
    for (int s = 0; s < steps; ++s) {
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x) {
                const int i = y * width + x;
                if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
                    b[i] = a[i];
                    continue;
                }
                const float laplacian = a[i - 1] + a[i + 1] + a[i - width] + a[i + width] - 4.0f * a[i];
                b[i] = a[i] + alpha * laplacian;
            }
        a.swap(b);
    }
    std::memcpy(u, a.data(), n * sizeof(float));
}
