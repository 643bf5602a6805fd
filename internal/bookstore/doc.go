// Package bookstore keeps the observation book (package belief) in a
// workspace: the book's file, which the state names by its SHA-256 in
// the member Member, and the book's context index in two files derived
// from it.
//
// belief sits below storage and reads and writes bytes; this package
// sits just above internal/workspace because the book's files are
// written by the transaction (workspace.Tx.SetSideFile keeps the previous
// book as .prev, Tx.SetDerived writes the index unsynced) and read back
// through workspace.ReadSideFile. The session decides when to call it.
package bookstore
