// CPU reference for the guarded doublify: the first n elements doubled, in place.
void doublify_guarded_ref(float* a, int n)
{
    for (int i = 0; i < n; ++i) {
        a[i] *= 2;
    }
}
