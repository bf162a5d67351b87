package ch

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dbmeter/dbmeter/internal/redact"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// DSN is a ClickHouse native-protocol address. Users bring it in
// clickhouse-go v2's form (clickhouse://user:password@host:port/database?k=v)
// or v1's (tcp://host:port?username=u&password=p&database=d&k=v). It is the
// one model of what every client path receives: each path translates it
// into its library's options (options.go) and refuses, naming itself, a
// parameter it cannot honour (Check), rather than drop it or forward it
// as a setting.
type DSN struct {
	Addr     string // host:port
	User     string
	Password string
	Database string
	// TLS is nil for plaintext (secure=true turns it on).
	TLS *TLS
	// Compress is the block compression: "" (none), "lz4" or "zstd".
	Compress string
	// Timeouts; 0 leaves each library's own default.
	DialTimeout, ReadTimeout, WriteTimeout time.Duration
	// Settings are server settings: every query parameter that is not one
	// of the keys above. Whether the server knows them is checked against
	// the server itself (UnknownSettings).
	Settings url.Values
}

// TLS is how a client verifies the server's certificate.
type TLS struct {
	SkipVerify bool   // skip_verify=true: accept any certificate
	CAFile     string // ca_file=PATH: trust the PEM certificates in it
}

// DefaultPort is ClickHouse's native TCP port.
const DefaultPort = "9000"

// EnvDSN is the environment variable --dsn defaults to. A DSN carries a
// password, and a process's arguments are readable by every user of the
// machine (ps, /proc/PID/cmdline); its environment is not.
const EnvDSN = "DBMETER_CLICKHOUSE_DSN"

// ResolveDSN parses --dsn as given (flag), or $DBMETER_CLICKHOUSE_DSN when
// the flag is empty. Its errors are usage errors. fields are the settings
// of the command's config that a refused DSN key is told to use instead
// (NoDelay, Batch, MaxOpen, MaxIdle, Lifetime): two commands share this
// parser and not their settings.
func ResolveDSN(flag string, getenv func(string) string, fields ...string) (DSN, error) {
	s := flag
	if s == "" && getenv != nil {
		s = getenv(EnvDSN)
	}
	if s == "" {
		return DSN{}, usage.Errorf("{DSN} is required: the ClickHouse server's native address (or set %s)", EnvDSN)
	}
	d, err := parseDSN(s, fields)
	if err != nil {
		// Say where the DSN came from: the flag, or the variable that
		// stands in for it.
		from := "{DSN}"
		if flag == "" {
			from = EnvDSN
		}
		return DSN{}, usage.Wrap(fmt.Errorf("%s: %w", from, err))
	}
	return d, nil
}

// Secrets are the values of d that output must never show: the password,
// and any setting that names itself a secret.
func (d DSN) Secrets() []string {
	return append(redact.Values(d.URL()), d.Password)
}

// ParseDSN accepts either form. An empty user means "default".
func ParseDSN(s string) (DSN, error) { return parseDSN(s, nil) }

func parseDSN(s string, fields []string) (DSN, error) {
	u, err := url.Parse(s)
	if err != nil {
		return DSN{}, fmt.Errorf("parse DSN %s: %v", redact.String(s), unwrapURL(err))
	}
	var d DSN
	q := u.Query()
	switch u.Scheme {
	case "clickhouse":
		d.User = u.User.Username()
		d.Password, _ = u.User.Password()
		d.Database = strings.TrimPrefix(u.Path, "/")
	case "tcp":
		if u.User != nil {
			return DSN{}, fmt.Errorf("parse DSN %s: the tcp:// form takes username and password as query parameters", redact.String(s))
		}
		d.User, d.Password, d.Database = q.Get("username"), q.Get("password"), q.Get("database")
		q.Del("username")
		q.Del("password")
		q.Del("database")
	default:
		return DSN{}, fmt.Errorf("parse DSN %s: want clickhouse://user:password@host:port/database or tcp://host:port?username=…&password=…&database=…", redact.String(s))
	}
	if u.Host == "" {
		return DSN{}, fmt.Errorf("parse DSN %s: no host", redact.String(s))
	}
	d.Addr = u.Host
	if _, _, err := net.SplitHostPort(d.Addr); err != nil {
		d.Addr = net.JoinHostPort(u.Host, DefaultPort)
	}
	if d.User == "" {
		d.User = "default"
	}
	if d.Database == "" {
		d.Database = "default"
	}
	if err := d.takeClientKeys(q, fields); err != nil {
		return DSN{}, fmt.Errorf("parse DSN %s: %w", redact.String(s), err)
	}
	d.Settings = q
	return d, nil
}

// ClientKeys are the DSN parameters that configure the client, not the
// server; every other parameter is a server setting.
var ClientKeys = []string{"secure", "skip_verify", "ca_file", "compress", "dial_timeout", "timeout", "read_timeout", "write_timeout"}

// refusedKeys are client parameters of one library or another that
// dbmeter sets itself or cannot give every path; passed through they
// would reach the server as settings. Where a command's config sets the
// same thing, field names it.
var refusedKeys = map[string]struct{ why, field string }{
	"no_delay":                  {"dbmeter sets TCP_NODELAY itself", "NoDelay"},
	"block_size":                {"dbmeter sizes v1's blocks itself", "Batch"},
	"debug":                     {"dbmeter does not pass client debug logging", ""},
	"alt_hosts":                 {"dbmeter measures one server: give one address", ""},
	"connection_open_strategy":  {"dbmeter measures one server: give one address", ""},
	"pool_size":                 {"dbmeter sets the pool itself", "MaxOpen"},
	"max_open_conns":            {"dbmeter sets the pool itself", "MaxOpen"},
	"max_idle_conns":            {"dbmeter sets the pool itself", "MaxIdle"},
	"conn_max_lifetime":         {"dbmeter sets the pool itself", "Lifetime"},
	"tls_config":                {"use secure=true with skip_verify or ca_file", ""},
	"check_connection_liveness": {"dbmeter keeps each library's default", ""},
	"username":                  {"the clickhouse:// form takes the user before the host", ""},
	"password":                  {"the clickhouse:// form takes the password before the host", ""},
	"database":                  {"the clickhouse:// form takes the database as the path", ""},
}

// takeClientKeys moves the client parameters out of q into d. A refused
// key names the setting to use instead only when fields (the command's)
// has it: ch query has no TCP_NODELAY setting, ch insert no pool.
func (d *DSN) takeClientKeys(q url.Values, fields []string) error {
	for k := range q {
		if r, ok := refusedKeys[k]; ok {
			why := r.why
			if r.field != "" && slices.Contains(fields, r.field) {
				why += ": use {" + r.field + "}"
			}
			return fmt.Errorf("DSN key %s is not taken (%s): drop it", k, why)
		}
	}
	get := func(k string) string { v := q.Get(k); q.Del(k); return v }
	secure, err := parseBool(get("secure"), "secure")
	if err != nil {
		return err
	}
	skip, err := parseBool(get("skip_verify"), "skip_verify")
	if err != nil {
		return err
	}
	ca := get("ca_file")
	switch {
	case secure:
		d.TLS = &TLS{SkipVerify: skip, CAFile: ca}
	case skip || ca != "":
		return fmt.Errorf("DSN keys skip_verify and ca_file need secure=true")
	}
	switch c := strings.ToLower(get("compress")); c {
	case "", "false", "0", "none":
	case "true", "1", "lz4":
		d.Compress = "lz4"
	case "zstd":
		d.Compress = "zstd"
	default:
		return fmt.Errorf("DSN key compress=%s: want lz4, zstd, true or false", c)
	}
	for _, t := range []struct {
		keys []string
		dst  *time.Duration
	}{{[]string{"dial_timeout", "timeout"}, &d.DialTimeout}, {[]string{"read_timeout"}, &d.ReadTimeout}, {[]string{"write_timeout"}, &d.WriteTimeout}} {
		for _, k := range t.keys {
			v := get(k)
			if v == "" {
				continue
			}
			dur, err := parseTimeout(v)
			if err != nil {
				return fmt.Errorf("DSN key %s=%s: want seconds (10) or a duration (10s, 500ms)", k, v)
			}
			*t.dst = dur
		}
	}
	return nil
}

func parseBool(v, key string) (bool, error) {
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("DSN key %s=%s: want true or false", key, v)
	}
	return b, nil
}

// parseTimeout reads v1's form (seconds, maybe fractional) or v2's (a Go
// duration), so read_timeout=10 means the same on every path.
func parseTimeout(v string) (time.Duration, error) {
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		if f <= 0 {
			return 0, fmt.Errorf("not positive")
		}
		return time.Duration(f * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(v)
	if err == nil && d <= 0 {
		err = fmt.Errorf("not positive")
	}
	return d, err
}

func unwrapURL(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}

// query is every parameter of d, client keys and settings, in the form
// ParseDSN reads.
func (d DSN) query() url.Values {
	q := url.Values{}
	for k, v := range d.Settings {
		q[k] = v
	}
	if d.TLS != nil {
		q.Set("secure", "true")
		if d.TLS.SkipVerify {
			q.Set("skip_verify", "true")
		}
		if d.TLS.CAFile != "" {
			q.Set("ca_file", d.TLS.CAFile)
		}
	}
	if d.Compress != "" {
		q.Set("compress", d.Compress)
	}
	for k, v := range map[string]time.Duration{"dial_timeout": d.DialTimeout, "read_timeout": d.ReadTimeout, "write_timeout": d.WriteTimeout} {
		if v > 0 {
			q.Set(k, v.String())
		}
	}
	return q
}

// URL is the DSN in the clickhouse:// form, password included: ParseDSN
// reads it back to the same DSN.
func (d DSN) URL() string {
	u := url.URL{Scheme: "clickhouse", Host: d.Addr, Path: "/" + d.Database, RawQuery: d.query().Encode()}
	u.User = url.UserPassword(d.User, d.Password)
	return u.String()
}

// String is the DSN with its password masked, fit to print.
func (d DSN) String() string { return redact.String(d.URL()) }

// Admin is d without server settings, for dbmeter's own statements
// (version, schema, counts): the user's settings are for the measured
// queries.
func (d DSN) Admin() DSN {
	d.Settings = nil
	return d
}
