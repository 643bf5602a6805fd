package outcome

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The secrets below are made up, in the shapes the real ones have.
const (
	pemBody = "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB\n" +
		"aNVJz5TqAo/Lk/Gz0rKe8RwPv4kN2jYtXm1Qc9bZsHdLfE7uGiA3oW6pVxT5yJ+M\n" +
		"Kq4uI8oP0lZ2xC=="
	jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)

var sanitizeCases = []struct{ name, in, want string }{
	// Credentials in URLs.
	{"url user:pass", "git clone https://alice:s3cretP4ss@github.com/org/repo.git",
		"git clone https://[REDACTED]@github.com/org/repo.git"},
	{"url database", "connecting to postgres://app:hunter2@db.internal:5432/prod ...",
		"connecting to postgres://[REDACTED]@db.internal:5432/prod ..."},
	{"url empty user", "REDIS_URL=redis://:p%40ssw0rd@cache:6379/0",
		"REDIS_URL=redis://[REDACTED]@cache:6379/0"},
	{"url @ in password", `fatal: unable to access 'https://bob:p@ss:w0rd@git.example.com/x.git/'`,
		`fatal: unable to access 'https://[REDACTED]@git.example.com/x.git/'`},

	// Authorization schemes.
	{"authorization bearer", "Authorization: Bearer abc.def", "Authorization: Bearer [REDACTED]"},
	{"authorization basic in curl", `curl -H "Authorization: Basic dXNlcjpwYXNz" https://api.example.com/v1`,
		`curl -H "Authorization: Basic [REDACTED]" https://api.example.com/v1`},
	{"proxy authorization", "< Proxy-Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l",
		"< Proxy-Authorization: Basic [REDACTED]"},
	{"bare bearer", "retrying with Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0 after 401",
		"retrying with Bearer [REDACTED] after 401"},
	{"bearer jwt", "token rejected: Bearer " + jwt, "token rejected: Bearer [REDACTED]"},
	{"auth header in json", `{"auth": "Basic dXNlcjpwYXNz"}`, `{"auth": "[REDACTED]"}`},

	// Key shapes.
	{"openai legacy", "Incorrect API key provided: sk-4f9aK2mQ7xR1tB8vN3cL6pZ0wY5hJ9dE2gF7sA1qT4uV8iO3.",
		"Incorrect API key provided: sk-[REDACTED]."},
	{"openai project", "using sk-proj-Ab3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5zA7bC9dE1fG3_hJ5kL7 for the call",
		"using sk-proj-[REDACTED] for the call"},
	{"anthropic", "invalid x-api-key (sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8Ba7_xY6wV5uT4sR3qP2oN1mL0kJ-AbCdEfAA)",
		"invalid x-api-key (sk-ant-api03-[REDACTED])"},
	{"github classic", "remote: Invalid username or password ghp_16C7e42F292c6912E7710c838347Ae178B4a.",
		"remote: Invalid username or password ghp_[REDACTED]."},
	{"github oauth and app", "gho_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5z ghs_Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo8Nn",
		"gho_[REDACTED] ghs_[REDACTED]"},
	{"github fine-grained", "GH_TOKEN is github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV0",
		"GH_TOKEN is github_pat_[REDACTED]"},
	{"slack", "posting with xoxb-2048671365-4096185312867-AbCdEfGhIjKlMnOpQrStUvWx failed: invalid_auth",
		"posting with xoxb-[REDACTED] failed: invalid_auth"},
	{"aws access key id", "The AWS Access Key Id AKIAIOSFODNN7EXAMPLE you provided does not exist",
		"The AWS Access Key Id AKIA[REDACTED] you provided does not exist"},
	{"google", "GET https://maps.googleapis.com/maps/api/geocode/json?key=AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY",
		"GET https://maps.googleapis.com/maps/api/geocode/json?key=AIza[REDACTED]"},
	{"stripe", "No such customer (sk_live_4eC39HqLyjWDarjtT1zdp7dc); rk_live_51H8xYzAbC0dEfGhIjK; sk_test_26PHem9AhJZvU623DfE1x4sd",
		"No such customer (sk_live_[REDACTED]); rk_live_[REDACTED]; sk_test_[REDACTED]"},
	{"gitlab npm huggingface", "glpat-xY9zA8bC7dE6fG5hI4jK npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789",
		"glpat-[REDACTED] npm_[REDACTED] hf_[REDACTED]"},
	{"jwt", "id_token_hint " + jwt + " expired", "id_token_hint [REDACTED] expired"},
	{"pem block", "key:\n-----BEGIN RSA PRIVATE KEY-----\n" + pemBody + "\n-----END RSA PRIVATE KEY-----\nloaded",
		"key:\n-----BEGIN RSA PRIVATE KEY-----[REDACTED]-----END RSA PRIVATE KEY-----\nloaded"},
	{"pem cut at the end", "-----BEGIN OPENSSH PRIVATE KEY-----\n" + pemBody[:40],
		"-----BEGIN OPENSSH PRIVATE KEY-----[REDACTED]"},
	{"pem cut at the start", pemBody[70:] + "\n-----END PRIVATE KEY-----\n",
		"[REDACTED]\n-----END PRIVATE KEY-----\n"},

	// Key/value pairs whose key names a secret.
	{"env password", "DB_PASSWORD=hunter2 DB_USER=app", "DB_PASSWORD=[REDACTED] DB_USER=app"},
	{"export quoted", `export GITHUB_TOKEN="abc123def456"`, `export GITHUB_TOKEN="[REDACTED]"`},
	{"json api_key", `{"api_key": "a1b2c3d4e5", "user": "bob"}`, `{"api_key": "[REDACTED]", "user": "bob"}`},
	{"json escaped", `{\"client_secret\": \"s3cr3t-v4lue\", \"n\": 1}`, `{\"client_secret\": \"[REDACTED]\", \"n\": 1}`},
	{"yaml", "db:\n  password: correcthorsebatterystaple\n  host: db", "db:\n  password: [REDACTED]\n  host: db"},
	{"query string", "GET /callback?code=abc&access_token=ya29.a0AfH6SMBx&state=xyz",
		"GET /callback?code=abc&access_token=[REDACTED]&state=xyz"},
	{"camel case single quotes", "{authToken: 'q9w8e7r6t5y4', user: 'x'}", "{authToken: '[REDACTED]', user: 'x'}"},
	{"python repr", "{'private_key': 'MIIEvQIBADANBg', 'id': 7}", "{'private_key': '[REDACTED]', 'id': 7}"},
	{"flag", "mysql --db-password=Tr0ub4dor3 -h db", "mysql --db-password=[REDACTED] -h db"},
	{"api key header", "X-Api-Key: 0123456789abcdef0123456789abcdef", "X-Api-Key: [REDACTED]"},
	{"aws secret", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
		"aws_secret_access_key = [REDACTED]"},
	{"passwd and pwd", "passwd=abc MYSQL_PWD=rootpass pwd: r00t", "passwd=[REDACTED] MYSQL_PWD=[REDACTED] pwd: [REDACTED]"},
	{"credentials plural", "GOOGLE_CREDENTIALS={...} SERVICE_CREDENTIALS: c2VjcmV0", "GOOGLE_CREDENTIALS={...} SERVICE_CREDENTIALS: [REDACTED]"},
	{"key holding a key shape", "OPENAI_API_KEY=sk-proj-Ab3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5zA7bC9",
		"OPENAI_API_KEY=[REDACTED]"},
	{"a scheme word before the scheme", "Basic Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0", "Basic Bearer [REDACTED]"},
	{"a pair inside a rejected one", "tokenizer:password=abc", "tokenizer:password=[REDACTED]"},
	{"a pair inside a quoted value", `auth_url: "https://h/?password=abc"`, `auth_url: "https://h/?password=[REDACTED]"`},
	{"several on a line", "user=bob password=x1 token: y2 secret='z3'", "user=bob password=[REDACTED] token: [REDACTED] secret='[REDACTED]'"},
}

// Ordinary text that mentions secrets, or looks like one, stays as it is.
var sanitizeNegatives = []string{
	"tokenizer output: 512 tokens",
	"password policy updated",
	"See https://docs.example.com/auth/login?next=/home&lang=en for details",
	"commit 3f786850e387550fdab836ed7e6dc881de23001b (HEAD -> main)",
	"request id 123e4567-e89b-12d3-a456-426614174000",
	"author: Jane Doe <jane@example.com>",
	"usage: max_tokens=4096 prompt_tokens: 1200 total_tokens=1350",
	"token_type: bearer, expires_in: 3600",
	"Bearer token authentication failed: 401 Unauthorized",
	"Basic usage: ucs exec -- make test",
	"the secret to good tests is small ones",
	"PWD=/home/alice/project OLDPWD=/home/alice",
	"pip install sk-learn-style-pipeline-configuration",
	"git@github.com:org/repo.git and ssh://git@github.com:22/org/repo",
	"task-1234567890abcdefghij finished",
	"Authentication succeeded for user bob",
	"password: ",
	"password_file=/run/secrets/db auth_url: https://auth.example.com/token",
	"sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
	"listening on http://localhost:8080/ and http://[::1]:8080/",
	"",
}

func TestSanitize(t *testing.T) {
	for _, tc := range sanitizeCases {
		got := Sanitize(tc.in)
		assert.Equal(t, tc.want, got, tc.name)
		assert.Equal(t, got, Sanitize(got), "idempotent: %s", tc.name)
	}
	for _, s := range sanitizeNegatives {
		assert.Equal(t, s, Sanitize(s), "not a secret")
	}
}

// The cases all at once, and a long text: Sanitize is linear and each
// case comes out as it does alone.
func TestSanitizeTogether(t *testing.T) {
	var in, want []string
	for _, tc := range sanitizeCases {
		if !strings.HasPrefix(tc.name, "pem cut") { // a cut block would reach into the next case
			in, want = append(in, tc.in), append(want, tc.want)
		}
	}
	in, want = append(in, sanitizeNegatives...), append(want, sanitizeNegatives...)
	assert.Equal(t, strings.Join(want, "\n"), Sanitize(strings.Join(in, "\n")))

	long := strings.Repeat("password=a1 ", 1<<16) + strings.Repeat("x", 1<<20)
	assert.Equal(t, strings.Repeat("password=[REDACTED] ", 1<<16)+strings.Repeat("x", 1<<20), Sanitize(long))
}

// Inputs that would make a careless redaction quadratic: each is scanned
// in linear time (a quadratic one would take minutes here).
func TestSanitizeLinear(t *testing.T) {
	const n = 1 << 15
	for _, s := range []string{
		strings.Repeat("tokenizer:", n),
		strings.Repeat("tokenizer:x ", n),
		strings.Repeat("a_token_type=b", n),
		strings.Repeat("Basic ", n),
		strings.Repeat(`auth_url: "`, n),
		strings.Repeat("password=", n),
		strings.Repeat("https://a:", n),
		strings.Repeat("-----BEGIN PRIVATE KEY-----", n),
		strings.Repeat("A\n", n) + "-----END PRIVATE KEY-----",
		strings.Repeat("sk-", n),
	} {
		got := Sanitize(s)
		assert.Equal(t, got, Sanitize(got), "idempotent: %.40q", s)
	}
}
