// Package atstart hands a call on a PostgreSQL store to ucs-pg while the
// process starts (handoff.Early): imported by cmd/ucs only, never by
// ucs-pg or a test of the command line.
//
// Go initializes the packages of a program in the order of their import
// paths, each once the packages it imports are: this one, which imports
// only package handoff and the standard library's basics, runs before the
// packages of ucs (the workspace, the learning models, the commands), whose
// initialization a call that becomes ucs-pg would otherwise run twice.
package atstart

import "github.com/unified-cognitive-substrate/ucs/internal/handoff"

func init() { handoff.Early() }
