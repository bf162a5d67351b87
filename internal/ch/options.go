package ch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"

	chgo "github.com/ClickHouse/ch-go"
	clickhousev1 "github.com/ClickHouse/clickhouse-go"
	clickhouse "github.com/ClickHouse/clickhouse-go/v2"
)

// Honours is what a client path can take from a DSN. Each path declares
// it; DSN.Check refuses the rest by name.
type Honours struct {
	Compress     []string // compression methods the library can use
	ReadTimeout  bool
	WriteTimeout bool
	// Setting says whether the library sends a server setting; nil: every one.
	Setting func(name string) bool
}

// What each library honours.
var (
	// HonoursV1: v1 compresses with LZ4 only and sends only the settings
	// it knew in 2018 (it drops the others without a word).
	HonoursV1 = Honours{Compress: []string{"lz4"}, ReadTimeout: true, WriteTimeout: true, Setting: clickhousev1.KnownSetting}
	// HonoursV2 is clickhouse-go v2 and what is built on it (database/sql,
	// sqlx, gorm), native or HTTP: it has no write timeout.
	HonoursV2 = Honours{Compress: []string{"lz4", "zstd"}, ReadTimeout: true}
	// HonoursCHGo: ch-go has no write timeout, and no read timeout in the
	// DSN's sense: its ReadTimeout is how long it waits for a packet before
	// it checks for cancellation and waits again, never a point where it
	// gives up on the server (query.go, the receiving goroutine).
	HonoursCHGo = Honours{Compress: []string{"lz4", "zstd"}}
	// HonoursHTTP is dbmeter's own HTTP client: it reads tab-separated
	// text uncompressed, takes its address and TLS from --http-url, and
	// sends no settings.
	HonoursHTTP = Honours{Setting: func(string) bool { return false }}
	// HonoursWorker is a client in another language: its worker gets the
	// DSN's host, port, user, password and database
	// (docs/worker-protocol.md), and the compression its Worker declares
	// (Worker.Honours).
	HonoursWorker = Honours{Setting: func(string) bool { return false }}
)

// Check returns an error naming path and the first parameter of d that
// path cannot honour.
func (d DSN) Check(path string, h Honours) error {
	refuse := func(what string) error {
		return fmt.Errorf("client %s cannot honour DSN %s: drop it from the DSN or leave %s out of {Clients}", path, what, path)
	}
	if d.Compress != "" && !slices.Contains(h.Compress, d.Compress) {
		return refuse("key compress=" + d.Compress)
	}
	if d.ReadTimeout > 0 && !h.ReadTimeout {
		return refuse("key read_timeout")
	}
	if d.WriteTimeout > 0 && !h.WriteTimeout {
		return refuse("key write_timeout")
	}
	if h.Setting != nil {
		for _, k := range sortedKeys(d.Settings) {
			if !h.Setting(k) {
				return refuse("setting " + k)
			}
		}
	}
	return nil
}

func sortedKeys(v url.Values) []string {
	out := make([]string, 0, len(v))
	for k := range v {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TLSConfig is the client TLS configuration d asks for; nil for plaintext.
func (d DSN) TLSConfig() (*tls.Config, error) {
	if d.TLS == nil {
		return nil, nil
	}
	host, _, _ := net.SplitHostPort(d.Addr)
	cfg := &tls.Config{ServerName: host, InsecureSkipVerify: d.TLS.SkipVerify, MinVersion: tls.VersionTLS12}
	if d.TLS.CAFile != "" {
		pem, err := os.ReadFile(d.TLS.CAFile)
		if err != nil {
			return nil, fmt.Errorf("read DSN ca_file: %w", err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("DSN ca_file %s holds no PEM certificate", d.TLS.CAFile)
		}
	}
	return cfg, nil
}

// DialFunc dials a connection.
type DialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// Dial wraps base (which sets dbmeter's socket options and counts
// connections) with d's TLS. Libraries that take a dialer skip their own
// TLS when given one (clickhouse-go v2), or refuse TLS with a dialer that
// is not a *net.Dialer (ch-go), so the TLS is done here, for every path.
func (d DSN) Dial(base DialFunc) (DialFunc, error) {
	cfg, err := d.TLSConfig()
	if err != nil || cfg == nil {
		return base, err
	}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := base(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		tc := tls.Client(c, cfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			c.Close()
			return nil, fmt.Errorf("TLS handshake with %s: %w", addr, err)
		}
		return tc, nil
	}, nil
}

// V1 is the DSN in clickhouse-go v1's form: timeouts in seconds, TLS as
// secure, skip_verify and a registered tls_config for a CA file.
func (d DSN) V1() string {
	q := url.Values{}
	for k, v := range d.Settings {
		q[k] = v
	}
	q.Set("username", d.User)
	q.Set("password", d.Password)
	q.Set("database", d.Database)
	if d.TLS != nil {
		q.Set("secure", "true")
		q.Set("skip_verify", strconv.FormatBool(d.TLS.SkipVerify))
		if d.TLS.CAFile != "" {
			// v1 takes a CA only through its registry of named configs; a
			// bad file fails at connect, where the other paths fail too.
			if cfg, err := d.TLSConfig(); err == nil {
				name := "dbmeter-ca:" + d.TLS.CAFile
				clickhousev1.RegisterTLSConfig(name, cfg)
				q.Set("tls_config", name)
			}
		}
	}
	if d.Compress != "" {
		q.Set("compress", "true")
	}
	for k, v := range map[string]float64{"timeout": d.DialTimeout.Seconds(), "read_timeout": d.ReadTimeout.Seconds(), "write_timeout": d.WriteTimeout.Seconds()} {
		if v > 0 {
			q.Set(k, strconv.FormatFloat(v, 'f', -1, 64))
		}
	}
	u := url.URL{Scheme: "tcp", Host: d.Addr, RawQuery: q.Encode()}
	return u.String()
}

// V2 is clickhouse-go v2's options for d, dialing through dial (TLS is
// added to it). The pool and timeouts a path needs are its own to set.
func (d DSN) V2(dial DialFunc) (*clickhouse.Options, error) {
	cfg, err := d.TLSConfig()
	if err != nil {
		return nil, err
	}
	tlsDial, err := d.Dial(dial)
	if err != nil {
		return nil, err
	}
	opts := &clickhouse.Options{
		Addr:     []string{d.Addr},
		Auth:     clickhouse.Auth{Database: d.Database, Username: d.User, Password: d.Password},
		Protocol: clickhouse.Native,
		// For the native protocol the dialer does the TLS; v2 reads TLS
		// only to pick https for HTTP.
		TLS:         cfg,
		DialContext: func(ctx context.Context, addr string) (net.Conn, error) { return tlsDial(ctx, "tcp", addr) },
		DialTimeout: d.DialTimeout,
		ReadTimeout: d.ReadTimeout,
		Settings:    clickhouse.Settings{},
	}
	switch d.Compress {
	case "lz4":
		opts.Compression = &clickhouse.Compression{Method: clickhouse.CompressionLZ4}
	case "zstd":
		opts.Compression = &clickhouse.Compression{Method: clickhouse.CompressionZSTD}
	}
	for k, v := range d.Settings {
		opts.Settings[k] = strings.Join(v, ",")
	}
	return opts, nil
}

// CHGo is ch-go's options for d, dialing through dial (TLS is added to it).
func (d DSN) CHGo(dial DialFunc) (chgo.Options, error) {
	tlsDial, err := d.Dial(dial)
	if err != nil {
		return chgo.Options{}, err
	}
	opts := chgo.Options{
		Address: d.Addr, Database: d.Database, User: d.User, Password: d.Password,
		Dialer: dialFunc(tlsDial), DialTimeout: d.DialTimeout, ClientName: "dbmeter",
	}
	switch d.Compress {
	case "lz4":
		opts.Compression = chgo.CompressionLZ4
	case "zstd":
		opts.Compression = chgo.CompressionZSTD
	}
	for _, k := range sortedKeys(d.Settings) {
		opts.Settings = append(opts.Settings, chgo.Setting{Key: k, Value: strings.Join(d.Settings[k], ","), Important: true})
	}
	return opts, nil
}

// dialFunc adapts a DialFunc to ch-go's Dialer.
type dialFunc DialFunc

func (f dialFunc) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	return f(ctx, network, addr)
}
