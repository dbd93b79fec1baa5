// CPU reference for warp_aggregated_histogram: one count per value, one element at a time.
void warp_aggregated_histogram_ref(unsigned int* bins, const unsigned char* data, int n)
{
    for (int b = 0; b < 16; ++b) {
        bins[b] = 0;
    }
    for (int i = 0; i < n; ++i) {
        ++bins[data[i]];
    }
}
