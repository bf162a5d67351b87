package cli

import (
	"errors"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/kv"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/result"
)

// The kv defaults are sized so that `dbmeter kv` with no flags runs the
// whole engine × operation matrix in about a minute on 2 cores.
const (
	kvDefaultDuration = 500 * time.Millisecond
	kvDefaultWarmup   = 200 * time.Millisecond
)

type kvFlags struct {
	engines []string
	ops     []string
	fsync   string
	dir     string
	params  []string
	spec    kv.Spec
}

func newKVCmd(env Env) *cobra.Command {
	var rf runFlags
	var kf kvFlags
	cmd := &cobra.Command{
		Use:   "kv",
		Short: "Benchmark embedded K/V engines: engine × operation throughput and latency",
		Long: `kv runs each operation (set, get, del, setmixed/getmixed, batchset) on each
embedded engine, in a fresh directory per engine, and prints a throughput
table and a latency table per fsync mode, operations as rows and engines as
columns. With no flags it runs every engine built in and every operation.

  set       workers write distinct new keys (the key space striped among them)
  get       workers read random preloaded keys (--dist uniform|zipf)
  del       workers delete the preloaded keys, each once (a --keys count run)
  setmixed  one writer sets new keys while the other workers read: the writer
  getmixed  the same run: the readers
  batchset  writes --batch keys per commit through the engine's batch API`,
		Example: `  dbmeter kv
  dbmeter kv --engines pebble,badger --ops set,get --fsync both --duration 5s
  dbmeter kv --engines badger --param badger.value_threshold=64 --json kv.json`,
		Args: noArgs,
	}
	cmd.RunE = runE(func(cmd *cobra.Command, _ []string) error {
		cfg, err := rf.config()
		if err != nil {
			return err
		}
		m, err := kf.matrix(cfg)
		if err != nil {
			return err
		}
		dir, cleanup, err := kv.PrepareDir(kf.dir)
		if errors.Is(err, kv.ErrDirInUse) {
			return usageError{err}
		}
		if err != nil {
			return err
		}
		s, err := newSession(env, rf.output, dir)
		if err != nil {
			cleanup()
			return err
		}
		m.Dir = dir
		m.Repeat = rf.repeat
		m.Flags = flagParams(cmd.Flags())
		m.Watch = func(label string) load.Watcher { return s.watcher(&rf, label) }
		m.Add = func(r result.Run) { s.add(r) }
		runErr := m.Run(cmd.Context())
		if cerr := cleanup(); runErr == nil && cerr != nil {
			runErr = cerr
		}
		if runErr != nil && len(s.doc.Runs) == 0 {
			s.abort()
			return runErr
		}
		if err := s.finish(cmd.Context()); err != nil {
			return errors.Join(runErr, err)
		}
		return runErr
	})
	def := load.DefaultConfig()
	def.Workers = max(2, runtime.GOMAXPROCS(0))
	def.Duration = kvDefaultDuration
	def.Warmup = kvDefaultWarmup
	rf.bind(cmd.Flags(), def)
	spec := kv.DefaultSpec()
	fs := cmd.Flags()
	fs.StringSliceVar(&kf.engines, "engines", kv.Names(), "engines to run, comma-separated")
	fs.StringSliceVar(&kf.ops, "ops", kv.Ops(), "operations to run, comma-separated")
	fs.IntVar(&kf.spec.Keys, "keys", spec.Keys, "keys preloaded before get, del and setmixed/getmixed")
	fs.IntVar(&kf.spec.KeySize, "key-size", spec.KeySize, "key size in bytes")
	fs.IntVar(&kf.spec.ValueSize, "value-size", spec.ValueSize, "value size in bytes")
	fs.StringVar(&kf.spec.Dist, "dist", spec.Dist, "how get picks keys: uniform or zipf")
	fs.IntVar(&kf.spec.Batch, "batch", spec.Batch, "keys per batchset operation")
	fs.StringVar(&kf.fsync, "fsync", "false", "make every write durable before it is acknowledged: false (off), true (on) or both")
	fs.StringVar(&kf.dir, "dir", "", "directory for the engines' files: new, empty, or made by dbmeter (default: a temporary directory, removed afterwards)")
	fs.StringArrayVar(&kf.params, "param", nil, "engine knob engine.key=value, repeatable (see docs/kv.md)")
	return cmd
}

// matrix checks the kv flags against each other and the load config.
func (kf *kvFlags) matrix(cfg load.Config) (*kv.Matrix, error) {
	if err := kf.spec.Validate(); err != nil {
		return nil, usageError{err}
	}
	names := trimAll(kf.engines)
	if len(names) == 1 && names[0] == "all" {
		names = kv.Names()
	}
	engines, err := kv.CheckEngines(names)
	var unknown string
	if errors.Is(err, kv.ErrUnknownEngine) {
		for _, n := range names {
			if _, lerr := kv.Lookup(n); errors.Is(lerr, kv.ErrUnknownEngine) {
				unknown = n
				break
			}
		}
		return nil, unknownName("engines", unknown, kv.Names())
	}
	if err != nil {
		return nil, usageError{err} // known, but not in this build: say why
	}
	if len(engines) == 0 {
		return nil, usagef("--engines is empty: give one or more of %s", strings.Join(kv.Names(), ", "))
	}
	opNames, err := parseNames("ops", strings.Join(kf.ops, ","), kv.Ops())
	if err != nil {
		return nil, err
	}
	ops, err := kv.CheckOps(opNames)
	if err != nil {
		return nil, usageError{err}
	}
	var modes []bool
	switch kf.fsync {
	case "false", "off":
		modes = []bool{false}
	case "true", "on":
		modes = []bool{true}
	case "both":
		modes = []bool{false, true}
	default:
		return nil, usagef("--fsync must be false (off), true (on) or both, got %q", kf.fsync)
	}
	params, err := kv.SplitParams(kf.params)
	if err != nil {
		return nil, usageError{err}
	}
	mixed := slices.Contains(ops, "setmixed") || slices.Contains(ops, "getmixed")
	if mixed && cfg.Workers < 2 {
		return nil, usagef("setmixed/getmixed need --workers 2 or more (one writer, the rest readers), got %d", cfg.Workers)
	}
	if slices.Contains(ops, "del") && kf.spec.Keys < cfg.Workers {
		return nil, usagef("del needs --keys (%d) of at least --workers (%d)", kf.spec.Keys, cfg.Workers)
	}
	return &kv.Matrix{Engines: engines, Ops: ops, Fsync: modes, Spec: kf.spec, Params: params, Load: cfg}, nil
}

func trimAll(list []string) []string {
	out := make([]string, 0, len(list))
	for _, s := range list {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
