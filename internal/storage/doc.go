// Package storage runs part of a benchmark under a storage class: a
// profile of read and write IOPS, bandwidth and a memory limit that the
// kernel's cgroups enforce on the processes dbmeter places in a cgroup of
// its own.
//
// A Profile is named (hdd, sata-ssd, nvme, provisioned) or spelled out
// (riops=200,wiops=200,mem=256M). Apply makes dbmeter's cgroups for the
// device behind a data directory, on cgroup v1 (blkio and memory) or v2
// (io.max and memory.max); the Group it returns moves processes in, reads
// the IOs and bytes the kernel counted, and removes the cgroups. Sweep
// removes the cgroups a dbmeter that died left behind. Probe measures what
// the device delivers to a process in the group.
//
// What the kernel does not enforce is said, not hidden: cgroup v1 does not
// throttle buffered writes that the kernel writes back later, because the
// flusher threads that do it belong to no one's cgroup (docs/storage.md).
package storage
