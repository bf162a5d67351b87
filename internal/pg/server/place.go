package server

import "fmt"

// Placement is a local cluster ready to be placed under a storage
// profile: its files dropped from the page cache, the processes to move
// (its postmaster and every process it forked; those it forks later start
// in its cgroup), and a line naming it.
type Placement struct {
	Cluster
	PIDs   []int
	Target string
}

// Place finds the cluster a storage profile applies to (FindCluster:
// named, else the dev-services cluster the run connects to at endpoint)
// and readies it.
func Place(named, endpoint string) (Placement, error) {
	c, err := FindCluster(named, endpoint)
	if err != nil {
		return Placement{}, err
	}
	if err := EvictPageCache(c.DataDir); err != nil {
		return Placement{}, fmt.Errorf("{StorageProfile}: drop the cluster's files from the page cache: %w", err)
	}
	return Placement{Cluster: c, PIDs: ProcessTree(c.PID), Target: fmt.Sprintf("PostgreSQL, postmaster %d, data %s", c.PID, c.DataDir)}, nil
}
