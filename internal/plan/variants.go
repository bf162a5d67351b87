package plan

// Cross lists the variants of a command whose knobs were given as lists of
// sizes[0], sizes[1], … values: every combination, as indexes into the
// lists, the first knob varying slowest (so a sweep's rows read in the
// order its lists were typed). A knob of one value adds no variants; no
// knobs give one variant.
func Cross(sizes ...int) [][]int {
	out := [][]int{{}}
	for _, n := range sizes {
		var next [][]int
		for _, v := range out {
			for i := range max(n, 1) {
				next = append(next, append(append([]int(nil), v...), i))
			}
		}
		out = next
	}
	return out
}
