package advice

import (
	"slices"

	"github.com/unified-cognitive-substrate/ucs/learn"
	"github.com/unified-cognitive-substrate/ucs/learn/nextstep"
	"github.com/unified-cognitive-substrate/ucs/outcome"
)

// A Model is a learning model: how a reported outcome changes what the
// workspace will advise. A workspace names its model (the state's
// ucs.model) and every event records the model that applied it, so a
// replay applies each event with the behaviour it was written with, and a
// change of model is an explicit, journaled step, never a side effect of
// an upgrade.
//
// The registry lives here, not in package learn, because a model names
// the settings of both of its learners (learn.Params, nextstep.Params),
// and this package is the one above both.
type Model struct {
	Name string
	Doc  string
	// Reward is the learning signal of an outcome on an edge of prior
	// utility u.
	Reward func(success string, u float64) float64
	// Params are the settings of a model of package learn (v3 and
	// later); nil for the reference's model.
	Params *learn.Params
	// Governs: the qualitative memory is governed (observations
	// from reflections; hits that must match the context, reopen
	// conditions evaluated as conditions). v4 and later; v3 is frozen as
	// it shipped, so its journals replay.
	Governs bool
	// Steps are the settings of the next-step model (v5 and later); nil
	// for the others.
	Steps *nextstep.Params
}

// UCSOwn reports whether the model is one of ucs's own (v3 and later),
// which invent nothing before the agent's first real action.
func (m *Model) UCSOwn() bool { return m.Learns() || m.NextSteps() }

// NextSteps reports whether the model is package nextstep's, whose state
// is the state file's "learn" member and the record log.
func (m *Model) NextSteps() bool { return m != nil && m.Steps != nil }

// Learns reports whether the model is one of package learn's, whose state
// is the state file's "learn" member.
func (m *Model) Learns() bool { return m != nil && m.Params != nil }

// GovernsKnowledge reports whether the model governs the qualitative
// memory (Model.Governs).
func (m *Model) GovernsKnowledge() bool { return m != nil && m.Governs }

// ModelV2 is the reference's learning model (bridge v2.0, engine v0.2.1),
// ported bit for bit: the model of every workspace written before models
// had names, and of every workspace adopted from the reference. Storage
// knows it as workspace.LegacyModel (a test holds the two equal): it sits
// above this package and cannot name it.
const ModelV2 = "v2"

// ModelV3 is ucs's first own learning model (package learn, learn.V3Params):
// success estimates per transition conditioned on the task's terms, ranked
// with an optimistic bonus for what is little known, with every suggestion
// explained and every report attributed to the advice it followed or not.
const ModelV3 = "v3"

// ModelV4 is v3 conditioned also on the capability the agent came from
// (learn.Context.After), from the agent's trail (learn.Trail).
const ModelV4 = "v4"

// ModelV5 is ucs's next-step model (package learn/nextstep): it ranks the
// agent's next step by what agents did next in the same place of the same
// or similar tasks and by the step's own chance of success, over exact
// keys, from the task's start. Its evidence lives in the workspace's
// record log, read key by key, so a call costs the same however much it
// learned; the state file keeps only the episodes, the advisories and a
// few numbers.
const ModelV5 = "v5"

// DefaultModel is the model of a new workspace.
const DefaultModel = ModelV5

var models = []*Model{
	{Name: ModelV2, Doc: "the reference's model: reinforced edge weights, φ-cycle artifacts", Reward: outcome.ReferenceReward},
	{Name: ModelV3, Doc: "ucs's first own model: success estimates per transition in the task's context, explored optimistically, explained and attributed",
		Reward: outcome.ReferenceReward, Params: &learn.V3Params},
	{Name: ModelV4, Doc: "ucs's own model: v3, also conditioned on the capability the agent came from, so the steps of one task at one tool are told apart",
		Reward: outcome.ReferenceReward, Params: &learn.DefaultParams, Governs: true},
	{Name: ModelV5, Doc: "ucs's next-step model: what agents did next at the same place of the same or similar tasks, and each step's own success, over exact keys kept in the record log, from the task's start",
		Reward: outcome.ReferenceReward, Steps: &nextstep.DefaultParams, Governs: true},
}

// LearningModels lists the names of the models a workspace can move to:
// those that learn again from a journal (UCSOwn).
func LearningModels() []string {
	var names []string
	for _, m := range models {
		if m.UCSOwn() {
			names = append(names, m.Name)
		}
	}
	return names
}

// LookupModel returns the model of that name, or nil.
func LookupModel(name string) *Model {
	for _, m := range models {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// Models lists the names of the learning models this ucs can run.
func Models() []string {
	names := make([]string, len(models))
	for i, m := range models {
		names[i] = m.Name
	}
	return slices.Clip(names)
}

// RegisterModel adds a model to the registry until the returned function
// takes it out again. It exists for tests that prove a replay applies
// each event with the model that wrote it, which needs a second model
// whose reward differs; it is not safe to call while calls run.
func RegisterModel(m *Model) (unregister func()) {
	saved := models
	models = append(models[:len(models):len(models)], m)
	return func() { models = saved }
}
