// Which GPU this host thread's engine calls run on: device 0 unless an OnDevice scope says
// otherwise (a multi-GPU run drives one GPU per part). Every CUDA entry point of the engine
// selects it (cuda_util.cuh's use_device()). No CUDA types here: C++20 code uses it too.
#pragma once

namespace tscope::gpu {

// This thread's engine GPU (a thread-local ordinal).
int& engine_device();

// Makes `device` this thread's engine GPU until the end of the scope.
class OnDevice {
public:
    explicit OnDevice(int device);
    ~OnDevice();
    OnDevice(const OnDevice&) = delete;
    OnDevice& operator=(const OnDevice&) = delete;

private:
    int saved_ = 0;
};

}  // namespace tscope::gpu
