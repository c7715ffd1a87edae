// Where a GPU call's time went; transfers are always kept apart from kernel time. Private.
#pragma once

namespace tscope::gpu {

struct Timing {
    double upload_s = 0;    // host to device
    double kernel_s = 0;    // the kernels alone
    double download_s = 0;  // the result back
};

}  // namespace tscope::gpu
