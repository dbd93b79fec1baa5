// CPU reference for histogram_shared: count each byte value. bins arrives zero-filled (an out array).
void histogram_shared_ref(const unsigned char* data, unsigned int* bins, int n)
{
    for (int i = 0; i < n; ++i) {
        bins[data[i]] += 1;
    }
}
