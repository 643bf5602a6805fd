// Package advice is the learning glue between a workspace and its
// learning models: the v5 model's learned state as the state file keeps
// it (Steps: the trails of the recent tasks, the advisories remembered for
// attribution, how advice fared), how a call finds its task's episode,
// and the keys the model's evidence has in the record log.
//
// It sits above both models (package learn, v3 and v4; package
// learn/nextstep, v5), which know nothing of a workspace, and below the
// operations (package bridge), which keep only thin calls into it: the
// bridge's session reads the state file, the record log and the clock and
// hands this package what it needs. Nothing here touches the disk.
package advice
