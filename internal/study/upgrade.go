package study

import (
	"fmt"

	"github.com/dbmeter/dbmeter/internal/result"
)

// Upgrade brings every step's result document to the current result
// schema, as result.Read does for one read alone: a study document
// recorded before settings were keyed by declared names (dbmeter/v1)
// selects, renders and compares with the names a study file uses now.
func (d *Document) Upgrade() error {
	for _, st := range d.Steps {
		if st.Result == nil {
			continue
		}
		if err := result.Upgrade(st.Result); err != nil {
			return fmt.Errorf("step %s: %w", st.ID, err)
		}
	}
	return nil
}
