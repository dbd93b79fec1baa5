void k(float* x) { x[0] = undefined_thing; }
