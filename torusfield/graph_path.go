package torusfield

// ShortestPath returns the indexes of the fewest edges that lead from src
// to dst, found breadth first, exploring edges in index order so ties go
// to the lowest edge indexes (a report that jumps over capabilities
// credits these edges, so the choice must be the same on every run). It
// returns nil when dst is unreachable or src == dst.
func (g *Graph) ShortestPath(src, dst string) []int {
	if src == dst {
		return nil
	}
	via := map[string]int{src: -1}
	queue := []string{src}
	for len(queue) > 0 {
		node := queue[0]
		queue = queue[1:]
		for _, ei := range g.Out(node) {
			next := g.Edges[ei].Dst
			if _, seen := via[next]; seen {
				continue
			}
			via[next] = ei
			if next == dst {
				var path []int
				for n := dst; n != src; n = g.Edges[via[n]].Src {
					path = append([]int{via[n]}, path...)
				}
				return path
			}
			queue = append(queue, next)
		}
	}
	return nil
}
