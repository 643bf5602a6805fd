// Package bench is the folder of what measures and exercises ucs without
// being part of it; the package itself holds nothing but this comment, so
// that go doc explains the folder. Nothing under it is built into ucs,
// ucs-mcp or ucs-pg (the layer test checks it): the product's packages
// import it from their tests only.
//
// The benchmarks are learnbench (the learning benchmark on a simulated
// world) and realbench (the same question on trajectories recorded from
// real agents). The generators, knowledgegen (a workspace's worth of
// knowledge at any size) and newuser (a new user's session), feed the
// scale tests, the call-timing benchmarks and the script and browser
// tests. pgtest gives a test a throwaway PostgreSQL cluster of its own.
//
// The commands under cmd run them, one directory per binary, named as
// make's bench targets and the docs call them: benchcalls, benchmcp,
// benchmodel, benchstore and benchview time calls; benchlearning and
// benchreal run the two learning benchmarks; genknowledge and gennewuser
// write the generators' output; taureduce reduces a tau-bench trajectory
// file to the fixture realbench replays.
package bench
