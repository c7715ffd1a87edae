// Small, portable random number generation: the standard library's distributions differ
// between implementations, and generated tensors must be the same everywhere.
// Private to the engine.
#pragma once

#include <cmath>
#include <cstdint>

namespace tscope::detail {

// SplitMix64 (Steele, Lea, Flood 2014): seeds and mixes.
inline std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// SplitMix64's finalizer alone: every input bit moves every output bit (hashes for sketches).
inline std::uint64_t mix64(std::uint64_t x) {
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// xoshiro256** (Blackman, Vigna 2018).
class Rng {
public:
    explicit Rng(std::uint64_t seed) {
        for (auto& w : s_) w = splitmix64(seed);
    }
    std::uint64_t next() {
        const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
        const std::uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return result;
    }
    // Uniform in [0, 1).
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    // Uniform in [0, n), n >= 1, without modulo bias (Lemire 2019).
    std::uint64_t below(std::uint64_t n) {
        unsigned __int128 m = static_cast<unsigned __int128>(next()) * n;
        auto low = static_cast<std::uint64_t>(m);
        if (low < n) {
            const std::uint64_t threshold = (0 - n) % n;
            while (low < threshold) {
                m = static_cast<unsigned __int128>(next()) * n;
                low = static_cast<std::uint64_t>(m);
            }
        }
        return static_cast<std::uint64_t>(m >> 64);
    }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::uint64_t s_[4];
};

// Zipf sampler over {1..n} with P(k) ~ k^-s, by rejection-inversion (Hormann and Derflinger,
// "Rejection-inversion to generate variates from monotone discrete distributions", 1996):
// O(1) per sample and no table, so it works for any n.
class ZipfSampler {
public:
    ZipfSampler(std::uint64_t n, double s) : n_(static_cast<double>(n)), s_(s) {
        h_x1_ = h_integral(1.5) - 1.0;
        h_n_ = h_integral(n_ + 0.5);
        shortcut_ = 2.0 - h_integral_inverse(h_integral(2.5) - h(2.0));
    }
    // A value in [1, n].
    std::uint64_t operator()(Rng& rng) const {
        for (;;) {
            const double u = h_n_ + rng.uniform() * (h_x1_ - h_n_);
            const double x = h_integral_inverse(u);
            double k = std::floor(x + 0.5);
            if (k < 1) k = 1;
            if (k > n_) k = n_;
            if (k - x <= shortcut_ || u >= h_integral(k + 0.5) - h(k)) return static_cast<std::uint64_t>(k);
        }
    }

private:
    double h(double x) const { return std::exp(-s_ * std::log(x)); }
    double h_integral(double x) const {
        const double lx = std::log(x);
        return expm1_over_x((1.0 - s_) * lx) * lx;
    }
    double h_integral_inverse(double x) const {
        double t = x * (1.0 - s_);
        if (t < -1.0) t = -1.0;  // guards rounding at the far end
        return std::exp(log1p_over_x(t) * x);
    }
    static double expm1_over_x(double x) { return std::fabs(x) > 1e-8 ? std::expm1(x) / x : 1.0 + x / 2.0; }
    static double log1p_over_x(double x) { return std::fabs(x) > 1e-8 ? std::log1p(x) / x : 1.0 - x / 2.0; }

    double n_, s_;
    double h_x1_, h_n_, shortcut_;
};

}  // namespace tscope::detail
