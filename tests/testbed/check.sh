#!/usr/bin/env bash
# Self-check of the toolkits made by build.sh (no GPU needed).
#
#   bash tests/testbed/check.sh [VERSION ...]      default: every cuda-* in the test bed
#
# Per toolkit: nvcc --version; version sources agree (nvcc, version.json, cuda.h,
# cuda_runtime_api.h); compile + link a kernel program with -cudart shared and
# -cudart static (binary must carry .nv_fatbin); -rdc=true; a thrust program;
# a driver-API program linked with -lcuda against lib64/stubs, then run against the
# stub (cuInit must return 34 = CUDA_ERROR_STUB_LIBRARY).
# CUDA 11.x needs gcc <= 11: uses -ccbin g++-11 (apt-get install g++-11).
# Exit status is non-zero if any check failed.
set -uo pipefail

TESTBED=${CUDAENV_TESTBED:-$HOME/.cache/cudaenv-testbed}
W=$(mktemp -d)
trap 'rm -rf -- "$W"' EXIT
FAILS=0

cat > "$W/prog.cu" <<'EOF'
#include <cstdio>
#include <cuda_runtime.h>
__global__ void k(int *p) { p[threadIdx.x] = threadIdx.x; }
int main() {
    int *d = nullptr;
    cudaError_t e = cudaMalloc(&d, 32 * sizeof(int));
    if (e != cudaSuccess) { printf("cudaMalloc: %s\n", cudaGetErrorString(e)); return 2; }
    k<<<1, 32>>>(d);
    e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 3;
}
EOF
cat > "$W/thrust.cu" <<'EOF'
#include <cstdio>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <cub/version.cuh>
int main() {
    thrust::device_vector<int> v(16, 1);
    printf("thrust %d cub %d sum %d\n", THRUST_VERSION, CUB_VERSION, (int)thrust::reduce(v.begin(), v.end()));
    return 0;
}
EOF
cat > "$W/drv.cu" <<'EOF'
#include <cstdio>
#include <cuda.h>
int main() {
    CUresult r = cuInit(0);
    const char *s = nullptr;
    cuGetErrorString(r, &s);
    printf("cuInit=%d\n", (int)r);
    return 0;
}
EOF

ok()   { printf '  %-34s OK   %s\n' "$1" "${2:-}"; }
bad()  { printf '  %-34s FAIL %s\n' "$1" "${2:-}"; FAILS=$((FAILS + 1)); }
info() { printf '  %-34s      %s\n' "$1" "${2:-}"; }

check_one() {
    local tk=$1 nvcc=$1/bin/nvcc out o
    echo "=== $tk"
    [ -f "$tk/.complete" ] || bad "complete marker" "no .complete"
    if ! out=$("$nvcc" --version 2>&1); then bad "nvcc --version" "$out"; return; fi
    local rel build
    rel=$(sed -n 's/.*release \([0-9.]*\),.*/\1/p' <<<"$out")
    build=$(sed -n 's/.*, V\([0-9.]*\)$/\1/p' <<<"$out")
    ok "nvcc --version" "release $rel, V$build"

    # --- version sources
    local vj_cuda vj_nvcc vj_rt cuda_h cudart_h
    read -r vj_cuda vj_nvcc vj_rt < <(python3 -c '
import json, sys; j = json.load(open(sys.argv[1]))
print(j["cuda"]["version"], j["cuda_nvcc"]["version"], j["cuda_cudart"]["version"])' "$tk/version.json")
    cuda_h=$(sed -n 's/^#define CUDA_VERSION \([0-9]*\).*/\1/p' "$tk/include/cuda.h")
    cudart_h=$(sed -n 's/^#define CUDART_VERSION *\([0-9]*\).*/\1/p' "$tk/include/cuda_runtime_api.h")
    local maj=${rel%%.*} min=${rel#*.} want
    want=$((maj * 1000 + min * 10))
    if [ "$vj_nvcc" = "$build" ] && [ "${vj_cuda%.*}" = "$rel" ] && [ "$cuda_h" = "$want" ] \
       && [ "$cudart_h" = "$want" ] && [ -e "$tk/lib64/libcudart.so.$vj_rt" ]; then
        ok "versions agree" "version.json cuda=$vj_cuda nvcc=$vj_nvcc cudart=$vj_rt; CUDA_VERSION=$cuda_h"
    else
        bad "versions agree" "nvcc=$rel/$build version.json=$vj_cuda/$vj_nvcc/$vj_rt cuda.h=$cuda_h cudart.h=$cudart_h"
    fi

    local cc=()
    if [ "$maj" -le 11 ]; then
        if command -v g++-11 >/dev/null; then cc=(-ccbin g++-11)
        else bad "host compiler" "CUDA 11 needs g++-11 (apt-get install g++-11)"; return; fi
    fi
    info "host compiler" "${cc[*]:-default ($(g++ -dumpversion))}"

    # --- runtime API, shared and static cudart
    local mode
    for mode in shared static; do
        if out=$("$nvcc" "${cc[@]}" -cudart "$mode" -o "$W/prog_$mode" "$W/prog.cu" 2>&1); then
            o=$(readelf -S "$W/prog_$mode")   # no `readelf | grep -q`: SIGPIPE + pipefail
            if grep -q '\.nv_fatbin' <<<"$o"; then
                ok "nvcc -cudart $mode" "compiled + linked, .nv_fatbin present"
            else
                bad "nvcc -cudart $mode" "no .nv_fatbin section"
            fi
        else
            bad "nvcc -cudart $mode" "$(tail -n3 <<<"$out")"
        fi
    done
    if [ -x "$W/prog_shared" ]; then
        o=$(LD_LIBRARY_PATH=$tk/lib64 ldd "$W/prog_shared"); o=$(grep libcudart <<<"$o")
        case "$o" in *"$tk/lib64/"*) ok "shared cudart resolves in lib64" "$(echo $o | cut -d' ' -f1)" ;;
                     *) bad "shared cudart resolves in lib64" "$o" ;; esac
        o=$(LD_LIBRARY_PATH=$tk/lib64 timeout 20 "$W/prog_shared" 2>&1); info "run (shared, no GPU)" "rc=$? $o"
    fi
    if [ -x "$W/prog_static" ]; then
        o=$(timeout 20 "$W/prog_static" 2>&1); info "run (static, no GPU)" "rc=$? $o"
    fi

    # --- relocatable device code (libcudadevrt.a)
    if out=$("$nvcc" "${cc[@]}" -rdc=true -o "$W/prog_rdc" "$W/prog.cu" 2>&1); then ok "nvcc -rdc=true"
    else bad "nvcc -rdc=true" "$(tail -n3 <<<"$out")"; fi

    # --- CCCL (thrust/cub) found by nvcc
    if out=$("$nvcc" "${cc[@]}" -o "$W/thrust" "$W/thrust.cu" 2>&1); then ok "thrust/cub program"
    else bad "thrust/cub program" "$(tail -n3 <<<"$out")"; fi

    # --- driver API against lib64/stubs/libcuda.so
    local stub=$tk/lib64/stubs/libcuda.so nsyms
    nsyms=$(nm -D --defined-only "$stub" | grep -c ' T ')
    if out=$("$nvcc" "${cc[@]}" -o "$W/drv" "$W/drv.cu" -lcuda 2>&1); then
        o=$(readelf -d "$W/drv")
        if grep -q 'NEEDED.*libcuda\.so\.1' <<<"$o"; then
            ok "-lcuda (stubs, $nsyms symbols)" "linked, NEEDED libcuda.so.1"
        else
            bad "-lcuda (stubs, $nsyms symbols)" "binary does not need libcuda.so.1"
        fi
        mkdir -p "$W/drvlib" && ln -sfn "$stub" "$W/drvlib/libcuda.so.1"
        o=$(LD_LIBRARY_PATH=$W/drvlib timeout 20 "$W/drv" 2>&1)
        if [ "$o" = "cuInit=34" ]; then ok "run against stub" "$o (CUDA_ERROR_STUB_LIBRARY)"
        else bad "run against stub" "$o"; fi
    else
        bad "-lcuda (stubs)" "$(tail -n3 <<<"$out")"
    fi
    rm -f "$W"/prog_* "$W/drv" "$W/thrust"
}

if [ $# -gt 0 ]; then
    dirs=(); for v in "$@"; do dirs+=("$TESTBED/cuda-$v"); done
else
    dirs=("$TESTBED"/cuda-*)
fi
for d in "${dirs[@]}"; do
    [ -d "$d" ] || { echo "=== $d"; bad "exists" "not built"; continue; }
    check_one "$d"
done
echo
if [ "$FAILS" -eq 0 ]; then echo "check: all OK"; else echo "check: $FAILS FAILED"; fi
[ "$FAILS" -eq 0 ]
