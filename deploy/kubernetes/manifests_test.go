// Package kubernetes holds the tests of dbmeter's Kubernetes manifests: each
// kustomization is rendered by the real kubectl, decoded strictly into the
// official API types, and checked for the rules a sharded benchmark depends
// on; simulate_test.go then runs what the pods would run, on this machine.
package kubernetes

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/servertest"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// kustomizations are every directory a user may apply.
var kustomizations = []string{"base", "overlays/null", "overlays/ch-query", "overlays/pg"}

const (
	shardsJob = "dbmeter-shards"
	mergeJob  = "dbmeter-merge"
	testCM    = "dbmeter-test" // kustomize adds a hash suffix
	runner    = "dbmeter"      // the shard pod's container that runs the benchmark
)

// rendered is one kustomization's output, decoded.
type rendered struct {
	jobs       map[string]*batchv1.Job
	configMaps map[string]*corev1.ConfigMap
	pvcs       map[string]*corev1.PersistentVolumeClaim
}

// needKubectl is kubectl, which renders the manifests (it bundles kustomize).
func needKubectl(t *testing.T) string {
	return servertest.Tool(t, "kubectl", "the manifests are rendered with `kubectl kustomize`; install kubectl")
}

// render runs `kubectl kustomize dir`, offline.
func render(t *testing.T, dir string) []byte {
	t.Helper()
	kubectl := needKubectl(t)
	var stderr bytes.Buffer
	cmd := exec.Command(kubectl, "kustomize", dir)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("kubectl kustomize %s: %v: %s", dir, err, stderr.String())
	}
	return out
}

// decode splits a kustomize output into documents and decodes each
// strictly into its API type: an unknown or duplicated field, or a kind
// the manifests should not contain, is an error.
func decode(out []byte) (*rendered, error) {
	r := &rendered{
		jobs:       map[string]*batchv1.Job{},
		configMaps: map[string]*corev1.ConfigMap{},
		pvcs:       map[string]*corev1.PersistentVolumeClaim{},
	}
	for i, doc := range regexp.MustCompile(`(?m)^---\s*$`).Split(string(out), -1) {
		if strings.TrimSpace(doc) == "" {
			continue
		}
		var tm metav1.TypeMeta
		if err := yaml.Unmarshal([]byte(doc), &tm); err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		var obj any
		var name func() string
		switch tm.APIVersion + " " + tm.Kind {
		case "batch/v1 Job":
			j := &batchv1.Job{}
			obj, name = j, func() string { r.jobs[j.Name] = j; return j.Name }
		case "v1 ConfigMap":
			c := &corev1.ConfigMap{}
			obj, name = c, func() string { r.configMaps[c.Name] = c; return c.Name }
		case "v1 PersistentVolumeClaim":
			p := &corev1.PersistentVolumeClaim{}
			obj, name = p, func() string { r.pvcs[p.Name] = p; return p.Name }
		default:
			return nil, fmt.Errorf("document %d: unexpected kind %s %s", i, tm.APIVersion, tm.Kind)
		}
		if err := yaml.UnmarshalStrict([]byte(doc), obj); err != nil {
			return nil, fmt.Errorf("document %d (%s): %w", i, tm.Kind, err)
		}
		if name() == "" {
			return nil, fmt.Errorf("document %d (%s) has no name", i, tm.Kind)
		}
	}
	return r, nil
}

// testConfig is the ConfigMap with the test's settings.
func (r *rendered) testConfig() *corev1.ConfigMap {
	for name, c := range r.configMaps {
		if strings.HasPrefix(name, testCM+"-") || name == testCM {
			return c
		}
	}
	return nil
}

// container finds a container or init container by name.
func container(spec *corev1.PodSpec, name string) *corev1.Container {
	for _, list := range [][]corev1.Container{spec.InitContainers, spec.Containers} {
		for i := range list {
			if list[i].Name == name {
				return &list[i]
			}
		}
	}
	return nil
}

// allContainers lists every container and init container of a pod.
func allContainers(spec *corev1.PodSpec) []*corev1.Container {
	var out []*corev1.Container
	for _, list := range [][]corev1.Container{spec.InitContainers, spec.Containers} {
		for i := range list {
			out = append(out, &list[i])
		}
	}
	return out
}

// configEnv is the environment a container gets from ConfigMaps (envFrom
// and configMapKeyRef) and literal values, without expansion: what can be
// known from the manifests alone.
func configEnv(r *rendered, c *corev1.Container) map[string]string {
	env := map[string]string{}
	for _, from := range c.EnvFrom {
		if from.ConfigMapRef != nil {
			if cm := r.configMaps[from.ConfigMapRef.Name]; cm != nil {
				for k, v := range cm.Data {
					env[from.Prefix+k] = v
				}
			}
		}
	}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom == nil:
			env[e.Name] = e.Value
		case e.ValueFrom.ConfigMapKeyRef != nil:
			if cm := r.configMaps[e.ValueFrom.ConfigMapKeyRef.Name]; cm != nil {
				env[e.Name] = cm.Data[e.ValueFrom.ConfigMapKeyRef.Key]
			}
		}
	}
	return env
}

// argv is what Kubernetes runs: command followed by args.
func argv(c *corev1.Container) []string {
	return append(slices.Clone(c.Command), c.Args...)
}

// flagValue returns the value of --name=VALUE or --name VALUE in args.
func flagValue(args []string, name string) (string, bool) {
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v, true
		}
		if a == name && i+1 < len(args) {
			return args[i+1], true
		}
	}
	return "", false
}

// secretLike matches what must come from a Secret, never a literal: a URL
// with a user:password part, a key=value password, a DSN scheme.
var secretLike = regexp.MustCompile(`(?i)(://[^/\s$]*:[^/\s$]*@|password=|passwd=|\b(postgres|postgresql|clickhouse|tcp)://)`)

// secretName matches environment variables that hold a DSN or password.
var secretName = regexp.MustCompile(`(?i)(DSN|PASSWORD|PASSWD|SECRET|TOKEN)`)

// varRef matches a Kubernetes $(VAR) reference.
var varRef = regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`)

// check returns every rule the rendered manifests break.
func check(r *rendered) []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	cm := r.testConfig()
	if cm == nil {
		return []string{"no ConfigMap " + testCM}
	}
	n, err := strconv.Atoi(cm.Data["SHARDS"])
	if err != nil || n < 1 {
		bad("ConfigMap %s: SHARDS=%q is not a positive number", cm.Name, cm.Data["SHARDS"])
	}
	results := cm.Data["RESULTS"]
	if !strings.HasPrefix(results, "/") {
		bad("ConfigMap %s: RESULTS=%q is not an absolute path", cm.Name, results)
	}
	for k, v := range cm.Data {
		if secretName.MatchString(k) || secretLike.MatchString(v) {
			bad("ConfigMap %s: %s looks like a secret: it belongs in a Secret", cm.Name, k)
		}
	}

	shards, merge := r.jobs[shardsJob], r.jobs[mergeJob]
	if shards == nil || merge == nil {
		return append(problems, fmt.Sprintf("want Jobs %s and %s, have %d Jobs", shardsJob, mergeJob, len(r.jobs)))
	}

	// The shards: one Indexed Job whose N pods all run at once.
	s := shards.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion {
		bad("Job %s: completionMode is not Indexed", shardsJob)
	}
	if s.Completions == nil || *s.Completions != int32(n) {
		bad("Job %s: completions %v != SHARDS %d", shardsJob, ptrVal(s.Completions), n)
	}
	if s.Parallelism == nil || *s.Parallelism != int32(n) {
		bad("Job %s: parallelism %v != SHARDS %d: shards that do not run at once do not measure the same seconds", shardsJob, ptrVal(s.Parallelism), n)
	}
	if s.BackoffLimit == nil || *s.BackoffLimit != 0 || s.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
		bad("Job %s: a failed shard must not be retried (backoffLimit 0, restartPolicy Never)", shardsJob)
	}
	run := container(&s.Template.Spec, runner)
	if run == nil || !slices.ContainsFunc(s.Template.Spec.InitContainers, func(c corev1.Container) bool { return c.Name == runner }) {
		bad("Job %s: no init container %q runs dbmeter", shardsJob, runner)
		return problems
	}
	args := argv(run)
	if len(args) == 0 || args[0] != "dbmeter" {
		bad("Job %s: container %s runs %q, not dbmeter", shardsJob, runner, args)
	}
	env := configEnv(r, run)
	shard, ok := flagValue(args, "--shard")
	switch {
	case !ok:
		bad("Job %s: no --shard argument", shardsJob)
	case !strings.HasPrefix(shard, "$(JOB_COMPLETION_INDEX)/"):
		bad("Job %s: --shard %s does not take the index from $(JOB_COMPLETION_INDEX)", shardsJob, shard)
	default:
		of := expand(strings.TrimPrefix(shard, "$(JOB_COMPLETION_INDEX)/"), env)
		if got, err := strconv.Atoi(of); err != nil || got != n {
			bad("Job %s: --shard %s gives N=%q, want SHARDS=%d", shardsJob, shard, of, n)
		}
	}
	if at, ok := flagValue(args, "--start-at"); !ok || at != "$(START_AT)" || env["START_AT"] == "" {
		bad("Job %s: --start-at must be $(START_AT) from the ConfigMap (have %q)", shardsJob, at)
	}

	// What the shards write is what the merge reads.
	out, ok := flagValue(args, "--json")
	if !ok {
		bad("Job %s: no --json argument", shardsJob)
	}
	done := container(&s.Template.Spec, "done")
	if done == nil || len(done.Command) != 2 || done.Command[0] != "touch" {
		bad("Job %s: no container \"done\" that touches the shard's marker", shardsJob)
		return problems
	}
	mc := container(&merge.Spec.Template.Spec, "merge")
	if mc == nil || len(mc.Command) != 3 || mc.Command[0] != "sh" {
		bad("Job %s: no container \"merge\" running a sh -c script", mergeJob)
		return problems
	}
	script := mc.Command[2]
	for _, path := range []string{out, done.Command[1]} {
		if !strings.HasPrefix(path, "$(RESULTS)/") || !strings.Contains(path, "$(JOB_COMPLETION_INDEX)") {
			bad("Job %s: %s is not under $(RESULTS) and named by $(JOB_COMPLETION_INDEX)", shardsJob, path)
			continue
		}
		sh := `"` + strings.NewReplacer("$(JOB_COMPLETION_INDEX)", "$i", "$(RESULTS)", "$RESULTS").Replace(path) + `"`
		if !strings.Contains(script, sh) {
			bad("Job %s: the merge script does not read %s (as %s), which the shards write", mergeJob, path, sh)
		}
	}
	if !strings.Contains(script, `dbmeter merge "$@"`) || !strings.Contains(script, `[ "$i" -lt "$SHARDS" ]`) {
		bad("Job %s: the merge script does not run dbmeter merge on the SHARDS shard files", mergeJob)
	}
	for _, c := range []*corev1.Container{run, done, mc} {
		if got := configEnv(r, c); got["RESULTS"] != results || got["SHARDS"] != cm.Data["SHARDS"] {
			bad("container %s: RESULTS/SHARDS not from ConfigMap %s", c.Name, cm.Name)
		}
	}
	if a, b := resultsClaim(&s.Template.Spec, results), resultsClaim(&merge.Spec.Template.Spec, results); a == "" || a != b {
		bad("the shards (claim %q) and the merge (claim %q) do not mount one volume claim at RESULTS=%s", a, b, results)
	} else if r.pvcs[a] == nil {
		bad("volume claim %s is not in the manifests", a)
	}

	// Secrets only by reference, every process unprivileged.
	for _, job := range []*batchv1.Job{shards, merge} {
		spec := &job.Spec.Template.Spec
		if sc := spec.SecurityContext; sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot || sc.RunAsUser == nil || *sc.RunAsUser == 0 {
			bad("Job %s: pod securityContext must set runAsNonRoot: true and a non-zero runAsUser", job.Name)
		}
		for _, c := range allContainers(spec) {
			problems = append(problems, checkSecrets(job.Name, c)...)
			if sc := c.SecurityContext; sc == nil || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
				bad("Job %s container %s: allowPrivilegeEscalation must be false", job.Name, c.Name)
			}
		}
	}
	return problems
}

// checkSecrets reports a DSN or password written into a container's
// arguments or environment instead of taken from a Secret.
func checkSecrets(job string, c *corev1.Container) []string {
	var problems []string
	fromSecret := map[string]bool{}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil:
			fromSecret[e.Name] = true
		case secretName.MatchString(e.Name):
			problems = append(problems, fmt.Sprintf("Job %s container %s: env %s must come from a Secret (secretKeyRef)", job, c.Name, e.Name))
		case secretLike.MatchString(e.Value):
			problems = append(problems, fmt.Sprintf("Job %s container %s: env %s holds a DSN or password literal", job, c.Name, e.Name))
		}
	}
	args := argv(c)
	for _, a := range args {
		if secretLike.MatchString(a) {
			problems = append(problems, fmt.Sprintf("Job %s container %s: argument %q holds a DSN or password literal", job, c.Name, a))
		}
	}
	for _, f := range []string{"--dsn", "--password", "--http-url"} {
		v, ok := flagValue(args, f)
		if !ok {
			continue
		}
		m := varRef.FindStringSubmatch(v)
		if m == nil || m[0] != v || !fromSecret[m[1]] {
			problems = append(problems, fmt.Sprintf("Job %s container %s: %s=%s must be $(VAR) with VAR from a Secret", job, c.Name, f, v))
		}
	}
	return problems
}

// resultsClaim is the claim of the volume mounted at path in every
// container of spec that mounts it, or "".
func resultsClaim(spec *corev1.PodSpec, path string) string {
	claim := ""
	for _, c := range allContainers(spec) {
		for _, m := range c.VolumeMounts {
			if m.MountPath != path {
				continue
			}
			for _, v := range spec.Volumes {
				if v.Name != m.Name || v.PersistentVolumeClaim == nil {
					continue
				}
				if claim != "" && claim != v.PersistentVolumeClaim.ClaimName {
					return ""
				}
				claim = v.PersistentVolumeClaim.ClaimName
			}
		}
	}
	return claim
}

func ptrVal(p *int32) any {
	if p == nil {
		return "unset"
	}
	return *p
}

// expand does Kubernetes' $(VAR) expansion of command, args and env
// values: $(VAR) becomes VAR's value when VAR is defined and stays as
// written otherwise, $$ becomes $ (so $$(VAR) is the literal $(VAR)).
func expand(s string, env map[string]string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch next := s[i+1]; {
		case next == '$':
			b.WriteByte('$')
			i++
		case next == '(':
			end := strings.IndexByte(s[i+2:], ')')
			if end < 0 {
				b.WriteString(s[i:])
				return b.String()
			}
			name := s[i+2 : i+2+end]
			if v, ok := env[name]; ok {
				b.WriteString(v)
			} else {
				b.WriteString(s[i : i+3+end])
			}
			i += 2 + end
		default:
			b.WriteByte('$')
		}
	}
	return b.String()
}

func TestExpand(t *testing.T) {
	env := map[string]string{"A": "x", "B": "$(A)"}
	for _, tc := range []struct{ in, want string }{
		{"$(A)/$(A)", "x/x"},
		{"$(NONE)", "$(NONE)"},
		{"$$(A)", "$(A)"},
		{"$(B)", "$(A)"}, // no second pass
		{"a$b", "a$b"},
		{"$(A", "$(A"},
		{"end$", "end$"},
	} {
		if got := expand(tc.in, env); got != tc.want {
			t.Errorf("expand(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestManifests renders every kustomization and checks it.
func TestManifests(t *testing.T) {
	for _, dir := range kustomizations {
		t.Run(dir, func(t *testing.T) {
			r, err := decode(render(t, dir))
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range check(r) {
				t.Error(p)
			}
		})
	}
}

// TestDecodeStrict shows that a field the API does not have fails the
// decode instead of being dropped.
func TestDecodeStrict(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"unknown field", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: {completionsMode: Indexed}\n", "unknown field"},
		{"wrong type", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: {completions: \"4\"}\n", "cannot unmarshal"},
		{"duplicate field", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {A: x}\ndata: {A: y}\n", "already set"},
		{"unexpected kind", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n", "unexpected kind"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decode([]byte(tc.doc))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("decode: %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// TestCheckFails breaks a good rendering one rule at a time and shows that
// check reports each.
func TestCheckFails(t *testing.T) {
	good := render(t, "overlays/ch-query")
	shardsOf := func(r *rendered) *corev1.PodSpec { return &r.jobs[shardsJob].Spec.Template.Spec }
	runOf := func(r *rendered) *corev1.Container { return container(shardsOf(r), runner) }
	for _, tc := range []struct {
		name   string
		mutate func(r *rendered)
		want   string
	}{
		{"not indexed", func(r *rendered) {
			m := batchv1.NonIndexedCompletion
			r.jobs[shardsJob].Spec.CompletionMode = &m
		}, "not Indexed"},
		{"completions", func(r *rendered) { *r.jobs[shardsJob].Spec.Completions = 5 }, "completions 5 != SHARDS"},
		{"parallelism", func(r *rendered) { *r.jobs[shardsJob].Spec.Parallelism = 1 }, "parallelism 1 != SHARDS"},
		{"SHARDS changed alone", func(r *rendered) { r.testConfig().Data["SHARDS"] = "7" }, "completions 3 != SHARDS 7"},
		{"literal shard", func(r *rendered) { setFlag(runOf(r), "--shard", "0/3") }, "does not take the index"},
		{"shard N", func(r *rendered) { setFlag(runOf(r), "--shard", "$(JOB_COMPLETION_INDEX)/4") }, "gives N=\"4\""},
		{"start-at literal", func(r *rendered) { setFlag(runOf(r), "--start-at", "+30s") }, "--start-at must be"},
		{"dsn literal in args", func(r *rendered) {
			setFlag(runOf(r), "--dsn", "clickhouse://bench:hunter2@ch:9000/default")
		}, "DSN or password literal"},
		{"dsn literal in env", func(r *rendered) {
			c := runOf(r)
			c.Env[0] = corev1.EnvVar{Name: c.Env[0].Name, Value: "tcp://ch:9000?username=u&password=p"}
		}, "must come from a Secret"},
		{"password in env under another name", func(r *rendered) {
			runOf(r).Env = append(runOf(r).Env, corev1.EnvVar{Name: "TARGET", Value: "postgres://u:p@db/bench"})
		}, "DSN or password literal"},
		{"dsn from configmap", func(r *rendered) { r.testConfig().Data["CH"] = "clickhouse://u:p@ch:9000" }, "looks like a secret"},
		{"root", func(r *rendered) { *shardsOf(r).SecurityContext.RunAsNonRoot = false }, "runAsNonRoot"},
		{"privilege escalation", func(r *rendered) {
			*runOf(r).SecurityContext.AllowPrivilegeEscalation = true
		}, "allowPrivilegeEscalation"},
		{"merge reads other files", func(r *rendered) { setFlag(runOf(r), "--json", "$(RESULTS)/out-$(JOB_COMPLETION_INDEX).json") }, "does not read $(RESULTS)/out-"},
		{"marker elsewhere", func(r *rendered) {
			container(shardsOf(r), "done").Command[1] = "$(RESULTS)/ok-$(JOB_COMPLETION_INDEX)"
		}, "does not read $(RESULTS)/ok-"},
		{"other volume", func(r *rendered) {
			r.jobs[mergeJob].Spec.Template.Spec.Volumes[0].PersistentVolumeClaim.ClaimName = "other"
		}, "do not mount one volume claim"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := decode(good)
			if err != nil {
				t.Fatal(err)
			}
			if p := check(r); len(p) > 0 {
				t.Fatalf("the unbroken rendering already fails: %v", p)
			}
			tc.mutate(r)
			p := check(r)
			if !slices.ContainsFunc(p, func(s string) bool { return strings.Contains(s, tc.want) }) {
				t.Fatalf("check = %q, want a problem with %q", p, tc.want)
			}
		})
	}
}

// setFlag replaces --name=… in c's command or args, or appends it.
func setFlag(c *corev1.Container, name, value string) {
	for _, list := range [][]string{c.Command, c.Args} {
		for i, a := range list {
			if strings.HasPrefix(a, name+"=") {
				list[i] = name + "=" + value
				return
			}
		}
	}
	c.Args = append(c.Args, name+"="+value)
}

// TestStartAtScript renders through start-at.sh and checks the time it sets.
func TestStartAtScript(t *testing.T) {
	needKubectl(t)
	out, err := exec.Command("./start-at.sh", "overlays/null", "300").Output()
	if err != nil {
		t.Fatalf("start-at.sh: %v", err)
	}
	r, err := decode(out)
	if err != nil {
		t.Fatal(err)
	}
	if p := check(r); len(p) > 0 {
		t.Fatal(p)
	}
	at := r.testConfig().Data["START_AT"]
	if strings.HasPrefix(at, "unset") || !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`).MatchString(at) {
		t.Fatalf("START_AT = %q, want an RFC 3339 UTC time 300s ahead", at)
	}
	left, _ := filepath.Glob("overlays/.start-at.*")
	if len(left) > 0 {
		t.Fatalf("start-at.sh left %v behind", left)
	}
	if err := exec.Command("./start-at.sh", "overlays/null", "soon").Run(); err == nil {
		t.Fatal("start-at.sh accepted LEAD_SECONDS=soon")
	}
}

// TestDefaultStartAtSaysWhatToSet: manifests applied without start-at.sh
// make every shard fail at once, in a line that says what to set and how
// (issue 35: the default 2000-01-01 failed as "in the past").
func TestDefaultStartAtSaysWhatToSet(t *testing.T) {
	r, err := decode(render(t, "base"))
	if err != nil {
		t.Fatal(err)
	}
	at := r.testConfig().Data["START_AT"]
	_, err = load.ParseStartAt(at, time.Now())
	if err == nil {
		t.Fatalf("the default START_AT %q is accepted as a start time", at)
	}
	for _, want := range []string{"START_AT", "ConfigMap dbmeter-test", "deploy/kubernetes/start-at.sh"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("--start-at with the default START_AT says %q, which does not name %q", err, want)
		}
	}
}

// TestDockerfile checks the image runs as the user the pods declare: the
// last stage's USER is 65532, which runAsNonRoot needs numeric.
func TestDockerfile(t *testing.T) {
	b, err := os.ReadFile("../container/Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	var user string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "FROM ") {
			user = "" // a new stage starts as root
		}
		if u, ok := strings.CutPrefix(line, "USER "); ok {
			user = strings.TrimSpace(u)
		}
	}
	if user != "65532:65532" {
		t.Fatalf("the image's last stage runs as USER %q, want 65532:65532 (the pods' runAsUser/runAsGroup)", user)
	}
}
