package outcome

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Idempotence over texts made of the pieces the redactions react to, in
// random order: denser in near-misses than what a byte fuzzer finds (it
// found that a redacted value can open a URL's authority to the URL rule,
// which is why Sanitize repeats its passes).
func TestSanitizeIdempotentMixtures(t *testing.T) {
	pieces := []string{
		"password", "token", "tokenizer", "auth", "Authorization", "api_key", "X-Api-Key", "secret", "_type", "_url", "s",
		"=", ":", ": ", " = ", `"`, "'", `\"`, " ", "\n", "\t", "&", ",", ";", "[", "]", "{", "}", "(", ")", "@", "/", "?", "#",
		"Bearer ", "Basic ", "bearer", "https://", "u:p@", "h", "a1b2c3d4e5f6", "x",
		"-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----", "MIIEow", "QUJD", "==", Redacted, "REDACTED",
		"sk-", "proj-", "ant-api03-", "Ab3dE5fG7hI9jK1lM3nO5pQ7r", "ghp_", "AKIA", "IOSFODNN7EXAMPLE", "eyJhbGciOi", ".",
		"eyJzdWIiOiIx", "-", "_", "AIza", "xoxb-", "1234567890", "sk_live_", "github_pat_", "PWD", "null", "*",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 50000 {
		var b strings.Builder
		for range 1 + rng.IntN(16) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		once := Sanitize(b.String())
		if twice := Sanitize(once); twice != once {
			t.Fatalf("not idempotent:\n in    %q\n once  %q\n twice %q", b.String(), once, twice)
		}
	}
	assert.Equal(t, "https://[REDACTED]@[REDACTED]",
		Sanitize("https://eyJzdWIiOiIxapi_key:Authorization?{;Authorization,@[REDACTED]"))
}
