package redact

import (
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"postgres://u:s3cret@127.0.0.1:5432/db", "postgres://u:" + Mask + "@127.0.0.1:5432/db"},
		{"clickhouse://default:pw@h:9000/db?dial_timeout=1s", "clickhouse://default:" + Mask + "@h:9000/db?dial_timeout=1s"},
		{"tcp://127.0.0.1:9000?username=u&password=pw&database=d", "tcp://127.0.0.1:9000?username=u&password=" + Mask + "&database=d"},
		{"host=h user=u password='a b' dbname=d", "host=h user=u password=" + Mask + " dbname=d"},
		{"host=h password=abc", "host=h password=" + Mask},
		{"postgres://u@h/db", "postgres://u@h/db"}, // no password: unchanged
		{"no secrets here", "no secrets here"},
		{"dial postgres://u:p@ss@h/db: refused", "dial postgres://u:" + Mask + "@h/db: refused"},
	}
	for _, tt := range tests {
		if got := String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestArgs(t *testing.T) {
	t.Parallel()
	in := []string{"dbmeter", "pg", "--password", "hunter2", "--dsn=postgres://a:hunter3@h/d", "--ch-password=hunter4"}
	got := strings.Join(Args(in), " ")
	for _, secret := range []string{"hunter2", "hunter3", "hunter4"} {
		if strings.Contains(got, secret) {
			t.Errorf("Args(%q) = %q: still contains %q", in, got, secret)
		}
	}
}

func FuzzString(f *testing.F) {
	f.Add("postgres://user:topsecret@host:5432/db?sslmode=disable")
	f.Add("tcp://h:9000?password=topsecret&x=1")
	f.Add("host=h password=topsecret")
	f.Fuzz(func(t *testing.T, prefix string) {
		for _, tmpl := range []string{
			"postgres://user:%s@host:5432/db",
			"tcp://h:9000?username=u&password=%s",
			"user=u password=%s host=h",
		} {
			const secret = "Zq7topsecretXk"
			s := strings.Replace(tmpl, "%s", secret, 1)
			if got := String(prefix + " " + s); strings.Contains(got, secret) {
				t.Fatalf("String(%q) = %q leaks the password", prefix+" "+s, got)
			}
		}
	})
}
