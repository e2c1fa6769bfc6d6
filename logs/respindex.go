package logs

import "math/bits"

// respIndex finds a keyed response by its identity (Message.Key): which
// session's home owns it and where in that session's responses. It is an
// open-addressing table of 16-byte slots, sized to the responses it holds;
// a Go map of respRef spent 43 bytes a response (24-byte slots in tables of
// a power-of-two size). Keys are hashes and never 0, which marks a free slot.
type respIndex struct {
	slots []respSlot
	n     int
	homes []*sessionHome // a slot names its home by number
}

type respSlot struct {
	key uint64
	ref uint64 // home number << 32 | position in the home session's responses
}

// newRespIndex returns an index with room for n responses of the sessions
// whose homes are listed (each home's number is its place in homes).
func newRespIndex(n int, homes []*sessionHome) *respIndex {
	for i, h := range homes {
		h.no = uint32(i)
	}
	return &respIndex{slots: make([]respSlot, n+n/4+1), homes: homes}
}

// addHome numbers the home of a session an extension adds.
func (x *respIndex) addHome(h *sessionHome) {
	h.no = uint32(len(x.homes))
	x.homes = append(x.homes, h)
}

// slot returns the slot of key, or the free slot where it would go.
func (x *respIndex) slot(key uint64) *respSlot { return &x.slots[x.at(key)] }

// home is the slot a key is looked for from.
func (x *respIndex) home(key uint64) int {
	hi, _ := bits.Mul64(key, uint64(len(x.slots))) // key's place, scaled to the table (keys are uniform hashes)
	return int(hi)
}

// at is the index of slot.
func (x *respIndex) at(key uint64) int {
	for i := x.home(key); ; i++ {
		if i == len(x.slots) {
			i = 0
		}
		if s := &x.slots[i]; s.key == key || s.key == 0 {
			return i
		}
	}
}

// del removes key, if it is there. The keys after it in its run move back
// into the gap when their home is not between the gap and where they are,
// so that every lookup still meets its key before a free slot.
func (x *respIndex) del(key uint64) {
	i := x.at(key)
	if x.slots[i].key == 0 {
		return
	}
	n := len(x.slots)
	for j := (i + 1) % n; x.slots[j].key != 0; j = (j + 1) % n {
		h := x.home(x.slots[j].key)
		// The key at j may fill the gap at i unless its home lies in (i, j].
		if i <= j && (h <= i || h > j) || i > j && h <= i && h > j {
			x.slots[i], i = x.slots[j], j
		}
	}
	x.slots[i] = respSlot{}
	x.n--
}

// get returns where the response with this key lives.
func (x *respIndex) get(key uint64) (respRef, bool) {
	s := x.slot(key)
	if s.key == 0 {
		return respRef{}, false
	}
	return respRef{x.homes[s.ref>>32], int32(uint32(s.ref))}, true
}

// put records that the response with this key is r.h's response r.i.
func (x *respIndex) put(key uint64, r respRef) {
	if x.n+1 > len(x.slots)*4/5 {
		x.grow()
	}
	s := x.slot(key)
	if s.key == 0 {
		s.key = key
		x.n++
	}
	s.ref = uint64(r.h.no)<<32 | uint64(uint32(r.i))
}

// grow doubles the table (an extension adds the responses of live sessions).
func (x *respIndex) grow() {
	old := x.slots
	x.slots = make([]respSlot, 2*len(old)+1)
	for _, s := range old {
		if s.key != 0 {
			*x.slot(s.key) = s
		}
	}
}
