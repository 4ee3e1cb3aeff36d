package pgtest

// Most calls sample until done is closed, once more after that, and answers the largest value
// it returned: the peak of something (connections held, say) while concurrent work runs.
func Most(done <-chan struct{}, sample func() int) int {
	most := sample()
	for {
		select {
		case <-done:
			return max(most, sample())
		default:
			most = max(most, sample())
		}
	}
}
