package kubernetes

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/servertest"

	"github.com/HdrHistogram/hdrhistogram-go"
	corev1 "k8s.io/api/core/v1"

	"github.com/dbmeter/dbmeter/internal/result"
)

// The simulation runs a kustomization's pods as local processes: every
// shard pod's init container and marker container, and the merge pod's
// script, with exactly the command, arguments and environment Kubernetes
// would give them (the Job controller's JOB_COMPLETION_INDEX, the
// ConfigMap, the Secret's values, $(VAR) expanded), only the volume mount
// paths mapped to directories of the test. It then reads the merged
// document as a user would after kubectl cp.

// binDir holds the dbmeter binary built once for every simulation.
var binDir struct {
	once sync.Once
	dir  string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir.dir != "" {
		os.RemoveAll(binDir.dir)
	}
	os.Exit(code)
}

// dbmeterBinDir builds dbmeter (what the image's build stage builds) into
// a directory that stands first on the simulated pods' PATH.
func dbmeterBinDir(t *testing.T) string {
	t.Helper()
	servertest.E2E(t, "builds dbmeter as the image does and runs the overlay's pods as processes")
	binDir.once.Do(func() {
		dir, err := os.MkdirTemp("", "dbmeter-sim-bin-")
		if err != nil {
			binDir.err = err
			return
		}
		binDir.dir = dir
		cmd, err := imageBuild(filepath.Join(dir, "dbmeter"))
		if err != nil {
			binDir.err = err
			return
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			binDir.err = fmt.Errorf("%s: %v: %s", cmd, err, out)
		}
	})
	if binDir.err != nil {
		t.Fatal(binDir.err)
	}
	return binDir.dir
}

// imageBuild is the image's `go build` (its RUN line in the Dockerfile:
// environment, flags, package), writing to out, run from the repository
// root as the Dockerfile's COPY . . puts it.
func imageBuild(out string) (*exec.Cmd, error) {
	const dockerfile = "../container/Dockerfile"
	b, err := os.ReadFile(dockerfile)
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		words, ok := strings.CutPrefix(line, "RUN ")
		if !ok || !strings.Contains(words, " go build ") {
			continue
		}
		fields, err := shellWords(words)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", dockerfile, err)
		}
		var env []string
		for len(fields) > 0 && strings.Contains(fields[0], "=") {
			env, fields = append(env, fields[0]), fields[1:]
		}
		for i := range fields {
			if fields[i] == "-o" && i+1 < len(fields) {
				fields[i+1] = out
			}
		}
		cmd := exec.Command(fields[0], fields[1:]...)
		cmd.Dir = "../.."
		cmd.Env = append(os.Environ(), env...)
		return cmd, nil
	}
	return nil, fmt.Errorf("%s: no RUN … go build line", dockerfile)
}

// shellWords splits a command line the way sh does for plain words and
// single quotes, which is all the Dockerfile's build line uses.
func shellWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	in, quoted := false, false
	for _, r := range s {
		switch {
		case quoted && r == '\'':
			quoted = false
		case quoted:
			w.WriteRune(r)
		case r == '\'':
			quoted, in = true, true
		case r == ' ' || r == '\t':
			if in {
				words, in = append(words, w.String()), false
				w.Reset()
			}
		case r == '"' || r == '\\' || r == '$' || r == '`':
			return nil, fmt.Errorf("build line uses %q, which the test does not parse", r)
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("unterminated quote")
	}
	if in {
		words = append(words, w.String())
	}
	return words, nil
}

func TestShellWords(t *testing.T) {
	got, err := shellWords(`CGO_ENABLED=0 go build -ldflags='-s -w' -o /out/x  ./cmd/dbmeter`)
	want := []string{"CGO_ENABLED=0", "go", "build", "-ldflags=-s -w", "-o", "/out/x", "./cmd/dbmeter"}
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("shellWords = %q, %v; want %q", got, err, want)
	}
	if _, err := shellWords(`go build "$X"`); err == nil {
		t.Fatal("shellWords took a double-quoted word it does not parse")
	}
}

// secrets are the values of the Secrets the manifests refer to: name → key
// → value, as `kubectl create secret generic` would hold them.
type secrets map[string]map[string]string

// sim is one simulated deployment.
type sim struct {
	t       *testing.T
	r       *rendered
	secrets secrets
	bin     string
	// mounts maps a container mount path to the test's directory for it.
	mounts map[string]string
	// logs collects every process's output, to look for leaked secrets.
	logsMu sync.Mutex
	logs   bytes.Buffer
}

// containerEnv builds a container's environment as the kubelet does:
// envFrom first, then env in order, each value's $(VAR) expanded against
// the variables before it; index ≥ 0 adds the Job controller's
// JOB_COMPLETION_INDEX. Values under a mount path are mapped.
func (s *sim) containerEnv(c *corev1.Container, index int) map[string]string {
	s.t.Helper()
	env := map[string]string{"HOME": "/tmp"} // the image's ENV
	for _, from := range c.EnvFrom {
		if from.ConfigMapRef == nil {
			s.t.Fatalf("container %s: envFrom other than a ConfigMap is not simulated", c.Name)
		}
		cm := s.r.configMaps[from.ConfigMapRef.Name]
		if cm == nil {
			s.t.Fatalf("container %s: ConfigMap %s is not in the manifests", c.Name, from.ConfigMapRef.Name)
		}
		for k, v := range cm.Data {
			env[from.Prefix+k] = v
		}
	}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom == nil:
			env[e.Name] = expand(e.Value, env)
		case e.ValueFrom.SecretKeyRef != nil:
			ref := e.ValueFrom.SecretKeyRef
			v, ok := s.secrets[ref.Name][ref.Key]
			if !ok {
				if ref.Optional != nil && *ref.Optional {
					continue
				}
				s.t.Fatalf("container %s: env %s needs key %s of Secret %s, which the test did not give", c.Name, e.Name, ref.Key, ref.Name)
			}
			env[e.Name] = v
		case e.ValueFrom.ConfigMapKeyRef != nil:
			ref := e.ValueFrom.ConfigMapKeyRef
			env[e.Name] = s.r.configMaps[ref.Name].Data[ref.Key]
		default:
			s.t.Fatalf("container %s: env %s: valueFrom other than a Secret or ConfigMap key is not simulated", c.Name, e.Name)
		}
	}
	if index >= 0 {
		env["JOB_COMPLETION_INDEX"] = strconv.Itoa(index)
	}
	for k, v := range env {
		env[k] = s.mapPath(v)
	}
	// The image's PATH, with the test's dbmeter where the image has it.
	env["PATH"] = s.bin + ":/usr/local/bin:/usr/bin:/bin"
	return env
}

// mapPath maps a path under a volume mount to the test's directory.
func (s *sim) mapPath(v string) string {
	for mount, local := range s.mounts {
		if v == mount || strings.HasPrefix(v, mount+"/") {
			return local + strings.TrimPrefix(v, mount)
		}
	}
	return v
}

// command is what the container runs: command and args, $(VAR) expanded,
// paths mapped, the program found on the container's PATH.
func (s *sim) command(ctx context.Context, c *corev1.Container, env map[string]string) *exec.Cmd {
	s.t.Helper()
	args := argv(c)
	for i, a := range args {
		args[i] = expand(s.mapPath(a), env)
	}
	prog := args[0]
	if !strings.Contains(prog, "/") {
		for _, dir := range filepath.SplitList(env["PATH"]) {
			if p := filepath.Join(dir, prog); isExec(p) {
				prog = p
				break
			}
		}
	}
	cmd := exec.CommandContext(ctx, prog, args[1:]...)
	cmd.Env = make([]string, 0, len(env))
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	return cmd
}

func isExec(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// run runs a container to its end and returns its exit error.
func (s *sim) run(ctx context.Context, c *corev1.Container, index int, who string) error {
	cmd := s.command(ctx, c, s.containerEnv(c, index))
	out, err := cmd.CombinedOutput()
	s.logsMu.Lock()
	fmt.Fprintf(&s.logs, "--- %s\n%s", who, out)
	s.logsMu.Unlock()
	if err != nil {
		return fmt.Errorf("%s: %v\n%s", who, err, out)
	}
	return nil
}

// simulate runs every pod of the rendering and returns the results
// directory once the merge pod is Ready.
func simulate(t *testing.T, r *rendered, sec secrets) (resultsDir string, s *sim) {
	t.Helper()
	if p := check(r); len(p) > 0 {
		t.Fatalf("the manifests break the rules: %v", p)
	}
	dir := t.TempDir()
	s = &sim{t: t, r: r, secrets: sec, bin: dbmeterBinDir(t), mounts: map[string]string{}}
	cm := r.testConfig()
	resultsDir = filepath.Join(dir, "results")
	s.mounts[cm.Data["RESULTS"]] = resultsDir
	s.mounts["/tmp"] = filepath.Join(dir, "tmp")
	for _, d := range s.mounts {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	// kubectl apply creates both Jobs at once: the merge pod starts first
	// here, so it really has to wait for the markers.
	merge := &r.jobs[mergeJob].Spec.Template.Spec
	mc := container(merge, "merge")
	mergeCmd := s.command(ctx, mc, s.containerEnv(mc, -1))
	var mergeOut bytes.Buffer
	mergeCmd.Stdout, mergeCmd.Stderr = &mergeOut, &mergeOut
	if err := mergeCmd.Start(); err != nil {
		t.Fatal(err)
	}
	mergeDone := make(chan error, 1)
	go func() { mergeDone <- mergeCmd.Wait() }()

	// The shard pods: init containers in order, then the containers.
	shards := &r.jobs[shardsJob].Spec.Template.Spec
	n := int(*r.jobs[shardsJob].Spec.Completions)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			for _, list := range [][]corev1.Container{shards.InitContainers, shards.Containers} {
				for _, c := range list {
					if errs[i] = s.run(ctx, &c, i, fmt.Sprintf("shard %d container %s", i, c.Name)); errs[i] != nil {
						return
					}
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}

	// Wait for the readiness probe, as `kubectl wait --for=condition=Ready`.
	probe := mc.ReadinessProbe.Exec
	for {
		pc := &corev1.Container{Name: "probe", Command: probe.Command, EnvFrom: mc.EnvFrom, Env: mc.Env}
		if s.command(ctx, pc, s.containerEnv(pc, -1)).Run() == nil {
			break
		}
		select {
		case err := <-mergeDone:
			t.Fatalf("the merge pod ended before it was Ready: %v\n%s", err, mergeOut.String())
		case <-ctx.Done():
			t.Fatalf("the merge pod did not become Ready: %v\n%s", ctx.Err(), mergeOut.String())
		case <-time.After(200 * time.Millisecond):
		}
	}
	if !strings.Contains(mergeOut.String(), "merge: 0 of") {
		t.Errorf("the merge pod did not wait for the shards; its output:\n%s", mergeOut.String())
	}
	// kubectl cp happens here; then the user lets the pod end.
	if err := os.WriteFile(filepath.Join(resultsDir, "fetched"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-mergeDone:
		if err != nil {
			t.Fatalf("merge pod: %v\n%s", err, mergeOut.String())
		}
	case <-ctx.Done():
		t.Fatalf("the merge pod did not end after fetched: %s", mergeOut.String())
	}
	s.logs.WriteString("--- merge\n" + mergeOut.String())
	t.Logf("the merge pod's output:\n%s", mergeOut.String())
	return resultsDir, s
}

// shardSource is what merge records of each shard (beside result's fields).
type shardSource struct {
	Index int             `json:"index"`
	Env   json.RawMessage `json:"env"`
}

// checkMerged compares the merged document with the shards' documents:
// counts summed, percentiles those of the summed histograms, every
// shard's environment listed.
func checkMerged(t *testing.T, dir string, n int) *result.Document {
	t.Helper()
	merged, err := result.ReadFile(filepath.Join(dir, "merged.json"))
	if err != nil {
		t.Fatal(err)
	}
	var extra struct {
		Shards []shardSource `json:"shards"`
	}
	raw, err := os.ReadFile(filepath.Join(dir, "merged.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &extra); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "merged.html")); err != nil || fi.Size() == 0 {
		t.Errorf("merged.html: %v, want a report", err)
	}
	shards := shardDocs(t, dir, n)
	if problems := mergedProblems(merged, extra.Shards, shards); len(problems) > 0 {
		for _, p := range problems {
			t.Error(p)
		}
	}
	return merged
}

func shardDocs(t *testing.T, dir string, n int) []*result.Document {
	t.Helper()
	shards := make([]*result.Document, n)
	for i := range n {
		var err error
		if shards[i], err = result.ReadFile(filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))); err != nil {
			t.Fatal(err)
		}
	}
	return shards
}

// mergedProblems says where merged is not the sum of shards.
func mergedProblems(merged *result.Document, sources []shardSource, shards []*result.Document) []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if len(merged.Runs) == 0 {
		return []string{"the merged document has no runs"}
	}
	for ri, m := range merged.Runs {
		var ops, errs, dropped, rows int64
		var lat, svc *hdrhistogram.Histogram
		for si, sh := range shards {
			if len(sh.Runs) != len(merged.Runs) {
				bad("shard %d has %d runs, merged %d", si, len(sh.Runs), len(merged.Runs))
				return problems
			}
			r := sh.Runs[ri]
			if r.Target != m.Target || r.Workload != m.Workload {
				bad("run %d: shard %d is %s/%s, merged %s/%s", ri, si, r.Target, r.Workload, m.Target, m.Workload)
			}
			if r.Shard == nil || r.Shard.Index != si || r.Shard.Count != len(shards) {
				bad("run %d: shard %d's document says shard %+v", ri, si, r.Shard)
			}
			ops, errs, dropped, rows = ops+r.Ops, errs+r.Errors, dropped+r.Dropped, rows+r.Rows
			lat = addHDR(&problems, lat, r.LatencyHDR, ri, si)
			svc = addHDR(&problems, svc, r.ServiceHDR, ri, si)
		}
		if ops == 0 {
			bad("run %d (%s): no operations measured", ri, m.Target)
		}
		if m.Ops != ops || m.Errors != errs || m.Dropped != dropped || m.Rows != rows {
			bad("run %d (%s): merged ops/errors/dropped/rows %d/%d/%d/%d, shards sum to %d/%d/%d/%d",
				ri, m.Target, m.Ops, m.Errors, m.Dropped, m.Rows, ops, errs, dropped, rows)
		}
		for _, h := range []struct {
			name string
			got  result.Latency
			sum  *hdrhistogram.Histogram
		}{{"latency", m.Latency, lat}, {"service", m.Service, svc}} {
			if h.sum == nil {
				continue
			}
			want := result.LatencyOf(h.sum)
			if h.got.P50 != want.P50 || h.got.P90 != want.P90 || h.got.P99 != want.P99 || h.got.P999 != want.P999 || h.got.Max != want.Max || h.got.Min != want.Min {
				bad("run %d (%s): merged %s %+v, the summed shard histograms give %+v", ri, m.Target, h.name, h.got, want)
			}
			if h.sum.TotalCount() != m.Ops-m.Errors && h.sum.TotalCount() != m.Ops {
				bad("run %d (%s): summed %s histogram holds %d values for %d operations", ri, m.Target, h.name, h.sum.TotalCount(), m.Ops)
			}
		}
	}
	if len(sources) != len(shards) {
		bad("the merged document lists %d shards, want %d", len(sources), len(shards))
		return problems
	}
	for i, src := range sources {
		if src.Index != i {
			bad("shards[%d] is shard %d", i, src.Index)
			continue
		}
		want, _ := json.Marshal(shards[i].Env)
		var got result.Env
		if err := json.Unmarshal(src.Env, &got); err != nil || got.CPUs == 0 {
			bad("shards[%d].env %s: %v, want the shard's environment", i, src.Env, err)
			continue
		}
		if have, _ := json.Marshal(got); !bytes.Equal(have, want) {
			bad("shards[%d].env is not shard %d's environment:\n%s\n%s", i, i, have, want)
		}
	}
	return problems
}

func addHDR(problems *[]string, sum *hdrhistogram.Histogram, enc string, run, shard int) *hdrhistogram.Histogram {
	if enc == "" {
		return sum
	}
	h, err := result.DecodeHDR(enc)
	if err != nil {
		*problems = append(*problems, fmt.Sprintf("run %d shard %d: %v", run, shard, err))
		return sum
	}
	if sum == nil {
		return h
	}
	sum.Merge(h)
	return sum
}

// renderStarting renders an overlay through start-at.sh with every shard
// starting a few seconds from now.
func renderStarting(t *testing.T, overlay string) *rendered {
	t.Helper()
	needKubectl(t)
	// Built before the start time is set, so the build does not eat the
	// lead.
	dbmeterBinDir(t)
	var stderr bytes.Buffer
	cmd := exec.Command("./start-at.sh", overlay, "5")
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("start-at.sh %s: %v: %s", overlay, err, stderr.String())
	}
	r, err := decode(out)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// needEnv returns the named environment variables of a dev-services
// server, skipping the test when one is missing unless DBMETER_E2E=1.
func needEnv(t *testing.T, names ...string) []string {
	t.Helper()
	vals := make([]string, len(names))
	for i, n := range names {
		vals[i] = servertest.Env(t, n)
	}
	return vals
}

// noSecret fails when secret appears in any file of dir or any output.
func noSecret(t *testing.T, s *sim, dir, secret string) {
	t.Helper()
	for _, p := range leaks(s.logs.Bytes(), dir, secret) {
		t.Error(p)
	}
}

// leaks says where secret appears: in logs or a file of dir.
func leaks(logs []byte, dir, secret string) []string {
	if secret == "" {
		return []string{"no secret to look for"}
	}
	var out []string
	if bytes.Contains(logs, []byte(secret)) {
		out = append(out, "the password appears in the pods' output")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil && bytes.Contains(b, []byte(secret)) {
			out = append(out, "the password appears in "+filepath.Base(f))
		}
	}
	return out
}

func TestLeaks(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "shard-0.json"), []byte(`{"command":"dbmeter ch query --dsn=tcp://h:9000?password=hunter2"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	got := leaks([]byte("connecting with hunter2"), dir, "hunter2")
	if len(got) != 2 {
		t.Fatalf("leaks = %q, want the log and shard-0.json", got)
	}
	if got := leaks([]byte("masked ****"), t.TempDir(), "hunter2"); len(got) != 0 {
		t.Fatalf("leaks = %q with no leak", got)
	}
}

func TestSimulateNull(t *testing.T) {
	r := renderStarting(t, "overlays/null")
	dir, _ := simulate(t, r, nil)
	merged := checkMerged(t, dir, 4)
	m := merged.Runs[0]
	for _, sh := range shardDocs(t, dir, 4) {
		t.Logf("shard %d started %v after START_AT", sh.Runs[0].Shard.Index, time.Duration(sh.Runs[0].Shard.StartOffsetNs))
	}
	t.Logf("null, 4 shards: %d ops, %.0f ops/s, p50 %d p99 %d p99.9 %d max %d ns", m.Ops, m.OpsPerS, m.Latency.P50, m.Latency.P99, m.Latency.P999, m.Latency.Max)
}

func TestSimulateCHQuery(t *testing.T) {
	v := needEnv(t, "DBMETER_CLICKHOUSE_LEGACY_DSN", "DBMETER_CLICKHOUSE_HTTP_URL", "DBMETER_CLICKHOUSE_PASSWORD")
	r := renderStarting(t, "overlays/ch-query")
	dir, s := simulate(t, r, secrets{"dbmeter-clickhouse": {"dsn": v[0], "http-url": v[1]}})
	merged := checkMerged(t, dir, 3)
	if len(merged.Runs) != 1 {
		t.Errorf("%d runs, want one: the overlay's one client path", len(merged.Runs))
	}
	for _, m := range merged.Runs {
		if m.Errors > 0 {
			t.Errorf("%s: %d errors: %v", m.Target, m.Errors, m.ErrorKinds)
		}
		t.Logf("ch query %s, 3 shards: %d ops, %.0f ops/s, p50 %d p99 %d max %d ns", m.Target, m.Ops, m.OpsPerS, m.Latency.P50, m.Latency.P99, m.Latency.Max)
	}
	noSecret(t, s, dir, v[2])
}

func TestSimulatePG(t *testing.T) {
	v := needEnv(t, "PGHOST", "PGPORT", "PGUSER", "PGDATABASE", "PGPASSWORD")
	bin := filepath.Join(dbmeterBinDir(t), "dbmeter")
	help, _ := exec.Command(bin, "pg", "--help").CombinedOutput()
	if !bytes.Contains(help, []byte("--shard")) {
		// Not a skip under DBMETER_E2E either: the overlay waits for a
		// feature, not for a server.
		t.Skip("dbmeter pg has no --shard yet: the pg overlay cannot run until it does")
	}
	initCmd := exec.Command(bin, "pg", "-i", "-s", "1", "--quiet")
	initCmd.Env = os.Environ()
	if out, err := initCmd.CombinedOutput(); err != nil {
		t.Fatalf("dbmeter pg -i: %v\n%s", err, out)
	}
	r := renderStarting(t, "overlays/pg")
	dir, s := simulate(t, r, secrets{"dbmeter-postgres": {"host": v[0], "port": v[1], "user": v[2], "dbname": v[3], "password": v[4]}})
	merged := checkMerged(t, dir, 2)
	for _, m := range merged.Runs {
		t.Logf("pg %s, 2 shards: %d ops, %.0f ops/s, p50 %d p99 %d max %d ns", m.Target, m.Ops, m.OpsPerS, m.Latency.P50, m.Latency.P99, m.Latency.Max)
	}
	noSecret(t, s, dir, v[4])
}

// TestMergedProblems shows that the comparison of a merged document with
// its shards fails when the merge is wrong.
func TestMergedProblems(t *testing.T) {
	h := func(vals ...int64) string {
		x := hdrhistogram.New(1, 60_000_000_000, 3)
		for _, v := range vals {
			x.RecordValue(v)
		}
		s, err := result.EncodeHDR(x)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	shard := func(i int, ops int64, hdr string) *result.Document {
		r := result.Run{Target: "null", Workload: "noop", Shard: &result.Shard{Index: i, Count: 2}}
		r.Ops, r.LatencyHDR = ops, hdr
		return &result.Document{Env: result.Env{CPUs: 2, OS: fmt.Sprint("shard", i)}, Runs: []result.Run{r}}
	}
	shards := []*result.Document{shard(0, 2, h(1000, 2000)), shard(1, 2, h(3000, 900_000))}
	sum, _ := result.DecodeHDR(h(1000, 2000, 3000, 900_000))
	good := func() (*result.Document, []shardSource) {
		m := result.Run{Target: "null", Workload: "noop"}
		m.Ops, m.Latency = 4, result.LatencyOf(sum)
		var srcs []shardSource
		for i, s := range shards {
			env, _ := json.Marshal(s.Env)
			srcs = append(srcs, shardSource{Index: i, Env: env})
		}
		return &result.Document{Runs: []result.Run{m}}, srcs
	}
	if p := mergedProblems(func() (*result.Document, []shardSource, []*result.Document) {
		m, s := good()
		return m, s, shards
	}()); len(p) > 0 {
		t.Fatalf("a correct merge is reported wrong: %v", p)
	}
	for _, tc := range []struct {
		name   string
		mutate func(m *result.Document, s *[]shardSource)
		want   string
	}{
		{"ops not summed", func(m *result.Document, _ *[]shardSource) { m.Runs[0].Ops = 2 }, "shards sum to 4"},
		{"percentile averaged", func(m *result.Document, _ *[]shardSource) {
			m.Runs[0].Latency.P99 = (result.LatencyOf(mustHDR(t, shards[0])).P99 + result.LatencyOf(mustHDR(t, shards[1])).P99) / 2
		}, "the summed shard histograms give"},
		{"max of one shard", func(m *result.Document, _ *[]shardSource) { m.Runs[0].Latency.Max = 2000 }, "the summed shard histograms give"},
		{"shard missing", func(_ *result.Document, s *[]shardSource) { *s = (*s)[:1] }, "lists 1 shards"},
		{"env of another shard", func(_ *result.Document, s *[]shardSource) { (*s)[1].Env = (*s)[0].Env }, "is not shard 1's environment"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, s := good()
			tc.mutate(m, &s)
			p := mergedProblems(m, s, shards)
			if !slices.ContainsFunc(p, func(x string) bool { return strings.Contains(x, tc.want) }) {
				t.Fatalf("problems %q, want one with %q", p, tc.want)
			}
		})
	}
}

func mustHDR(t *testing.T, d *result.Document) *hdrhistogram.Histogram {
	h, err := result.DecodeHDR(d.Runs[0].LatencyHDR)
	if err != nil {
		t.Fatal(err)
	}
	return h
}
