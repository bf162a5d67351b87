package result

import (
	"strings"
	"testing"
)

// ref is a machine whose reference's CPU probe took cpuNs at every point,
// with the given spread.
func ref(cpuNs, spread float64, points ...string) *Machine {
	r := &Reference{}
	for _, at := range points {
		r.Points = append(r.Points, ReferencePoint{At: at, Probes: []Probe{{Name: ProbeCPU, MedianNs: cpuNs, Spread: spread, N: 7}}})
	}
	return &Machine{Reference: r}
}

func TestMachineExplains(t *testing.T) {
	busy := &Machine{Busy: true, OthersCores: 0.98}
	tests := []struct {
		name     string
		a, b     *Machine
		speedups []float64
		want     []string // each must be in some line; none: no line
	}{
		{name: "no machine state in old documents", a: nil, b: nil},
		{name: "new made on a busy machine", a: &Machine{OthersCores: 0.02}, b: busy,
			want: []string{"new was made on a busy machine (other processes used 0.98 of a core, against 0.02 in base)"}},
		{name: "base made on a busy machine", a: busy, b: &Machine{},
			want: []string{"base was made on a busy machine", "speed-up in new"}},
		{name: "the machine explains it", a: ref(1190, 0.02, "start", "end"), b: ref(1000, 0.02, "start", "end"),
			speedups: []float64{1.2, 1.18, 1.21, 0.99},
			want:     []string{"CPU reference 1.19× faster in new; 3 of 4 figures faster, median +19%: the machine, not the targets"}},
		{name: "figures moved against the machine", a: ref(1190, 0.02, "start"), b: ref(1000, 0.02, "start"),
			speedups: []float64{0.8, 0.7, 1.1},
			want:     []string{"1 of 3 figures faster", "not the machine"}},
		{name: "the machine explains part", a: ref(1100, 0.02, "start"), b: ref(1000, 0.02, "start"),
			speedups: []float64{1.5, 1.6, 1.4},
			want:     []string{"the machine explains about 24% of it"}},
		{name: "within the reference's spread", a: ref(1030, 0.04, "start"), b: ref(1000, 0.04, "start"),
			speedups: []float64{1.5},
			want:     []string{"the same within its spread", "does not explain"}},
		{name: "a noisy reference explains nothing", a: ref(1300, 0.5, "start"), b: ref(1000, 0.4, "start"),
			want: []string{"the same within its spread"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := MachineExplains(&Document{Machine: tt.a}, &Document{Machine: tt.b}, tt.speedups)
			if len(tt.want) == 0 && len(got) > 0 {
				t.Fatalf("got %q, want no line", got)
			}
			all := strings.Join(got, "\n")
			for _, w := range tt.want {
				if !strings.Contains(all, w) {
					t.Errorf("got %q, want a line with %q", got, w)
				}
			}
		})
	}
}

func TestDriftLine(t *testing.T) {
	point := func(at string, ns, spread float64) ReferencePoint {
		return ReferencePoint{At: at, Probes: []Probe{{Name: ProbeCPU, MedianNs: ns, Spread: spread}}}
	}
	tests := []struct {
		name   string
		points []ReferencePoint
		want   string // "" for no line
	}{
		{name: "one point", points: []ReferencePoint{point("start", 1000, 0.01)}},
		{name: "steady", points: []ReferencePoint{point("start", 1000, 0.01), point("end", 1030, 0.01)}},
		{name: "within its spread", points: []ReferencePoint{point("start", 1000, 0.3), point("end", 1250, 0.1)}},
		{name: "slower at the end", points: []ReferencePoint{point("start", 1000, 0.02), point("end", 1310, 0.03)},
			want: "cpu probe 1.31× slower at the end than at the start (its spread 3%)"},
		{name: "the worst point is named", points: []ReferencePoint{point("start", 1000, 0.02), point("round 2", 800, 0.02), point("end", 1100, 0.02)},
			want: "cpu probe 1.25× faster at round 2 than at the start"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := (&Reference{Points: tt.points}).DriftLine()
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestBusyLine(t *testing.T) {
	tests := []struct {
		name string
		m    Machine
		want string
	}{
		{name: "quiet", m: Machine{OthersCores: 0.1}},
		{name: "others", m: Machine{OthersCores: 0.98, MaxOthersCores: 1.01, TopOthers: []ProcessCPU{{Name: "yes", Cores: 0.97}}},
			want: "other processes used 0.98 of a core on average (busiest interval 1.01), most yes 0.97"},
		{name: "steal", m: Machine{StealPct: 12}, want: "the hypervisor stole 12% of the CPU"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.m.JudgeBusy()
			got := tt.m.BusyLine()
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
