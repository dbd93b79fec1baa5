// CPU reference for doublify_shared: however the values travel through the tile,
// every element of the height x width array ends up doubled, in place.
void doublify_shared_ref(float* a, int width, int height)
{
    for (int i = 0; i < width * height; ++i) {
        a[i] *= 2;
    }
}
