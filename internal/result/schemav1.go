package result

import (
	"fmt"
	"strings"
)

// Upgrade brings a decoded document to the current schema, rejecting
// other schemas: every reader that decodes a document itself (merge, a
// study's steps) calls it as Read does, so each sees one set of names.
func Upgrade(doc *Document) error {
	switch doc.Schema {
	case Schema:
	case SchemaV1:
		upgradeV1(doc)
	default:
		return fmt.Errorf("result document has schema %q, want %q (or %q)", doc.Schema, Schema, SchemaV1)
	}
	return nil
}

// SettingName is the declared name of the setting a v1 document (or a
// flag) spells key: the words joined by "_" where the flag joined them
// by "-" (key-size is key_size). Names without a "-" are the same in
// both: a family's own (preloaded_keys), an engine's knob
// (pebble.cache_size).
func SettingName(key string) string { return strings.ReplaceAll(key, "-", "_") }

// upgradeV1 renames the settings of a v1 document, keyed by flag
// spellings, to their declared names, and marks it v2: every reader sees
// one set of names whatever version it read, so merge pairs the shards
// and compare the runs of a v1 and a v2 document.
func upgradeV1(doc *Document) {
	doc.Schema = Schema
	doc.Settings = renameKeys(doc.Settings)
	doc.Observed = renameKeys(doc.Observed)
	for i := range doc.Runs {
		doc.Runs[i].Params = renameKeys(doc.Runs[i].Params)
	}
	for i := range doc.Capacity {
		doc.Capacity[i].Params = renameKeys(doc.Capacity[i].Params)
	}
}

// V1Params renames the keys of params, as a v1 document keys them, to
// their declared names: for a reader that decodes a v1 document's runs
// into a type of its own, which Upgrade does not see.
func V1Params(params map[string]string) map[string]string { return renameKeys(params) }

func renameKeys[V any](m map[string]V) map[string]V {
	if m == nil {
		return nil
	}
	out := make(map[string]V, len(m))
	for k, v := range m {
		out[SettingName(k)] = v
	}
	return out
}
