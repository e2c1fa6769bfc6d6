package logs

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// parallel runs fn(0) … fn(n-1) on one goroutine per CPU, in index order of
// start (callers sort work largest first), and stops handing out work once
// ctx is done.
func parallel(ctx context.Context, n int, fn func(i int)) {
	var (
		next atomic.Int64
		wg   sync.WaitGroup
	)
	for w := 0; w < min(runtime.GOMAXPROCS(0), n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n || ctx.Err() != nil {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}
