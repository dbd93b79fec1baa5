// CPU reference for stream_compaction: the elements above the threshold in their input order, then
// zeros (the output starts zeroed). The kernel keeps the same values in the order its atomics ran.
void stream_compaction_ref(const float* in, float* kept, unsigned int* count, float threshold, int n)
{
    unsigned int next = 0;
    for (int i = 0; i < n; ++i)
        if (in[i] > threshold) kept[next++] = in[i];
    count[0] = next;
}
