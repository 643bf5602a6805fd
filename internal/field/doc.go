// Package field owns the contract of an operation's input and answer:
// the fields a call takes (Field, of a Type) and the members its answer
// gives (Output), how a value of a field is checked (its type, its words,
// its cap, valid UTF-8) and made safe to store (secrets redacted), how
// the command line's words are recorded (EncodeArgv), how stdin is read
// (ParseInput, MaxInput), how an error names a field to a tool (ToolError),
// and the JSON Schemas derived from a list of fields (InputSchema,
// OutputSchema).
//
// It knows nothing of operations: bridge's registry describes each one by
// a Spec whose Fields and Output are this package's, and joins them to a
// call. Every channel (the command line, stdin, a tool's arguments, a
// store's runner) passes the checks here before anything is stored, so a
// value is held to one rule whichever way it came.
package field
