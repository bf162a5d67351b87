package cli

import (
	"strconv"

	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/flagval"
	"github.com/dbmeter/dbmeter/internal/kv"
	"github.com/dbmeter/dbmeter/internal/kv/engine"
	"github.com/dbmeter/dbmeter/internal/kv/kvycsb"
	"github.com/dbmeter/dbmeter/internal/kv/workload"
	"github.com/dbmeter/dbmeter/internal/storage"
	"github.com/dbmeter/dbmeter/internal/usage"
)

func newKVCmd(env Env) *cobra.Command {
	var rf runFlags
	var kc kv.Command
	cmd := &cobra.Command{
		Use:     "kv",
		Short:   "Benchmark embedded K/V engines: engine × operation throughput and latency",
		Long:    help("kv"),
		Example: help("kv-example"),
		Args:    noArgs,
	}
	cmd.RunE = runE(func(cmd *cobra.Command, _ []string) error {
		return runKV(cmd, env, &rf, &kc)
	})
	bindKVFlags(cmd, &rf, &kc)
	return cmd
}

// runKV completes kv's command from the flags and hands it to the family.
func runKV(cmd *cobra.Command, env Env, rf *runFlags, kc *kv.Command) error {
	cfg, err := rf.config()
	if err != nil {
		return err
	}
	if !rf.changed("progress") && cfg.Duration > 0 {
		cfg.Interval = kv.ProgressInterval(cfg.Duration)
		rf.cfg.Interval = cfg.Interval
	}
	fields := fieldFlags(cmd.Flags())
	spelled := spelling(cmd.Flags(), fields)
	kc.Load, kc.Repeat, kc.Flags, kc.Given = cfg, rf.repeat, flagParams(cmd.Flags()), given(cmd.Flags(), fields)
	kc.Sharded = rf.changed("shard") || rf.changed("start-at")
	kc.ProbeShare, kc.Stderr = storage.SharedProbe(env.Getenv), &usage.Writer{W: env.Stderr, Spelling: spelled}
	return usage.Spell(kv.Execute(cmd.Context(), *kc, rf.opener(env, "kv")), spelled)
}

// bindKVFlags binds the shared run flags, with kv's defaults, and kv's own.
func bindKVFlags(cmd *cobra.Command, rf *runFlags, kc *kv.Command) {
	fs := cmd.Flags()
	rf.bind(fs, kv.DefaultLoad())
	rf.repeat = kv.DefaultRepeat
	fs.Lookup("repeat").DefValue = strconv.Itoa(kv.DefaultRepeat)
	fs.Lookup("progress").DefValue = "a tenth of --duration"
	kc.Engines, kc.Ops, kc.Spec, kc.YCSB = engine.Names(), kv.Ops(), workload.DefaultSpec(), kvycsb.DefaultSpec()
	kc.Fsync, kc.Shape = "false", kv.ShapeCells
	declare(fs,
		opt{"Engines", "engines", "", &kc.Engines, "engines to run, comma-separated"},
		opt{"Ops", "ops", "", &kc.Ops, "operations to run, comma-separated"},
		opt{"Keys", "keys", "", &kc.Spec.Keys, "keys preloaded into every cell's store before it is measured"},
		opt{"KeySize", "key-size", "", &kc.Spec.KeySize, "key size in bytes"},
		opt{"ValueSize", "value-size", "", &kc.Spec.ValueSize, "value size in bytes"},
		opt{"Dist", "dist", "", &kc.Spec.Dist, "how get picks keys: uniform or zipf"},
		opt{"Batch", "batch", "", &kc.Spec.Batch, "keys per batchset operation"},
		opt{"Fsync", "fsync", "", &kc.Fsync, "make every write durable before it is acknowledged: false (off), true (on) or both"},
		opt{"Dir", "dir", "", &kc.Dir, "directory for the engines' files: new, empty, or made by dbmeter (default: a temporary directory, removed afterwards)"},
		opt{"StorageProfile", "storage-profile", "", &kc.StorageProfile, "run the engines under a storage class: hdd, sata-ssd, nvme, provisioned, or limits riops=N,wiops=N,rbps=SIZE,wbps=SIZE,mem=SIZE (needs root and cgroups; see docs/storage.md)"},
		opt{"Shape", "shape", "", &kc.Shape, "cells: every operation on a preloaded store of its own, for --duration, repeated; harness: seed 004's harness (kvbench), each engine from an empty store through set, get, setmixed/getmixed and del on one store, each phase --count operations split over --workers, on keys j, 2j, 3j, … per worker (docs/kv.md)"},
		opt{"Params", "param", "", (*flagval.Repeated)(&kc.Params), "engine knob engine.key=value, repeatable (see docs/kv.md)"},
		opt{"FieldCount", "field-count", "", &kc.YCSB.Record.FieldCount, "YCSB: fields per record"},
		opt{"FieldLength", "field-length", "", &kc.YCSB.Record.FieldLength, "YCSB: bytes per field"},
		opt{"InsertOrder", "insert-order", "", &kc.YCSB.InsertOrder, "YCSB: record keys hold the hashed (hashed) or plain (ordered) record number"},
		opt{"Distribution", "distribution", "", &kc.YCSB.Distribution, "YCSB: request distribution for every workload, zipfian, latest, uniform or hotspot (default: each workload's own)"})
	// The shared run flags include sharding, which kv refuses: not offered
	// in its help, and refused in one line when given.
	for _, name := range []string{"shard", "start-at"} {
		if err := fs.MarkHidden(name); err != nil {
			panic(err) // a flag renamed in runflags.go
		}
	}
}
