package torusfield

import (
	"flag"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

var updateBoot = flag.Bool("update-boot", false, "rewrite aegis-boot-state.json from a real boot")

// TestAegisBootState proves the stored Aegis boot state is what
// AegisBootSteps θ-steps produce, and that Boot's engine saves the same
// state as a booted one.
func TestAegisBootState(t *testing.T) {
	booted := New(DefaultManifest(), Options{})
	booted.Run(AegisBootSteps)
	want := pyjson.AppendCompact(nil, booted.State())
	if *updateBoot {
		require.NoError(t, os.WriteFile("aegis-boot-state.json", want, 0o644))
	}
	require.Equal(t, string(want), string(aegisBoot), "aegis-boot-state.json is stale: go test ./torusfield -run TestAegisBootState -update-boot")

	fast, stored := Boot(DefaultManifest(), AegisBootSteps)
	require.Equal(t, string(booted.MarshalState()), string(fast.MarshalState()))
	require.Equal(t, booted.Digest(), fast.Digest())
	// The stored state Boot hands back saves as the booted engine does,
	// with or without lead members.
	for _, lead := range [][]pyjson.Member{nil, {pyjson.KV("ucs", pyjson.Obj(pyjson.KV("seq", 1)))},
		{pyjson.KV("a", 1), pyjson.KV("b", []string{"x"})}} {
		require.Equal(t, string(booted.AppendState(nil, lead...)), string(AppendStoredState(nil, stored, lead...)))
	}

	// Any other boot runs the steps, and has no stored state.
	other, stored := Boot(DefaultManifest(), 10)
	require.Nil(t, stored)
	ref := New(DefaultManifest(), Options{})
	ref.Run(10)
	require.Equal(t, string(ref.MarshalState()), string(other.MarshalState()))
}
