package transcript

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"strings"
	"testing"
	"testing/iotest"
	"unsafe"
)

// chunkReader returns at most n bytes per Read, to move line ends across
// buffer boundaries.
type chunkReader struct {
	r io.Reader
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(p) > c.n {
		p = p[:c.n]
	}
	return c.r.Read(p)
}

// fileAt is a chunkReader over data that is also what a file read from
// base on is to Lines: a Seeker that tells base plus the bytes read, and a
// ReaderAt of the file's bytes (data from base on), and of other bytes when
// at is set.
type fileAt struct {
	*chunkReader
	data []byte
	base int64
	read int64
	at   []byte
}

func (f *fileAt) Read(p []byte) (int, error) {
	n, err := f.chunkReader.Read(p)
	f.read += int64(n)
	return n, err
}

func (f *fileAt) Seek(offset int64, whence int) (int64, error) {
	if offset != 0 || whence != io.SeekCurrent {
		return 0, io.ErrUnexpectedEOF // Lines only asks where it is
	}
	return f.base + f.read, nil
}

func (f *fileAt) ReadAt(p []byte, off int64) (int, error) {
	data := f.data
	if f.at != nil {
		data = f.at
	}
	if off -= f.base; off < 0 || off > int64(len(data)) {
		return 0, io.EOF
	}
	n := copy(p, data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func TestLinesNumbersCountBlankLinesAndCRLF(t *testing.T) {
	in := "a\r\n\r\n  \nb\n\nc"
	l := NewLines(context.Background(), strings.NewReader(in), 0, 0)
	defer l.Close()
	var got []string
	var nums []int
	for l.Scan() {
		got = append(got, string(l.Bytes()))
		nums = append(nums, l.Number())
	}
	if want := []string{"a", "b", "c"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("lines %q, want %q", got, want)
	}
	if nums[0] != 1 || nums[1] != 4 || nums[2] != 6 {
		t.Fatalf("numbers %v, want [1 4 6]", nums)
	}
	if !l.Torn() {
		t.Fatalf("last line without newline is not torn")
	}
}

func TestLinesStopWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	l := NewLines(ctx, strings.NewReader(strings.Repeat("{}\n", 1000)), 0, 0)
	defer l.Close()
	n := 0
	for l.Scan() {
		n++
	}
	if n != 0 || l.Err() != context.Canceled {
		t.Fatalf("read %d lines after cancel, err %v", n, l.Err())
	}
}

// TestLinesLongLines: lines around and far past the read buffer's size, in
// any order, each read whole (a shorter long line after a longer one reuses
// its buffer; a long torn last line is torn).
func TestLinesLongLines(t *testing.T) {
	const readSize = 256 << 10 // the read buffer's size
	sizes := []int{readSize - 2, readSize - 1, readSize, readSize + 1, 3*readSize + 5, 10, 2*readSize + 7, 5*readSize - 1, readSize + 3}
	var in bytes.Buffer
	var want []string
	for i, n := range sizes {
		line := bytes.Repeat([]byte{byte('a' + i)}, n)
		line[n/2] = '.' // no two lines alike
		want = append(want, string(line))
		in.Write(line)
		if i < len(sizes)-1 {
			in.WriteByte('\n')
		}
	}
	for _, step := range []int{1 << 20, 4093} {
		for _, file := range []bool{false, true} {
			var r io.Reader = &chunkReader{r: bytes.NewReader(in.Bytes()), n: step}
			if file {
				r = &fileAt{chunkReader: r.(*chunkReader), data: in.Bytes()}
			}
			l := NewLines(context.Background(), r, 0, 0)
			l.buf = nil // not an earlier scan's buffer from the pool
			readLongLines(t, l, want, file)
		}
	}
	// A real file, read from an offset: it is read again at offsets.
	path := t.TempDir() + "/long.jsonl"
	if err := os.WriteFile(path, append([]byte("head\n"), in.Bytes()...), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(5, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	l := NewLines(context.Background(), f, 5, 1)
	l.buf = nil
	readLongLines(t, l, want, true)
	if l.at == nil {
		t.Errorf("a file's long lines were not read again at offsets")
	}
}

// readLongLines reads the lines of TestLinesLongLines with l. From a file
// a long line's buffer is its exact length, or the larger buffer of an
// earlier one.
func readLongLines(t *testing.T, l *Lines, want []string, file bool) {
	t.Helper()
	i, longest := 0, 0
	for l.Scan() {
		if i >= len(want) || string(l.Bytes()) != want[i] {
			t.Fatalf("file %v: line %d (%d bytes) is not line %d as written", file, l.Number(), len(l.Bytes()), i+1)
		}
		if n := len(l.Raw()); file && n > 256<<10 {
			longest = max(longest, n)
			if cap(l.buf) != longest {
				t.Errorf("line %d of %d bytes read into a buffer of %d, the longest so far is %d", i+1, n, cap(l.buf), longest)
			}
		}
		if l.Torn() != (i == len(want)-1) {
			t.Errorf("line %d torn %v", i+1, l.Torn())
		}
		i++
	}
	if i != len(want) || l.Err() != nil {
		t.Fatalf("file %v: %d lines, err %v", file, i, l.Err())
	}
	l.Close()
}

// TestLinesFileChangedUnderLongLine: a long line read again from its file
// that no longer holds it (cut short, or rewritten) ends the scan with
// errChanged instead of yielding other bytes than the stream's.
func TestLinesFileChangedUnderLongLine(t *testing.T) {
	long := bytes.Repeat([]byte{'y'}, 300<<10)
	in := append(append([]byte("short\n"), long...), "\nafter\n"...)
	for name, at := range map[string][]byte{
		"cut short": in[:len(in)-len("after\n")-10],
		"rewritten": bytes.ReplaceAll(in, []byte("\n"), []byte(" ")),
	} {
		l := NewLines(context.Background(), &fileAt{chunkReader: &chunkReader{r: bytes.NewReader(in), n: 1 << 20}, data: in, at: at}, 0, 0)
		var got []string
		for l.Scan() {
			got = append(got, string(l.Bytes()))
		}
		if len(got) != 1 || got[0] != "short" || l.Err() != errChanged {
			t.Errorf("%s: lines %d, err %v; want only the short one, then errChanged", name, len(got), l.Err())
		}
		l.Close()
	}
}

// TestSkipLong: a long line is yielded when the needle is anywhere in it
// (inside a piece, across the seam of two, in the short last piece, across
// the seam before it) and skipped otherwise, with every other line still
// yielded with its number and offset; a stream that is not a file yields
// every line. So too with a span longer than a piece (the secret scan's),
// whose seams hold whole pieces.
func TestSkipLong(t *testing.T) {
	const piece = 256 << 10 // the read buffer's size: a long line's pieces
	needle := []byte("NEEDLE")
	longLine := func(at int) []byte {
		b := bytes.Repeat([]byte{'z'}, 2*piece+100)
		if at >= 0 {
			copy(b[at:], needle)
		}
		return b
	}
	places := map[string]int{"nowhere": -1, "inside a piece": 1000, "across a seam": piece - 3, "in the last piece": 2*piece + 50, "across the last seam": 2*piece - 2, "at the end": 2*piece + 100 - len(needle)}
	for name, at := range places {
		for _, end := range []string{"\n", "\r\n"} {
			in := append(append([]byte("first\n"), longLine(at)...), end+"last\n"...)
			for _, c := range []struct {
				file bool
				span int
			}{{true, len(needle) - 1}, {true, piece + 100}, {false, len(needle) - 1}} {
				file := c.file
				var r io.Reader = &chunkReader{r: bytes.NewReader(in), n: 5000}
				if file {
					r = &fileAt{chunkReader: r.(*chunkReader), data: in}
				}
				l := NewLines(context.Background(), r, 0, 0)
				calls, skipped := 0, 0
				l.SkipLong(c.span, func(b []byte) bool { calls++; return bytes.Contains(b, needle) }, func(n int) { skipped += n })
				var got []string
				for l.Scan() {
					got = append(got, fmt.Sprintf("%d@%d:%d", l.Number(), l.Start(), len(l.Bytes())))
				}
				want := []string{"1@0:5", fmt.Sprintf("2@6:%d", 2*piece+100), fmt.Sprintf("3@%d:4", 6+2*piece+100+len(end))}
				wantSkipped := 0
				if file && at < 0 {
					want, wantSkipped = []string{want[0], want[2]}, 2*piece+100
				}
				if skipped != wantSkipped {
					t.Errorf("%s, file %v, span %d: skipped told %d bytes, want %d", name, file, c.span, skipped, wantSkipped)
				}
				if strings.Join(got, " ") != strings.Join(want, " ") || l.Err() != nil {
					t.Errorf("%s, file %v, span %d: lines %v, want %v (err %v)", name, file, c.span, got, want, l.Err())
				}
				if file && calls == 0 {
					t.Errorf("%s: may never asked", name)
				}
				l.Close()
			}
		}
	}
}

// TestSkipRuns compares a scan that passes over runs of lines (SkipRuns)
// with one that yields every line, on streams of random lines: short and
// long ones, some holding the needle, blank ones, ones of white space alone
// (ASCII and Unicode), ones ending in "\r", a space or a multi-byte
// character, and a last line without its '\n', read in random chunks. Every
// line with the needle is yielded with the number, offset and bytes the
// full scan gives it, every yielded line is one of the full scan's, and
// what was not yielded is exactly what the two skipping callbacks were told.
func TestSkipRuns(t *testing.T) {
	needle := []byte("NEEDLE")
	kinds := []func(r *rand.Rand) string{
		func(r *rand.Rand) string { return `{"a":"` + strings.Repeat("x", r.Intn(3000)) + `"}` },
		func(r *rand.Rand) string { return `{"a":"` + strings.Repeat("y", r.Intn(200)) + "NEEDLE" + `"}` },
		func(r *rand.Rand) string { return "" },
		func(r *rand.Rand) string { return "  \t " },
		func(r *rand.Rand) string { return "\u00a0\u2028" },
		func(r *rand.Rand) string { return `{"b":1}` + "\r" },
		func(r *rand.Rand) string { return `{"b":2} ` },
		func(r *rand.Rand) string { return `{"c":"é` },
		func(r *rand.Rand) string { return "\r" },
		func(r *rand.Rand) string { return strings.Repeat("z", 256<<10+r.Intn(100<<10)) },
		func(r *rand.Rand) string { return strings.Repeat("z", 300<<10) + "NEEDLE" },
	}
	type line struct {
		number int
		start  int64
		text   string
		torn   bool
	}
	r := rand.New(rand.NewSource(7))
	runsSeen := 0
	for trial := 0; trial < 300; trial++ {
		var in strings.Builder
		for n := r.Intn(400); n > 0; n-- {
			k := r.Intn(len(kinds) + 40) // mostly plain lines
			if k >= len(kinds) {
				k = 0
			}
			if k >= 9 && r.Intn(10) > 0 {
				k = 0 // few long lines
			}
			in.WriteString(kinds[k](r))
			in.WriteByte('\n')
		}
		if r.Intn(3) == 0 {
			in.WriteString(`{"torn":"NEEDLE`[:r.Intn(15)+1])
		}
		data := []byte(in.String())
		scan := func(skip bool) (got []line, skippedLines, skippedBytes int) {
			f := &fileAt{chunkReader: &chunkReader{r: bytes.NewReader(data), n: 1 + r.Intn(400<<10)}, data: data}
			l := NewLines(context.Background(), f, 0, 0)
			defer l.Close()
			if skip {
				l.SkipLong(len(needle)-1, func(b []byte) bool { return bytes.Contains(b, needle) }, func(n int) { skippedLines++; skippedBytes += n })
				l.SkipRuns(func(lines int, n int64) { runsSeen++; skippedLines += lines; skippedBytes += int(n) })
			}
			for l.Scan() {
				got = append(got, line{l.Number(), l.Start(), string(l.Bytes()), l.Torn()})
			}
			if l.Err() != nil {
				t.Fatal(l.Err())
			}
			return got, skippedLines, skippedBytes
		}
		all, _, _ := scan(false)
		some, skippedLines, skippedBytes := scan(true)
		byNumber := map[int]line{}
		for _, x := range all {
			byNumber[x.number] = x
		}
		yielded := map[int]bool{}
		for _, x := range some {
			if want, ok := byNumber[x.number]; !ok || want != x {
				t.Fatalf("trial %d: yielded line %d at %d (%d bytes), which the full scan does not yield so", trial, x.number, x.start, len(x.text))
			}
			yielded[x.number] = true
		}
		notLines, notBytes := 0, 0
		for _, x := range all {
			if yielded[x.number] {
				continue
			}
			if strings.Contains(x.text, string(needle)) {
				t.Fatalf("trial %d: line %d holds the needle and was passed over", trial, x.number)
			}
			notLines++
			notBytes += len(x.text)
		}
		if notLines != skippedLines || notBytes != skippedBytes {
			t.Fatalf("trial %d: %d lines of %d bytes not yielded; told %d lines of %d bytes", trial, notLines, notBytes, skippedLines, skippedBytes)
		}
	}
	if runsSeen < 100 {
		t.Fatalf("only %d runs passed over: the test does not reach SkipRuns", runsSeen)
	}
	t.Logf("%d runs passed over", runsSeen)
}

// TestSkipRunsWithoutSkipLong: without SkipLong's predicate, or after YieldEvery,
// SkipRuns does nothing: every line is yielded.
func TestSkipRunsWithoutSkipLong(t *testing.T) {
	in := []byte("a\nb\nc\n")
	for _, every := range []bool{false, true} {
		l := NewLines(context.Background(), bytes.NewReader(in), 0, 0)
		if every {
			l.YieldEvery()
			l.SkipLong(2, func([]byte) bool { return false }, func(int) {})
		}
		told := 0
		l.SkipRuns(func(lines int, _ int64) { told += lines })
		n := 0
		for l.Scan() {
			n++
		}
		l.Close()
		if n != 3 || told != 0 {
			t.Errorf("every %v: %d lines yielded, %d told passed over; want 3, 0", every, n, told)
		}
	}
}

// TestSkipRunsCancelled: a scan passing over runs still stops at once when
// its context is done, not only every 256 lines.
func TestSkipRunsCancelled(t *testing.T) {
	in := []byte(strings.Repeat("{\"a\":1}\n", 100))
	ctx, cancel := context.WithCancel(context.Background())
	l := NewLines(ctx, &fileAt{chunkReader: &chunkReader{r: bytes.NewReader(in), n: 1 << 20}, data: in}, 0, 0)
	defer l.Close()
	l.SkipLong(2, func([]byte) bool { return false }, func(int) {})
	l.SkipRuns(func(int, int64) {})
	if !l.Scan() {
		t.Fatal("no first line")
	}
	cancel()
	if l.Scan() || l.Err() != context.Canceled {
		t.Errorf("after cancel: Scan yields line %d, err %v; want no line, context.Canceled", l.Number(), l.Err())
	}
}

// TestLinesReadFailsInLongLine: a read that fails inside a long line from a
// file is the scan's error, not a change of the file, though the file is
// shorter by then.
func TestLinesReadFailsInLongLine(t *testing.T) {
	boom := errors.New("boom")
	in := append([]byte("short\n"), bytes.Repeat([]byte{'y'}, 300<<10)...)
	r := &fileAt{chunkReader: &chunkReader{r: io.MultiReader(bytes.NewReader(in), iotest.ErrReader(boom)), n: 1 << 20}, data: in, at: in[:len(in)-5]}
	l := NewLines(context.Background(), r, 0, 0)
	defer l.Close()
	n := 0
	for l.Scan() {
		n++
	}
	if n != 1 || l.Err() != boom {
		t.Errorf("%d lines, err %v; want the short line, then boom", n, l.Err())
	}
}

// TestSkipLongBlank: a long line of white space alone is blank to a
// skipping scan as to any other: not yielded, and not told as skipped.
func TestSkipLongBlank(t *testing.T) {
	in := append(append([]byte("a\n"), bytes.Repeat([]byte(" \t"), 200<<10)...), "\nb\n"...)
	l := NewLines(context.Background(), &fileAt{chunkReader: &chunkReader{r: bytes.NewReader(in), n: 1 << 20}, data: in}, 0, 0)
	defer l.Close()
	skipped := 0
	l.SkipLong(2, func([]byte) bool { return false }, func(n int) { skipped += n })
	var got []string
	for l.Scan() {
		got = append(got, string(l.Bytes()))
	}
	if strings.Join(got, ",") != "a,b" || skipped != 0 {
		t.Errorf("lines %q, skipped told %d bytes; want [a b] and 0", got, skipped)
	}
}

// TestYieldEvery: a scan that asked for every line yields a long line that
// SkipLong's predicate rejects, whole, and never asks the predicate.
func TestYieldEvery(t *testing.T) {
	long := bytes.Repeat([]byte{'z'}, 300<<10)
	in := append(append([]byte("a\n"), long...), "\nb\n"...)
	l := NewLines(context.Background(), &fileAt{chunkReader: &chunkReader{r: bytes.NewReader(in), n: 1 << 20}, data: in}, 0, 0)
	defer l.Close()
	l.YieldEvery()
	asked, skipped := 0, 0
	l.SkipLong(2, func([]byte) bool { asked++; return false }, func(n int) { skipped += n })
	var got []int
	for l.Scan() {
		got = append(got, len(l.Bytes()))
	}
	if fmt.Sprint(got) != fmt.Sprint([]int{1, len(long), 1}) || asked != 0 || skipped != 0 {
		t.Errorf("line lengths %v, predicate asked %d times, skipped told %d; want [1 %d 1], 0, 0", got, asked, skipped, len(long))
	}
}

// TestReaderAt: only a file whose reads start where Lines counts from is
// read again at offsets.
func TestReaderAt(t *testing.T) {
	path := t.TempDir() + "/f.jsonl"
	if err := os.WriteFile(path, []byte("0123456789\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if readerAt(f, 0) == nil || readerAt(f, 4) != nil {
		t.Errorf("a file at 0: read again at 0 %v, at 4 %v; want true, false", readerAt(f, 0) != nil, readerAt(f, 4) != nil)
	}
	if _, err := f.Seek(4, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	if readerAt(f, 4) == nil {
		t.Errorf("a file seeked to 4 is not read again from offset 4")
	}
	if readerAt(io.LimitReader(f, 5), 4) != nil || readerAt(&chunkReader{r: f, n: 1}, 4) != nil {
		t.Errorf("a stream that is not the file itself is read again")
	}
}

// TestLongLineOfAFileReadElsewhere: a file that Lines was given another
// offset than the one it is read from is not read again at offsets; its
// long lines are still whole.
func TestLongLineOfAFileReadElsewhere(t *testing.T) {
	long := bytes.Repeat([]byte{'w'}, 300<<10)
	in := append(append([]byte("short\n"), long...), '\n')
	r := &fileAt{chunkReader: &chunkReader{r: bytes.NewReader(in), n: 1 << 20}, data: in, base: 100, at: []byte("not these bytes")}
	l := NewLines(context.Background(), r, 7, 0) // the file is read from 100
	defer l.Close()
	var got []int
	for l.Scan() {
		got = append(got, len(l.Bytes()))
	}
	if len(got) != 2 || got[0] != 5 || got[1] != len(long) || l.Err() != nil || l.at != nil {
		t.Errorf("lines %v, err %v, read again at offsets %v; want [5 %d], none, false", got, l.Err(), l.at != nil, len(long))
	}
}

// FuzzLines splits an arbitrary byte stream into lines. Properties: each
// yielded line is its input segment, holds no '\n' and is not blank; its
// number is one more than the line ends before it; what lies between yielded
// lines is blank lines only; only the last line can be torn, and it is torn
// exactly when the input does not end in '\n'; Consumed after committing
// every line is the whole input.
func FuzzLines(f *testing.F) {
	f.Add([]byte("a\nb\n"), uint8(0), uint16(0))
	f.Add([]byte("a\r\nb\r\n\r\n"), uint8(1), uint16(0))
	f.Add([]byte("torn"), uint8(3), uint16(0))
	f.Add([]byte("x\r"), uint8(1), uint16(0))
	f.Add([]byte("\n\n\n"), uint8(2), uint16(0))
	f.Add([]byte(""), uint8(0), uint16(0))
	f.Add([]byte("head\nlong line follows\ntail"), uint8(200), uint16(4))
	f.Add([]byte("head\nlong torn line at the end"), uint8(255), uint16(4+8))
	f.Fuzz(func(t *testing.T, data []byte, chunk uint8, pad uint16) {
		input := data
		if pad != 0 && pad%4 == 0 {
			at := int(pad/4) % (len(data) + 1)
			long := bytes.Repeat([]byte{'x'}, 300<<10)
			input = append(append(append([]byte(nil), data[:at]...), long...), data[at:]...)
		}
		base := int64(chunk) * 1000
		var r io.Reader = &chunkReader{r: bytes.NewReader(input), n: int(chunk) + 1}
		if chunk%2 == 1 { // a file read from base on: long lines are read again from it
			r = &fileAt{chunkReader: r.(*chunkReader), data: input, base: base}
		}
		l := NewLines(context.Background(), r, base, 0)
		defer l.Close()
		prevEnd := base
		torn := false
		for l.Scan() {
			if torn {
				t.Fatalf("a line after a torn line")
			}
			start := l.Start()
			if gap := input[prevEnd-base : start-base]; len(bytes.TrimSpace(gap)) != 0 {
				t.Fatalf("non-blank bytes skipped: %q", gap)
			}
			if want := 1 + bytes.Count(input[:start-base], []byte{'\n'}); l.Number() != want {
				t.Fatalf("line at %d numbered %d, want %d", start, l.Number(), want)
			}
			line := l.Bytes()
			if bytes.IndexByte(line, '\n') >= 0 || len(bytes.TrimSpace(line)) == 0 {
				t.Fatalf("line %d is blank or holds a newline: %q", l.Number(), line)
			}
			seg := input[start-base : start-base+int64(len(l.Raw()))]
			if !bytes.Equal(seg, l.Raw()) || !bytes.HasPrefix(seg, line) {
				t.Fatalf("line %d is not its input segment", l.Number())
			}
			torn = l.Torn()
			rest := string(seg[len(line):])
			switch {
			case !torn && (rest == "\n" || rest == "\r\n"):
			case torn && (rest == "" || rest == "\r"):
			default:
				t.Fatalf("line %d (torn %v) ends with %q", l.Number(), torn, rest)
			}
			l.Commit()
			prevEnd = start + int64(len(seg))
		}
		if l.Err() != nil {
			t.Fatalf("err %v", l.Err())
		}
		if off, _ := l.Consumed(); off-base != int64(len(input)) {
			t.Fatalf("consumed %d of %d bytes", off-base, len(input))
		}
		if want := len(input) > 0 && input[len(input)-1] != '\n' && len(bytes.TrimSpace(input[prevEnd-base:])) == 0 && prevEnd-base == int64(len(input)); torn != want && want {
			t.Fatalf("torn %v, want %v", torn, want)
		}
	})
}

// TestClip: cuts fall at word boundaries (a partial last word is dropped,
// a whole one kept), invalid UTF-8 is repaired, and a word longer than the
// limit is dropped whole rather than cut (it may be a secret).
func TestClip(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"short", 10, "short"},
		{"one two three four", 10, "one two…"},
		{"unbrokenwordthatislong", 10, "…"},
		{"héllo wörld ünïcode", 12, "héllo wörld…"},
		{"bad \xff byte", 20, "bad \uFFFD byte"},
		{"key -----BEGIN PRIVATE KEY----- abc def", 30, "key…"},
	}
	for _, tc := range tests {
		if got := Clip(tc.in, tc.max); got != tc.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
	long := strings.Repeat("word ", 200)
	if got := Clip(long, 400); len([]rune(got)) > 400 || !strings.HasSuffix(got, "word…") {
		t.Errorf("long clip: %d runes, %q", len([]rune(got)), got[len(got)-10:])
	}
	// A clip outlives the buffer it was read from, kept whole or cut.
	for _, in := range []string{"short", "one two three four"} {
		buf := []byte(in)
		view := unsafe.String(unsafe.SliceData(buf), len(buf))
		got := Clip(view, 10)
		want := strings.Clone(got)
		for i := range buf {
			buf[i] = 'x'
		}
		if got != want {
			t.Errorf("Clip(%q) shares the buffer: %q after it was overwritten", in, got)
		}
	}
}

// TestAppendDoubling: the long-line buffer keeps its bytes and at least
// doubles when it grows, so a line of n bytes costs buffers of about 2n.
func TestAppendDoubling(t *testing.T) {
	var buf []byte
	piece := bytes.Repeat([]byte("0123456789abcdef"), 16<<10) // 256 KB
	allocated := 0
	for i := range 8 {
		before := cap(buf)
		buf = appendDoubling(buf, piece)
		if cap(buf) != before {
			allocated += cap(buf)
			if before > 0 && cap(buf) < 2*before {
				t.Fatalf("grew from %d to %d", before, cap(buf))
			}
		}
		if len(buf) != (i+1)*len(piece) || !bytes.Equal(buf[i*len(piece):], piece) || !bytes.Equal(buf[:len(piece)], piece) {
			t.Fatalf("append %d: %d bytes, content changed", i, len(buf))
		}
	}
	if line := 8 * len(piece); allocated > 4*line {
		t.Errorf("a %d-byte line allocated %d bytes of buffers", line, allocated)
	}
}

// FuzzSkipLong compares a scan that skips long lines without "NEEDLE" with
// one that reads every line: it yields the same lines but those, each with
// its number and offset, and tells the skipped lines' lengths. The input
// gets a long line with the needle at a fuzzed place, or none, and is read
// from a file in fuzzed chunks.
func FuzzSkipLong(f *testing.F) {
	f.Add([]byte("a\nb\n"), uint32(0), uint16(100), false)
	f.Add([]byte("x\r\n\r\ny"), uint32(256<<10-3), uint16(4093), true)
	f.Add([]byte("torn"), uint32(1<<30), uint16(1), true)
	f.Fuzz(func(t *testing.T, data []byte, at uint32, chunk uint16, crlf bool) {
		needle := []byte("NEEDLE")
		long := bytes.Repeat([]byte{'z'}, 600<<10)
		if p := int(at); p <= len(long)-len(needle) {
			copy(long[p:], needle)
		}
		end := "\n"
		if crlf {
			end = "\r\n"
		}
		cut := len(data) / 2
		in := append(append(append(append([]byte(nil), data[:cut]...), '\n'), long...), end...)
		in = append(append(in, data[cut:]...), append([]byte("\n"), long[:300<<10]...)...)
		read := func(skip bool) (lines []string, skipped int) {
			r := &fileAt{chunkReader: &chunkReader{r: bytes.NewReader(in), n: int(chunk) + 1}, data: in}
			l := NewLines(context.Background(), r, 0, 0)
			defer l.Close()
			if skip {
				l.SkipLong(len(needle)-1, func(b []byte) bool { return bytes.Contains(b, needle) }, func(n int) { skipped += n })
			}
			for l.Scan() {
				if !skip && len(l.Raw()) > 256<<10 && !bytes.Contains(l.Raw(), needle) {
					skipped += len(l.Bytes())
					continue
				}
				lines = append(lines, fmt.Sprintf("%d@%d:%x", l.Number(), l.Start(), sha256.Sum256(l.Bytes())))
			}
			if l.Err() != nil {
				t.Fatalf("skip %v: %v", skip, l.Err())
			}
			return lines, skipped
		}
		want, wantSkipped := read(false)
		got, gotSkipped := read(true)
		if strings.Join(got, " ") != strings.Join(want, " ") || gotSkipped != wantSkipped {
			t.Fatalf("skipping: %d lines, %d bytes told; reading all: %d lines, %d bytes of long lines without the needle", len(got), gotSkipped, len(want), wantSkipped)
		}
	})
}
