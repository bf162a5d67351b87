package standin

import (
	"regexp"
	"slices"
	"strings"

	"github.com/ClickHouse/ch-go/proto"
)

// statement is a query classified: a SELECT answered with r, an INSERT
// whose data blocks the protocol streams into table, or a statement
// already done (schema, INSERT … SELECT).
type statement struct {
	r      *result
	format string // the FORMAT clause of a SELECT, if any
	insert *name
	cols   []column // the INSERT's columns, in the order it names them
}

// run classifies and, except for a streamed INSERT, executes q.
func (c *catalog) run(q string, in info) (statement, error) {
	q = normalize(q)
	if n, names, ok := insertTarget(q, in.database); ok {
		cols, _, err := c.table(n)
		if err != nil {
			return statement{}, err
		}
		if len(names) > 0 {
			picked := make([]column, 0, len(names))
			for _, want := range names {
				i := slices.IndexFunc(cols, func(c column) bool { return c.Name == want })
				if i < 0 {
					return statement{}, errorf(codeNoSuchColumn, "No such column %s in table %s", want, n)
				}
				picked = append(picked, cols[i])
			}
			cols = picked
		}
		return statement{insert: &n, cols: cols}, nil
	}
	if ok, err := c.ddl(q, in.database); ok {
		return statement{}, err
	}
	if m := insertSelectRe.FindStringSubmatch(q); m != nil {
		rows, err := insertSelectRows(m[2])
		if err != nil {
			return statement{}, err
		}
		return statement{}, c.addRows(parseName(m[1], in.database), rows)
	}
	body, format := splitFormat(q)
	if !strings.HasPrefix(strings.ToUpper(body), "SELECT") {
		return statement{}, errorf(codeNotImplemented, "the stand-in does not answer %q", short(q))
	}
	r, err := c.query(body, in)
	return statement{r: r, format: format}, err
}

// codeNoSuchColumn is ClickHouse's NO_SUCH_COLUMN_IN_TABLE;
// codeUnknownParameter its UNKNOWN_QUERY_PARAMETER.
const (
	codeNoSuchColumn     = 16
	codeUnknownParameter = 456
)

var paramRe = regexp.MustCompile(`\{(\w+):[^{}]+\}`)

// substitute puts the values of a query's parameters ({name:Type}) into
// its text, as the server does after parsing; their values come quoted.
func substitute(body string, params []proto.Parameter) (string, error) {
	var missing string
	out := paramRe.ReplaceAllStringFunc(body, func(m string) string {
		name := paramRe.FindStringSubmatch(m)[1]
		for _, p := range params {
			if p.Key == name {
				return p.Value
			}
		}
		if missing == "" {
			missing = name
		}
		return m
	})
	if missing != "" {
		return "", errorf(codeUnknownParameter, "Substitution `%s` is not set", missing)
	}
	return out, nil
}

// knownSettings are the server settings the stand-in accepts: ClickHouse
// settings a benchmark is likely to pass. Like a real server it refuses
// any other setting sent as important, and ignores one that is not.
var knownSettings = []string{
	"async_insert", "wait_for_async_insert", "async_insert_busy_timeout_ms", "async_insert_max_data_size",
	"insert_quorum", "insert_deduplicate", "max_insert_block_size", "min_insert_block_size_rows",
	"min_insert_block_size_bytes", "max_insert_threads", "max_threads", "max_block_size",
	"max_execution_time", "max_memory_usage", "max_result_rows", "result_overflow_mode",
	"readonly", "log_queries", "log_comment", "send_logs_level", "send_progress_in_http_headers",
	"enable_http_compression", "http_zlib_compression_level", "network_compression_method",
	"network_zstd_compression_level", "output_format_json_quote_64bit_integers",
	"input_format_null_as_default", "date_time_input_format", "date_time_output_format",
	"session_timezone", "use_uncompressed_cache", "prefer_localhost_replica", "load_balancing",
	"connect_timeout", "receive_timeout", "send_timeout", "priority", "optimize_move_to_prewhere",
	"distributed_product_mode", "joined_subquery_requires_alias", "allow_experimental_analyzer",
	"format_csv_delimiter", "max_query_size", "wait_end_of_query", "final",
}

func knownSettingNames() []string { return knownSettings }

func knownSetting(name string) bool { return slices.Contains(knownSettings, name) }
