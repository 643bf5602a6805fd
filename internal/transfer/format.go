package transfer

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/fault"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
)

// Format names the portable package export writes and import reads.
const Format = "ucs_cognitive_export_v2"

// CheckFormat accepts a package of any version of the export format.
func CheckFormat(x pyjson.Value) error {
	if format := x.Str(); !strings.HasPrefix(format, "ucs_cognitive_export") {
		return fault.BadInput(fault.CodeInvalidValue, "pipe the output of `ucs export` (format "+Format+")",
			"unknown export format %q", format)
	}
	return nil
}

// Digest identifies a package's content, whenever it was exported: its
// canonical JSON without the members that say when and by which request.
func Digest(pkg pyjson.Value) string {
	var ms []pyjson.Member
	for _, m := range pkg.Members() {
		if m.Key != "exported_at" && m.Key != "request_id" {
			ms = append(ms, m)
		}
	}
	sum := sha256.Sum256(pyjson.Canonical(pyjson.ObjectValue(ms)))
	return hex.EncodeToString(sum[:12])
}
