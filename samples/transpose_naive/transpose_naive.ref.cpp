// CPU reference for transpose_naive: in is rows x cols, out is cols x rows.
void transpose_naive_ref(const float* in, float* out, int rows, int cols)
{
    for (int row = 0; row < rows; ++row) {
        for (int col = 0; col < cols; ++col) {
            out[col * rows + row] = in[row * cols + col];
        }
    }
}
