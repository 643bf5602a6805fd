package store

import "github.com/unified-cognitive-substrate/ucs/bridge"

// A Runner runs one operation (op, as the registry names it) on a
// server's workspace: fn gets the Bridge to call. A store's (such as
// pgstore.Runner) makes each call one database transaction on a local
// mirror; the MCP server runs on the directory of its options without
// one.
type Runner func(op string, opts bridge.Options, fn func(b *bridge.Bridge) error) error
