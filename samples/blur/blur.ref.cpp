// CPU reference for blur: the same clamped box filter, pixel by pixel, adding in the same order.
#include <algorithm>

void blur_ref(float* out, const float* in, int rows, int cols, int radius)
{
    const int width = 2 * radius + 1;
    for (int row = 0; row < rows; ++row) {
        for (int col = 0; col < cols; ++col) {
            float sum = 0.0f;
            for (int dy = -radius; dy <= radius; ++dy) {
                const int r = std::min(std::max(row + dy, 0), rows - 1);
                for (int dx = -radius; dx <= radius; ++dx) {
                    const int c = std::min(std::max(col + dx, 0), cols - 1);
                    sum += in[r * cols + c];
                }
            }
            out[row * cols + col] = sum / (width * width);
        }
    }
}
