package bridge

import (
	"slices"
	"strings"

	"github.com/unified-cognitive-substrate/ucs/internal/workspace"
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
type Model struct {
	Name string
	Doc  string
	// reward is the learning signal of an outcome on an edge of prior
	// utility u.
	reward func(success string, u float64) float64
	// params are the settings of a model of package learn (v3 and
	// later); nil for the reference's model.
	params *learn.Params
	// governs: the qualitative memory is governed (observations
	// from reflections; hits that must match the context, reopen
	// conditions evaluated as conditions). v4 and later; v3 is frozen as
	// it shipped, so its journals replay.
	governs bool
	// steps are the settings of the next-step model (v5 and later); nil
	// for the others.
	steps *nextstep.Params
}

// ucsOwn reports whether the model is one of ucs's own (v3 and later),
// which invent nothing before the agent's first real action.
func (m *Model) ucsOwn() bool { return m.learns() || m.nextSteps() }

// nextSteps reports whether the model is package nextstep's, whose state
// is the state file's "learn" member and the record log.
func (m *Model) nextSteps() bool { return m != nil && m.steps != nil }

// learns reports whether the model is one of package learn's, whose state
// is the state file's "learn" member.
func (m *Model) learns() bool { return m != nil && m.params != nil }

// ModelV2 is the reference's learning model (bridge v2.0, engine v0.2.1),
// ported bit for bit: the model of every workspace written before models
// had names, and of every workspace adopted from the reference.
const ModelV2 = workspace.LegacyModel

// DefaultModel is the model of a new workspace.
const DefaultModel = ModelV5

var models = []*Model{
	{Name: ModelV2, Doc: "the reference's model: reinforced edge weights, φ-cycle artifacts", reward: outcome.ReferenceReward},
	{Name: ModelV3, Doc: "ucs's first own model: success estimates per transition in the task's context, explored optimistically, explained and attributed",
		reward: outcome.ReferenceReward, params: &learn.V3Params},
	{Name: ModelV4, Doc: "ucs's own model: v3, also conditioned on the capability the agent came from, so the steps of one task at one tool are told apart",
		reward: outcome.ReferenceReward, params: &learn.DefaultParams, governs: true},
	{Name: ModelV5, Doc: "ucs's next-step model: what agents did next at the same place of the same or similar tasks, and each step's own success, over exact keys kept in the record log, from the task's start",
		reward: outcome.ReferenceReward, steps: &nextstep.DefaultParams, governs: true},
}

// learningModels lists the names of the models of package learn.
func learningModels() []string {
	var names []string
	for _, m := range models {
		if m.learns() || m.nextSteps() {
			names = append(names, m.Name)
		}
	}
	return names
}

// lookupModel returns the model of that name, or nil.
func lookupModel(name string) *Model {
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

func modelNames() string { return strings.Join(Models(), ", ") }

// governsKnowledge reports whether the model governs the qualitative
// memory (Model.governs).
func (m *Model) governsKnowledge() bool { return m != nil && m.governs }
