package result

// Storage is the storage class the runs ran under (--storage-profile):
// the limits dbmeter's cgroup put on the disk and memory, what the device
// delivered under them at the start, and what the kernel does not enforce.
type Storage struct {
	// Profile is the profile's name ("hdd", "custom"), Limits its limits
	// as the flag spells them ("riops=150,wiops=150,rbps=200M,wbps=200M"),
	// Source where the numbers come from.
	Profile string `json:"profile"`
	Limits  string `json:"limits"`
	Source  string `json:"source"`
	// Hierarchy is "cgroup v1" or "cgroup v2"; Device the disk limited
	// ("vda 254:0"); Cgroups the directories dbmeter made and removed.
	Hierarchy string   `json:"hierarchy"`
	Device    string   `json:"device"`
	Cgroups   []string `json:"cgroups"`
	// Target says what was placed in the cgroup: "dbmeter" (the process
	// that runs the engines) or a server ("postgres, postmaster 1234").
	Target     string        `json:"target"`
	Unenforced []string      `json:"unenforced,omitempty"`
	Probe      *StorageProbe `json:"probe,omitempty"`
}

// StorageProbe is what the device delivered under the profile for a
// moment at the start: one 4 KiB IO at a time.
type StorageProbe struct {
	Method    string  `json:"method"`
	ReadIOPS  float64 `json:"read_iops"`
	WriteIOPS float64 `json:"write_iops"`
	ReadOps   int     `json:"read_ops"`
	WriteOps  int     `json:"write_ops"`
	// CountedReadIOs and CountedWriteIOs are what the cgroup's counters
	// saw during the probe, its file's preparation included.
	CountedReadIOs  int64 `json:"counted_read_ios"`
	CountedWriteIOs int64 `json:"counted_write_ios"`
	// Error says why the probe could not run.
	Error string `json:"error,omitempty"`
}
