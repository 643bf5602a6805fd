//go:build !(amd64.v3 || arm64 || ppc64 || ppc64le || s390x || riscv64 || loong64)

package torusfield

// fmaFusing is false where the compiler never fuses multiply-adds (amd64
// below GOAMD64=v3, 386, ...): see fma_fused_test.go.
const fmaFusing = false
