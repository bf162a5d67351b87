package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Knob is an engine setting a user may change with
// --param engine.key=value. Default is the engine's own documented default,
// so leaving a knob alone measures the engine as its authors ship it.
type Knob struct {
	Key     string
	Default string
	Doc     string
	// Choices lists the values a text knob takes; a knob without them takes
	// the type of its default: a whole number or true/false.
	Choices []string
}

// check reports whether v is a value k takes, so that a bad --param fails
// before any engine runs.
func (k Knob) check(engine, v string) error {
	var want string
	switch {
	case len(k.Choices) > 0:
		if slices.Contains(k.Choices, v) {
			return nil
		}
		want = "one of " + strings.Join(k.Choices, ", ")
	case k.Default == "true" || k.Default == "false":
		if _, err := strconv.ParseBool(v); err == nil {
			return nil
		}
		want = "true or false"
	default:
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
			return nil
		}
		want = "a whole number of at least 0"
	}
	return fmt.Errorf("parameter %s.%s=%q: want %s", engine, k.Key, v, want)
}

// knobValues reads an engine's Params strictly: a key the engine does not
// know, or a value of the wrong type, is an error naming the knob.
type knobValues struct {
	engine string
	vals   map[string]string
	err    error
}

func newKnobValues(engine string, known []Knob, given map[string]string) (*knobValues, error) {
	vals, err := resolveKnobs(engine, known, given)
	if err != nil {
		return nil, err
	}
	return &knobValues{engine: engine, vals: vals}, nil
}

// resolveKnobs returns every knob of an engine with its value: given where
// the user set it, the default otherwise.
func resolveKnobs(engine string, known []Knob, given map[string]string) (map[string]string, error) {
	vals := make(map[string]string, len(known))
	for _, k := range known {
		vals[k.Key] = k.Default
	}
	for k, v := range given {
		i := slices.IndexFunc(known, func(kn Knob) bool { return kn.Key == k })
		if i < 0 {
			return nil, fmt.Errorf("unknown parameter %s.%s (%s)", engine, k, knownKnobs(engine, known))
		}
		if err := known[i].check(engine, v); err != nil {
			return nil, err
		}
		vals[k] = v
	}
	return vals, nil
}

func knownKnobs(engine string, known []Knob) string {
	if len(known) == 0 {
		return engine + " has no parameters"
	}
	names := make([]string, len(known))
	for i, k := range known {
		names[i] = engine + "." + k.Key
	}
	slices.Sort(names)
	return "known: " + strings.Join(names, ", ")
}

func (p *knobValues) fail(key, want string) {
	if p.err == nil {
		p.err = fmt.Errorf("parameter %s.%s=%q: want %s", p.engine, key, p.vals[key], want)
	}
}

func (p *knobValues) int64(key string) int64 {
	v, err := strconv.ParseInt(p.vals[key], 10, 64)
	if err != nil || v < 0 {
		p.fail(key, "a whole number of at least 0")
	}
	return v
}

func (p *knobValues) int(key string) int { return int(p.int64(key)) }

func (p *knobValues) bool(key string) bool {
	v, err := strconv.ParseBool(p.vals[key])
	if err != nil {
		p.fail(key, "true or false")
	}
	return v
}

func (p *knobValues) oneOf(key string, choices ...string) string {
	v := p.vals[key]
	if !slices.Contains(choices, v) {
		p.fail(key, "one of "+strings.Join(choices, ", "))
	}
	return v
}
