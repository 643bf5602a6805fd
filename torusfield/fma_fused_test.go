//go:build amd64.v3 || arm64 || ppc64 || ppc64le || s390x || riscv64 || loong64

package torusfield

// fmaFusing is true where the compiler may fuse x*y + z into one
// multiply-add (one rounding instead of two): arm64, ppc64x, s390x, riscv64,
// loong64, and amd64 built with GOAMD64=v3 or later.
const fmaFusing = true
