package insert

import (
	"context"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/event"
	"github.com/dbmeter/dbmeter/internal/ch/standin"
	"github.com/dbmeter/dbmeter/internal/load"
)

// startStandIn runs a protocol stand-in for the test and returns it with
// a DSN for it (TLS verified through skip_verify when tls).
func startStandIn(t *testing.T, tls bool, compress string) (*standin.Server, ch.DSN) {
	t.Helper()
	srv, err := standin.Listen("127.0.0.1:0", standin.Options{TLS: tls})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	q := "?"
	if tls {
		q += "secure=true&skip_verify=true&"
	}
	if compress != "" {
		q += "compress=" + compress
	}
	d, err := ch.ParseDSN("clickhouse://" + srv.Addr() + "/default" + q)
	if err != nil {
		t.Fatal(err)
	}
	return srv, d
}

// TestStandIn runs every insert path end to end against the protocol
// stand-in, TLS on and off, compression on and off, one and three blocks
// per INSERT: the rows the stand-in counted in its table are exactly the
// rows the path says the server acknowledged, and what reached the wire
// was what the DSN asked for.
func TestStandIn(t *testing.T) {
	for _, tls := range []bool{false, true} {
		for _, compress := range []string{"", "lz4"} {
			t.Run(map[bool]string{false: "plain", true: "tls"}[tls]+"/compress="+compress, func(t *testing.T) {
				srv, d := startStandIn(t, tls, compress)
				a := openAdmin(t, d)
				table := Table{Database: DefaultDatabase, Name: "event"}
				if err := a.Prepare(context.Background(), table, EventTable, true, 0, ""); err != nil {
					t.Fatal(err)
				}
				for _, name := range Names() {
					if registered(name).External != nil {
						continue // tested against 18.16 (external_test.go)
					}
					for _, perInsert := range []int{1, 3} {
						if perInsert > 1 && !registered(name).Streams {
							continue
						}
						insertRows(t, a, d, table, EventTable, name, perInsert)
					}
				}
				var inserts int
				for _, e := range srv.Log().Entries() {
					if e.TLS != tls {
						t.Errorf("%s: TLS %t, want %t (%s)", e.Client, e.TLS, tls, e.Query)
					}
					if e.Acked {
						inserts++
						if e.Compressed != (compress != "") {
							t.Errorf("%s: INSERT compressed %t, want %t", e.Client, e.Compressed, compress != "")
						}
					}
				}
				if inserts == 0 {
					t.Error("the stand-in logged no acknowledged INSERT")
				}
			})
		}
	}
}

// TestStandInEndOfRun: a run that ends by time, with INSERTs left open
// across blocks, commits each worker's last INSERT after the run's context
// is cancelled; every row acknowledged is counted, none is lost (v2's
// batch once died with the operation's context).
func TestStandInEndOfRun(t *testing.T) {
	srv, d := startStandIn(t, false, "")
	a := openAdmin(t, d)
	table := Table{Database: DefaultDatabase, Name: "event"}
	if err := a.Prepare(context.Background(), table, EventTable, true, 0, ""); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"clickhouse-go-row", "clickhouse-go-column", "ch-go", "clickhouse-go-v1-column"} {
		t.Run(name, func(t *testing.T) {
			c, _ := Lookup(name)
			before, _ := srv.Rows(table.Database, table.Name)
			wl := NewWorkload(c, Options{DSN: d, Batch: 500, BlocksPerInsert: 3, NoDelay: true}, table, event.Ring(1, 500, 2), 0)
			cfg := load.DefaultConfig()
			cfg.Phases = Phases
			cfg.Workers, cfg.Duration, cfg.Warmup, cfg.Interval = 2, 300*time.Millisecond, 0, 0
			res, err := load.Run(context.Background(), cfg, Ops, wl.NewWorker, nil)
			if err != nil {
				t.Fatal(err)
			}
			after, _ := srv.Rows(table.Database, table.Name)
			if st := res.Stats(0); st.Errors != 0 {
				t.Errorf("%d errors: %v", st.Errors, st.ErrorKinds)
			}
			if got := after - before; got != wl.Acked() || got == 0 {
				t.Errorf("the stand-in counted %d rows, the path acknowledged %d", got, wl.Acked())
			}
		})
	}
}

// TestStandInInterrupt: an operation interrupted in the middle of a
// streamed INSERT ends promptly (ch-go's stream once could block on a
// one-slot channel), and rows of the unfinished INSERT are not counted as
// acknowledged.
func TestStandInInterrupt(t *testing.T) {
	srv, d := startStandIn(t, false, "")
	a := openAdmin(t, d)
	table := Table{Database: DefaultDatabase, Name: "event"}
	if err := a.Prepare(context.Background(), table, EventTable, true, 0, ""); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"clickhouse-go-row", "clickhouse-go-column", "ch-go"} {
		t.Run(name, func(t *testing.T) {
			c, _ := Lookup(name)
			before, _ := srv.Rows(table.Database, table.Name)
			ins, err := c.Open(context.Background(), Options{DSN: d, Batch: 100, BlocksPerInsert: 10, NoDelay: true})
			if err != nil {
				t.Fatal(err)
			}
			block := event.Ring(1, 100, 1)[0]
			for range 2 { // two blocks of ten into the open INSERT
				b, err := ins.Build(context.Background(), table.String(), block)
				if err != nil {
					t.Fatal(err)
				}
				if err := b.Send(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // the run is interrupted before the third block
			if b, err := ins.Build(ctx, table.String(), block); err == nil {
				b.Send(ctx)
			}
			done := make(chan error, 1)
			go func() { done <- ins.Close() }()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("Close did not return within 30s of an interrupted INSERT")
			}
			after, _ := srv.Rows(table.Database, table.Name)
			if after-before > 0 && (after-before)%100 != 0 {
				t.Errorf("the stand-in counted %d rows of an interrupted INSERT: not whole blocks", after-before)
			}
		})
	}
}

// TestCHGoStreamWaiters: when ch-go's Do ends, every goroutine waiting on
// the stream sees it. An abandoned operation leaves one waiting while
// Close waits too; with the end of Do sent on a one-slot channel, the
// loser of that race blocked forever.
func TestCHGoStreamWaiters(t *testing.T) {
	_, d := startStandIn(t, false, "")
	a := openAdmin(t, d)
	table := Table{Database: DefaultDatabase, Name: "event"}
	if err := a.Prepare(context.Background(), table, EventTable, true, 0, ""); err != nil {
		t.Fatal(err)
	}
	ins, err := openCHGo(context.Background(), Options{DSN: d, Batch: 100, BlocksPerInsert: 10})
	if err != nil {
		t.Fatal(err)
	}
	c := ins.(*chgoInserter)
	b, err := c.Build(context.Background(), table.String(), event.Ring(1, 100, 1)[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Send(context.Background()); err != nil { // opens the stream; Do waits in OnInput
		t.Fatal(err)
	}
	s := c.stream
	done := make(chan error, 3)
	go func() { done <- s.waitWritten(context.Background()) }()
	go func() { done <- s.wait(context.Background()) }()
	go func() { done <- c.Close() }()
	s.cancel() // the stream's Do ends
	for range 3 {
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatal("a waiter on the stream never saw its Do end")
		}
	}
}

// TestV2CommitKeepsConn: INSERT after INSERT on one clickhouse-go v2
// connection, none cancelled, all succeed. Commit once cancelled the
// batch's context as Send returned; Send's watchdog goroutine, not yet in
// its select, could then take the cancellation and close the connection
// the pool had taken back, failing a later INSERT with "use of closed
// network connection" (about one in a thousand, more on a loaded machine).
func TestV2CommitKeepsConn(t *testing.T) {
	_, d := startStandIn(t, false, "")
	a := openAdmin(t, d)
	table := Table{Database: DefaultDatabase, Name: "event"}
	if err := a.Prepare(context.Background(), table, EventTable, true, 0, ""); err != nil {
		t.Fatal(err)
	}
	ins, err := openV2Column(context.Background(), Options{DSN: d, Batch: 10, BlocksPerInsert: 1, NoDelay: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ins.Close()
	block := event.Ring(1, 10, 1)[0]
	for i := range 3000 {
		b, err := ins.Build(context.Background(), table.String(), block)
		if err != nil {
			t.Fatalf("INSERT %d: build: %v", i, err)
		}
		if err := b.Send(context.Background()); err != nil {
			t.Fatalf("INSERT %d: send: %v", i, err)
		}
	}
}
