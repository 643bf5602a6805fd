// Package torusfield is the routing engine of ucs: an agent's capabilities form
// a directed graph whose edges learn weights, laid over a toroidal grid of
// energy fields that diffuse and decay.
//
// Most callers need two things. Build an engine from a capability manifest
// with New (DefaultManifest is the embedded Aegis manifest), or restore a saved
// one with LoadState; then drive it with Step (one θ-step: route, execute,
// reinforce) and PhiCycle (harvest artifacts: wormholes, attractors and
// resonances). MarshalState writes the state file that LoadState reads.
//
// The engine reproduces version 0.2.1 of the Python reference
// (torusfield_kernel.py) number for number: the same operation order, the
// same pseudo-random draws (Random is CPython's Mersenne Twister), the same
// rounding, and a state file (format "torusfield_kernel.v0.2.1") that either
// implementation can load. Two deliberate differences: a loaded state keeps
// its φ log and each artifact's meta (the reference drops them on import), so
// that saving a loaded state gives back the same bytes; and a manifest with a
// label that resolves to nothing is rejected instead of being silently
// dropped.
//
// The package knows nothing about knowledge files, workspaces or the command
// line; it holds no global state and reads no clock. An Engine is not safe for
// concurrent use.
package torusfield
