// Package workload is the seed study's operations over an engine's Store
// (set, update, get, setmixed and getmixed from one run, batchset, del),
// each a load.Worker factory for one run, and the keys they read and
// write: zero-padded decimal indexes, preloaded ones first, fresh ones
// past them, so that a store's content is known (Data) from one run to
// the next.
package workload
