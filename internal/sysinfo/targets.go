package sysinfo

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// targetFinder finds the target server's processes: those holding the
// listening socket of a loopback port that one of dbmeter's processes is
// connected to. A server on another host has none here. It needs to read
// the server's /proc/<pid>/fd (the same user, or root); where it cannot,
// the server's CPU counts as other processes'.
type targetFinder struct {
	// byPort caches the listeners found for a port, none included.
	byPort map[uint64][]int
}

// sockets are /proc/net/tcp{,6}'s lines, by inode.
type socket struct {
	state              string // "01" established, "0A" listen
	localPort, remPort uint64
	remLoopback        bool
}

func (f *targetFinder) pids(own map[int]bool, procs map[int]proc) []int {
	ownInodes := map[string]bool{}
	for pid := range own {
		for _, ino := range socketInodes(pid) {
			ownInodes[ino] = true
		}
	}
	socks := readSockets()
	var ports []uint64
	for ino, s := range socks {
		if ownInodes[ino] && s.state == "01" && s.remLoopback {
			ports = append(ports, s.remPort)
		}
	}
	var out []int
	for _, port := range ports {
		found, ok := f.byPort[port]
		if !ok {
			found = listeners(port, socks, procs)
			if f.byPort == nil {
				f.byPort = map[uint64][]int{}
			}
			f.byPort[port] = found
		}
		out = append(out, found...)
	}
	return out
}

// listeners are the processes holding a socket listening on port.
func listeners(port uint64, socks map[string]socket, procs map[int]proc) []int {
	listen := map[string]bool{}
	for ino, s := range socks {
		if s.state == "0A" && s.localPort == port {
			listen[ino] = true
		}
	}
	if len(listen) == 0 {
		return nil
	}
	var out []int
	for pid := range procs {
		for _, ino := range socketInodes(pid) {
			if listen[ino] {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

// socketInodes lists the inodes of pid's open sockets.
func socketInodes(pid int) []string {
	dir := "/proc/" + strconv.Itoa(pid) + "/fd/"
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		l, err := os.Readlink(dir + e.Name())
		if err == nil && strings.HasPrefix(l, "socket:[") {
			out = append(out, strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]"))
		}
	}
	return out
}

// readSockets reads the TCP sockets of this network namespace.
func readSockets() map[string]socket {
	out := map[string]socket{}
	for _, file := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(file)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		sc.Scan() // header
		for sc.Scan() {
			fl := strings.Fields(sc.Text())
			if len(fl) < 10 {
				continue
			}
			_, lport, _ := strings.Cut(fl[1], ":")
			raddr, rport, _ := strings.Cut(fl[2], ":")
			lp, _ := strconv.ParseUint(lport, 16, 16)
			rp, _ := strconv.ParseUint(rport, 16, 16)
			out[fl[9]] = socket{state: fl[3], localPort: lp, remPort: rp, remLoopback: loopbackHex(raddr)}
		}
		f.Close()
	}
	return out
}

// loopbackHex says whether /proc/net/tcp's hex address is a loopback one:
// 127.0.0.0/8 (little-endian, so its last byte is 7F), ::1, or
// ::ffff:127.x.
func loopbackHex(a string) bool {
	switch len(a) {
	case 8:
		return strings.HasSuffix(a, "7F")
	case 32:
		return a == "00000000000000000000000001000000" ||
			(strings.HasPrefix(a, "0000000000000000FFFF0000") && strings.HasSuffix(a, "7F"))
	}
	return false
}
