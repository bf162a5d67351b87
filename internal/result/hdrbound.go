package result

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// MaxHDRCounts bounds the counts array of a histogram DecodeHDR accepts.
// hdrhistogram-go sizes that array from the header before it reads a single
// count, so without a bound a 56-byte latency_hdr declaring 1..MaxInt64 at
// 5 significant digits costs 47 MiB to decode, and a crafted result file of
// such strings costs gigabytes. dbmeter's own histograms (internal/hist: 1 ns
// to 1 h at 3 digits) need 33,792 counts; the widest range at 3 digits needs
// 55,296.
const MaxHDRCounts = 1 << 17

// CheckHDR returns the error DecodeHDR would return for s because of its
// header alone, reading only the header: a counts array beyond
// MaxHDRCounts, or a header that is not a V2 compressed histogram's. Code
// that hands s to another decoder (hdrhistogram-go's interval log reader)
// checks it first.
func CheckHDR(s string) error {
	n, err := hdrCountsLen(s)
	if err != nil {
		return fmt.Errorf("decode histogram: %w", err)
	}
	if n > MaxHDRCounts {
		return fmt.Errorf("decode histogram: its header asks for %d counts, more than the %d a dbmeter histogram needs", n, MaxHDRCounts)
	}
	return nil
}

// hdrCountsLen returns the length of the counts array the V2 compressed
// histogram s declares, reading only its header.
func hdrCountsLen(s string) (int64, error) {
	// After the base64 text and an 8-byte envelope (cookie, compressed
	// length) comes the zlib stream; only its 40-byte header is inflated.
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return 0, fmt.Errorf("histogram envelope: %w", err)
	}
	if len(raw) < 8 {
		return 0, fmt.Errorf("histogram envelope: %d bytes, need 8", len(raw))
	}
	z, err := zlib.NewReader(bytes.NewReader(raw[8:]))
	if err != nil {
		return 0, fmt.Errorf("histogram header: %w", err)
	}
	defer z.Close()
	var hdr [40]byte
	if _, err := io.ReadFull(z, hdr[:]); err != nil {
		return 0, fmt.Errorf("histogram header: %w", err)
	}
	digits := int32(binary.BigEndian.Uint32(hdr[12:16]))
	lowest := int64(binary.BigEndian.Uint64(hdr[16:24]))
	highest := int64(binary.BigEndian.Uint64(hdr[24:32]))
	if digits < 0 || digits > 5 {
		return 0, fmt.Errorf("histogram header: %d significant digits, want 0 to 5", digits)
	}
	// The geometry hdrhistogram-go derives from the header (newExactGeometry).
	subMag := int32(math.Ceil(math.Log2(2 * math.Pow10(int(digits)))))
	halfMag := max(subMag, 1) - 1
	unitMag := int32(0)
	if lowest > 1 {
		unitMag = int32(math.Floor(math.Log2(float64(lowest))))
	}
	if unitMag+halfMag > 61 {
		return 0, fmt.Errorf("histogram header: lowest value %d too large for %d digits", lowest, digits)
	}
	subCount := int64(1) << (halfMag + 1)
	buckets := int64(1)
	for v := subCount << unitMag; v <= highest; v <<= 1 {
		if v > math.MaxInt64/2 {
			buckets++
			break
		}
		buckets++
	}
	return (buckets + 1) * (subCount / 2), nil
}
