package kv

import (
	"context"
	"errors"
	"io"

	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/storage"
)

// Command is `dbmeter kv` as the CLI hands it over: the matrix, where its
// engines' files go, and the storage class they run under.
type Command struct {
	MatrixOptions
	// Dir is the engines' directory ("": a temporary one, removed after).
	Dir string
	// StorageProfile is the storage class's spec ("" for none);
	// ProbeShare is a study's shared probe (storage.Profile.ProbeShare).
	StorageProfile, ProbeShare string
	// Stderr gets the storage session's messages.
	Stderr io.Writer
}

// Execute runs the matrix c asks for into the output open opens: its
// cells in a directory of their own, under a storage profile when one is
// given. Its errors name settings as {Field}s, for the CLI to spell.
func Execute(ctx context.Context, c Command, open plan.OpenOutput) (err error) {
	k, err := New(c.MatrixOptions)
	if err != nil {
		return err
	}
	prof, err := storage.ParseSpec(c.StorageProfile, c.ProbeShare)
	if err != nil {
		return err
	}
	dir, cleanup, err := PrepareDir(c.Dir)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, cleanup()) }()
	var rec *result.Storage
	if prof != nil {
		// dbmeter moves itself, every thread, into the profile's cgroup
		// for the run: the engines run in its process (docs/storage.md).
		sess, err := storage.Open(ctx, c.Stderr, prof, dir, "dbmeter, the process that runs the engines")
		if err != nil {
			return err
		}
		defer func() { err = errors.Join(err, sess.Close()) }()
		k.SetIO(sess)
		rec = sess.Record
	}
	out, err := open(dir)
	if err != nil {
		return err
	}
	out.Doc().Env.Disk.Storage = rec
	return out.Execute(ctx, k.Plan(dir))
}
