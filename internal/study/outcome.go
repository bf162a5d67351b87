package study

import "fmt"

// Failure is the first step of the run that failed, as an error; nil when
// every step ran or was skipped (a skipped step is a reason the page
// gives, not a failure).
func (d *Document) Failure() error {
	for _, st := range d.Steps {
		if st.Error != "" {
			return fmt.Errorf("study %s: step %s failed: %s", d.Study, st.ID, st.Error)
		}
	}
	return nil
}
