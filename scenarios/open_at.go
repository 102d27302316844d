package scenarios

// openAt reads `open_at: N`, the step a saved run was at: the page opens the file there
// (0..the number of steps; 0 when absent). Nothing else reads it: the trace, checks and the
// command line always start at step 0.
func (p *parser) openAt(top fields, steps int) int {
	f, ok := top.get("open_at")
	if !ok {
		return 0
	}
	return int(p.intIn(f.val, "open_at", 0, int64(steps)))
}
