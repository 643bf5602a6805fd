package realbench

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Manifest is the ucs manifest of a dataset: StartTool first (the
// workspace's first cursor), then the dataset's tools sorted by name; start
// connects to every tool, and every tool to every tool, itself included (an
// agent often calls a tool twice in a row, and ucs ranks a self-loop only
// where the manifest declares it). Nothing connects back to start: the
// report of start at an episode's beginning is a jump. Every capability has
// u = c = 0.5, so the manifest's prior, 0.1 × (u − c), is zero for every
// edge: the ranking is learned from the stream alone.
func Manifest(tools []string) []byte {
	conn, _ := json.Marshal(tools)
	var b bytes.Buffer
	b.WriteString("{\"capabilities\": [\n")
	for i, name := range append([]string{StartTool}, tools...) {
		fmt.Fprintf(&b, "  {\"name\": %q, \"connects_to\": %s, \"u\": 0.5, \"c\": 0.5}", name, conn)
		if i < len(tools) {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("]}\n")
	return b.Bytes()
}
