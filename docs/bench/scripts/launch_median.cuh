// The median time of a launch for the standalone measurements here (gather_floor.cu,
// row_gather_bandwidth.cu): 12 launches timed by CUDA events, the first dropped (it warms L2 and
// the TLB), the median of the other 11 in ms. Exits with the CUDA error where a call fails.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

template <class Launch>
double median_launch_ms(Launch&& launch) {
    auto ok = [](cudaError_t e, const char* what) {
        if (e == cudaSuccess) return;
        std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    };
    cudaEvent_t a, b;
    ok(cudaEventCreate(&a), "an event");
    ok(cudaEventCreate(&b), "an event");
    std::vector<float> ms;
    for (int i = 0; i < 12; ++i) {
        ok(cudaEventRecord(a), "recording");
        launch();
        ok(cudaGetLastError(), "launching");
        ok(cudaEventRecord(b), "recording");
        ok(cudaEventSynchronize(b), "running");
        float m = 0;
        ok(cudaEventElapsedTime(&m, a, b), "timing");
        if (i > 0) ms.push_back(m);
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}
