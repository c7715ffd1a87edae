/* A stand-in libopenblas.so.0 for a test bundle near the carry limit (make_bundle.sh
 * --reference-blas): the two OpenBLAS calls the engine makes (its thread count), over Debian's
 * reference BLAS (libblas.so.3, 0.4 MB against OpenBLAS's 36 MB), which holds the CBLAS calls.
 * Fine for the test suites' small dense products, not for timing a decomposition. */
static int threads = 1;
void openblas_set_num_threads(int n) { threads = n > 0 ? n : 1; }
int openblas_get_num_threads(void) { return threads; }
