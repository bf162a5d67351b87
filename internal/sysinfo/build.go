package sysinfo

import (
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/dbmeter/dbmeter/internal/result"
)

// Tool identifies this dbmeter binary from the build information Go
// stamps into it (debug.ReadBuildInfo): the release version, or the commit
// and whether the checkout had uncommitted changes, and the Go toolchain
// and build tags. See result.Tool for what each field holds.
func Tool() result.Tool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return result.Tool{Name: "dbmeter", Version: "devel", Go: runtime.Version(), Tags: []string{}}
	}
	return toolFrom(bi)
}

// Version is Tool().Version.
func Version() string { return Tool().Version }

// pseudoVersion matches the versions Go makes up for a commit that no tag
// names (v0.0.0-20261123124953-c94b0a389c91, with +dirty since Go 1.24):
// not a release.
var pseudoVersion = regexp.MustCompile(`[0-9]{14}-[0-9a-f]{12}(\+dirty)?$`)

func toolFrom(bi *debug.BuildInfo) result.Tool {
	t := result.Tool{Name: "dbmeter", Go: bi.GoVersion, Tags: []string{}}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			t.Revision = s.Value
		case "vcs.time":
			t.RevisionTime = s.Value
		case "vcs.modified":
			t.Modified = s.Value == "true"
		case "-tags":
			for tag := range strings.SplitSeq(s.Value, ",") {
				if tag = strings.TrimSpace(tag); tag != "" {
					t.Tags = append(t.Tags, tag)
				}
			}
		}
	}
	mv := bi.Main.Version
	release := strings.HasPrefix(mv, "v") && !pseudoVersion.MatchString(mv) && !strings.HasSuffix(mv, "+dirty")
	switch {
	case release:
		t.Version = mv
	case t.Revision != "":
		t.Version = t.Revision[:min(12, len(t.Revision))]
		if t.Modified {
			t.Version += "-dirty"
		}
	case mv != "" && mv != "(devel)":
		t.Version = mv // go install module@commit: the pseudo-version names the commit
	default:
		t.Version = "devel"
	}
	return t
}
