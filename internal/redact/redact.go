// Package redact masks secrets in strings that dbmeter prints or records:
// passwords in URLs and libpq conninfo strings, password query parameters and
// password flags. Everything dbmeter writes passes through it.
package redact

import (
	"errors"
	"net/url"
	"regexp"
	"strings"
)

// Mask replaces a secret.
const Mask = "xxxxx"

var (
	// scheme://user:password@host — matched textually so that strings that
	// do not parse as URLs (error messages, half-typed DSNs) are masked too.
	userinfo = regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://[^:/?#@\s]*:)([^\s]*)@`)
	// password=..., passwd=..., pwd=... in query strings and conninfo.
	// Also percent-encoded (password%3D…), as a DSN inside a query string is.
	keyValue = regexp.MustCompile(`(?i)((?:^|[?&\s;,]|%3F|%26)(?:password|passwd|pwd|pass|secret|token)\s*(?:=|%3D)\s*)('(?:[^'\\]|\\.)*'|(?:[^&\s;,%]|%[0-9A-Fa-f]{2})*)`)
)

// String masks every secret in s.
func String(s string) string {
	s = userinfo.ReplaceAllString(s, "${1}"+Mask+"@")
	s = keyValue.ReplaceAllString(s, "${1}"+Mask)
	return s
}

// Args masks secrets in an argument list, including the value after a
// password flag (--password X, -W X is not a flag dbmeter has).
func Args(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if i > 0 && isPasswordFlag(args[i-1]) {
			out[i] = Mask
			continue
		}
		if name, _, ok := strings.Cut(a, "="); ok && isPasswordFlag(name) {
			out[i] = name + "=" + Mask
			continue
		}
		out[i] = String(a)
	}
	return out
}

func isPasswordFlag(a string) bool {
	a = strings.TrimLeft(a, "-")
	return a == "password" || strings.HasSuffix(a, "-password")
}

// Values returns the known secret values inside a DSN, so callers can also
// scrub them from free text such as server error messages.
func Values(dsn string) []string {
	var out []string
	if u, err := url.Parse(dsn); err == nil {
		if p, ok := u.User.Password(); ok && p != "" {
			out = append(out, p)
		}
		for k, vs := range u.Query() {
			if isSecretKey(k) {
				for _, v := range vs {
					if v != "" {
						out = append(out, v)
					}
				}
			}
		}
	}
	for _, m := range keyValue.FindAllStringSubmatch(dsn, -1) {
		if v := strings.Trim(m[2], "'"); v != "" {
			out = append(out, v)
		}
	}
	return out
}

func isSecretKey(k string) bool {
	switch strings.ToLower(k) {
	case "password", "passwd", "pwd", "pass", "secret", "token":
		return true
	}
	return false
}

// Scrub masks s with String and then replaces every occurrence of each
// secret value, for text a server or a driver produced.
func Scrub(s string, secrets ...string) string {
	s = String(s)
	for _, v := range secrets {
		if len(v) >= 3 {
			s = strings.ReplaceAll(s, v, Mask)
		}
	}
	return s
}

// Err is err with the known secrets and any DSN password masked in its
// message: a driver or server may quote a connection string back. It keeps
// err itself when nothing needed masking, so errors.As still finds it.
func Err(err error, secrets ...string) error {
	if err == nil {
		return nil
	}
	if msg := Scrub(err.Error(), secrets...); msg != err.Error() {
		return errors.New(msg)
	}
	return err
}

// Line is err's message as the one line a user reads: secrets masked,
// line breaks folded.
func Line(err error) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(String(err.Error()), "\n", "; ")), " ")
}
