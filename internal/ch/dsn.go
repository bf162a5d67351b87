package ch

import (
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/dbmeter/dbmeter/internal/redact"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// DSN is a ClickHouse native-protocol address. Users bring it in
// clickhouse-go v2's form (clickhouse://user:password@host:port/database?k=v)
// or v1's (tcp://host:port?username=u&password=p&database=d&k=v); each
// client gets it back in the form it needs.
type DSN struct {
	Addr     string // host:port
	User     string
	Password string
	Database string
	// Settings are the remaining query parameters, passed through.
	Settings url.Values
}

// DefaultPort is ClickHouse's native TCP port.
const DefaultPort = "9000"

// EnvDSN is the environment variable --dsn defaults to. A DSN carries a
// password, and a process's arguments are readable by every user of the
// machine (ps, /proc/PID/cmdline); its environment is not.
const EnvDSN = "DBMETER_CLICKHOUSE_DSN"

// ResolveDSN parses --dsn as given (flag), or $DBMETER_CLICKHOUSE_DSN when
// the flag is empty. Its errors are usage errors.
func ResolveDSN(flag string, getenv func(string) string) (DSN, error) {
	s := flag
	if s == "" && getenv != nil {
		s = getenv(EnvDSN)
	}
	if s == "" {
		return DSN{}, usage.Errorf("--dsn is required: the ClickHouse server's native address (or set %s)", EnvDSN)
	}
	d, err := ParseDSN(s)
	return d, usage.Wrap(err)
}

// Secrets are the values of d that output must never show: the password,
// and any setting that names itself a secret.
func (d DSN) Secrets() []string {
	return append(redact.Values(d.V1()), d.Password)
}

// ParseDSN accepts either form. An empty user means "default".
func ParseDSN(s string) (DSN, error) {
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
	d.Settings = q
	return d, nil
}

func unwrapURL(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}

// V2 is the DSN in clickhouse-go v2's form.
func (d DSN) V2() string {
	u := url.URL{Scheme: "clickhouse", Host: d.Addr, Path: "/" + d.Database, RawQuery: d.Settings.Encode()}
	u.User = url.UserPassword(d.User, d.Password)
	return u.String()
}

// V1 is the DSN in clickhouse-go v1's form.
func (d DSN) V1() string {
	q := url.Values{}
	for k, v := range d.Settings {
		q[k] = v
	}
	q.Set("username", d.User)
	q.Set("password", d.Password)
	q.Set("database", d.Database)
	u := url.URL{Scheme: "tcp", Host: d.Addr, RawQuery: q.Encode()}
	return u.String()
}

// String is the DSN with its password masked, fit to print.
func (d DSN) String() string { return redact.String(d.V2()) }
