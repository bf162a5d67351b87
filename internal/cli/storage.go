package cli

import (
	"context"
	"io"

	"github.com/dbmeter/dbmeter/internal/pg/server"
	"github.com/dbmeter/dbmeter/internal/storage"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// storageSpelling spells the settings storage and pg/server name in their
// messages about a storage profile.
var storageSpelling = map[string]string{"StorageProfile": "--storage-profile", "StorageServer": "--storage-server"}

// parseStorageProfile reads --storage-profile; "" is none.
func parseStorageProfile(spec string) (*storage.Profile, error) {
	if spec == "" {
		return nil, nil
	}
	p, err := storage.Parse(spec)
	if err != nil {
		return nil, usage.Spell(usage.Wrap(err), storageSpelling)
	}
	return &p, nil
}

// openStorage runs what follows under profile p (storage.Open), its
// messages spelled for the command line.
func openStorage(ctx context.Context, stderr io.Writer, p *storage.Profile, dataDir, target string, pids ...int) (*storage.Session, error) {
	s, err := storage.Open(ctx, spellingWriter{stderr, storageSpelling}, p, dataDir, target, pids...)
	return s, usage.Spell(err, storageSpelling)
}

// openPGStorage places the cluster the run connects to under profile p:
// its postmaster and every process it forked, and the ones it forks
// later, which start in its cgroup.
func openPGStorage(ctx context.Context, stderr io.Writer, p *storage.Profile, named string, endpoints []string) (*storage.Session, error) {
	pl, err := server.Place(named, endpoints[0])
	if err != nil {
		return nil, usage.Spell(err, storageSpelling)
	}
	return openStorage(ctx, stderr, p, pl.DataDir, pl.Target, pl.PIDs...)
}

// storageProbeShareEnv names the file in which study run keeps the
// provisioned profile's probe for its steps (storage.Profile.ProbeShare).
const storageProbeShareEnv = "DBMETER_STORAGE_PROBE_SHARE"

// withProbeShare gives p the study's probe share, if any.
func withProbeShare(p *storage.Profile, getenv func(string) string) {
	if p != nil && getenv != nil {
		p.ProbeShare = getenv(storageProbeShareEnv)
	}
}
