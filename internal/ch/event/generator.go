package event

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/dbmeter/dbmeter/internal/ch"
)

// Epoch is where generated time starts (2026-01-01T00:00:00Z, in ms): a
// fixed point, so the same seed gives the same rows on any day.
const Epoch = int64(1767225600000)

// Small vocabularies, as a security-log pipeline's dimensions are.
var (
	devTypes      = []string{"firewall", "ids", "ips", "waf", "router", "switch", "server", "vpn-gateway", "proxy", "load-balancer"}
	eventNames    = []string{"login_success", "login_failure", "logout", "port_scan", "sql_injection", "xss_attempt", "brute_force", "malware_detected", "policy_violation", "config_change", "file_access", "privilege_escalation", "dns_tunnel", "ddos_suspect", "session_timeout", "certificate_expired", "new_device", "traffic_spike", "blocked_connection", "allowed_connection", "vpn_connect", "vpn_disconnect", "password_change", "account_locked", "service_restart", "disk_full", "high_cpu", "unusual_geo", "data_exfiltration", "api_abuse"}
	eventTypes    = []string{"security", "audit", "network", "system", "application", "compliance", "threat", "access"}
	flowDirs      = []string{"inbound", "outbound", "internal", "external"}
	objects       = []string{"/api/v1/users", "/api/v1/orders", "/api/v2/payments", "/login", "/logout", "/admin", "/static/app.js", "/health", "/metrics", "/api/v1/search", "/upload", "/download", "/graphql", "/ws", "ssh", "rdp", "smb://fileserver/share", "mysql://db01", "redis://cache", "kafka://events"}
	operations    = []string{"read", "write", "delete", "update", "create", "execute", "connect", "disconnect", "authenticate", "deny", "allow", "scan"}
	srcLogTypes   = []string{"syslog", "netflow", "json", "cef", "leef", "windows-event"}
	logTypeTags   = []string{"fw", "ids", "av", "auth", "dns", "proxy", "web", "db", "vpn", "edr", "dlp", "nac"}
	manufacturers = []string{"Huawei", "H3C", "Cisco", "Juniper", "Fortinet", "PaloAlto", "Sangfor", "Hillstone", "Topsec", "Venustech", "NSFOCUS", "Qianxin"}
	reasons       = []string{"", "", "", "rule matched", "signature match", "rate limit exceeded", "geo blocked", "invalid credentials", "expired token", "blacklisted ip", "anomaly score above threshold", "manual block", "policy deny", "timeout", "protocol violation"}
	ports         = []int32{22, 25, 53, 80, 110, 143, 443, 445, 993, 1433, 1521, 3306, 3389, 5432, 6379, 8080, 8443, 9000, 9092, 27017}
	protocols     = []int32{6, 6, 6, 17, 17, 1}
)

// Message lengths: with the other 31 columns (about 250 bytes) a row
// averages about 1.4 KB, the seed's row.
const (
	msgMin = 1000
	msgMax = 1300
	// textBytes is the size of the text messages are cut from: large
	// enough that messages rarely repeat, small enough to stay in cache.
	textBytes = 1 << 20
)

// Generator makes event rows. It is deterministic for its seed and not safe
// for concurrent use.
type Generator struct {
	rng        *rand.Rand
	text       string
	collectors []string
	devIPs     []string
	srcIPs     []string
	dstIPs     []string
	id         int64 // last lid
	clock      int64 // ms since Epoch of the last event
}

// New returns a generator for seed.
func New(seed uint64) *Generator {
	rng := rand.New(rand.NewPCG(seed, 0x6576656e74)) // "event"
	g := &Generator{rng: rng}
	g.collectors = ips(rng, 8, "10.0.0.")
	g.devIPs = ips(rng, 256, "10.1.")
	g.srcIPs = ips(rng, 8192, "")
	g.dstIPs = ips(rng, 4096, "")
	g.text = text(rng, textBytes)
	return g
}

// ips makes n distinct-looking addresses with the given prefix.
func ips(rng *rand.Rand, n int, prefix string) []string {
	out := make([]string, n)
	for i := range out {
		switch strings.Count(prefix, ".") {
		case 3:
			out[i] = fmt.Sprintf("%s%d", prefix, 1+rng.IntN(254))
		case 2:
			out[i] = fmt.Sprintf("%s%d.%d", prefix, rng.IntN(256), 1+rng.IntN(254))
		default:
			out[i] = fmt.Sprintf("%d.%d.%d.%d", 1+rng.IntN(223), rng.IntN(256), rng.IntN(256), 1+rng.IntN(254))
		}
	}
	return out
}

// text builds log-like prose from a vocabulary with a skewed word
// frequency, numbers and key=value pairs, so it compresses like logs do.
func text(rng *rand.Rand, n int) string {
	words := make([]string, 2000)
	const letters = "abcdefghijklmnopqrstuvwxyz"
	for i := range words {
		w := make([]byte, 2+rng.IntN(9))
		for j := range w {
			w[j] = letters[rng.IntN(len(letters))]
		}
		words[i] = string(w)
	}
	keys := []string{"user", "host", "pid", "session", "status", "bytes", "uri", "agent", "rule", "action"}
	var sb strings.Builder
	sb.Grow(n + 64)
	for sb.Len() < n {
		switch r := rng.IntN(20); {
		case r == 0:
			fmt.Fprintf(&sb, "%s=%d ", keys[rng.IntN(len(keys))], rng.IntN(100000))
		case r == 1:
			fmt.Fprintf(&sb, "%d.%d.%d.%d ", rng.IntN(256), rng.IntN(256), rng.IntN(256), rng.IntN(256))
		default:
			// Squaring skews the choice towards the first words (Zipf-like).
			f := rng.Float64()
			sb.WriteString(words[int(f*f*float64(len(words)))])
			sb.WriteByte(' ')
		}
	}
	return sb.String()
}

// Block returns a new block of rows rows.
func (g *Generator) Block(rows int) *ch.Block {
	b := NewBlock(rows)
	g.Fill(b, rows)
	return b
}

// Fill replaces b's contents (a block from NewBlock) with the next rows
// rows, reusing its slices when they are large enough.
func (g *Generator) Fill(b *ch.Block, rows int) {
	var s [cReason + 1][]string
	var i32 [iSrcPort - iAppProtocol + 1][]int32
	var i64 [lStartTime - lDuration + 1][]int64
	for c := range nColumns {
		switch {
		case c <= cReason:
			s[c] = grow(b.Columns[c].Data.([]string), rows)
		case c <= iSrcPort:
			i32[c-iAppProtocol] = grow(b.Columns[c].Data.([]int32), rows)
		default:
			i64[c-lDuration] = grow(b.Columns[c].Data.([]int64), rows)
		}
	}
	rng := g.rng
	pick := func(v []string) string { return v[rng.IntN(len(v))] }
	for r := range rows {
		g.id++
		g.clock += rng.Int64N(3) // events arrive a millisecond or so apart
		occur := Epoch + g.clock
		dur := rng.Int64N(rng.Int64N(600000) + 1) // mostly short, some long
		off := rng.IntN(len(g.text) - msgMax)
		ml := msgMin + rng.IntN(msgMax-msgMin+1)

		s[cCollectorIP][r] = pick(g.collectors)
		s[cDevIP][r] = pick(g.devIPs)
		s[cDevType][r] = pick(devTypes)
		s[cDstIP][r] = pick(g.dstIPs)
		s[cEventMsg][r] = g.text[off : off+ml]
		s[cEventName][r] = pick(eventNames)
		s[cEventType][r] = pick(eventTypes)
		s[cFlowDir][r] = pick(flowDirs)
		s[cObject][r] = pick(objects)
		s[cOperation][r] = pick(operations)
		s[cSrcIP][r] = pick(g.srcIPs)
		s[cSrcLogType][r] = pick(srcLogTypes)
		s[cLogTypeTag][r] = pick(logTypeTags)
		s[cManufacturer][r] = pick(manufacturers)
		s[cReason][r] = pick(reasons)

		i32[iAppProtocol-iAppProtocol][r] = rng.Int32N(32)
		i32[iCollectType-iAppProtocol][r] = 1 + rng.Int32N(4)
		i32[iDstPort-iAppProtocol][r] = ports[rng.IntN(len(ports))]
		i32[iEventLevel-iAppProtocol][r] = 1 + rng.Int32N(5)
		i32[iMergeCount-iAppProtocol][r] = 1 + rng.Int32N(rng.Int32N(50)+1)
		i32[iProtocol-iAppProtocol][r] = protocols[rng.IntN(len(protocols))]
		i32[iSrcPort-iAppProtocol][r] = 1024 + rng.Int32N(64511)

		req := rng.Int64N(rng.Int64N(100000) + 1)
		i64[lDuration-lDuration][r] = dur
		i64[lRecivePack-lDuration][r] = rng.Int64N(dur/10 + 2)
		i64[lSendPack-lDuration][r] = rng.Int64N(dur/10 + 2)
		i64[lRequestBodyLen-lDuration][r] = req
		i64[lResponseBodyLen-lDuration][r] = rng.Int64N(req*8 + 1)
		i64[lEndTime-lDuration][r] = occur
		i64[lID-lDuration][r] = g.id
		i64[lOccurTime-lDuration][r] = occur
		i64[lReceptTime-lDuration][r] = occur + rng.Int64N(2000)
		i64[lStartTime-lDuration][r] = occur - dur
	}
	for c := range nColumns {
		switch {
		case c <= cReason:
			b.Columns[c].Data = s[c]
		case c <= iSrcPort:
			b.Columns[c].Data = i32[c-iAppProtocol]
		default:
			b.Columns[c].Data = i64[c-lDuration]
		}
	}
	b.Rows = rows
}

// grow returns v resized to n, reusing its array when it is large enough.
func grow[T any](v []T, n int) []T {
	if cap(v) >= n {
		return v[:n]
	}
	return make([]T, n)
}

// ringRows bounds the rows a run keeps generated in memory (about 150 MB of
// column data at this row shape); longer runs cycle through them.
const ringRows = 400_000

// RingSize is how many distinct blocks of batch rows a run cycles through:
// as many as fit in ringRows, no more than totalRows needs (0: unknown),
// at least one.
func RingSize(batch int, totalRows int64) int {
	n := max(1, ringRows/max(batch, 1))
	if totalRows > 0 {
		n = min(n, int((totalRows+int64(batch)-1)/int64(batch)))
	}
	return max(n, 1)
}

// Ring generates n blocks of batch rows from seed: the rows a run inserts
// (block k of the run is Ring[k % n]) and the ceiling script dumps.
func Ring(seed uint64, batch, n int) []*ch.Block {
	g := New(seed)
	out := make([]*ch.Block, n)
	for i := range out {
		out[i] = g.Block(batch)
		out[i].Index = i
	}
	return out
}
