<?php
// A minimal dbmeter worker (protocol 1). It does no database work, so a run
// through it measures the protocol alone; put your client's calls where the
// comments say.
fwrite(STDOUT, json_encode(['protocol' => 1, 'language' => 'php', 'runtime' => PHP_VERSION, 'library' => 'none']) . "\n");
while (($line = fgets(STDIN)) !== false) {
    $req = json_decode($line, true);
    $t0 = hrtime(true);
    switch ($req['op']) {
        case 'setup':  // $req['params']: host, port, user, password, database, …: connect here
        case 'ping':
        case 'reset':  // drop your connection: the next operation connects again
        case 'commit': // end an INSERT left open by streaming
            $reply = ['ok' => true];
            break;
        case 'insert': // insert the first $req['rows'] rows of block $req['block'] of params.rows_file
        case 'query':  // run $req['sql'] and read every row
            $reply = ['ok' => true, 'rows' => 0, 'ns' => hrtime(true) - $t0];
            break;
        default:
            $reply = ['ok' => false, 'kind' => 'other', 'error' => 'unknown op ' . $req['op']];
    }
    fwrite(STDOUT, json_encode($reply) . "\n");
}
