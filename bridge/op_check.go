package bridge

import (
	"github.com/unified-cognitive-substrate/ucs/internal/audit"
	"github.com/unified-cognitive-substrate/ucs/internal/bookstore"
	"github.com/unified-cognitive-substrate/ucs/internal/contract"
	"github.com/unified-cognitive-substrate/ucs/internal/pyjson"
	"github.com/unified-cognitive-substrate/ucs/policy"
	"github.com/unified-cognitive-substrate/ucs/torusfield"
)

var checkSpec = Spec{
	Op:   contract.Check,
	tool: func(b *Bridge, c Call) (pyjson.Value, error) { return b.Check(argBool(c, "repair")) },
}

// Check verifies the whole workspace and, with repair, repairs what it
// can (audit.Check). What storage cannot judge of the state file is
// audit's, with the policy's and the observations' members judged here.
func (b *Bridge) Check(repair bool) (pyjson.Value, error) {
	rules := audit.StateRules{ReportInterval: torusfield.PhiReportInterval, Members: []audit.MemberRule{
		{Key: policyMember, Judge: func(raw []byte, _ func(string) ([]byte, error)) error { return policy.CheckMember(raw) }},
		{Key: bookstore.Member, Judge: func(raw []byte, read func(string) ([]byte, error)) error {
			if read == nil {
				return nil
			}
			return bookstore.Check(read, raw)
		}},
	}}
	return audit.Check(b.ws, b.now(), repair, rules, b.stateAt, func(args, in pyjson.Value) error {
		return b.commitRecord(Call{Op: "check", Args: args, Input: in})
	})
}

// commitRecord commits an event that records something done outside an
// operation's run (a repair): the state is loaded and committed unchanged.
func (b *Bridge) commitRecord(c Call) error {
	s, err := b.open(Lookup(c.Op), c, newTimings(nil))
	if err != nil {
		return err
	}
	defer s.tx.Close()
	return s.commit(c, s.tBefore)
}
