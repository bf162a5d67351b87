package study

import "github.com/dbmeter/dbmeter/internal/usage"

// CompareFiles reads two study result documents and compares b's run with
// a's (Compare). Runs of two different studies have no cells in common:
// comparing them is the user's mistake.
func CompareFiles(a, b string) (*Comparison, error) {
	da, s, err := ReadDocument(a)
	if err != nil {
		return nil, err
	}
	db, _, err := ReadDocument(b)
	if err != nil {
		return nil, err
	}
	if da.Study != db.Study {
		return nil, usage.Errorf("%s is study %s and %s is study %s: compare runs of one study", a, da.Study, b, db.Study)
	}
	return Compare(s, da, db), nil
}
