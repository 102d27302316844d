package engine

// FullCheck is what the invariant finds when it compares every owned vnode from scratch
// (the engine's check looks again only at what changed): the rows downstream lacks and
// those it holds too often, in row order. The tests compare the two.
func (e *Engine) FullCheck() (missing, extra []Row) {
	for vi := range OwnedIndex(len(e.owned)) {
		full := e.compareVnode(vi, e.passedCount(vi))
		missing = append(missing, full.missing...)
		extra = append(extra, full.extra...)
	}
	sortRows(missing)
	sortRows(extra)
	return missing, extra
}

// ParseExchangeClosed is parseExchangeClosed, for the tests.
var ParseExchangeClosed = parseExchangeClosed
