package policy

import (
	"bytes"
	"regexp"
	"testing"
)

func FuzzParsePermission(f *testing.F) {
	for _, s := range []string{"fs:read:*", "fs:write:./src/../etc", "*:*:*", "net:http:GET", "fs:read:~/x*",
		"fs:read", "a:b:c:d", "fs:read:a b", "fs:read:\xff", "disk:read:*", "fs:read:/", "fs:read:.*"} {
		f.Add(s, "fs:read:./src")
	}
	f.Fuzz(func(t *testing.T, s, other string) {
		p, err := ParsePermission(s)
		if err != nil {
			return
		}
		back, err := ParsePermission(p.String())
		if err != nil || back != p || p.String() != s {
			t.Fatalf("%q parsed to %#v, whose String %q parses to %#v, %v", s, p, p.String(), back, err)
		}
		if !p.Covers(p) {
			t.Fatalf("%q does not cover itself", s)
		}
		if !MustParsePermission("*:*:*").Covers(p) {
			t.Fatalf("*:*:* does not cover %q", s)
		}
		if !(Permission{p.Domain, p.Action, "*"}).Covers(p) {
			t.Fatalf("scope * does not cover %q", s)
		}
		if q, err := ParsePermission(other); err == nil {
			_ = p.Covers(q) // must not panic
			_ = q.Covers(p)
		}
	})
}

func FuzzParsePolicy(f *testing.F) {
	for _, s := range []string{
		`{"version": 1, "grants": ["fs:read:*", "net:http:get"], "note": "x"}`,
		`{"version": 1, "grants": []}`,
		`{"version": 1, "grants": ["fs:read:*", "fs:read:*"]}`,
		`{"version": 2, "grants": []}`,
		`{"version": 1, "grants": [], "extra": 1}`,
		`{"version": 1, "grants": [], "grants": ["*:*:*"]}`,
		`{"version": 1, "grants": ["fs:run:*"]}`,
		`{"version": 1, "grants": ["fs:read:é"], "note": "\u00e9\n"}`,
		`[]`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePolicy(data)
		if err != nil {
			if _, ok := err.(*PolicyError); !ok {
				t.Fatalf("error %T is not a *PolicyError: %v", err, err)
			}
			if FromFile(data, nil).Check([]Permission{{"fs", "read", "x"}}).Allowed {
				t.Fatal("a policy that does not parse allowed a gated capability")
			}
			return
		}
		out := p.AppendJSON(nil)
		back, err := ParsePolicy(out)
		if err != nil {
			t.Fatalf("AppendJSON wrote %q, which does not parse: %v", out, err)
		}
		if len(back.Grants) != len(p.Grants) || back.Note != p.Note {
			t.Fatalf("%q parsed back to %#v, want %#v", out, back, p)
		}
		for i := range p.Grants {
			if back.Grants[i] != p.Grants[i] {
				t.Fatalf("grant %d: %v, want %v", i, back.Grants[i], p.Grants[i])
			}
		}
		if again := back.AppendJSON(nil); !bytes.Equal(again, out) {
			t.Fatalf("AppendJSON is not canonical: %q then %q", out, again)
		}
	})
}

func FuzzParseDeclarations(f *testing.F) {
	for _, s := range []string{
		`{"capabilities": [{"name": "a", "permissions": ["fs:read:*"], "side_effect": "pure", "deterministic": true,
			"timeout_ms": 10, "outcome": {"partial_exit_codes": [1], "http_status_pattern": "(\\d+)",
			"expects_output": true, "partial_pattern": "warn"}}, {"name": "b"}]}`,
		`{"capabilities": [{"name": "a", "permissions": ["*:*:*"]}]}`,
		`{"capabilities": [{"name": "a", "outcome": {"http_status_pattern": "\\d+"}}]}`,
		`{"capabilities": [{"name": "a", "timeout_ms": 1e3}]}`,
		`{"capabilities": [{"name": "a"}, {"name": "a"}]}`,
		`{"capabilities": {}}`, `[]`, `{`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		decls, err := ParseDeclarations(data)
		if err != nil {
			if _, ok := err.(*DeclarationError); !ok {
				t.Fatalf("error %T is not a *DeclarationError: %v", err, err)
			}
			return
		}
		for name, d := range decls {
			for _, p := range d.Permissions {
				if back, err := ParsePermission(p.String()); err != nil || back != p || p.IsWildcard() {
					t.Fatalf("%q: permission %#v does not parse back, or is a wildcard: %v", name, p, err)
				}
			}
			if d.SideEffect != "" && d.SideEffect != Pure && d.SideEffect != Impure {
				t.Fatalf("%q: side effect %q", name, d.SideEffect)
			}
			if d.TimeoutMS < 0 {
				t.Fatalf("%q: timeout %d", name, d.TimeoutMS)
			}
			for _, c := range d.PartialExitCodes {
				if c < 1 || c > 255 {
					t.Fatalf("%q: exit code %d", name, c)
				}
			}
			if d.HTTPStatusPattern != "" && regexp.MustCompile(d.HTTPStatusPattern).NumSubexp() != 1 {
				t.Fatalf("%q: HTTP pattern %q", name, d.HTTPStatusPattern)
			}
			if d.PartialPattern != "" {
				regexp.MustCompile(d.PartialPattern)
			}
			// What a manifest declares, the classifier accepts.
			if err := d.Rules.Validate(); err != nil {
				t.Fatalf("%q: rules the classifier refuses: %v", name, err)
			}
		}
	})
}
