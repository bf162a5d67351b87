package pg

// pg's default run, when the user gives none of its extent (DefaultRun):
// enough repetitions for compare's p-value (4 a side) and one to spare,
// each long enough for a p99.9 at one client.
const (
	DefaultRepeat  = 5
	DefaultSeconds = 2
)

// DefaultRun says whether the command runs pg's default experiment,
// DefaultRepeat interleaved repetitions of -T DefaultSeconds, as if the
// user had typed them: it gives none of -T, -t and --repeat. pgbench's own
// default, 10 transactions once, has no interval and nothing for compare.
// A command that says how long or how often runs exactly that, as pgbench
// would; so do -i, a capacity search (its repetitions are confirmations),
// a shard (its peers must run the same) and an aggregate interval (a
// multiple of the user's -T).
func (f *Command) DefaultRun() bool {
	for _, field := range []string{"Seconds", "PerClient", "Repeat", "Initialize", "Find", "Shard", "AggInterval"} {
		if f.given(field) {
			return false
		}
	}
	return true
}
