package pgstore

// CheckWrites(true) makes every call that uses its write log compare it with
// scans of the mirror before and after, and fail when they differ.
func CheckWrites(on bool) { checkWrites = on }
