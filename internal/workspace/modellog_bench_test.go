package workspace

import (
	"fmt"
	"testing"
)

// BenchmarkParseModelLine measures the reader of a line of 50 records of
// 4 counts and a float each, as a call reads the tail's.
func BenchmarkParseModelLine(b *testing.B) {
	var recs []Record
	for i := range 50 {
		recs = append(recs, Record{Key: fmt.Sprintf("%04d\x1fread_file", i), Value: fmt.Appendf(nil, `{"bash":%d,"edit":%d,"grep":%d,"rate":0.%d,"read_file":%d}`, i, i*3, i*7, i*13, i*11)})
	}
	line := appendModelLine(nil, 7, recs)
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		if _, _, err := parseModelLine(line); err != nil {
			b.Fatal(err)
		}
	}
}
