// Package goal owns what an agent works towards: a Goal, its lifecycle
// (active, completed, failed, suspended), the outcomes it observes, the
// Book of a workspace's goals, their ids (g1, g2, ...) and the JSON the
// workspace's state file keeps them in.
//
// A goal is active until its completion criteria are met (completed), a
// failure finds its retry budget spent (failed), or the agent or an
// operator suspends it; a failed goal becomes active again only by an
// explicit retry, a suspended one by resume. A timeout never fails a
// goal. A goal-directed outcome weighs Weight times an unattributed one in
// learning.
//
// A goal is added by a Request (Book.New), moves by hand by one of Moves
// (Book.Move), and by outcomes attributed to it (Book.Attribute); the
// errors a caller answers with (unknown_goal, invalid_state,
// invalid_value) are package fault's.
//
// The Book holds every open goal (active, suspended or failed) and the
// most recent ClosedKept completed ones, so a call reads them without
// scanning a history; the journal holds every change. The package touches
// no disk and reads no clock: times are given by the caller.
package goal
