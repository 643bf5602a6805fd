//go:build !unix

package policy

import "errors"

// writablePath cannot judge who can write a file here: a policy file is
// refused.
func writablePath(abs string) (string, error) {
	return "", errors.New("policy files are supported on Unix systems only")
}
