// CPU reference: the same two passes, rows then columns, with the edge pixel repeated past the border.
#include <algorithm>
#include <vector>

void separable_ref(const float* image, const float* taps, float* blurred, int width, int height)
{
    const int radius = 8;
    std::vector<float> rows(static_cast<std::size_t>(width) * height);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            float sum = 0.0f;
            for (int k = -radius; k <= radius; ++k)
                sum += image[y * width + std::clamp(x + k, 0, width - 1)] * taps[radius + k];
            rows[y * width + x] = sum;
        }
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            float sum = 0.0f;
            for (int k = -radius; k <= radius; ++k)
                sum += rows[std::clamp(y + k, 0, height - 1) * width + x] * taps[radius + k];
            blurred[y * width + x] = sum;
        }
}
