// Package history reads a workspace's report history back and sums it up:
// a past report as its journal event and action-log line recorded it (what
// rate and amend teach again: what a verdict weighs, VerdictWeight; what an
// amendment corrects, Report.Correct), and the digests of a period that
// synthesize and resume give the agent (Period, read by ReadPeriod;
// Briefing): how its actions were spent and went, where its PP health is
// heading (ReadTrend), which jumps it made (the overrides log's line,
// Override), which goals closed and what to do next, from when
// (ParseSince, PeriodStart); status's health check (Status) and how many
// reports it took in all (ReportsTotal); and the reports with the context
// each was made in, as a change of learning model or the dashboard reads
// them (Reports, ReportContexts).
//
// It sits above internal/workspace, whose journal and files it reads, and
// above the learning (learn/advice) and the observations (belief), whose
// weights a verdict takes, and below bridge, whose operations gather what
// else a call's answer needs and hand it here.
// Nothing here writes or reads the clock: the time of a period comes from
// the caller.
package history
