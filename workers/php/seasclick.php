<?php
// dbmeter worker (protocol 1) over SeasClick, the PHP extension on
// clickhouse-cpp. One process is one connection. Insert API by argument:
//   --api=insert  $client->insert(table, columns, rows): one INSERT per block
//   --api=block   writeStart / write per block / writeEnd after
//                 blocks_per_insert blocks (streamed blocks, seed 002's fastest)
// Queries use $client->select(sql). Protocol: docs/worker-protocol.md.
declare(strict_types=1);
ini_set('memory_limit', '-1');
ini_set('display_errors', 'stderr');

const PROTOCOL = 1;

function reply(array $m): void
{
    fwrite(STDOUT, json_encode($m, JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE) . "\n");
}

// kind sorts a SeasClick exception: the server's exceptions read
// "DB::Exception: …" (or nothing, in clickhouse-cpp builds that drop their
// text); its transport errors say what broke.
function kind(Throwable $e): string
{
    $m = $e->getMessage();
    if ($m === '' || str_starts_with($m, 'DB::Exception')) {
        return 'server';
    }
    if (preg_match('/fail to|can\'t|connect|Connection|Broken pipe|reset by peer|closed|timed out|receive|send/i', $m)) {
        return 'connection';
    }
    return 'other';
}

function failed(Throwable $e): array
{
    $m = $e->getMessage();
    return ['ok' => false, 'kind' => kind($e), 'error' => $m === '' ? 'server exception (clickhouse-cpp gives no text)' : $m];
}

$api = 'insert';
foreach ($argv as $a) {
    if (str_starts_with($a, '--api=')) {
        $api = substr($a, 6);
    }
}
if (!extension_loaded('SeasClick')) {
    reply(['protocol' => PROTOCOL, 'language' => 'php', 'runtime' => PHP_VERSION, 'library' => '',
        'error' => 'the SeasClick extension is not loaded: install it with pecl install SeasClick and enable it (extension=SeasClick.so)']);
    exit(1);
}
reply(['protocol' => PROTOCOL, 'language' => 'php', 'runtime' => PHP_VERSION, 'library' => 'SeasClick ' . phpversion('SeasClick')]);

$p = [];          // setup parameters
$client = null;   // SeasClick, null until (re)connected
$blocks = [];     // insert rows, by block
$open = 0;        // blocks written into the open streamed INSERT

// connect opens a connection; setup's compression (lz4, the only method
// clickhouse-cpp has) turns SeasClick's LZ4 block compression on, as seed
// 002's author asked for it. SeasClick 0.1.1 ignores its own option:
// __construct stores 'compression' => true as the integer 1 and then
// turns compression on only for a boolean true (the stand-in saw every
// INSERT uncompressed), so the boolean is set on the property and the
// client made again, which then reads it.
function connect(array $p): SeasClick
{
    $c = $p['compression'] ?? '';
    if ($c !== '' && $c !== 'lz4') {
        throw new InvalidArgumentException("SeasClick compresses with lz4 only, not $c");
    }
    $opts = ['host' => $p['host'], 'port' => $p['port'], 'database' => $p['database'],
        'user' => $p['user'], 'passwd' => $p['password']];
    $client = new SeasClick($opts);
    if ($c === 'lz4') {
        (new ReflectionProperty(SeasClick::class, 'compression'))->setValue($client, true);
        $client->__destruct();
        $client->__construct($opts);
    }
    return $client;
}

while (($line = fgets(STDIN)) !== false) {
    $req = json_decode($line, true);
    $t0 = hrtime(true);
    try {
        switch ($req['op'] ?? '') {
            case 'ping':
                reply(['ok' => true]);
                continue 2;
            case 'setup':
                $p = $req['params'];
                if (($p['rows_file'] ?? '') !== '') {
                    $f = fopen($p['rows_file'], 'r');
                    fgets($f); // header: columns and types, as in setup
                    while (($b = fgets($f)) !== false) {
                        $blocks[] = json_decode($b, true);
                    }
                    fclose($f);
                }
                $client = connect($p);
                reply(['ok' => true]);
                continue 2;
            case 'reset':
                $client = null;
                $open = 0;
                reply(['ok' => true]);
                continue 2;
            case 'insert':
                $client ??= connect($p);
                $rows = $blocks[$req['block']];
                if ($req['rows'] < count($rows)) {
                    $rows = array_slice($rows, 0, $req['rows']);
                }
                if ($api === 'block') {
                    if ($open === 0) {
                        $client->writeStart($p['table'], $p['columns']);
                    }
                    $client->write($rows);
                    if (++$open >= $p['blocks_per_insert']) {
                        $client->writeEnd();
                        $open = 0;
                    }
                } else {
                    $client->insert($p['table'], $p['columns'], $rows);
                }
                reply(['ok' => true, 'rows' => count($rows), 'ns' => hrtime(true) - $t0]);
                continue 2;
            case 'commit':
                if ($open > 0) {
                    $open = 0;
                    $client->writeEnd();
                }
                reply(['ok' => true, 'ns' => hrtime(true) - $t0]);
                continue 2;
            case 'query':
                $client ??= connect($p);
                $res = $client->select($req['sql']);
                reply(['ok' => true, 'rows' => count($res), 'ns' => hrtime(true) - $t0]);
                continue 2;
            default:
                reply(['ok' => false, 'kind' => 'other', 'error' => 'unknown op ' . json_encode($req['op'] ?? null)]);
        }
    } catch (Throwable $e) {
        // A failed connection is dropped; the next operation connects again.
        $client = null;
        $open = 0;
        reply(failed($e));
    }
}
