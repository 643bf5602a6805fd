//go:build !unix

package workspace

import "io/fs"

// singleLink reports whether the file has one name; unknown here, so no.
func singleLink(fs.FileInfo) bool { return false }
