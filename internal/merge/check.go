package merge

import (
	"fmt"
	"strings"

	"github.com/dbmeter/dbmeter/internal/result"
)

// testCommand is the command of doc, a shard's document, without the
// flags that only observed it (--shard and the output files among them),
// as the document declares them: what every shard of one test has in
// common.
func testCommand(doc *document) string {
	words := strings.Fields(doc.Command)
	out := make([]string, 0, len(words))
	for i := 0; i < len(words); i++ {
		w := words[i]
		name, _, hasValue := strings.Cut(w, "=")
		flag, ok := strings.CutPrefix(name, "--")
		setting := result.SettingName(flag)
		if !ok || doc.Role(setting) != result.Observes {
			out = append(out, w)
			continue
		}
		if !hasValue && doc.Declared(setting).Kind != "bool" {
			i++ // the value is the next word
		}
	}
	return strings.Join(out, " ")
}

// shardOf returns the shard the runs of in belong to.
func shardOf(in Input) (Shard, error) {
	if len(in.doc.Runs) == 0 {
		return Shard{}, fmt.Errorf("%s: the document has no runs, so no shard to merge", in.Name)
	}
	first := in.doc.Runs[0].Shard
	if first == nil {
		return Shard{}, fmt.Errorf("%s: not part of a sharded benchmark (its runs have no \"shard\"): merge takes the documents of one test split into shards", in.Name)
	}
	for _, r := range in.doc.Runs[1:] {
		if r.Shard == nil || r.Shard.Index != first.Index || r.Shard.Count != first.Count {
			return Shard{}, fmt.Errorf("%s: its runs disagree on which shard they are", in.Name)
		}
	}
	if first.Count < 1 || first.Index < 0 || first.Index >= first.Count {
		return Shard{}, fmt.Errorf("%s: shard index %d is outside 0..%d", in.Name, first.Index, first.Count-1)
	}
	return *first, nil
}

// order checks that ins are every shard of one test, each once, and
// returns them by shard index.
func order(ins []Input) ([]Input, error) {
	if len(ins) == 0 {
		return nil, fmt.Errorf("no shard documents to merge")
	}
	first, err := shardOf(ins[0])
	if err != nil {
		return nil, err
	}
	want := testCommand(ins[0].doc)
	byIndex := make([]*Input, first.Count)
	for i := range ins {
		in := &ins[i]
		s, err := shardOf(*in)
		if err != nil {
			return nil, err
		}
		if s.Count != first.Count {
			return nil, fmt.Errorf("%s: shard %d of %d, but %s is a shard of %d: not the same test", in.Name, s.Index, s.Count, ins[0].Name, first.Count)
		}
		if got := testCommand(in.doc); got != want {
			return nil, fmt.Errorf("%s: not a shard of the same test as %s: its command %q differs from %q (apart from the flags that only observe a run: the shard, the output files, the progress)", in.Name, ins[0].Name, got, want)
		}
		if prev := byIndex[s.Index]; prev != nil {
			return nil, fmt.Errorf("%s: shard %d of %d is already given by %s", in.Name, s.Index, s.Count, prev.Name)
		}
		byIndex[s.Index] = in
	}
	out := make([]Input, 0, len(byIndex))
	var missing []string
	for i, in := range byIndex {
		if in == nil {
			missing = append(missing, fmt.Sprint(i))
			continue
		}
		out = append(out, *in)
	}
	if len(missing) > 0 {
		var have []string
		for _, in := range out {
			have = append(have, fmt.Sprintf("%s is %d", in.Name, in.doc.Runs[0].Shard.Index))
		}
		return nil, fmt.Errorf("shard %s of %d missing (%s): merge needs every shard's document", strings.Join(missing, ", "), first.Count, strings.Join(have, ", "))
	}
	return out, nil
}
