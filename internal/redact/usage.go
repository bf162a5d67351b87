package redact

import "github.com/dbmeter/dbmeter/internal/usage"

// UsageErr is Err for an error that may be the user's: one that was a
// usage error stays one once masked, so masking a secret does not change
// the exit code.
func UsageErr(err error, secrets ...string) error {
	masked := Err(err, secrets...)
	if masked != nil && masked.Error() != err.Error() && usage.Is(err) {
		return usage.Wrap(masked)
	}
	return masked
}
