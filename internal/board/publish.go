// Package board puts many machines' runs of one study side by side: one
// offline page (study board) of every cell across the machines, with
// intervals on every value and rank, a view normalised by each machine's
// measured reference, and the study's claims counted across machines. It
// also makes a study's result document safe to share (study publish):
// host names, DSNs, user names, paths and IP addresses replaced by stable
// pseudonyms, and the document checked against the result schema first.
package board

import (
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/dbmeter/dbmeter/internal/redact"
	"github.com/dbmeter/dbmeter/internal/study"
)

// Published is what publish records in the document it writes, under
// "published": the machine's label and what was taken out.
type Published struct {
	// Label names the machine on a board ("plain", "laptop").
	Label string `json:"label,omitempty"`
	// Removed lists each kind of identifying value replaced, with how
	// many occurrences and the pseudonyms that stand for them (never the
	// values themselves).
	Removed []Removal `json:"removed"`
	// Kept says what publish leaves on purpose.
	Kept string `json:"kept"`
}

// Removal is one kind of identifying value publish replaced.
type Removal struct {
	Kind        string   `json:"kind"`
	Occurrences int      `json:"occurrences"`
	Pseudonyms  []string `json:"pseudonyms"`
}

// Kinds of identifying value.
const (
	KindHost     = "host name"
	KindUser     = "user name"
	KindPassword = "password"
	KindPath     = "path"
	KindIP       = "IP address"
	KindDSN      = "DSN"
)

// keptNote says what publish leaves, so a reader of the page knows.
const keptNote = "loopback addresses (127.0.0.1, ::1) and localhost, relative paths, the CPU model, kernel, module versions and the study file are kept: they name no person or machine of a network"

// Identity is what publish knows names this machine and its user besides
// what it finds in DSNs: the host name and user name, and the home
// directory.
type Identity struct {
	Hostname string
	User     string
}

// scrubber replaces identifying values with pseudonyms, the same value
// always by the same pseudonym (host-1, user-1, path-2).
type scrubber struct {
	names map[string]map[string]string // kind → value → pseudonym
	count map[string]int               // kind → occurrences
	// known are host and user names to replace wherever they occur as
	// words, found in DSNs or given.
	hosts, users []string
}

var (
	urlRe      = regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9+.-]*://[^\s"'<>,;)]+`)
	ipv4Re     = regexp.MustCompile(`\b\d{1,3}(?:\.\d{1,3}){3}\b`)
	ipv6Re     = regexp.MustCompile(`\[?[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?:%[0-9A-Za-z]+)?\]?`)
	pathRe     = regexp.MustCompile(`(^|[\s=:"'(\[,])(/[^\s"',;)\]]+)`)
	conninfoRe = regexp.MustCompile(`(?i)\b(host|hostaddr|user|password)\s*=\s*('[^']*'|[^\s;,&]+)`)
	// Other programs' host and user flags (psql's, pgbench's), quoted
	// in a command line or a message: -h, -U and their long forms.
	flagRe = regexp.MustCompile(`(?:^|\s)(-h|-U|-{2}(?:host|username|user))(\s+|=)([^\s-][^\s]*)`)
	homeRe = regexp.MustCompile(`/(?:home|Users)/([^/\s"']+)`)
)

// harmless are names that identify nothing, left where they are.
var harmless = []string{"localhost", "root", "postgres", "default", "nobody", "bench", "check", ""}

func newScrubber(id Identity) *scrubber {
	s := &scrubber{names: map[string]map[string]string{}, count: map[string]int{}}
	s.addHost(id.Hostname)
	s.addUser(id.User)
	return s
}

func (s *scrubber) addHost(h string) {
	h = strings.Trim(h, "[]")
	if slices.Contains(harmless, strings.ToLower(h)) || net.ParseIP(h) != nil || slices.Contains(s.hosts, h) {
		return
	}
	s.hosts = append(s.hosts, h)
	// A host's short name (db7 of db7.corp.example) names it too.
	if short, _, ok := strings.Cut(h, "."); ok && len(short) >= 2 {
		s.addHost(short)
	}
}

func (s *scrubber) addUser(u string) {
	if len(u) >= 2 && !slices.Contains(harmless, strings.ToLower(u)) && !slices.Contains(s.users, u) {
		s.users = append(s.users, u)
	}
}

// pseudonym is value's stand-in of its kind, made on first sight.
func (s *scrubber) pseudonym(kind, value string) string {
	s.count[kind]++
	m := s.names[kind]
	if m == nil {
		m = map[string]string{}
		s.names[kind] = m
	}
	if p, ok := m[value]; ok {
		return p
	}
	prefix := map[string]string{KindHost: "host", KindUser: "user", KindPath: "path", KindIP: "ip", KindPassword: "password", KindDSN: "dsn"}[kind]
	p := fmt.Sprintf("%s-%d", prefix, len(m)+1)
	m[value] = p
	return p
}

// learn finds the host and user names a string's DSNs, conninfo and
// flags name, so that they are replaced wherever else they occur (an
// error message quoting the host).
func (s *scrubber) learn(v string) {
	for _, raw := range urlRe.FindAllString(v, -1) {
		if u, err := url.Parse(raw); err == nil {
			s.addHost(u.Hostname())
			if u.User != nil {
				s.addUser(u.User.Username())
			}
		}
	}
	for _, m := range conninfoRe.FindAllStringSubmatch(v, -1) {
		val := strings.Trim(m[2], "'")
		switch strings.ToLower(m[1]) {
		case "host", "hostaddr":
			s.addHost(val)
		case "user":
			s.addUser(val)
		}
	}
	for _, m := range flagRe.FindAllStringSubmatch(v, -1) {
		if m[1] == "-h" || strings.TrimLeft(m[1], "-") == "host" {
			s.addHost(m[3])
		} else {
			s.addUser(m[3])
		}
	}
	for _, m := range homeRe.FindAllStringSubmatch(v, -1) {
		s.addUser(m[1])
	}
}

// scrub returns v with every identifying value replaced. DSNs are
// rewritten first and kept whole (scheme, port and database stay), then
// the rest of the text is scrubbed around them.
func (s *scrubber) scrub(v string) string {
	var b strings.Builder
	last := 0
	for _, loc := range urlRe.FindAllStringIndex(v, -1) {
		b.WriteString(s.scrubText(v[last:loc[0]]))
		b.WriteString(s.scrubURL(v[loc[0]:loc[1]]))
		last = loc[1]
	}
	b.WriteString(s.scrubText(v[last:]))
	return b.String()
}

// scrubURL replaces a DSN's user, password and host, and a password in
// its query.
func (s *scrubber) scrubURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return s.scrubText(redact.String(raw))
	}
	if u.User != nil {
		name := u.User.Username()
		if !slices.Contains(harmless, strings.ToLower(name)) {
			name = s.pseudonym(KindUser, name)
		}
		if _, ok := u.User.Password(); ok {
			s.count[KindPassword]++
			u.User = url.UserPassword(name, redact.Mask)
		} else {
			u.User = url.User(name)
		}
	}
	if h := u.Hostname(); h != "" && !isLoopback(h) && !strings.EqualFold(h, "localhost") {
		kind := KindHost
		if net.ParseIP(h) != nil {
			kind = KindIP
		}
		p := s.pseudonym(kind, h)
		if port := u.Port(); port != "" {
			u.Host = p + ":" + port
		} else {
			u.Host = p
		}
	}
	q := u.Query()
	for k := range q {
		if isSecret(k) {
			s.count[KindPassword]++
			q.Set(k, redact.Mask)
		} else if strings.EqualFold(k, "host") || strings.EqualFold(k, "user") {
			q.Set(k, s.scrubText(q.Get(k)))
		}
	}
	if len(q) > 0 {
		u.RawQuery = q.Encode()
	}
	s.count[KindDSN]++
	out := u.String()
	return strings.ReplaceAll(out, "%7B", "{") // keep placeholders readable
}

func isSecret(k string) bool {
	switch strings.ToLower(k) {
	case "password", "passwd", "pwd", "pass", "secret", "token", "sslkey", "sslpassword":
		return true
	}
	return false
}

func isLoopback(h string) bool {
	ip := net.ParseIP(strings.Trim(h, "[]"))
	return ip != nil && ip.IsLoopback()
}

// scrubText replaces identifying values in text that holds no DSN.
func (s *scrubber) scrubText(v string) string {
	v = redact.String(v)
	v = conninfoRe.ReplaceAllStringFunc(v, func(m string) string {
		sub := conninfoRe.FindStringSubmatch(m)
		val := strings.Trim(sub[2], "'")
		switch strings.ToLower(sub[1]) {
		case "password":
			s.count[KindPassword]++
			return sub[1] + "=" + redact.Mask
		case "user":
			if slices.Contains(harmless, strings.ToLower(val)) {
				return m
			}
			return sub[1] + "=" + s.pseudonym(KindUser, val)
		}
		return m // host= is replaced below, as a host or an address
	})
	v = pathRe.ReplaceAllStringFunc(v, func(m string) string {
		sub := pathRe.FindStringSubmatch(m)
		return sub[1] + s.pseudonym(KindPath, sub[2])
	})
	v = ipv4Re.ReplaceAllStringFunc(v, func(m string) string {
		ip := net.ParseIP(m)
		if ip == nil || ip.IsLoopback() || ip.IsUnspecified() {
			return m
		}
		return s.pseudonym(KindIP, m)
	})
	v = ipv6Re.ReplaceAllStringFunc(v, func(m string) string {
		ip := net.ParseIP(strings.Trim(m, "[]"))
		if ip == nil || ip.IsLoopback() || ip.IsUnspecified() || !strings.Contains(m, ":") {
			return m
		}
		return s.pseudonym(KindIP, m)
	})
	for _, h := range s.hosts {
		v = replaceWord(v, h, func() string { return s.pseudonym(KindHost, h) })
	}
	for _, u := range s.users {
		v = replaceWord(v, u, func() string { return s.pseudonym(KindUser, u) })
	}
	return v
}

// replaceWord replaces word where it stands as a word (not inside a
// longer name), each occurrence by what with returns.
func replaceWord(v, word string, with func() string) string {
	re := regexp.MustCompile(`(^|[^A-Za-z0-9_.-])` + regexp.QuoteMeta(word) + `($|[^A-Za-z0-9_-])`)
	for {
		loc := re.FindStringSubmatchIndex(v)
		if loc == nil {
			return v
		}
		start, end := loc[3], loc[4]
		v = v[:start] + with() + v[end:]
	}
}

// removed lists what the scrubber replaced, kind by kind.
func (s *scrubber) removed() []Removal {
	var out []Removal
	for _, kind := range []string{KindDSN, KindPassword, KindHost, KindIP, KindUser, KindPath} {
		if s.count[kind] == 0 {
			continue
		}
		r := Removal{Kind: kind, Occurrences: s.count[kind], Pseudonyms: []string{}}
		for _, p := range s.names[kind] {
			r.Pseudonyms = append(r.Pseudonyms, p)
		}
		sort.Slice(r.Pseudonyms, func(i, j int) bool { return pseudoLess(r.Pseudonyms[i], r.Pseudonyms[j]) })
		out = append(out, r)
	}
	return out
}

func pseudoLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// untouched are the keys whose values publish leaves as they are: the
// study file and its hash (the board compares them), histograms (base64)
// and the schema names.
var untouched = map[string]bool{"text": true, "sha256": true, "schema": true, "latency_hdr": true, "service_hdr": true, "lag_hdr": true, "hdr": true, "published": true}

// walk applies f to every string of a decoded JSON value, keys in order
// so that pseudonyms are numbered the same way every time.
func walk(v any, f func(string) string) any {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if !untouched[k] {
				x[k] = walk(x[k], f)
			}
		}
		return x
	case []any:
		for i := range x {
			x[i] = walk(x[i], f)
		}
		return x
	case string:
		return f(x)
	}
	return v
}

// Scrub replaces every identifying value of a decoded document and
// returns what it removed. It learns the host and user names from every
// string first, so a host named in one DSN is replaced in every message.
func Scrub(doc any, id Identity) []Removal {
	s := newScrubber(id)
	walk(doc, func(v string) string { s.learn(v); return v })
	// Longer names first, so that db1.example.com goes before db1.
	sort.Slice(s.hosts, func(i, j int) bool { return len(s.hosts[i]) > len(s.hosts[j]) })
	sort.Slice(s.users, func(i, j int) bool { return len(s.users[i]) > len(s.users[j]) })
	walk(doc, s.scrub)
	return s.removed()
}

// decode reads a JSON document into generic values, keeping numbers as
// written.
func decode(data []byte) (map[string]any, error) {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	return m, nil
}

// shippedStudy says whether doc holds a built-in study's file as this
// dbmeter ships it: that text is public (s5's quotes a /sys path from its
// article), the same on every machine, and names nothing of the user's.
func shippedStudy(doc map[string]any) bool {
	file, _ := doc["file"].(string)
	id, _ := doc["study"].(string)
	sum, _ := doc["sha256"].(string)
	if !strings.HasPrefix(file, "builtin/") {
		return false
	}
	cur, err := study.Load(id)
	return err == nil && cur.Hash == sum
}

// Publish checks a study's result document against the schema and
// returns a copy safe to share: every host name, DSN user and password,
// user name, absolute path and IP address replaced by a pseudonym, and a
// "published" entry saying what was replaced. A document that breaks the
// schema returns its problems and no copy.
func Publish(data []byte, id Identity, label string) ([]byte, *Published, []Problem, error) {
	_, ps := ValidateStudy(data)
	if len(ps) > 0 {
		return nil, nil, ps, nil
	}
	doc, err := decode(data)
	if err != nil {
		return nil, nil, nil, err
	}
	if prev, ok := doc["published"].(map[string]any); ok && label == "" {
		label, _ = prev["label"].(string)
	}
	removed := Scrub(doc, id)
	if text, _ := doc["text"].(string); text != "" && !shippedStudy(doc) {
		s := newScrubber(id)
		walk(doc, func(v string) string { s.learn(v); return v })
		if s.scrub(text) != text {
			return nil, nil, []Problem{{Where: "text", What: "the study file it holds names a host, user, path, address or secret: publish cannot replace it without changing the study's SHA-256 (the board groups by it); take it out of the study file and run the study again"}}, nil
		}
	}
	p := &Published{Label: label, Removed: removed, Kept: keptNote}
	if p.Removed == nil {
		p.Removed = []Removal{}
	}
	doc["published"] = p
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, nil, nil, fmt.Errorf("encode the published document: %w", err)
	}
	return append(out, '\n'), p, nil, nil
}
