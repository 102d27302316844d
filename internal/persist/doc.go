// Package persist holds the engine's persistent structures: copies that cost a pointer per
// page or node, and changes that copy only what another copy still shares. Vec is a vector of
// pages (one element per owned vnode), Seq a B-tree sequence that counts the items under each
// node and keeps the sum of their digests, Bitset a set of indices over a Vec. They know
// nothing of the model: the engine keeps its rows in them.
//
// A Tag says which copy may change a page or node in place: one whose owner is the tag is that
// copy's own; anything else is shared and is copied before a change. Giving a copy a new tag
// freezes everything it could reach.
package persist
