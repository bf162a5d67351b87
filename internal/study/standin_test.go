package study

import (
	"net"
	"net/url"
	"testing"
)

// The stand-in a {clickhouse} step runs against without a modern server
// listens on loopback at the DSN it gives.
func TestNullStandin(t *testing.T) {
	t.Parallel()
	dsn, stop, err := NullStandin()
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(dsn)
	if err != nil {
		stop()
		t.Fatalf("DSN %q: %v", dsn, err)
	}
	c, err := net.Dial("tcp", u.Host)
	if err != nil {
		stop()
		t.Fatalf("the stand-in at %s does not answer: %v", u.Host, err)
	}
	c.Close()
	stop()
}
