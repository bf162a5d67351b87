package storage

import "github.com/dbmeter/dbmeter/internal/result"

// FigureDeclarations declares the figures a run under a profile records:
// what the kernel counted on the device for the group during the run.
// Shards on other machines count their own devices: they add.
func FigureDeclarations() result.Declarations {
	return result.Declarations{
		"device_read_ios":    result.Sum("IOs"),
		"device_write_ios":   result.Sum("IOs"),
		"device_read_bytes":  result.Sum("bytes"),
		"device_write_bytes": result.Sum("bytes"),
		// device_seconds is the time between the two readings (warm-up
		// included), what the counts are per.
		"device_seconds": result.Sum("s"),
	}
}

// RecordIO adds what the device did during the runs (one reading before,
// one after, seconds apart, shared by runs measured together) to each of
// them.
func RecordIO(runs []result.Run, d Counters, seconds float64) {
	x := FigureDeclarations()
	for i := range runs {
		x.Set(&runs[i], "device_read_ios", float64(d.ReadIOs))
		x.Set(&runs[i], "device_write_ios", float64(d.WriteIOs))
		x.Set(&runs[i], "device_read_bytes", float64(d.ReadBytes))
		x.Set(&runs[i], "device_write_bytes", float64(d.WriteBytes))
		x.Set(&runs[i], "device_seconds", seconds)
	}
}
