package standin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/ClickHouse/ch-go/compress"
	"github.com/ClickHouse/ch-go/proto"
)

// httpParams are the URL parameters of ClickHouse's HTTP interface that
// are not settings.
var httpParams = map[string]bool{
	"query": true, "database": true, "default_format": true, "query_id": true, "user": true,
	"password": true, "quota_key": true, "session_id": true, "session_timeout": true,
	"session_check": true, "client_protocol_version": true, "compress": true, "decompress": true,
	"buffer_size": true, "wait_end_of_query": true,
}

type connKey struct{}

// connContext puts the connection into each request's context, for the log.
func connContext(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// serveHTTP answers one request of the HTTP interface: the query is the
// query parameter and the body, settings are URL parameters, and the
// answer is in the FORMAT asked (Native, TabSeparated and its WithNames
// forms).
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	params := r.URL.Query()
	body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
	if err != nil {
		return
	}
	q := params.Get("query")
	if len(body) > 0 {
		if q != "" {
			q += "\n"
		}
		q += string(body)
	}
	e := Entry{Protocol: "http", Client: r.UserAgent(), QueryID: params.Get("query_id"), Query: q,
		Settings: map[string]string{}, Compressed: params.Get("compress") == "1"}
	if pc, ok := r.Context().Value(connKey{}).(*peekedConn); ok {
		e.Conn, e.TLS = pc.id, pc.tls
	}
	db := params.Get("database")
	if db == "" {
		db = r.Header.Get("X-ClickHouse-Database")
	}
	if db == "" {
		db = "default"
	}
	rev, _ := strconv.Atoi(params.Get("client_protocol_version"))
	e.Revision = rev
	for k, v := range params {
		if httpParams[k] || strings.HasPrefix(k, "param_") {
			continue
		}
		e.Settings[k] = strings.Join(v, ",")
		if !knownSetting(k) {
			s.httpFail(w, &e, errorf(codeUnknownSetting, "Unknown setting '%s'", k))
			return
		}
	}
	st, err := s.cat.run(q, s.info(db, rev))
	switch {
	case err != nil:
		s.httpFail(w, &e, err)
		return
	case st.insert != nil:
		s.httpFail(w, &e, errorf(codeNotImplemented, "the stand-in takes INSERT data over the native protocol only"))
		return
	case st.r == nil:
		s.log.add(e)
		return
	}
	format := st.format
	if format == "" {
		format = params.Get("default_format")
	}
	out, err := encodeHTTP(st.r, format, rev, e.Compressed)
	if err != nil {
		s.httpFail(w, &e, err)
		return
	}
	s.log.add(e)
	w.Header().Set("X-ClickHouse-Format", format)
	w.Header().Set("Content-Length", strconv.Itoa(len(out)))
	w.Write(out)
}

func (s *Server) httpFail(w http.ResponseWriter, e *Entry, err error) {
	var ex *exception
	if !errors.As(err, &ex) {
		ex = &exception{Code: codeNotImplemented, Msg: err.Error()}
	}
	e.Err = ex.Error()
	s.log.add(*e)
	w.Header().Set("X-ClickHouse-Exception-Code", strconv.Itoa(ex.Code))
	status := http.StatusInternalServerError
	if ex.Code == codeUnknownSetting || ex.Code == codeSyntaxError {
		status = http.StatusBadRequest
	}
	w.WriteHeader(status)
	fmt.Fprintf(w, "Code: %d. DB::Exception: %s. (dbmeter stand-in)\n", ex.Code, ex.Msg)
}

// encodeHTTP writes r in format: Native blocks at revision rev (0: the
// revision-less Native format), compressed in ClickHouse's frames when
// asked, or tab-separated text.
func encodeHTTP(r *result, format string, rev int, compressed bool) ([]byte, error) {
	switch format {
	case "Native":
		var buf proto.Buffer
		for from := 0; from < r.rows || from == 0; from += maxBlockRows {
			to := min(from+maxBlockRows, r.rows)
			in, err := r.columns(from, to)
			if err != nil {
				return nil, err
			}
			b := proto.Block{Columns: len(in), Rows: to - from, Info: proto.BlockInfo{BucketNum: -1}}
			if err := b.EncodeBlock(&buf, rev, in); err != nil {
				return nil, err
			}
			if r.rows == 0 {
				break
			}
		}
		if !compressed {
			return buf.Buf, nil
		}
		w := compress.NewWriter(compress.LevelZero, compress.LZ4)
		if err := w.Compress(buf.Buf); err != nil {
			return nil, err
		}
		return w.Data, nil
	case "", "TabSeparated", "TSV", "TabSeparatedWithNames", "TSVWithNames", "TabSeparatedWithNamesAndTypes", "TSVWithNamesAndTypes":
		if compressed {
			return nil, errorf(codeNotImplemented, "the stand-in compresses only the Native format")
		}
		var sb strings.Builder
		if strings.Contains(format, "WithNames") {
			sb.WriteString(strings.Join(escapeAll(r.names), "\t") + "\n")
		}
		if strings.Contains(format, "AndTypes") {
			sb.WriteString(strings.Join(r.types, "\t") + "\n")
		}
		row := make([]string, len(r.names))
		for i := range r.rows {
			for c := range row {
				row[c] = escapeTSV(valueText(r.value(c, i)))
			}
			sb.WriteString(strings.Join(row, "\t") + "\n")
		}
		return []byte(sb.String()), nil
	}
	return nil, errorf(codeNotImplemented, "the stand-in does not write FORMAT %s", format)
}

var tsvEscaper = strings.NewReplacer("\\", "\\\\", "\t", "\\t", "\n", "\\n")

func escapeTSV(s string) string { return tsvEscaper.Replace(s) }

func escapeAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = escapeTSV(s)
	}
	return out
}
