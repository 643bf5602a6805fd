// Package policy owns what a capability (a tool of the agent) declares about
// itself and what a workspace's policy grants, and the decision that joins
// the two: may this capability run?
//
// A permission is a string domain:action:scope ("fs:read:./src",
// "net:http:get"), parsed by ParsePermission; Domains lists the domains and
// actions it knows. A capability's needs come from its manifest entry
// (ParseDeclarations, which also reads its side effect, determinism,
// timeout and outcome patterns). A workspace's grants come from its policy
// file (ParsePolicy); Policy.Check answers for one capability with a
// Decision that names what is missing.
//
// Most callers need FromFile and Check: FromFile turns the two results of
// reading the policy file into a *Policy that is never in doubt — no file
// grants everything, a file that cannot be read or parsed refuses every
// capability that declares permissions (fail closed) — and Check never
// returns an error to forget.
//
// The package touches no disk, reads no clock and holds no global state
// besides the Domains table. Paths in scopes are compared after path.Clean,
// never resolved on the file system, so a symbolic link is not followed.
// Nothing here audits or enforces: the caller runs the tool or not, and
// journals the Decision.
package policy
