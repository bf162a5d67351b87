// Package event generates the rows of seed 000's `event` table: 32 written
// columns (15 String, 7 Int32, 10 Int64), about 1.4 KB a row, deterministic
// for a seed, varied enough that compression and dictionaries behave as
// they would on real logs. Columns are built directly into typed slices: no
// per-row maps, interfaces or reflection, so the generator is never what a
// benchmark measures.
package event

import "github.com/dbmeter/dbmeter/internal/ch"

// Column types of the event table.
const (
	String = "String"
	Int32  = "Int32"
	Int64  = "Int64"
)

// ColumnDef names one written column.
type ColumnDef struct{ Name, Type string }

// Columns are the 32 columns every client writes, in the seed's order.
var Columns = []ColumnDef{
	{"ccollectorip", String}, {"cdevip", String}, {"cdevtype", String}, {"cdstip", String},
	{"ceventmsg", String}, {"ceventname", String}, {"ceventtype", String}, {"cflowdir", String},
	{"cobject", String}, {"coperation", String}, {"csrcip", String}, {"csrclogtype", String},
	{"logtype_tag", String}, {"manufacturer", String}, {"reason", String},
	{"iappprotocol", Int32}, {"icollecttype", Int32}, {"idstport", Int32}, {"ieventlevel", Int32},
	{"imergecount", Int32}, {"iprotocol", Int32}, {"isrcport", Int32},
	{"lduration", Int64}, {"lrecivepack", Int64}, {"lsendpack", Int64}, {"request_body_len", Int64},
	{"response_body_len", Int64}, {"lendtime", Int64}, {"lid", Int64}, {"loccurtime", Int64},
	{"lrecepttime", Int64}, {"lstartime", Int64},
}

// Indexes of the columns in Columns, for the generator.
const (
	cCollectorIP = iota
	cDevIP
	cDevType
	cDstIP
	cEventMsg
	cEventName
	cEventType
	cFlowDir
	cObject
	cOperation
	cSrcIP
	cSrcLogType
	cLogTypeTag
	cManufacturer
	cReason
	iAppProtocol
	iCollectType
	iDstPort
	iEventLevel
	iMergeCount
	iProtocol
	iSrcPort
	lDuration
	lRecivePack
	lSendPack
	lRequestBodyLen
	lResponseBodyLen
	lEndTime
	lID
	lOccurTime
	lReceptTime
	lStartTime
	nColumns
)

// NewBlock returns an empty block of the event columns with room for rows.
func NewBlock(rows int) *ch.Block {
	b := &ch.Block{Columns: make([]ch.Column, len(Columns))}
	for i, c := range Columns {
		col := ch.Column{Name: c.Name, Type: c.Type}
		switch c.Type {
		case String:
			col.Data = make([]string, 0, rows)
		case Int32:
			col.Data = make([]int32, 0, rows)
		case Int64:
			col.Data = make([]int64, 0, rows)
		}
		b.Columns[i] = col
	}
	return b
}
