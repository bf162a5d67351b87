package clients

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch/query"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/redact"
)

// httpQuerier talks to the server's HTTP interface with net/http: each
// query is a POST of its text with FORMAT TabSeparatedWithNamesAndTypes,
// and dbmeter parses the rows itself (tsv.go). The whole body is read
// before decoding starts, so decode time is parse-and-walk CPU only and
// the wait for the server stays in the latency. There is no parameter
// binding (18.16 has no HTTP query parameters): arguments are inlined.
type httpQuerier struct {
	endpoint   string
	shown      string // the URL as given, redacted: every error names it
	user, pass string
	decode     query.Decode
	client     *http.Client
	dialer     *query.Dialer
	bufs       sync.Pool // *bytes.Buffer for response bodies
}

// httpIgnores: net/http's Transport has no connection lifetime.
func httpIgnores(p query.Pool) []string {
	if p.Lifetime > 0 {
		return []string{query.KnobLifetime}
	}
	return nil
}

func openHTTP(_ context.Context, o query.Options) (query.Querier, error) {
	if o.Prepared {
		return nil, fmt.Errorf("the http client has no parameter binding: run it without {Prepared}: %w", query.ErrUnsupported)
	}
	u, err := url.Parse(o.HTTPURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("{HTTPURL} %q is not an http:// address", o.HTTPURL)
	}
	q := u.Query()
	q.Set("database", o.DSN.Database)
	if o.LogQueries {
		q.Set("log_queries", "1")
	}
	u.RawQuery = q.Encode()
	if u.Path == "" {
		u.Path = "/"
	}
	d := query.NewDialer()
	tr := &http.Transport{
		DialContext:         d.DialContext,
		MaxConnsPerHost:     o.Pool.MaxOpen,
		MaxIdleConns:        o.Pool.MaxIdle,
		MaxIdleConnsPerHost: o.Pool.MaxIdle,
		IdleConnTimeout:     o.Pool.IdleTimeout,
		// Transport reads MaxIdleConnsPerHost 0 as its default (2): no
		// idle connections at all is keep-alives off.
		DisableKeepAlives:  o.Pool.MaxIdle == 0,
		DisableCompression: true,
	}
	return &httpQuerier{
		endpoint: u.String(), shown: redact.String(o.HTTPURL), user: o.DSN.User, pass: o.DSN.Password, decode: o.Decode,
		client: &http.Client{Transport: tr}, dialer: d,
	}, nil
}

// Query implements query.Querier.
func (q *httpQuerier) Query(ctx context.Context, text string, args ...any) (query.QueryStats, error) {
	if len(args) > 0 {
		return query.QueryStats{}, fmt.Errorf("the http client cannot bind arguments: %w", query.ErrUnsupported)
	}
	endpoint := q.endpoint
	if id := query.QueryID(ctx); id != "" {
		endpoint += "&query_id=" + url.QueryEscape(id) // the endpoint always has ?database=
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint,
		strings.NewReader(text+" FORMAT TabSeparatedWithNamesAndTypes"))
	if err != nil {
		return query.QueryStats{}, fmt.Errorf("make request: %w", err)
	}
	req.Header.Set("X-ClickHouse-User", q.user)
	req.Header.Set("X-ClickHouse-Key", q.pass)
	resp, err := q.client.Do(req)
	if err != nil {
		return query.QueryStats{}, fmt.Errorf("%s: %w", q.shown, unwrapURLError(err))
	}
	defer resp.Body.Close()
	buf, _ := q.bufs.Get().(*bytes.Buffer)
	if buf == nil {
		buf = new(bytes.Buffer)
	}
	defer q.bufs.Put(buf)
	buf.Reset()
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		return query.QueryStats{}, fmt.Errorf("%s: read response: %w", q.shown, err)
	}
	if resp.StatusCode != http.StatusOK {
		return query.QueryStats{}, fmt.Errorf("%s: %w", q.shown, httpError(resp.StatusCode, buf.Bytes()))
	}
	start := time.Now()
	st, err := decodeTSV(buf.Bytes(), q.decode)
	st.DecodeNs = int64(time.Since(start))
	return st, err
}

// httpError turns a refusal into one line, of the kind the status says:
//   - the server's own exceptions ("Code: 62, e.displayText() = …") and any
//     other 5xx are server errors: ClickHouse 18.16 answers 500 with an
//     empty body to a query it drops while shutting down;
//   - 502, 503 and 504 say no server is there to answer (a proxy or load
//     balancer in front of it): a lost connection, which the closed loop
//     backs off from;
//   - anything else (401, 404: a wrong user or URL) is the user's to fix.
func httpError(status int, body []byte) error {
	msg := strings.TrimSpace(string(body))
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if len(msg) > 500 {
		msg = msg[:500] + "…"
	}
	err := fmt.Errorf("HTTP %d: %s", status, msg)
	switch {
	case strings.HasPrefix(msg, "Code:"):
		return query.ServerError(err)
	case status == http.StatusBadGateway || status == http.StatusServiceUnavailable || status == http.StatusGatewayTimeout:
		return load.WithKind(err, load.KindConnection)
	case status >= 500:
		return query.ServerError(err)
	}
	return err
}

// unwrapURLError drops net/http's "Post URL:" prefix, which repeats the
// endpoint in every error.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func (q *httpQuerier) Pool() query.PoolStats { return q.dialer.Stats() }

func (q *httpQuerier) Close() error {
	q.client.CloseIdleConnections()
	return nil
}

var _ io.Closer = (*httpQuerier)(nil)
