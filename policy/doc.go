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
// Decision that names what is missing, and Policy.CheckExec for one run of
// it: the program it would start (a Program, resolved by the caller) must
// be covered by a proc:exec permission the capability declares and by a
// grant. Under a policy nothing is granted by default: a capability that
// declares no permission is refused, and one that declares no proc:exec
// permission runs no program.
//
// Most callers need FromFile and Check or CheckExec: FromFile turns the
// two results of reading the policy file into a *Policy that is never in
// doubt — no file grants everything, a file that cannot be read or parsed
// refuses every capability (fail closed) — and the checks never return an
// error to forget.
//
// A Gate joins a policy to a manifest's declarations for the decisions a
// call makes (Decide, Denied, Without); the operator's policy file, which
// the agent cannot write and which overrides the workspace's policy, is a
// File (LoadFile, and its record in a journal event). The goals an exec
// names are package goal's; PlanExec is the one decision of an exec.
//
// Besides LoadFile, which reads the operator's file and asks the kernel
// who may write it, the package touches no disk; it reads no clock and
// holds no global state besides the Domains table. Paths in scopes are compared after path.Clean,
// never resolved on the file system, so a symbolic link is not followed.
// Nothing here audits or enforces: the caller runs the tool or not, and
// journals the Decision.
package policy
