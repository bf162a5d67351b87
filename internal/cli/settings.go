package cli

import (
	"slices"

	"github.com/spf13/pflag"

	"github.com/dbmeter/dbmeter/internal/result"
)

// settingRoles declares, once for every command, the flags that do not
// define what a run measured, by their long names; every other flag
// defines it. The document records each flag's role (Document.Settings),
// and compare, merge and the reports decide by it. A name means the same
// in every command that has it.
func settingRoles() map[string]result.Role {
	roles := map[string]result.Role{}
	mark := func(r result.Role, names ...string) {
		for _, n := range names {
			roles[n] = r
		}
	}
	// How a run was watched and where its results went.
	mark(result.Observes,
		"json", "html", "md", "csv", "hdr-log", "quiet", "metrics-addr", "no-disk-probe", "cpuprofile",
		"pprof-addr", "progress", "progress-timestamp", "shard", "start-at", "help",
		// pg: its log files, its error lines, and the server's statistics
		// (pg's summary reads --failures-detailed from the params: not here)
		"log-prefix", "verbose-errors", "show-script", "no-server-stats", "server-stats-interval")
	// How long, how often and with which random stream.
	mark(result.Extent,
		"duration", "count", "warmup", "repeat", "seed", "grace", "step-duration",
		"time", "transactions", "random-seed") // pg's -T, -t and seed
	// Lists that choose which variants run; each run names its own in its
	// target or workload. Not --dsn: pg's list is not recorded (each run's
	// target names its server), and ch's one server defines its runs.
	mark(result.Selects, "engines", "ops", "driver", "clients")
	return roles
}

// kindOf names the kind of a flag's value, as result.Setting records it.
func kindOf(f *pflag.Flag) string {
	switch t := f.Value.Type(); t {
	case "duration", "bool", "string":
		return t
	case "int", "int64", "uint64", "uint", "int32":
		return "int"
	case "float", "float64", "float32":
		return "float"
	case "stringSlice", "stringArray", "intSlice", "floatSlice":
		return "list"
	default:
		return "string"
	}
}

// flagSettings splits the flags of fs, set or defaulted, into the params
// that go in every run (what defines it, its extent, its selection lists)
// and the observations the document records apart, and declares them all,
// each under its declared name (result.SettingName), not its spelling.
// Flags named in skip are recorded nowhere. Secrets are masked by the
// caller's redaction of the values.
func flagSettings(fs *pflag.FlagSet, skip ...string) (params, observed map[string]string, decl map[string]result.Setting) {
	roles := settingRoles()
	params, observed, decl = map[string]string{}, map[string]string{}, map[string]result.Setting{}
	fs.VisitAll(func(f *pflag.Flag) {
		if slices.Contains(skip, f.Name) {
			return
		}
		role, ok := roles[f.Name]
		if !ok {
			role = result.Defines
		}
		name := result.SettingName(f.Name) // the declared name: key_size for --key-size
		decl[name] = result.Setting{Role: role, Kind: kindOf(f)}
		if role == result.Observes {
			observed[name] = f.Value.String()
		} else {
			params[name] = f.Value.String()
		}
	})
	return params, observed, decl
}

// flagParams records the flags of fs that go in Run.Params: all but the
// observations and those named in skip.
func flagParams(fs *pflag.FlagSet, skip ...string) map[string]string {
	params, _, _ := flagSettings(fs, skip...)
	return params
}
