package insert

import "github.com/dbmeter/dbmeter/internal/usage"

// readSchema sets the Config's Schema to the one Schema names ("": the
// event table).
func (cmd *Command) readSchema() error {
	if cmd.Schema == "" {
		return nil
	}
	s, err := LookupSchema(cmd.Schema)
	if err != nil {
		return usage.Errorf("{Schema}: %v", err)
	}
	cmd.Config.Schema = s
	return nil
}

// SchemaTable is the table a run fills when Table is not given: the
// schema's own in dbmeter's database; "" for the event table (Table's own
// default) and for a schema that does not exist, which Resolve refuses.
func (cmd Command) SchemaTable() string {
	s, err := LookupSchema(cmd.Schema)
	if err != nil || s.Name == EventTable.Name {
		return ""
	}
	return DefaultDatabase + "." + s.Name
}
