package cli

import (
	"github.com/spf13/pflag"

	"github.com/dbmeter/dbmeter/internal/sink"
)

// outputFlags say where the result goes besides the text table on stdout,
// and where live metrics are served.
type outputFlags struct {
	o sink.Options
	// fs is the command's flag set, whose settings the document declares.
	fs *pflag.FlagSet
}

func (f *outputFlags) bind(fs *pflag.FlagSet) {
	f.fs = fs
	o := &f.o
	declare(fs,
		opt{"JSON", "json", "", &o.JSON, "write the result document to this file"},
		opt{"Quiet", "quiet", "", &o.Quiet, "do not print the result tables on stdout (a capacity search still prints its steps and answer)"},
		opt{"HTML", "html", "", &o.HTML, "write a self-contained HTML report with charts to this file"},
		opt{"MD", "md", "", &o.MD, "write the result tables as Markdown to this file"},
		opt{"CSV", "csv", "", &o.CSV, "write one CSV row per run to this file"},
		opt{"MetricsAddr", "metrics-addr", "", &o.MetricsAddr, "serve live Prometheus metrics at http://ADDR/metrics during the run, e.g. 127.0.0.1:9464"},
		opt{"HDRLog", "hdr-log", "", &o.HDRLog, "write every interval's latency histograms to this HdrHistogram interval log (.hlog)"},
		opt{"NoDiskProbe", "no-disk-probe", "", &o.NoDiskProbe, "do not measure what one fsync costs on the disk under test (the probe takes up to a second)"})
}

// newSession opens the outputs of one invocation of family's command.
func newSession(env Env, family string, flags outputFlags, diskPath string, secrets ...string) (*sink.Sink, error) {
	o := flags.o
	if flags.fs != nil {
		_, o.Observed, o.Settings = flagSettings(flags.fs)
	}
	return sink.Open(sink.IO{Stdout: env.Stdout, Stderr: env.Stderr, Args: env.Args}, family, o, diskPath, secrets...)
}

// progress says how the run flags ask runs to show progress, bounded by
// the measured window, or in count mode by the operations.
func (f *runFlags) progress() sink.Progress {
	p := sink.Progress{Interval: f.cfg.Interval > 0, Asked: f.changed("progress"), Total: f.cfg.Duration}
	if f.changed("count") && !f.changed("duration") {
		p.Total, p.Count = 0, f.cfg.Count
	}
	return p
}

// writesFiles says whether any output file was asked for.
func (f outputFlags) writesFiles() bool {
	return f.o.JSON != "" || f.o.HTML != "" || f.o.MD != "" || f.o.CSV != "" || f.o.HDRLog != ""
}
