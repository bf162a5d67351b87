// Package result defines the result document: the JSON contract between a
// run and every reporter, comparer and later tool. docs/result-schema.md
// describes it field by field; field names never change within a schema
// version, families only add fields.
package result
