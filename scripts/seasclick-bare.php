<?php
// seasclick-bare.php - the SeasClick calls of php-seasclick-block as a bare
// PHP loop (the shape of seed 002's own insert script): no worker protocol,
// no dbmeter. scripts/seasclick-bare.sh runs it beside dbmeter.
//
// Usage: CH_PASSWORD=… php seasclick-bare.php ROWS_FILE HOST PORT USER DATABASE TABLE BLOCKS_PER_INSERT SECONDS
// ROWS_FILE is `dbmeter ch insert --dump-format worker-rows`: the blocks a
// dbmeter run hands its workers, cycled the same way. Prints rows/s.
declare(strict_types=1);
ini_set('memory_limit', '-1');
[, $file, $host, $port, $user, $db, $table, $perInsert, $seconds] = $argv;
$f = fopen($file, 'r');
$head = json_decode(fgets($f), true);
$blocks = [];
while (($l = fgets($f)) !== false) {
    $blocks[] = json_decode($l, true);
}
$c = new SeasClick(['host' => $host, 'port' => (int)$port, 'user' => $user, 'passwd' => getenv('CH_PASSWORD') ?: '',
    'database' => $db, 'compression' => false]);
$rows = 0;
$k = 0;
$open = 0;
$t0 = hrtime(true);
$end = $t0 + (int)((float)$seconds * 1e9);
// As dbmeter counts a block whose write began in its window, and ends the
// INSERT left open after it, the clock stops before the last writeEnd.
while (hrtime(true) < $end) {
    if ($open === 0) {
        $c->writeStart($table, $head['columns']);
    }
    $b = $blocks[$k++ % count($blocks)];
    $c->write($b);
    $rows += count($b);
    if (++$open >= (int)$perInsert) {
        $c->writeEnd();
        $open = 0;
    }
}
$s = (hrtime(true) - $t0) / 1e9;
if ($open > 0) {
    $c->writeEnd();
}
printf("%.0f\n", $rows / $s);
