package advice

import "github.com/unified-cognitive-substrate/ucs/learn"

// Member is the state file's member that holds what a workspace of one
// of ucs's own models learned (learn.State for v3 and v4, Steps for v5);
// it comes after the engine's members.
const Member = "learn"

// A Memory is what a workspace's learning model learned, as one call read
// it and as the call changes it. The state file's member is kept as its
// bytes and decoded only when the call needs it, so a call that does not
// learn writes it back byte for byte. Its zero value is a workspace whose
// member the call has not read.
type Memory struct {
	// Raw is the state file's member as read (Member); nil when the
	// state has none.
	Raw []byte
	// State is a v3 or v4 workspace's learned state once a call needs
	// it, and Steps a v5 one's.
	State *learn.State
	Steps *Steps
	// StepLearned is what the call's report taught a v5 model, for the
	// action log.
	StepLearned *StepRecord
	// After is where the agent came from, as the report's learning saw
	// it (kept in the action log, so an amendment retracts the same).
	After string
}

// NewLearnState is the learned state of a new workspace of a model of
// package learn (v3, v4).
func NewLearnState(m *Model) *learn.State { return learn.NewState(learn.New(*m.Params)) }

// Learned returns a v3 or v4 workspace's learned state, decoding it on
// first use; nil for a workspace of another model. Its error is the
// member's, which does not decode.
func (mem *Memory) Learned(m *Model) (*learn.State, error) {
	if !m.Learns() {
		return nil, nil
	}
	if mem.State == nil {
		if mem.Raw == nil {
			mem.State = NewLearnState(m)
		} else {
			v, err := learn.DecodeState(mem.Raw, *m.Params)
			if err != nil {
				return nil, err
			}
			mem.State = v
		}
	}
	return mem.State, nil
}

// LearnedSteps returns a v5 workspace's learned state, decoding it on
// first use; nil for a workspace of another model. Its error is the
// member's, which does not decode.
func (mem *Memory) LearnedSteps(m *Model) (*Steps, error) {
	if !m.NextSteps() {
		return nil, nil
	}
	if mem.Steps == nil {
		if mem.Raw == nil {
			mem.Steps = NewSteps()
		} else {
			v, err := DecodeSteps(mem.Raw)
			if err != nil {
				return nil, err
			}
			mem.Steps = v
		}
	}
	return mem.Steps, nil
}

// Advisories are the consults the learned state remembers, oldest first;
// none before the call decoded it.
func (mem *Memory) Advisories() []learn.Advisory {
	switch {
	case mem.Steps != nil:
		return mem.Steps.Advisories
	case mem.State != nil:
		return mem.State.Advisories
	}
	return nil
}

// AppendMember adds a model's learned state to an encoded state file (an
// object whose last byte is its closing brace), as its last member: the
// bytes as read when the call did not decode it, a new state's when the
// state had none, and nothing for the reference's model.
func (mem *Memory) AppendMember(m *Model, state []byte) []byte {
	if !m.UCSOwn() {
		return state
	}
	state = append(state[:len(state)-1], `,"`+Member+`":`...)
	switch {
	case m.NextSteps() && mem.Steps != nil:
		state = mem.Steps.AppendJSON(state)
	case !m.NextSteps() && mem.State != nil:
		state = mem.State.AppendJSON(state)
	case mem.Raw != nil:
		state = append(state, mem.Raw...)
	case m.NextSteps():
		state = NewSteps().AppendJSON(state)
	default:
		state = NewLearnState(m).AppendJSON(state)
	}
	return append(state, '}')
}

// Precision is how the model's advice fared (Precision), once the call
// decoded its state; nil for the reference's model.
func (mem *Memory) Precision(m *Model) any {
	switch {
	case m.NextSteps() && mem.Steps != nil:
		return Precision(mem.Steps.Followed, mem.Steps.Unfollowed)
	case m.Learns() && mem.State != nil:
		return Precision(mem.State.Followed, mem.State.NotFollowed)
	}
	return nil
}
