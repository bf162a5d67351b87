package ch

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/usage"
)

func TestParseDSN(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want DSN
	}{
		{"clickhouse://u:p@127.0.0.1:9001/db?dial_timeout=1s", DSN{Addr: "127.0.0.1:9001", User: "u", Password: "p", Database: "db"}},
		{"tcp://127.0.0.1:9001?username=u&password=p&database=db&read_timeout=10", DSN{Addr: "127.0.0.1:9001", User: "u", Password: "p", Database: "db"}},
		{"clickhouse://localhost", DSN{Addr: "localhost:9000", User: "default", Database: "default"}},
		{"tcp://h", DSN{Addr: "h:9000", User: "default", Database: "default"}},
	}
	for _, tt := range tests {
		got, err := ParseDSN(tt.in)
		if err != nil {
			t.Errorf("ParseDSN(%q): %v", tt.in, err)
			continue
		}
		got.Settings = nil
		if !same(got, tt.want) {
			t.Errorf("ParseDSN(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
		// Both forms survive a round trip through the other.
		for _, form := range []string{got.V1(), got.URL()} {
			again, err := ParseDSN(form)
			if err != nil {
				t.Errorf("ParseDSN(%q): %v", form, err)
				continue
			}
			again.Settings = nil
			if !same(again, got) {
				t.Errorf("round trip %q = %+v, want %+v", form, again, got)
			}
		}
	}
}

func same(a, b DSN) bool {
	return a.Addr == b.Addr && a.User == b.User && a.Password == b.Password && a.Database == b.Database
}

func TestParseDSNErrors(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"", "http://h:8123", "clickhouse://", "tcp://u:secretpw@h:9000", "clickhouse://u:secretpw@h:9000/%zz", "::::"} {
		_, err := ParseDSN(in)
		if err == nil {
			t.Errorf("ParseDSN(%q) succeeded, want an error", in)
			continue
		}
		if strings.Contains(err.Error(), "secretpw") {
			t.Errorf("ParseDSN(%q) error %q shows the password", in, err)
		}
	}
}

func FuzzParseDSN(f *testing.F) {
	f.Add("clickhouse://u:p@h:9000/db?x=1")
	f.Add("tcp://h:9000?username=u&password=p")
	f.Fuzz(func(t *testing.T, s string) {
		const secret = "Qz9SECRETpw"
		for _, dsn := range []string{
			"clickhouse://u:" + secret + "@" + s,
			"tcp://" + s + "?password=" + secret,
		} {
			d, err := ParseDSN(dsn)
			if err != nil {
				if strings.Contains(err.Error(), secret) {
					t.Fatalf("error for %q shows the password: %v", dsn, err)
				}
				continue
			}
			if strings.Contains(d.String(), secret) {
				t.Fatalf("String() of %q shows the password: %s", dsn, d)
			}
		}
	})
}

func TestVersion(t *testing.T) {
	t.Parallel()
	v, err := ParseVersion("18.16.1")
	if err != nil || v != (Version{18, 16, 1}) {
		t.Fatalf("ParseVersion(18.16.1) = %v, %v", v, err)
	}
	modern, _ := ParseVersion("24.8.4.13")
	if !v.Less(modern) || modern.Less(v) {
		t.Errorf("18.16.1 < 24.8.4 is wrong")
	}
	if err := CheckServer("ch-go", v, Version{21, 1, 0}); err == nil || !strings.Contains(err.Error(), "18.16.1") {
		t.Errorf("CheckServer = %v, want a message naming 18.16.1", err)
	}
	for _, bad := range []string{"", "x.y", "18"} {
		if _, err := ParseVersion(bad); err == nil {
			t.Errorf("ParseVersion(%q) succeeded", bad)
		}
	}
}

// TestResolveDSN: --dsn wins; without it the DSN comes from the
// environment, which keeps the password out of the process arguments;
// with neither, or a DSN that does not parse, it is the user's mistake.
func TestResolveDSN(t *testing.T) {
	t.Parallel()
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == EnvDSN {
				return v
			}
			return ""
		}
	}
	tests := []struct {
		name, flag, env string
		wantAddr        string
		wantErr         string
	}{
		{"flag", "tcp://a:9000", "tcp://b:9000", "a:9000", ""},
		{"environment", "", "clickhouse://u:pw@b:9001/db", "b:9001", ""},
		{"neither", "", "", "", "{DSN} is required: the ClickHouse server's native address (or set DBMETER_CLICKHOUSE_DSN)"},
		{"bad in the environment", "", "mysql://u:secretpw@h", "", "parse DSN"},
	}
	for _, tt := range tests {
		d, err := ResolveDSN(tt.flag, env(tt.env))
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !usage.Is(err) || strings.Contains(err.Error(), "secretpw") {
				t.Errorf("%s: error %v, want a usage error containing %q without the password", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil || d.Addr != tt.wantAddr {
			t.Errorf("%s: %+v, %v; want address %s", tt.name, d, err, tt.wantAddr)
		}
	}
}

func TestDSNSecrets(t *testing.T) {
	t.Parallel()
	d, err := ParseDSN("tcp://h:9000?username=u&password=p%40ss&token=t0ken")
	if err != nil {
		t.Fatal(err)
	}
	got := d.Secrets()
	for _, want := range []string{"p@ss", "t0ken"} {
		if !slices.Contains(got, want) {
			t.Errorf("Secrets() = %q, want %q among them", got, want)
		}
	}
}

// TestDSNClientKeys: the client parameters mean the same on every path
// (read_timeout=10 is v1's seconds and v2's duration alike), a client key
// dbmeter does not take is refused by name, and what is left is settings.
func TestDSNClientKeys(t *testing.T) {
	t.Parallel()
	tests := []struct {
		query   string
		check   func(d DSN) bool
		wantErr string
	}{
		{"read_timeout=10", func(d DSN) bool { return d.ReadTimeout == 10*time.Second }, ""},
		{"read_timeout=10s&dial_timeout=0.5", func(d DSN) bool { return d.ReadTimeout == 10*time.Second && d.DialTimeout == 500*time.Millisecond }, ""},
		{"secure=true&skip_verify=true", func(d DSN) bool { return d.TLS != nil && d.TLS.SkipVerify }, ""},
		{"compress=true", func(d DSN) bool { return d.Compress == "lz4" }, ""},
		{"compress=zstd&async_insert=1", func(d DSN) bool { return d.Compress == "zstd" && d.Settings.Get("async_insert") == "1" }, ""},
		{"no_delay=false", nil, "DSN key no_delay"},
		{"block_size=10", nil, "DSN key block_size"},
		{"skip_verify=true", nil, "need secure=true"},
		{"read_timeout=soon", nil, "read_timeout=soon"},
		{"compress=gzip", nil, "compress=gzip"},
	}
	for _, tt := range tests {
		d, err := ParseDSN("clickhouse://h:9000/db?" + tt.query)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: error %v, want one containing %q", tt.query, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !tt.check(d) {
			t.Errorf("%s: %+v, %v", tt.query, d, err)
		}
		// The model survives a round trip through its URL form.
		again, err := ParseDSN(d.URL())
		if err != nil || !tt.check(again) {
			t.Errorf("%s: round trip %q = %+v, %v", tt.query, d.URL(), again, err)
		}
	}
}

// TestDSNCheck: a parameter a path cannot honour is refused in one line
// naming the path and the parameter.
func TestDSNCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		query, path string
		h           Honours
		want        string // "" for accepted
	}{
		{"compress=zstd", "clickhouse-go-v1", HonoursV1, "client clickhouse-go-v1 cannot honour DSN key compress=zstd"},
		{"compress=zstd", "ch-go", HonoursCHGo, ""},
		{"read_timeout=10", "ch-go", HonoursCHGo, "client ch-go cannot honour DSN key read_timeout"},
		{"read_timeout=10", "database-sql", HonoursV2, ""},
		{"write_timeout=10", "gorm", HonoursV2, "client gorm cannot honour DSN key write_timeout"},
		{"write_timeout=10", "clickhouse-go-v1", HonoursV1, ""},
		{"async_insert=1", "clickhouse-go-v1", HonoursV1, "client clickhouse-go-v1 cannot honour DSN setting async_insert"},
		{"max_threads=2", "clickhouse-go-v1", HonoursV1, ""},
		{"max_threads=2", "http", HonoursHTTP, "client http cannot honour DSN setting max_threads"},
	}
	for _, tt := range tests {
		d, err := ParseDSN("clickhouse://h:9000/db?" + tt.query)
		if err != nil {
			t.Fatal(err)
		}
		err = d.Check(tt.path, tt.h)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s on %s: %v, want accepted", tt.query, tt.path, err)
		case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "\n")):
			t.Errorf("%s on %s: %v, want one line starting %q", tt.query, tt.path, err, tt.want)
		}
	}
}
